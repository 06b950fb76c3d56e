/**
 * "Posts by @x in this scope" over mocked commands: asked for the scope as shown with the
 * account as its author (range and other filters kept), newest first a page at a time with
 * Show more (components/PagedPosts), the count announced, narrowing the analysis from it, Esc
 * kept from the view behind, an empty answer and a failure in words with Try again.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import AccountPosts from './AccountPosts.svelte';
import { mockBackend, reject } from '../../test/backend';
import { makePost } from '../../test/fixtures';
import type { AnalysisScope } from '$lib/bindings/AnalysisScope';
import type { StoredPost } from '$lib/bindings/StoredPost';
import { modalDialogs } from '../../test/dialog';

const scope: AnalysisScope = {
  source: { kind: 'request', history_id: 4 },
  from: '2026-11-20T00:00:00Z',
  to: '2026-11-22T00:00:00Z',
  filters: { account: null, hashtag: 'floods', mention: null, cashtag: null, domain: null, language: null },
};

function stored(index: number): StoredPost {
  const text = `jordan's post ${index}`;
  return {
    id: String(500 + index),
    conversation_id: null,
    author_id: '9',
    author_username: 'Jordan',
    author_name: 'Jordan Reyes',
    author_verified: false,
    text,
    lang: 'en',
    created_at: `2026-11-21T1${9 - index}:00:00Z`,
    like_count: 1,
    retweet_count: 0,
    reply_count: 0,
    quote_count: 0,
    view_count: null,
    bookmark_count: 0,
    hashtags: ['floods'],
    url: null,
    raw_json: JSON.stringify(makePost({ id: String(500 + index), text })),
    first_seen: '2026-11-21T20:00:00Z',
    last_seen: '2026-11-21T20:00:00Z',
  };
}

const all = [0, 1, 2].map(stored);

/** jsdom does no layout: the list's scroller gets a pane's height, so its rows render. */
const savedHeight = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientHeight');

beforeAll(() => {
  modalDialogs();
});

beforeEach(() => {
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', {
    configurable: true,
    get(this: HTMLElement) {
      return this.classList.contains('scroller') ? 800 : 0;
    },
  });
});

afterEach(() => {
  if (savedHeight) Object.defineProperty(HTMLElement.prototype, 'clientHeight', savedHeight);
});

/** Answers two posts a page, as the command pages them. */
function paged() {
  return mockBackend({
    analysis_posts: (args) => {
      const page = args.page as { offset: number; limit: number };
      return { posts: all.slice(page.offset, page.offset + 2), total: all.length };
    },
    post_captures: () => [],
  });
}

describe('AccountPosts', () => {
  it("lists the account's posts in the scope as shown, newest first, a page at a time", async () => {
    const calls = paged();
    render(AccountPosts, { scope, account: 'jordan', label: '@Jordan', onnarrow: vi.fn(), onclose: vi.fn() });
    const dialog = screen.getByRole('dialog', { name: 'Posts by @Jordan in this scope' });
    expect(await within(dialog).findByRole('status')).toHaveTextContent('3 posts, newest first; 2 shown');
    expect(calls.analysis_posts?.[0]).toEqual({ scope: { ...scope, filters: { ...scope.filters, account: 'jordan' } }, page: { offset: 0, limit: 50, after: null } });
    expect(within(dialog).getAllByRole('article').map((card) => card.getAttribute('aria-setsize'))).toEqual(['3', '3']);
    expect(within(dialog).getByText("jordan's post 0")).toBeInTheDocument();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Show more (1 left)' }));
    expect(await within(dialog).findByText("jordan's post 2")).toBeInTheDocument();
    expect(calls.analysis_posts?.[1]?.page).toEqual({ offset: 2, limit: 50, after: '501' });
    expect(within(dialog).getByRole('status')).toHaveTextContent(/^3 posts, newest first$/);
    expect(within(dialog).queryByRole('button', { name: /Show more/ })).not.toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: 'Open the account' })).toHaveAttribute('href', '#/user?handle=jordan');
  });

  it('narrows the analysis to the account, then closes', async () => {
    paged();
    const onnarrow = vi.fn();
    const onclose = vi.fn();
    render(AccountPosts, { scope, account: 'jordan', label: '@Jordan', onnarrow, onclose });
    await userEvent.click(await screen.findByRole('button', { name: 'Narrow the analysis to @Jordan' }));
    expect(onnarrow).toHaveBeenCalledWith('jordan', '@Jordan');
    expect(onclose).toHaveBeenCalled();
  });

  it('keeps Esc from the analysis behind it, and says when the account is already the filter', async () => {
    paged();
    const behind = vi.fn();
    window.addEventListener('keydown', behind);
    render(AccountPosts, { scope: { ...scope, filters: { ...scope.filters, account: 'jordan' } }, account: 'jordan', label: '@Jordan', onnarrow: vi.fn(), onclose: vi.fn() });
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByRole('button', { name: "The analysis shows only @Jordan's posts" })).toBeDisabled();
    dialog.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    expect(behind).not.toHaveBeenCalled();
    window.removeEventListener('keydown', behind);
  });

  it('says so when none of the scope is theirs, and a failure in words with Retry', async () => {
    let fail = true;
    mockBackend({
      analysis_posts: () =>
        fail
          ? reject({ kind: 'database', message: 'database is locked' })
          : { posts: [], total: 0 },
    });
    render(AccountPosts, { scope, account: 'bo', label: '@bo', onnarrow: vi.fn(), onclose: vi.fn() });
    expect(await screen.findByRole('alert')).toHaveTextContent('The posts could not be read: database is locked');
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText("None of the posts in this scope are @bo's within the range and filters set.")).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Narrow the analysis to @bo' })).toBeDisabled();
  });
});
