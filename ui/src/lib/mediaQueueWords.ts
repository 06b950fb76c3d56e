/**
 * The words of Settings → Media kept: each state of the fetch queue with what it means, and
 * the queueing of archived posts' media (for "keep every archived post's media" turned on
 * after posts were archived) as a share read and what it queued.
 */
import type { BackfillStatus } from './bindings/BackfillStatus';
import type { MediaCounts } from './bindings/MediaCounts';
import { countOf } from './format';

/** The queue's states in the order shown, each with its name and what it means. */
export const QUEUE_ROWS: { key: keyof Pick<MediaCounts, 'waiting' | 'kept' | 'gone' | 'failed' | 'too_large'>; name: string; means: string }[] = [
  { key: 'waiting', name: 'Waiting', means: 'to be fetched, one at a time' },
  { key: 'kept', name: 'Kept', means: 'on this computer, with their hashes' },
  { key: 'gone', name: 'Gone', means: 'the link no longer answers' },
  { key: 'failed', name: 'Failed', means: 'given up after repeated tries' },
  { key: 'too_large', name: 'Too large', means: 'over the size limit below' },
];

/** How far the backfill has read, 0-100 (100 once done). */
export function backfillPercent(status: BackfillStatus): number {
  if (status.done || status.lastPk <= 0) return 100;
  return Math.min(100, Math.floor((status.readTo / status.lastPk) * 100));
}

/** Where the backfill is, in a sentence. */
export function backfillWords(status: BackfillStatus): string {
  const queued = countOf(status.queued, 'picture or video', 'pictures and videos');
  if (status.done) return `The media of every archived post are queued (${queued} added this time).`;
  const share = `${backfillPercent(status)}% read`;
  if (status.running) return `Queueing the media of archived posts: ${share}, ${queued} queued so far.`;
  return `Queueing the media of archived posts stopped at ${share}; it goes on from there when started again.`;
}
