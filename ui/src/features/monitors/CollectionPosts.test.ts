/**
 * A collection's posts (issue 35, item 9): opened from its card by keyboard, read newest first
 * 50 at a time as a monitor's are, with Show more for the rest; a reposters collection has no
 * posts to open.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import Monitors from './Monitors.svelte';
import { mockBackend } from '../../test/backend';
import { makeStoredPost } from '../../test/fixtures';
import { makeCollection } from '$lib/testMonitors';

afterEach(() => {
  window.location.hash = '';
});

describe('A collection’s posts', () => {
  it('opens from the collection card by keyboard and pages its posts 50 at a time', async () => {
    window.location.hash = '#/monitors?tab=collections';
    const calls = mockBackend({
      monitor_list: () => [],
      monitor_unseen: () => ({ total: 0, byMonitor: [] }),
      collection_list: () => [
        makeCollection({ id: 7, name: '#flood, 120 posts', items: 120 }),
        makeCollection({ id: 8, name: 'Reposters of 1', source: { kind: 'reposters', request: { id: '1', cursor: null } } }),
      ],
      collection_posts: (args) => {
        const offset = args.offset as number;
        const count = Math.max(0, Math.min(args.limit as number, 120 - offset));
        return { posts: Array.from({ length: count }, (_, i) => makeStoredPost(String(1000 - offset - i))), total: 120 };
      },
    });
    render(Monitors);
    const cards = within(await screen.findByRole('list', { name: 'Collections' })).getAllByRole('listitem');
    expect(within(cards[1]!).queryByRole('link', { name: /Open its posts/ })).not.toBeInTheDocument();
    const open = within(cards[0]!).getByRole('link', { name: 'Open its posts: #flood, 120 posts' });
    expect(open).toHaveAttribute('href', '#/monitors?collection=7');

    open.focus();
    await userEvent.keyboard('{Enter}');
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    expect(await screen.findByRole('heading', { level: 1, name: '#flood, 120 posts' })).toBeInTheDocument();
    expect(await screen.findByText('120 posts, newest first')).toBeInTheDocument();
    expect(calls.collection_posts?.[0]).toEqual({ id: 7, after: null, offset: 0, limit: 50 });
    expect(screen.getByRole('link', { name: '← All collections' })).toHaveAttribute('href', '#/monitors?tab=collections');

    await userEvent.click(await screen.findByRole('button', { name: 'Show more (70 left)' }));
    await screen.findByRole('button', { name: 'Show more (20 left)' });
    expect(calls.collection_posts?.at(-1)).toEqual({ id: 7, after: '951', offset: 50, limit: 50 });
  });

  it('says why a reposters collection has no posts to show', async () => {
    window.location.hash = '#/monitors?collection=8';
    const calls = mockBackend({
      monitor_list: () => [],
      monitor_unseen: () => ({ total: 0, byMonitor: [] }),
      collection_list: () => [makeCollection({ id: 8, name: 'Reposters of 1', source: { kind: 'reposters', request: { id: '1', cursor: null } } })],
    });
    render(Monitors);
    expect(await screen.findByText(/gathers accounts, not posts/)).toBeInTheDocument();
    expect(calls.collection_posts).toBeUndefined();
  });
});
