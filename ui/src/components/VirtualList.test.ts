import { describe, expect, it } from 'vitest';
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
});
