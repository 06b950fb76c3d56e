/**
 * Unseen monitor posts, per monitor and in all: the badges on the sidebar's Monitors entry and
 * on each monitor. Rust keeps the counts (they survive restarts); this reads them once and then
 * follows the `monitors-changed` event, which carries them.
 */
import type { UnseenCounts } from './bindings/UnseenCounts';
import { monitorUnseen, onMonitorsChanged } from './ipc';
import { follow } from './events';

const state = $state<{ total: number; byMonitor: Record<number, number> }>({ total: 0, byMonitor: {} });

export const unseen = {
  get total() {
    return state.total;
  },
  of(monitorId: number): number {
    return state.byMonitor[monitorId] ?? 0;
  },
};

/** Takes new counts as Rust gave them (after a mark-seen call, or from the event). */
export function setUnseen(counts: UnseenCounts): void {
  state.total = counts.total;
  state.byMonitor = Object.fromEntries(counts.byMonitor.map((each) => [each.monitorId, each.unseen]));
}

let started = false;

/** Reads the counts and follows them; once per window (later calls do nothing). */
export function startUnseen(): void {
  if (started) return;
  started = true;
  // Followed for the window's life: the badge is always shown.
  follow(onMonitorsChanged, (change) => setUnseen(change.unseen));
  monitorUnseen().then(
    (counts) => counts && setUnseen(counts),
    // The badge is a hint: without counts it shows none, and the Monitors screen says why.
    () => undefined,
  );
}
