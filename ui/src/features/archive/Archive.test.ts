import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { mockIPC } from '@tauri-apps/api/mocks';
import Archive from './Archive.svelte';
import { readRoute } from '$lib/analysisRoute';
import type { StoredPost } from '$lib/bindings/StoredPost';
import type { PostQuery } from '$lib/bindings/PostQuery';
import { makePost } from '../../test/fixtures';
import { setDisplayZone } from '$lib/displayZone.svelte';

function stored(index: number, text = `archived post ${index}`): StoredPost {
  return {
    id: String(index),
    conversation_id: null,
    author_id: '42',
    author_username: 'ana_reports',
    author_name: 'Ana Lima',
    author_verified: true,
    text,
    lang: 'en',
    created_at: '2026-02-16T18:33:57.000Z',
    like_count: 5,
    retweet_count: 1,
    reply_count: 0,
    quote_count: 0,
    view_count: 100,
    bookmark_count: 0,
    hashtags: [],
    url: `https://x.com/ana_reports/status/${index}`,
    raw_json: JSON.stringify(makePost({ id: String(index), text })),
    first_seen: '2026-02-16T18:40:00Z',
    last_seen: '2026-02-16T18:40:00Z',
  };
}

/** An archive of 120 posts, paged as the command pages them; `window` caps relevance as the store does. */
function archive(window?: number) {
  const queries: Partial<PostQuery>[] = [];
  const exports: { query: Partial<PostQuery>; format: string }[] = [];
  const all = Array.from({ length: 120 }, (_, index) => stored(index));
  mockIPC((cmd, args) => {
    const payload = args as { query: Partial<PostQuery>; format?: string };
    if (cmd === 'archive_posts') {
      queries.push(payload.query);
      const matching = payload.query.text ? all.filter((post) => post.text.includes(payload.query.text ?? '')) : all;
      const offset = payload.query.offset ?? 0;
      const ranked = window !== undefined && payload.query.text && payload.query.sort === 'relevance' && matching.length > window ? window : null;
      return { posts: matching.slice(offset, offset + (payload.query.limit || 50)), total: matching.length, ranked };
    }
    if (cmd === 'export_posts') {
      exports.push({ query: payload.query, format: payload.format ?? '' });
      return '/home/reader/posts.csv';
    }
  });
  return { queries, exports };
}

describe('Archive', () => {
  it('browses everything at first and pages through it', async () => {
    const { queries } = archive();
    render(Archive);
    expect(await screen.findByText('archived post 0')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('120 posts · showing 1–50');
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('archived post 50')).toBeInTheDocument();
    expect(queries.at(-1)).toMatchObject({ offset: 50, limit: 50, after: '49' });
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('archived post 100')).toBeInTheDocument();
    expect(queries.at(-1)).toMatchObject({ offset: 100, after: '99' });
    // Back a page: it starts after the same post as when it was first shown.
    await userEvent.click(screen.getByRole('button', { name: 'Previous' }));
    expect(await screen.findByText('archived post 50')).toBeInTheDocument();
    expect(queries.at(-1)).toMatchObject({ offset: 50, after: '49' });
    await userEvent.click(screen.getByRole('button', { name: 'Previous' }));
    expect(await screen.findByText('archived post 0')).toBeInTheDocument();
    expect(queries.at(-1)).toMatchObject({ offset: 0, after: null });
  });

  it('searches with every filter and exports what it finds', async () => {
    // Picked days are the display zone's: 1 February begins at 18:30 UTC the day before in India.
    setDisplayZone('Asia/Kolkata');
    const { queries, exports } = archive();
    render(Archive);
    await screen.findByText('archived post 0');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Author'), '@ana_reports');
    await user.type(screen.getByLabelText('From date'), '2026-02-01');
    await user.type(screen.getByLabelText('To date'), '2026-02-28');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'English');
    await user.type(screen.getByRole('textbox', { name: 'Minimum likes' }), '3');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Order' }), 'Newest first');
    await user.type(screen.getByRole('textbox', { name: 'Search the archive' }), 'post 7{Enter}');
    expect(await screen.findByText('archived post 7')).toBeInTheDocument();
    expect(queries.at(-1)).toEqual({ text: 'post 7', author: 'ana_reports', from: '2026-01-31T18:30:00.000Z', to: '2026-02-28T18:30:00.000Z', lang: 'en', min_likes: 3, sort: 'newest', limit: 50, offset: 0, after: null });

    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText('Saved to /home/reader/posts.csv')).toBeInTheDocument();
    expect(exports[0]).toMatchObject({ format: 'csv', query: { text: 'post 7', limit: 0, offset: 0 } });
    await user.click(screen.getByRole('button', { name: 'Export Markdown citations' }));
    expect(exports[1]?.format).toBe('markdown');

    // The analysis reads every post the search finds, whatever page is shown.
    await user.click(screen.getByRole('button', { name: 'Analyse every post this search finds' }));
    expect(readRoute(window.location.hash).source).toEqual({
      kind: 'archive',
      query: { text: 'post 7', author: 'ana_reports', from: '2026-01-31T18:30:00.000Z', to: '2026-02-28T18:30:00.000Z', lang: 'en', min_likes: 3, history_ids: [], sort: 'newest', limit: 0, offset: 0, after: null },
    });
  });

  it('says when relevance ranked only the most recently saved matches, and pages to the end of them', async () => {
    const { queries } = archive(100);
    render(Archive);
    await screen.findByText('archived post 0');
    expect(screen.queryByText(/most recently saved/)).not.toBeInTheDocument();
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Search the archive' }), 'archived{Enter}');
    expect(await screen.findByText(/Ranked by relevance among the 100 most recently saved of 120 matches/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('archived post 50');
    expect(queries.at(-1)).toMatchObject({ text: 'archived', sort: 'relevance', offset: 50 });
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    // Sorted by time, every match is reachable again.
    await user.selectOptions(screen.getByRole('combobox', { name: 'Order' }), 'Newest first');
    await user.type(screen.getByRole('textbox', { name: 'Search the archive' }), '{Enter}');
    await screen.findByText('archived post 0');
    expect(screen.queryByText(/most recently saved/)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeEnabled();
  });

  it('suggests what to change when nothing matches', async () => {
    archive();
    render(Archive);
    await screen.findByText('archived post 0');
    await userEvent.type(screen.getByRole('textbox', { name: 'Search the archive' }), 'zebra{Enter}');
    expect(await screen.findByText(/Nothing in the archive matches/)).toBeInTheDocument();
  });

  it('moves through the posts with the arrow keys and opens the focused one with Enter', async () => {
    archive();
    render(Archive);
    const first = (await screen.findByText('archived post 0')).closest('article') as HTMLElement;
    const user = userEvent.setup();
    first.focus();
    await user.keyboard('j');
    expect(screen.getByText('archived post 1').closest('article')).toHaveFocus();
    await user.keyboard('{End}');
    expect(screen.getByText('archived post 49').closest('article')).toHaveFocus();
    await user.keyboard('{Home}{ArrowDown}{Enter}');
    expect(window.location.hash).toBe('#/post?id=1');
  });
});
