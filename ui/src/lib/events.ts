/**
 * The one way the UI follows an event from Rust. Tauri's `listen` resolves its unlisten function
 * later, so a view closed before that would keep listening (and a leftover handler would act on
 * a view that is gone). `follow` returns the cleanup at once: called before the listener is in
 * place, it removes it as soon as it is; after cleanup the handler is never called again. Without
 * Tauri (a browser, a test without mocks) following fails quietly: views refresh when they load.
 *
 * `subscribe` is one of lib/ipc.ts's `on…` functions, which name the event and its payload's type.
 * In a component: `onDestroy(follow(onRecordsChanged, () => void load()));`
 */
export type Subscribe<T> = (handler: (payload: T) => void) => Promise<() => void>;

/** `unavailable` is told when the event cannot be followed, for a caller that tries again later. */
export function follow<T>(subscribe: Subscribe<T>, handler: (payload: T) => void, unavailable?: () => void): () => void;
/** An event without a payload (`onRecordsChanged`). */
export function follow(subscribe: (handler: () => void) => Promise<() => void>, handler: () => void, unavailable?: () => void): () => void;
export function follow(subscribe: (handler: (payload?: unknown) => void) => Promise<() => void>, handler: (payload?: unknown) => void, unavailable?: () => void): () => void {
  let stopped = false;
  let unlisten: (() => void) | null = null;
  subscribe((payload) => {
    if (!stopped) handler(payload);
  })
    .then((stop) => {
      if (stopped) stop();
      else unlisten = stop;
    })
    // No event to follow (no Tauri): nothing to undo either.
    .catch(() => unavailable?.());
  return () => {
    if (stopped) return;
    stopped = true;
    unlisten?.();
    unlisten = null;
  };
}
