/**
 * Arrow keys through a list of results (ui-guide "arrows move through results, Enter opens the
 * selected one"): Up/Down or k/j move focus between items, Home/End jump to the ends, Enter on
 * a focused item opens it. Items are the elements marked `data-nav-index="<n>"` (focusable, e.g.
 * `tabindex="0"`). In a virtual list an item far away is not in the DOM yet: `reveal(n)` scrolls
 * it into the rendered range, and focus follows once it has rendered.
 *
 * Use as a Svelte action on the element that contains the list: `use:listKeys={{ count, … }}`.
 */

export interface ListKeysOptions {
  /** How many items the list has in all (rendered or not). */
  count: number;
  /** Scrolls item `index` into the rendered range (virtual lists). */
  reveal?: (index: number) => void;
  /** Enter on item `index`. */
  onopen?: (index: number) => void;
}

/** Keys typed into these are text, not navigation. */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

function itemAt(root: HTMLElement, index: number): HTMLElement | null {
  return root.querySelector<HTMLElement>(`[data-nav-index="${index}"]`);
}

/** The first rendered item that is not above the top of the list's visible area. */
function firstVisible(root: HTMLElement): number {
  const top = root.getBoundingClientRect().top;
  const items = Array.from(root.querySelectorAll<HTMLElement>('[data-nav-index]'));
  const item = items.find((element) => element.getBoundingClientRect().bottom > top) ?? items[0];
  return item ? Number(item.dataset.navIndex) : 0;
}

const nextFrame = () =>
  new Promise<void>((resolve) => (typeof requestAnimationFrame === 'function' ? requestAnimationFrame(() => resolve()) : setTimeout(resolve, 16)));

/**
 * Focuses item `index`, first asking the list to render it when it is not in the DOM. Resolves
 * with the focused element, or null when it never rendered (the list changed meanwhile).
 */
export async function focusItem(root: HTMLElement, index: number, reveal?: (index: number) => void): Promise<HTMLElement | null> {
  let item = itemAt(root, index);
  if (!item && reveal) {
    reveal(index);
    // A virtual list renders on its next update; a few frames is plenty.
    for (let frame = 0; frame < 10 && !item; frame += 1) {
      await nextFrame();
      item = itemAt(root, index);
    }
  }
  if (!item) return null;
  item.focus({ preventScroll: true });
  item.scrollIntoView?.({ block: 'nearest' });
  return item;
}

/** Where a key moves focus from `index` (-1: from outside any item), or null for other keys. */
export function targetIndex(key: string, index: number, count: number): number | null {
  if (count === 0) return null;
  const clamp = (value: number) => Math.max(0, Math.min(count - 1, value));
  switch (key) {
    case 'ArrowDown':
    case 'j':
      return clamp(index + 1);
    case 'ArrowUp':
    case 'k':
      return clamp(index - 1);
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}

export function listKeys(node: HTMLElement, initial: ListKeysOptions) {
  let options = initial;

  function onKeydown(event: KeyboardEvent) {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || isTyping(event.target)) return;
    const target = event.target instanceof Element ? event.target : null;
    const item = target?.closest<HTMLElement>('[data-nav-index]');
    const index = item && node.contains(item) ? Number(item.dataset.navIndex) : -1;

    if (event.key === 'Enter') {
      // Enter on a link or button inside a card is that control's own business.
      if (item && item === target && options.onopen) {
        event.preventDefault();
        options.onopen(index);
      }
      return;
    }
    // From outside any card (the list itself has focus), the first key lands on the first card in view.
    const from = index < 0 && (event.key === 'ArrowDown' || event.key === 'j') ? firstVisible(node) - 1 : index;
    const next = targetIndex(event.key, from, options.count);
    if (next === null) return;
    event.preventDefault();
    void focusItem(node, next, options.reveal);
  }

  node.addEventListener('keydown', onKeydown);
  return {
    update(next: ListKeysOptions) {
      options = next;
    },
    destroy() {
      node.removeEventListener('keydown', onKeydown);
    },
  };
}
