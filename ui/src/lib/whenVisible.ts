/**
 * Infinite scroll: calls `onvisible` when the element (a sentinel after a list's last row)
 * scrolls into view, and again whenever `enabled` turns back on while it is still in view (the
 * page that just arrived did not fill the screen). Off while `enabled` is false: while a page
 * loads, after an error (no retry loop against a 429), and after the last page.
 *
 * Use as a Svelte action: `use:whenVisible={{ enabled, onvisible }}`.
 */

export interface WhenVisibleOptions {
  enabled: boolean;
  onvisible: () => void;
  /** Start a little before the sentinel is actually on screen. */
  margin?: string;
}

/** The nearest ancestor that scrolls: visibility is judged inside it, not the whole window. */
function scrollParent(node: HTMLElement): Element | null {
  for (let parent = node.parentElement; parent; parent = parent.parentElement) {
    const overflow = getComputedStyle(parent).overflowY;
    if (overflow === 'auto' || overflow === 'scroll') return parent;
  }
  return null;
}

export function whenVisible(node: HTMLElement, initial: WhenVisibleOptions) {
  let options = initial;
  // Without IntersectionObserver (old engines) the Load more button still works.
  if (typeof IntersectionObserver === 'undefined') {
    return { update: (next: WhenVisibleOptions) => void (options = next), destroy: () => {} };
  }
  const observer = new IntersectionObserver(
    (entries) => {
      if (options.enabled && entries.some((entry) => entry.isIntersecting)) options.onvisible();
    },
    { root: scrollParent(node), rootMargin: initial.margin ?? '0px 0px 200px 0px' },
  );
  observer.observe(node);
  return {
    update(next: WhenVisibleOptions) {
      const reopened = next.enabled && !options.enabled;
      options = next;
      if (reopened) {
        // Observing again reports the current state at once: still in view means load again.
        observer.unobserve(node);
        observer.observe(node);
      }
    },
    destroy() {
      observer.disconnect();
    },
  };
}
