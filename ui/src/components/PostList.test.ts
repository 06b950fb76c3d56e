import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { mockIPC } from '@tauri-apps/api/mocks';
import PostList from './PostList.svelte';
import { makePost } from '../test/fixtures';

/**
 * jsdom does no layout: give the list's scroller the size a 600 px pane would have, and make
 * scrollTo move it and report the scroll, as a browser does.
 */
const saved = {
  clientHeight: Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientHeight'),
  scrollHeight: Object.getOwnPropertyDescriptor(Element.prototype, 'scrollHeight'),
  scrollTo: Element.prototype.scrollTo,
};
const isScroller = (element: Element) => element.classList.contains('scroller');

beforeEach(() => {
  mockIPC(() => null);
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', {
    configurable: true,
    get(this: HTMLElement) {
      return isScroller(this) ? 600 : 0;
    },
  });
  Object.defineProperty(Element.prototype, 'scrollHeight', {
    configurable: true,
    get(this: Element) {
      return isScroller(this) ? parseFloat((this.firstElementChild as HTMLElement | null)?.style.height ?? '0') || 0 : 0;
    },
  });
  Element.prototype.scrollTo = function (this: Element, options?: ScrollToOptions | number) {
    if (typeof options === 'object' && typeof options.top === 'number') this.scrollTop = options.top;
    this.dispatchEvent(new Event('scroll'));
  } as Element['scrollTo'];
});

afterEach(() => {
  if (saved.clientHeight) Object.defineProperty(HTMLElement.prototype, 'clientHeight', saved.clientHeight);
  if (saved.scrollHeight) Object.defineProperty(Element.prototype, 'scrollHeight', saved.scrollHeight);
  Element.prototype.scrollTo = saved.scrollTo;
});

const posts = Array.from({ length: 200 }, (_, index) => makePost({ id: String(1000 + index), text: `post number ${index}` }));
const card = (index: number) => screen.getByText(`post number ${index}`).closest('article');

describe('PostList', () => {
  it('walks the cards with the arrow keys, j/k, Home and End, rendering far ones first', async () => {
    const user = userEvent.setup();
    render(PostList, { posts, label: 'Posts' });
    expect(screen.queryByText('post number 199')).toBeNull();

    card(0)?.focus();
    await user.keyboard('{ArrowDown}');
    expect(card(1)).toHaveFocus();
    await user.keyboard('jj');
    expect(card(3)).toHaveFocus();
    await user.keyboard('k');
    expect(card(2)).toHaveFocus();

    // The last card is not rendered until the list scrolls to it.
    await user.keyboard('{End}');
    await vi.waitFor(() => expect(card(199)).toHaveFocus());
    expect(card(199)).toHaveAttribute('aria-posinset', '200');
    await user.keyboard('{Home}');
    await vi.waitFor(() => expect(card(0)).toHaveFocus());
  });

  it('opens the focused post with Enter', async () => {
    const user = userEvent.setup();
    render(PostList, { posts, label: 'Posts' });
    card(0)?.focus();
    await user.keyboard('{ArrowDown}{Enter}');
    expect(window.location.hash).toBe('#/post?id=1001');
  });

  it('selects posts inside their cards (a feed holds only articles) and adds the selection to an investigation', async () => {
    const added: unknown[] = [];
    mockIPC((cmd, args) => {
      if (cmd === 'investigation_list') return [{ id: 1, name: 'Flood response', description: '', created_at: '', updated_at: '', archived: false, media_full_view: false, request_count: 0, post_count: 0, cost: '0' }];
      if (cmd === 'investigation_memberships') return [];
      if (cmd === 'investigation_add') {
        added.push(args);
        return { requests: 0, posts: 2 };
      }
      return null;
    });
    const posts = [makePost({ id: '1' }), makePost({ id: '2' }), makePost({ id: '3' })];
    render(PostList, { posts, label: 'Posts' });
    expect(screen.queryByRole('checkbox')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Select posts' }));
    const feed = screen.getByRole('feed', { name: 'Posts' });
    for (const box of within(feed).getAllByRole('checkbox')) expect(box.closest('article')).not.toBeNull();
    await userEvent.click(within(feed).getAllByRole('checkbox', { name: /^Select the post by/ })[0]!);
    await userEvent.click(within(feed).getAllByRole('checkbox', { name: /^Select the post by/ })[2]!);
    expect(screen.getByText('2 selected')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Add selected to…' }));
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Flood response' }));
    await expect.poll(() => added[0]).toMatchObject({ id: 1, items: [{ kind: 'post', post_id: '1' }, { kind: 'post', post_id: '3' }] });

    await userEvent.click(screen.getByRole('button', { name: 'Select all 3 shown' }));
    expect(screen.getByText('3 selected')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('checkbox')).toBeNull();
  });

  it('exports the selected posts as an evidence bundle, and only once some are selected', async () => {
    const exported: Record<string, unknown>[] = [];
    mockIPC((cmd, args) => {
      if (cmd === 'evidence_export') {
        exported.push(args as Record<string, unknown>);
        return { outcome: 'written', path: '/exports/selection.zip', files: 7, posts: 2, responses: 1, bytes: 40_000, manifestSha256: 'eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee', signedBy: 'a1b2c3d4e5f60718000000000000000000000000000000000000000000000000', manifestStamp: { state: 'notStamped', why: 'no timestamp authority is set' } };
      }
      return null;
    });
    const posts = [makePost({ id: '1864029172638449665' }), makePost({ id: '2' }), makePost({ id: '3' })];
    render(PostList, { posts, label: 'Posts' });
    expect(screen.queryByRole('button', { name: 'Export evidence bundle…' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Select posts' }));
    const exportButton = screen.getByRole('button', { name: 'Export evidence bundle…' });
    expect(exportButton).toBeDisabled();
    const feed = screen.getByRole('feed', { name: 'Posts' });
    await userEvent.click(within(feed).getAllByRole('checkbox', { name: /^Select the post by/ })[0]!);
    await userEvent.click(within(feed).getAllByRole('checkbox', { name: /^Select the post by/ })[2]!);
    await userEvent.click(exportButton);
    expect(await screen.findByText("Saved /exports/selection.zip: 2 posts, 1 response as received, 40 kB in 7 files (SHA256SUMS and the 6 it lists), signed by this installation's key a1b2c3d4e5f60718…. Its manifest is not stamped: no timestamp authority is set.")).toBeInTheDocument();
    expect(exported).toHaveLength(1);
    expect(exported[0]).toMatchObject({ investigationId: null, historyIds: [], postIds: ['1864029172638449665', '3'] });
  });
});
