import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import UserView from './UserView.svelte';
import { makePost } from '../../test/fixtures';
import { makeUser, mockBackend, outcome, reject, serviceError } from '../../test/backend';

const profile = makeUser(7, {
  username: 'markets_jordan',
  name: 'Jordan Murphy',
  description: 'Writing about #Investing. Views my own.',
  followers_count: 4489,
  followings_count: 77,
  statuses_count: 600,
  created_at: 'Sat Dec 30 23:57:37 +0000 2023',
  verified: true,
  profile_image_url: 'https://pbs.example/jordan.jpg',
});
const posts = (from: number, count: number) =>
  Array.from({ length: count }, (_, index) => makePost({ id: String(5000 + from + index), text: `timeline post ${from + index}`, user: profile }));
/** Four pages of a timeline: 20, 20, 20 and 5 posts, each page's history id one more. */
const timelinePage = (historyId: number) => {
  const index = historyId - 21;
  const last = index === 3;
  return outcome({ user: profile, tweets: posts(index * 20, last ? 5 : 20), next_cursor: last ? null : `cursor-${index}` }, historyId, { hasMore: !last });
};

/** IntersectionObserver as browsers behave (jsdom has none): observing reports the current state. */
class FakeObserver {
  static all: FakeObserver[] = [];
  visible = false;
  targets = new Set<Element>();
  constructor(private readonly callback: IntersectionObserverCallback) {
    FakeObserver.all.push(this);
  }
  observe(target: Element) {
    this.targets.add(target);
    setTimeout(() => this.report(), 0);
  }
  unobserve(target: Element) {
    this.targets.delete(target);
  }
  disconnect() {
    this.targets.clear();
  }
  /** The user scrolls the sentinel into view; the page that arrives pushes it out again. */
  scrollToEnd() {
    this.visible = true;
    this.report();
    this.visible = false;
  }
  private report() {
    const entries = [...this.targets].map((target) => ({ target, isIntersecting: this.visible }) as IntersectionObserverEntry);
    if (entries.length > 0) this.callback(entries, this as unknown as IntersectionObserver);
  }
}

