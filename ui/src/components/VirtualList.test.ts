import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import Harness from './VirtualListHarness.test.svelte';
import { makePost } from '../test/fixtures';

describe('VirtualList', () => {
  it('keeps DOM nodes bounded for 10,000 posts', () => {
    const posts = Array.from({ length: 10_000 }, (_, index) => makePost({ id: String(index), text: `post number ${index}` }));
    const { container } = render(Harness, { posts });
    const cards = screen.getAllByRole('article');
    expect(cards.length).toBeGreaterThan(0);
    expect(cards.length).toBeLessThan(40);
    expect(container.querySelectorAll('*').length).toBeLessThan(2000);
    expect(screen.getByText('post number 0')).toBeInTheDocument();
    expect(screen.queryByText('post number 9999')).toBeNull();
  });

  afterEach(() => vi.restoreAllMocks());

  it('guesses rows not yet measured at the mean of those measured, so the list keeps its length as it scrolls', async () => {
    // Cards render 300 px tall here, far from the 160 px estimate.
    const real = Element.prototype.getBoundingClientRect;
    vi.spyOn(Element.prototype, 'getBoundingClientRect').mockImplementation(function (this: Element) {
      return this.classList.contains('row') ? ({ height: 300, width: 600, top: 0, left: 0, bottom: 300, right: 600, x: 0, y: 0 } as DOMRect) : real.call(this);
    });
    const posts = Array.from({ length: 1_000 }, (_, index) => makePost({ id: String(index), text: `post ${index}` }));
    const { container } = render(Harness, { posts });
    const space = container.querySelector<HTMLElement>('.space')!;
    await vi.waitFor(() => expect(Number.parseFloat(space.style.height)).toBeGreaterThan(1_000 * 300));
    // 1,000 rows of 300 px and 999 gaps of 8 px: exactly, not 160 px guesses for the unseen ones.
    expect(Number.parseFloat(space.style.height)).toBe(1_000 * 300 + 999 * 8);
  });
});
