/**
 * The app's one use of @tanstack/virtual-core: a long list keeps only the rows near the viewport
 * in the DOM. Svelte has no adapter of its own, so this drives the core's mount and update hooks
 * (`_didMount`, `_willUpdate`) and turns its change notifications into state. Used by
 * components/VirtualList.svelte (posts, measured as they render) and by the History list
 * (fixed-height rows fetched a page at a time).
 */
import { untrack } from 'svelte';
import { Virtualizer, elementScroll, observeElementOffset, observeElementRect, type VirtualItem } from '@tanstack/virtual-core';

export interface VirtualRowsOptions {
  /** A row's height before it is measured (or always, when rows are not measured). */
  estimateSize: () => number;
  /** Rows rendered beyond each edge of the viewport. */
  overscan: number;
  /** Space between rows, in pixels. */
  gap?: number;
}

export class VirtualRows {
  /** Bumped on every change the virtualizer reports: what `items` and `totalSize` follow. */
  #version = $state(0);
  #scroller: HTMLElement | null = null;
  readonly #virtualizer: Virtualizer<HTMLElement, HTMLElement>;

  /** The rows to render now, each with its index, key and offset. */
  readonly items = $derived.by<VirtualItem[]>(() => {
    void this.#version;
    return this.#virtualizer.getVirtualItems();
  });
  /** The height of all rows together, for the spacer that gives the scrollbar its length. */
  readonly totalSize = $derived.by(() => {
    void this.#version;
    return this.#virtualizer.getTotalSize();
  });

  /** Heights measured so far, summed: their mean is the guess for rows not measured yet. */
  #measuredTotal = 0;
  #measuredRows = 0;

  constructor(options: VirtualRowsOptions) {
    // Rows not yet measured are guessed at the mean of those measured (the given estimate until
    // one is), so the list's length and the footer after it barely move as rows come into view.
    const estimate = () => (this.#measuredRows > 0 ? this.#measuredTotal / this.#measuredRows : options.estimateSize());
    this.#virtualizer = new Virtualizer<HTMLElement, HTMLElement>({
      count: 0,
      getScrollElement: () => this.#scroller,
      estimateSize: estimate,
      overscan: options.overscan,
      gap: options.gap ?? 0,
      // Before layout (or in a hidden pane) the scroller measures 0 px: assume a window's height
      // so the first screenful renders instead of nothing.
      observeElementRect: (instance, handler) =>
        observeElementRect(instance, (rect) => handler(rect.height > 0 ? rect : { width: rect.width, height: window.innerHeight || 800 })),
      observeElementOffset,
      scrollToFn: elementScroll,
      // A row not laid out yet measures 0 px; keep the estimate until it has a real height.
      measureElement: (element) => {
        const height = element.getBoundingClientRect().height;
        if (height <= 0) return estimate();
        this.#measuredTotal += height;
        this.#measuredRows += 1;
        return height;
      },
      onChange: () => (this.#version += 1),
    });
  }

  /** The rows changed: how many there are now, and each one's key (its index when not given). */
  setCount(count: number, getItemKey?: (index: number) => string | number): void {
    // Called from an effect: the virtualizer's own notifications must not make it a dependency.
    untrack(() => {
      this.#virtualizer.setOptions({ ...this.#virtualizer.options, count, getItemKey: getItemKey ?? ((index) => index) });
      this.#virtualizer._willUpdate();
      this.#version += 1;
    });
  }

  /** `{@attach rows.scroller}` on the scrolling element. */
  readonly scroller = (element: HTMLElement) =>
    untrack(() => {
      this.#scroller = element;
      const stop = this.#virtualizer._didMount();
      this.#virtualizer._willUpdate();
      this.#version += 1;
      return () => {
        stop();
        this.#scroller = null;
      };
    });

  /** `{@attach rows.measure}` on a rendered row whose height is not fixed. */
  readonly measure = (element: HTMLElement) => {
    untrack(() => this.#virtualizer.measureElement(element));
  };

  /** Scrolls just enough to bring row `index` into view (keyboard navigation). */
  scrollToIndex(index: number): void {
    this.#virtualizer.scrollToIndex(index, { align: 'auto' });
  }
}
