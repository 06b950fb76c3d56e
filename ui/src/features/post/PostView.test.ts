import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import PostView from './PostView.svelte';
import { makePost } from '../../test/fixtures';
import { makeUser, mockBackend, outcome, reject, serviceError } from '../../test/backend';

const ID = '1890000000000000001';
const quoted = makePost({ id: '1880000000000000007', text: 'the original claim about the dam', user: { ...makePost().user!, username: 'dam_watch', name: 'Dam Watch' } });
const post = makePost({ quote: quoted, quoted_status_id: quoted.id, is_quote_tweet: true });
const reply = (index: number) => makePost({ id: `19000000000000000${index}`, text: `reply number ${index}`, in_reply_to_status_id: ID });
const users = (from: number, count: number) => Array.from({ length: count }, (_, index) => makeUser(from + index));

beforeEach(() => {
  window.location.hash = `#/post?id=${ID}`;
});

describe('Post view', () => {
  it('loads the post with its quoted post, then the replies the user asks for', async () => {
    const calls = mockBackend({
      twitter_post: () => outcome(post, 5, { cost: '0.0003' }),
      twitter_replies_post: () => outcome([reply(1), reply(2)], 6),
    });
    render(PostView);
    expect(screen.getByRole('heading', { level: 1, name: 'Post' })).toBeInTheDocument();
    const main = await screen.findByRole('article', { name: 'Post by Ana Lima @ana_reports' });
    expect(main).toHaveTextContent('Flood defences held overnight');
    expect(within(main).getByRole('article', { name: 'Post by Dam Watch @dam_watch' })).toHaveTextContent('the original claim about the dam');
    expect(screen.getByRole('link', { name: 'View the quoted post' })).toHaveAttribute('href', '#/post?id=1880000000000000007');
    expect(screen.getByText('Cost $0.0003')).toBeInTheDocument();
    expect(calls.twitter_post?.[0]?.request).toEqual({ id: ID });
    // Replies are asked for, not fetched on opening: they cost per post.
    expect(calls.twitter_replies_post).toBeUndefined();

    const user = userEvent.setup();
    const count = screen.getByRole('spinbutton', { name: 'How many' });
    await user.clear(count);
    await user.type(count, '5');
    await user.type(screen.getByRole('textbox', { name: 'Only replies with these words (optional)' }), 'dam{Enter}');
    expect(await screen.findByText('reply number 2')).toBeInTheDocument();
    expect(calls.twitter_replies_post?.[0]?.request).toEqual({ post_id: ID, count: 5, query: 'dam' });
    expect(screen.getByText(/2 replies, oldest first · Cost \$0\.006/)).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Replies (2)' })).toHaveAttribute('aria-selected', 'true');
  });

  it('checks how many replies before sending, and puts the service’s 422 under the field', async () => {
    const calls = mockBackend({
      twitter_post: () => outcome(post),
      twitter_replies_post: () =>
        reject({
          kind: 'service',
          message: 'The service did not accept the request.',
          error: { kind: 'validation', message: 'invalid', fields: [{ field: 'query', message: 'String should have at most 500 characters' }], retry_after_secs: null, status: 422, received_events: null },
        }),
    });
    render(PostView);
    await screen.findByText('Cost $0.006');
    const user = userEvent.setup();
    const count = screen.getByRole('spinbutton', { name: 'How many' });
    await user.clear(count);
    await user.type(count, '101');
    await user.click(screen.getByRole('button', { name: 'Show replies' }));
    expect(count).toHaveAccessibleDescription('Choose a number from 1 to 100 (you entered 101).');
    expect(calls.twitter_replies_post).toBeUndefined();

    await user.clear(count);
    await user.type(count, '10{Enter}');
    expect(await screen.findByText('String should have at most 500 characters')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Only replies with these words (optional)' })).toHaveAccessibleDescription('String should have at most 500 characters');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('pages through the reposters with Load more, from each page’s history id, and stops at the end', async () => {
    const calls = mockBackend({
      twitter_post: () => outcome(post, 5),
      twitter_retweeters: () => outcome({ users: users(0, 20), next_cursor: 'c1' }, 11, { hasMore: true }),
      reposters_next_page: (args) =>
        args.historyId === 11
          ? outcome({ users: users(20, 20), next_cursor: 'c2' }, 12, { hasMore: true })
          : outcome({ users: users(40, 20), next_cursor: null }, 13, { hasMore: false }),
    });
    render(PostView);
    await screen.findByText('Cost $0.006');
    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: 'Reposted by' }));
    expect(screen.getByRole('tab', { name: 'Reposted by' })).toHaveAttribute('aria-selected', 'true');
    await user.click(screen.getByRole('button', { name: 'Show who reposted' }));
    expect(await screen.findByText(/20 accounts · 1 page · cost \$0\.006 · more available/)).toBeInTheDocument();
    expect(calls.twitter_retweeters?.[0]?.request).toEqual({ id: ID, cursor: null });
    expect(screen.getByRole('article', { name: 'Reader 0 @reader_0' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Reader 0 @reader_0' })).toHaveAttribute('href', '#/user?handle=reader_0');

    await user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText(/40 accounts · 2 pages · cost \$0\.012/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText(/60 accounts · 3 pages · cost \$0\.018$/)).toBeInTheDocument();

    expect(calls.reposters_next_page?.map((args) => args.historyId)).toEqual([11, 12]);
    expect(screen.getByText('That is every account the service lists.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(screen.getByRole('tab', { name: 'Reposted by (60)' })).toBeInTheDocument();
    // No cursor is ever shown.
    expect(document.body).not.toHaveTextContent('c1');
  });

  it('keeps the loaded reposters when the next page fails, and Retry asks for that page again', async () => {
    let failures = 1;
    const calls = mockBackend({
      twitter_post: () => outcome(post, 5),
      twitter_retweeters: () => outcome({ users: users(0, 20), next_cursor: 'c1' }, 11, { hasMore: true }),
      reposters_next_page: () =>
        failures-- > 0 ? reject(serviceError('network', { message: 'connection reset' })) : outcome({ users: users(20, 5), next_cursor: null }, 12),
    });
    render(PostView);
    await screen.findByText('Cost $0.006');
    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: 'Reposted by' }));
    await user.click(screen.getByRole('button', { name: 'Show who reposted' }));
    await user.click(await screen.findByRole('button', { name: 'Load more' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The service could not be reached.');
    expect(screen.getByText(/20 accounts · 1 page/)).toBeInTheDocument();
    expect(screen.getByRole('article', { name: 'Reader 0 @reader_0' })).toBeInTheDocument();

    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText(/25 accounts · 2 pages/)).toBeInTheDocument();
    expect(calls.reposters_next_page?.map((args) => args.historyId)).toEqual([11, 11]);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('counts down a 429 on the next page without losing the accounts shown', async () => {
    mockBackend({
      twitter_post: () => outcome(post, 5),
      twitter_retweeters: () => outcome({ users: users(0, 20), next_cursor: 'c1' }, 11, { hasMore: true }),
      reposters_next_page: () => reject(serviceError('rate_limited', { status: 429, retryAfter: 30 })),
    });
    render(PostView);
    await screen.findByText('Cost $0.006');
    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: 'Reposted by' }));
    await user.click(screen.getByRole('button', { name: 'Show who reposted' }));
    await user.click(await screen.findByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('You can try again in 30 s.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry in 30 s' })).toBeDisabled();
    expect(screen.getByText(/20 accounts · 1 page/)).toBeInTheDocument();
  });

  it('exports the post, or the post with its replies in one file, and copies them as a Markdown citation', async () => {
    const calls = mockBackend({
      twitter_post: () => outcome(post, 5),
      twitter_replies_post: () => outcome([reply(1)], 6),
      export_posts: () => '/home/reader/post.csv',
    });
    render(PostView);
    await screen.findByText('Cost $0.006');
    const user = userEvent.setup();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Export as' }), 'CSV');
    expect(screen.getByRole('button', { name: 'Export post and replies' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Export post' }));
    expect(await screen.findByText('Saved to /home/reader/post.csv')).toBeInTheDocument();
    expect(calls.export_posts?.[0]).toMatchObject({ format: 'csv', query: { history_ids: [5], sort: 'oldest', limit: 0, offset: 0 } });

    await user.click(screen.getByRole('button', { name: 'Show replies' }));
    await screen.findByText('reply number 1');
    await user.click(screen.getByRole('button', { name: 'Export post and replies' }));
    await vi.waitFor(() => expect(calls.export_posts?.[1]).toMatchObject({ query: { history_ids: [5, 6], sort: 'oldest' } }));

    await user.click(screen.getByRole('button', { name: 'Copy citation' }));
    expect(screen.getByRole('button', { name: 'Citation copied' })).toBeInTheDocument();
    const copied = await navigator.clipboard.readText();
    expect(copied).toMatch(/^1\. \*\*Ana Lima\*\* \(@ana\\_reports\), 2026-02-16 18:33 UTC\n {3}> Flood defences/);
    expect(copied).toContain('2. **Ana Lima**');
    expect(copied).toContain('> reply number 1');
  });

  it('says so in plain words when the post does not exist', async () => {
    mockBackend({ twitter_post: () => reject(serviceError('unexpected_status', { status: 404, message: 'Post not found' })) });
    render(PostView);
    expect(await screen.findByText(`The service has no post with the id ${ID}. It may have been deleted or made private.`)).toBeInTheDocument();
  });

  it('goes back to the screen it was opened from', async () => {
    mockBackend({ twitter_post: () => outcome(post) });
    const back = vi.spyOn(window.history, 'back').mockImplementation(() => {});
    render(PostView);
    await userEvent.click(screen.getByRole('button', { name: /Back/ }));
    expect(back).toHaveBeenCalledTimes(1);
    back.mockRestore();
  });
});
