/**
 * Which posts on screen an import brought ("Imported from <file> (sha256 …), not captured by
 * Sightline"), asked for in one IPC call for every card that appeared in the same moment, never
 * one per card. Each card watches its post while it is shown (`watchImportMark`); the marks of
 * every watched post are asked again after records change (an import finished, or a request of
 * this installation captured an imported post too), and forgotten once no card shows the post.
 */
import { SvelteMap } from 'svelte/reactivity';
import type { PostImportMark } from './bindings/PostImportMark';
import { follow } from './events';
import { importMarksFor, onRecordsChanged } from './ipc';

/** By post id: its mark, or null when no import brought it. Missing: not answered yet. */
export const importMarks = new SvelteMap<string, PostImportMark | null>();

/** How many cards show each post now. */
const watched = new Map<string, number>();
const pending = new Set<string>();
let flushing = false;
let listening = false;

/** Ids asked per call: far below the store's bound, and a page of cards is fewer. */
const BATCH = 500;

function listenOnce() {
  if (listening) return;
  listening = true;
  // Followed for the window's life; without Tauri, tried again at the next watch.
  follow(
    onRecordsChanged,
    () => {
      for (const id of watched.keys()) pending.add(id);
      schedule();
    },
    () => (listening = false),
  );
}

function schedule() {
  if (flushing) return;
  flushing = true;
  // Every card mounted in this task joins one call.
  queueMicrotask(() => void flush());
}

async function flush() {
  const ids = [...pending];
  pending.clear();
  try {
    for (let at = 0; at < ids.length; at += BATCH) {
      const asked = ids.slice(at, at + BATCH);
      const found = new Map((await importMarksFor(asked)).map((mark) => [mark.post_id, mark]));
      for (const id of asked) if (watched.has(id)) importMarks.set(id, found.get(id) ?? null);
    }
  } catch {
    // The mark is asked again at the next change of records; meanwhile the card shows no
    // capture wording it may not have earned (see PostCard).
  } finally {
    flushing = false;
    if (pending.size > 0) schedule();
  }
}

/** A card shows `postId`: its mark is asked for (with every other card's shown now). Returns the cleanup. */
export function watchImportMark(postId: string): () => void {
  listenOnce();
  watched.set(postId, (watched.get(postId) ?? 0) + 1);
  if (!importMarks.has(postId)) {
    pending.add(postId);
    schedule();
  }
  return () => {
    const left = (watched.get(postId) ?? 1) - 1;
    if (left > 0) {
      watched.set(postId, left);
      return;
    }
    watched.delete(postId);
    importMarks.delete(postId);
  };
}
