/**
 * Performance marks of the streamed answer, cheap enough to be always on: when the first piece of
 * the answer arrived, and when it was on screen. The end-to-end suite reads them to measure the
 * delay between the two (`performance.getEntriesByName`).
 */
export const FIRST_DELTA_RECEIVED = 'sightline:first-delta-received';
export const FIRST_DELTA_PAINTED = 'sightline:first-delta-painted';

/** A new request: the marks of the last one no longer apply. */
export function resetDeltaMarks(): void {
  performance.clearMarks(FIRST_DELTA_RECEIVED);
  performance.clearMarks(FIRST_DELTA_PAINTED);
}

export function markFirstDeltaReceived(): void {
  performance.mark(FIRST_DELTA_RECEIVED);
}

export function markFirstDeltaPainted(): void {
  performance.mark(FIRST_DELTA_PAINTED);
}
