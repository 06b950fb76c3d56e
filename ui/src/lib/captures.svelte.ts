/**
 * The capture lines of what lists show, fetched a page at a time (one IPC call per page of
 * posts or history rows, never one per card) and kept: a response's provenance never changes.
 * What was not captured yet (a post only older requests brought, a row still running) is asked
 * again after the next recorded request.
 */
import { SvelteMap } from 'svelte/reactivity';
import type { CaptureState } from './bindings/CaptureState';
import type { CaptureSummary } from './bindings/CaptureSummary';
import { onRecordsChanged, provenanceHistory, provenancePosts } from './ipc';
import { follow } from './events';

/** By post id: its earliest capture, null when captured before provenance was kept. */
export const postCaptures = new SvelteMap<string, CaptureSummary | null>();
/** By history id. */
export const historyCaptures = new SvelteMap<number, CaptureState>();

const asking = new Set<string>();
let listening = false;

function forgetUncaptured() {
  for (const [id, capture] of postCaptures) if (capture === null) postCaptures.delete(id);
  for (const [id, state] of historyCaptures) if (state.state !== 'captured') historyCaptures.delete(id);
}

function listenOnce() {
  if (listening) return;
  listening = true;
  // Followed for the window's life; without Tauri, tried again at the next load.
  follow(onRecordsChanged, forgetUncaptured, () => (listening = false));
}

/** Asks for the capture lines of the posts not known yet, in one call. */
export async function loadPostCaptures(ids: string[]): Promise<void> {
  const missing = [...new Set(ids)].filter((id) => !postCaptures.has(id) && !asking.has(`p${id}`));
  if (missing.length === 0) return;
  listenOnce();
  for (const id of missing) asking.add(`p${id}`);
  try {
    for (const found of await provenancePosts(missing)) postCaptures.set(found.post_id, found.capture);
  } catch {
    // A capture line is a quiet extra: without it the card is still whole.
  } finally {
    for (const id of missing) asking.delete(`p${id}`);
  }
}

/** Asks for the capture lines of the history rows not known yet, in one call. */
export async function loadHistoryCaptures(ids: number[]): Promise<void> {
  const missing = [...new Set(ids)].filter((id) => !historyCaptures.has(id) && !asking.has(`h${id}`));
  if (missing.length === 0) return;
  listenOnce();
  for (const id of missing) asking.add(`h${id}`);
  try {
    for (const found of await provenanceHistory(missing)) historyCaptures.set(found.history_id, found.capture);
  } catch {
    // As above: the row stays whole without it.
  } finally {
    for (const id of missing) asking.delete(`h${id}`);
  }
}

/** "1f3a9c0b…": enough of a hash to recognise it; the whole one is in the record. */
export function shortHash(sha256: string): string {
  return `${sha256.slice(0, 8)}…`;
}
