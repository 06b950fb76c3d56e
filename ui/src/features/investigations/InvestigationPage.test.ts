import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { emit } from '@tauri-apps/api/event';
import InvestigationPage from './InvestigationPage.svelte';
import { readRoute } from '$lib/analysisRoute';
import { holdable, mockBackend, type Args } from '../../test/backend';
import { makeDetail, makeInvestigation } from '../../test/investigations';
import type { InvestigationPost } from '$lib/bindings/InvestigationPost';
import type { StoredPost } from '$lib/bindings/StoredPost';

function filed(id: string, text: string, overrides: Partial<InvestigationPost> = {}): InvestigationPost {
  const post: StoredPost = {
    id,
    conversation_id: null,
    author_id: '42',
    author_username: 'ana_reports',
    author_name: 'Ana Lima',
    author_verified: false,
    text,
    lang: 'en',
    created_at: '2026-11-22T10:00:00Z',
    like_count: 5,
    retweet_count: 1,
    reply_count: 0,
    quote_count: 0,
    view_count: null,
    bookmark_count: 0,
    hashtags: [],
    url: null,
    raw_json: '{}',
    first_seen: '2026-11-22T10:05:00Z',
    last_seen: '2026-11-22T10:05:00Z',
  };
  return { post, note: '', tags: [], added_at: '2026-11-22T10:05:00Z', found_by: 1, capture: null, note_by: null, received_tags: [], other_notes: [], ...overrides };
}

const posts = [filed('201', 'The dam held overnight', { note: 'first report', tags: ['dam'] }), filed('202', 'Evacuation ordered downstream')];

function backend(extra: Record<string, (args: Args) => unknown> = {}) {
  return mockBackend({
    investigation_get: () => makeDetail(),
    investigation_list: () => [makeDetail().summary],
    investigation_active: () => null,
    investigation_posts: (args) => {
      const query = args.query as { tag: string | null };
      const shown = query.tag ? posts.filter((item) => item.tags.includes(query.tag as string)) : posts;
      return { posts: shown, total: shown.length };
    },
    investigation_tags: () => ['dam', 'damage'],
    stamp_investigation_counts: () => ({ stamped: 0, waiting: 0, failed: 0, not_asked: 0 }),
    ...extra,
  });
}

