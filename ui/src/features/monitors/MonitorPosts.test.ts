/**
 * A monitor's posts: the count line always words the number it shows for the posts it shows;
 * switching from New to All found never shows the New count worded as all (issue 35, item 11).
 */
import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import MonitorPosts from './MonitorPosts.svelte';
import { mockBackend } from '../../test/backend';
import type { MonitorPostPage } from '$lib/bindings/MonitorPostPage';
import { makeStoredPost } from '../../test/fixtures';

const found = (count: number, total: number): MonitorPostPage => ({
  posts: Array.from({ length: count }, (_, i) => ({ post: makeStoredPost(String(i + 1)), seen: false, foundAt: '2026-11-20T10:00:00Z' })),
  total,
});

describe('MonitorPosts', () => {
  it('words the count for the posts shown while All found is still being read', async () => {
    let release: (page: MonitorPostPage) => void = () => {};
    mockBackend({
      monitor_posts: (args) =>
        (args.query as { onlyUnseen: boolean }).onlyUnseen ? found(3, 3) : new Promise<MonitorPostPage>((answer) => (release = answer)),
      monitor_unseen: () => ({ total: 3, byMonitor: [{ monitorId: 1, unseen: 3 }] }),
    });
    render(MonitorPosts, { monitorId: 1 });
    const status = await screen.findByText('3 new posts, newest first');

    await userEvent.click(screen.getByRole('button', { name: 'All found' }));
    expect(screen.getByRole('button', { name: 'All found' })).toHaveAttribute('aria-pressed', 'true');
    // Not answered yet: the three new posts are still shown, and said to be new.
    expect(status).toHaveTextContent('3 new posts, newest first');
    expect(status).not.toHaveTextContent(/^3 posts/);

    release(found(12, 12));
    expect(await screen.findByText('12 posts, newest first')).toBeInTheDocument();
  });
});
