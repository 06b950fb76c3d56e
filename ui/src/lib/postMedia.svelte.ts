/**
 * The kept media of the posts on screen, asked a batch at a time: every card asks for its post
 * in the same moment, and the ids asked in one tick go in one IPC call (`media_for_posts`).
 * Kept, gone, failed and too-large items do not change, so they are kept; a post with items
 * still waiting is asked again when the fetcher reports progress (`media-progress`) or
 * records change.
 */
import { SvelteMap } from 'svelte/reactivity';
import type { MediaItemRecord } from './bindings/MediaItemRecord';
import { mediaForPosts, onMediaProgress, onRecordsChanged } from './ipc';
import { follow } from './events';

/** By post id: its media items in order (empty: none queued for it). */
export const postMedia = new SvelteMap<string, MediaItemRecord[]>();

let wanted = new Set<string>();
let scheduled = false;
let listening = false;
const asking = new Set<string>();

/** The address the window loads a kept file from: the app's own protocol, never the host's. */
export function mediaSrc(sha256: string): string | null {
  return /^[0-9a-f]{64}$/.test(sha256) ? `sightline-media://localhost/${sha256}` : null;
}

function stillWaiting(): string[] {
  return [...postMedia].filter(([, items]) => items.some((item) => item.state === 'waiting')).map(([id]) => id);
}

/** Asks again for the posts whose media are still waiting. */
function refreshWaiting() {
  const ids = stillWaiting();
  for (const id of ids) postMedia.delete(id);
  loadPostMedia(ids);
}

function listenOnce() {
  if (listening) return;
  listening = true;
  // Followed for the window's life; without Tauri, tried again at the next ask.
  follow(onMediaProgress, refreshWaiting, () => (listening = false));
  follow(onRecordsChanged, refreshWaiting);
}

async function flush() {
  scheduled = false;
  const ids = [...wanted].filter((id) => !postMedia.has(id) && !asking.has(id));
  wanted = new Set();
  if (ids.length === 0) return;
  listenOnce();
  for (const id of ids) asking.add(id);
  try {
    const found = new Map<string, MediaItemRecord[]>(ids.map((id) => [id, []]));
    for (const item of await mediaForPosts(ids)) found.get(item.post_id)?.push(item);
    for (const [id, items] of found) postMedia.set(id, items);
  } catch {
    // Without the records a card still shows the post's media as not kept here.
  } finally {
    for (const id of ids) asking.delete(id);
  }
}

/** Asks for these posts' media (those not known yet), with the others asked in this tick. */
export function loadPostMedia(ids: string[]): void {
  for (const id of ids) wanted.add(id);
  if (scheduled || wanted.size === 0) return;
  scheduled = true;
  queueMicrotask(() => void flush());
}