describe('InvestigationPage', () => {
  it('shows its media in safe view until "Show media in full" is switched on, and remembers the switch with the investigation', async () => {
    let full = false;
    const kept = {
      id: 9,
      post_id: '201',
      position: 0,
      kind: 'photo',
      source_url: 'https://media.example/dam.jpg',
      poster_url: null,
      state: 'kept',
      attempts: 1,
      next_try_at: null,
      reason: null,
      http_status: 200,
      response_headers: null,
      fetched_at: '2026-11-22T10:06:00Z',
      queued_at: '2026-11-22T10:05:00Z',
      file: { sha256: 'c3'.repeat(32), size: 900, content_type: 'image/jpeg', pdq: null, pdq_quality: null, width: 8, height: 8, first_kept_at: '2026-11-22T10:06:00Z' },
      poster: null,
    };
    const calls = backend({
      investigation_get: () => ({ ...makeDetail(), summary: { ...makeDetail().summary, media_full_view: full } }),
      media_for_posts: ({ postIds }) => ((postIds as string[]).includes('201') ? [kept] : []),
      investigation_media_full_view: (args) => {
        full = args.full as boolean;
        return { ...makeDetail().summary, media_full_view: full };
      },
    });
    render(InvestigationPage, { id: 1 });
    const picture = await screen.findByRole('img', { name: 'Image 1 of 1' });
    expect(picture).toHaveClass('media-veiled');
    const toggle = screen.getByRole('checkbox', { name: 'Show media in full' });
    expect(toggle).not.toBeChecked();
    await userEvent.click(toggle);
    expect(calls.investigation_media_full_view).toEqual([{ id: 1, full: true }]);
    await vi.waitFor(() => expect(picture).not.toHaveClass('media-veiled'));
    expect(toggle).toBeChecked();
    expect(screen.queryByRole('button', { name: 'Reveal image 1 of 1' })).toBeNull();
  });

  it("opens on the investigation's posts with their notes and tags, and filters them by a tag", async () => {
    const calls = backend();
    render(InvestigationPage, { id: 1 });
    expect(await screen.findByRole('heading', { level: 1, name: 'Flood response' })).toBeInTheDocument();
    expect(screen.getByTestId('investigation-figures')).toHaveTextContent('3 queries · 42 posts · cost $0.0123');
    expect(await screen.findByText('The dam held overnight')).toBeInTheDocument();
    expect(screen.getByText('2 posts, newest first')).toBeInTheDocument();
    const notes = screen.getAllByRole('group', { name: 'Your note and tags on this post' });
    expect(within(notes[0]!).getByRole('textbox', { name: 'Note' })).toHaveValue('first report');
    expect(within(notes[0]!).getByRole('list', { name: 'Tags' })).toHaveTextContent('dam');

    const tag = screen.getByRole('combobox', { name: 'Tag' });
    await userEvent.type(tag, 'da');
    await userEvent.keyboard('{ArrowDown}{Enter}');
    await expect.poll(() => calls.investigation_posts?.at(-1)?.query).toMatchObject({ tag: 'dam', offset: 0 });
    expect(await screen.findByText('1 post matches, newest first')).toBeInTheDocument();
    expect(screen.queryByText('Evacuation ordered downstream')).toBeNull();
  });

  it("saves a post's note when the field is left, and adds and removes its tags", async () => {
    const calls = backend({ investigation_post_set: () => undefined });
    render(InvestigationPage, { id: 1 });
    await screen.findByText('Evacuation ordered downstream');
    const notes = screen.getAllByRole('group', { name: 'Your note and tags on this post' })[1]!;
    await userEvent.type(within(notes).getByRole('textbox', { name: 'Note' }), 'confirmed by the council');
    expect(within(notes).getByRole('status')).toHaveTextContent('Not saved yet');
    await userEvent.tab();
    await expect.poll(() => within(notes).getByRole('status').textContent).toBe('Saved');
    expect(calls.investigation_post_set?.[0]).toEqual({ id: 1, postId: '202', note: 'confirmed by the council', tags: null });

    await userEvent.type(within(notes).getByRole('combobox', { name: 'Add a tag' }), 'eyewitness{Enter}');
    expect(await within(notes).findByRole('button', { name: 'Remove the tag eyewitness' })).toBeInTheDocument();
    expect(calls.investigation_post_set?.[1]).toEqual({ id: 1, postId: '202', note: null, tags: ['eyewitness'] });
    await userEvent.click(within(notes).getByRole('button', { name: 'Remove the tag eyewitness' }));
    await expect.poll(() => calls.investigation_post_set?.[2]).toEqual({ id: 1, postId: '202', note: null, tags: [] });
  });

  it('shows what it cost: total, each day in its zone and each operation, exact', async () => {
    backend();
    render(InvestigationPage, { id: 1 });
    await userEvent.click(await screen.findByRole('tab', { name: 'Cost' }));
    expect(screen.getByTestId('investigation-cost')).toHaveTextContent('$0.0123');
    // The zone as every screen names it ("UTC" alone, else its short name and IANA name).
    const days = screen.getByRole('region', { name: /^By day in \S+ \(Europe\/Lisbon\)$/ });
    expect(within(days).getAllByRole('row').map((row) => row.textContent)).toEqual([
      'DayRequestsCost',
      '2026-11-211$0.0003',
      '2026-11-232$0.012',
      'Total$0.0123',
    ]);
    const operations = screen.getByRole('region', { name: 'By operation' });
    expect(within(operations).getAllByRole('row')[1]).toHaveTextContent('X search2$0.012');
  });

  it('makes itself the active investigation, and stops', async () => {
    let active: number | null = null;
    const calls = backend({
      investigation_active: () => active,
      investigation_set_active: (args) => {
        active = args.id as number | null;
      },
    });
    render(InvestigationPage, { id: 1 });
    await userEvent.click(await screen.findByRole('button', { name: 'File new requests here' }));
    expect(await screen.findByRole('button', { name: 'Filing new requests here · stop' })).toHaveAttribute('aria-pressed', 'true');
    expect(calls.investigation_set_active?.[0]).toEqual({ id: 1 });
  });

  it('keeps the newest figures when a read asked before a post was added answers last', async () => {
    let postCount = 42;
    const detail = holdable(() => makeDetail({ summary: makeInvestigation({ post_count: postCount }) }));
    backend({ investigation_get: detail.handler });
    render(InvestigationPage, { id: 1 });
    const figures = await screen.findByTestId('investigation-figures');
    expect(figures).toHaveTextContent('42 posts');

    // Records change: the page reads the investigation again, and that read is slow to answer.
    detail.hold();
    await emit('records-changed');
    await waitFor(() => expect(detail.held).toBe(1));

    // A post is added: records change again, and this read answers at once.
    postCount = 43;
    await emit('records-changed');
    await waitFor(() => expect(figures).toHaveTextContent('43 posts'));

    // The slow read, asked before the post was added, answers only now.
    await detail.release();
    expect(figures).toHaveTextContent('43 posts');
  });

  it("opens the analysis of the investigation's posts", async () => {
    backend();
    render(InvestigationPage, { id: 1 });
    await userEvent.click(await screen.findByRole('button', { name: "Analyse this investigation's posts" }));
    expect(readRoute(window.location.hash)).toEqual({ source: { kind: 'investigation', id: 1 }, postId: null, view: 'activity' });
  });
  it('asks for more posts after the last one shown', async () => {
    const third = filed('203', 'Water receding by noon');
    const calls = backend({
      investigation_posts: (args) => {
        const query = args.query as { after: string | null };
        return query.after === '202' ? { posts: [third], total: 3 } : { posts, total: 3 };
      },
    });
    render(InvestigationPage, { id: 1 });
    await userEvent.click(await screen.findByRole('button', { name: 'Show more (1 left)' }));
    expect(await screen.findByText('Water receding by noon')).toBeInTheDocument();
    expect(calls.investigation_posts?.at(-1)?.query).toMatchObject({ offset: 2, after: '202' });
    expect(calls.investigation_posts?.[0]?.query).toMatchObject({ offset: 0, after: null });
  });
});