beforeEach(() => {
  window.location.hash = '#/user?handle=markets_jordan';
  FakeObserver.all = [];
  vi.stubGlobal('IntersectionObserver', FakeObserver);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const sentinel = () => FakeObserver.all.at(-1)!;

describe('User view', () => {
  it('shows the profile from the first timeline page', async () => {
    const calls = mockBackend({ twitter_user_posts: () => timelinePage(21) });
    render(UserView);
    const card = await screen.findByRole('region', { name: 'Profile of Jordan Murphy @markets_jordan' });
    expect(within(card).getByRole('heading', { name: 'Jordan Murphy' })).toBeInTheDocument();
    expect(card).toHaveTextContent('@markets_jordan');
    expect(card).toHaveTextContent('Verified');
    expect(card).toHaveTextContent('Writing about #Investing. Views my own.');
    expect(card).toHaveTextContent('4.4K followers');
    expect(card).toHaveTextContent('77 following');
    expect(card).toHaveTextContent('600 posts');
    expect(card).toHaveTextContent('Joined December 2023');
    // Initials, not the remote avatar, while remote media is off.
    expect(within(card).getByText('JM')).toBeInTheDocument();
    expect(card.querySelector('img')).toBeNull();
    expect(screen.getByRole('heading', { level: 1, name: 'Jordan Murphy' })).toBeInTheDocument();
    expect(calls.twitter_user_posts?.[0]?.request).toEqual({ username: 'markets_jordan', cursor: null });
  });

  it('pages the timeline as it is scrolled and with Load more, then stops at its end', async () => {
    const calls = mockBackend({
      twitter_user_posts: () => timelinePage(21),
      user_posts_next_page: (args) => timelinePage((args.historyId ?? 0) + 1),
    });
    render(UserView);
    expect(await screen.findByText(/^20 posts, newest first · 1 page · cost \$0\.006 · more available$/)).toBeInTheDocument();

    // Infinite scroll: the sentinel after the last card comes into view.
    await vi.waitFor(() => expect(FakeObserver.all.length).toBeGreaterThan(0));
    sentinel().scrollToEnd();
    expect(await screen.findByText(/^40 posts, newest first · 2 pages/)).toBeInTheDocument();
    sentinel().scrollToEnd();
    expect(await screen.findByText(/^60 posts, newest first · 3 pages/)).toBeInTheDocument();
    // The button does the same.
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText(/^65 posts, newest first · 4 pages · cost \$0\.024$/)).toBeInTheDocument();

    expect(calls.user_posts_next_page?.map((args) => args.historyId)).toEqual([21, 22, 23]);
    expect(screen.getByText('That is the whole timeline the service has for @markets_jordan.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(calls.twitter_user_posts).toHaveLength(1);
  });

  it('keeps the loaded posts when a page is refused with 429, and goes on after Retry', async () => {
    let refusals = 1;
    const calls = mockBackend({
      twitter_user_posts: () => timelinePage(21),
      user_posts_next_page: (args) => (refusals-- > 0 ? reject(serviceError('rate_limited', { status: 429, retryAfter: 1 })) : timelinePage((args.historyId ?? 0) + 1)),
    });
    render(UserView);
    await screen.findByText(/^20 posts/);
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('You can try again in 1 s.')).toBeInTheDocument();
    expect(screen.getByText(/^20 posts/)).toBeInTheDocument();
    expect(screen.getByText('timeline post 0')).toBeInTheDocument();
    // No retry loop from the sentinel while the service asks to wait.
    sentinel().scrollToEnd();
    expect(calls.user_posts_next_page).toHaveLength(1);

    const retry = await screen.findByRole('button', { name: 'Retry' }, { timeout: 3000 });
    await userEvent.click(retry);
    expect(await screen.findByText(/^40 posts/)).toBeInTheDocument();
    expect(calls.user_posts_next_page?.map((args) => args.historyId)).toEqual([21, 21]);
  });

  it('retries a first page that could not be fetched', async () => {
    let failures = 1;
    mockBackend({ twitter_user_posts: () => (failures-- > 0 ? reject(serviceError('network')) : timelinePage(21)) });
    render(UserView);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The service could not be reached.');
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText(/^20 posts/)).toBeInTheDocument();
  });

  it('switches to the account’s replies and back, keeping the timeline', async () => {
    const calls = mockBackend({
      twitter_user_posts: () => timelinePage(21),
      twitter_replies: () => outcome([makePost({ id: '77', text: 'a reply by jordan', user: profile })], 30, { cost: '0.0003' }),
    });
    render(UserView);
    await screen.findByText('timeline post 0');
    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: 'Replies' }));
    expect(screen.getByRole('tabpanel', { name: 'Replies' })).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Show replies' }));
    expect(await screen.findByText('a reply by jordan')).toBeInTheDocument();
    expect(calls.twitter_replies?.[0]?.request).toEqual({ user: 'markets_jordan', count: 20, query: '' });
    expect(screen.getByText(/1 reply, newest first · cost \$0\.0003/)).toBeInTheDocument();

    // Arrow keys move between the tabs too.
    screen.getByRole('tab', { name: 'Replies' }).focus();
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('tab', { name: 'Posts' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByText('timeline post 0')).toBeVisible();
    expect(calls.twitter_user_posts).toHaveLength(1);
  });

  it('searches within the account’s posts', async () => {
    const calls = mockBackend({
      twitter_user_posts: () => timelinePage(21),
      twitter_post_user: () => outcome([makePost({ id: '88', text: 'the dam held', user: profile })], 31),
    });
    render(UserView);
    await screen.findByText('timeline post 0');
    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: 'Search posts' }));
    const field = screen.getByRole('textbox', { name: "Words in @markets_jordan's posts" });
    await user.click(field);
    await user.keyboard('{Enter}');
    expect(field).toHaveAccessibleDescription("Type words to find in @markets_jordan's posts.");
    expect(calls.twitter_post_user).toBeUndefined();

    await user.type(field, 'dam{Enter}');
    expect(await screen.findByText('the dam held')).toBeInTheDocument();
    expect(calls.twitter_post_user?.[0]?.request).toEqual({ user: 'markets_jordan', query: 'dam', count: 20 });
    expect(screen.getByText(/1 post matching “dam”, newest first · cost \$0\.006/)).toBeInTheDocument();

    // Ctrl+K comes back to the search field from another tab.
    await user.click(screen.getByRole('tab', { name: 'Posts' }));
    await user.keyboard('{Control>}k{/Control}');
    expect(screen.getByRole('tab', { name: 'Search posts' })).toHaveAttribute('aria-selected', 'true');
    await vi.waitFor(() => expect(field).toHaveFocus());
  });

  it('walks the timeline with the arrow keys and opens a post with Enter', async () => {
    mockBackend({ twitter_user_posts: () => timelinePage(21) });
    render(UserView);
    const first = (await screen.findByText('timeline post 0')).closest('article') as HTMLElement;
    const user = userEvent.setup();
    first.focus();
    await user.keyboard('j');
    expect(screen.getByText('timeline post 1').closest('article')).toHaveFocus();
    await user.keyboard('{ArrowDown}{ArrowUp}{Enter}');
    expect(window.location.hash).toBe('#/post?id=5001');
  });

  it('says so in plain words when the account does not exist', async () => {
    mockBackend({ twitter_user_posts: () => reject(serviceError('unexpected_status', { status: 404, message: 'User not found' })) });
    render(UserView);
    expect(await screen.findByText('The service knows no account @markets_jordan. It may have been renamed or suspended; check the spelling.')).toBeInTheDocument();
  });
});
