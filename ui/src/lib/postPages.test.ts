import { describe, expect, it } from 'vitest';
import { PostPages, POSTS_PAGE, type PostPage } from './postPages.svelte';
import { makePost } from '../test/fixtures';

/** A read whose answers the test releases one by one. */
function held() {
  const asked: { view: string; after: string | null; offset: number; limit: number; answer: (page: PostPage) => void }[] = [];
  const read = (view: string, after: string | null, offset: number, limit: number) =>
    new Promise<PostPage>((answer) => asked.push({ view, after, offset, limit, answer }));
  return { asked, read };
}

const page = (count: number, total: number, from = 0): PostPage => ({
  posts: Array.from({ length: count }, (_, i) => makePost({ id: String(from + i + 1) })),
  total,
});

describe('PostPages', () => {
  it('keeps the shown view with its own count until the other view answers', async () => {
    const { asked, read } = held();
    const pages = new PostPages<string>(read, 'new');
    const first = pages.reload();
    expect(pages.loaded).toBe(false);
    asked[0]!.answer(page(3, 3));
    await first;
    expect([pages.shownView, pages.total, pages.posts.length]).toEqual(['new', 3, 3]);

    const second = pages.reload('all');
    // Asked for all, not answered yet: still the new posts, worded as new, with their count.
    expect([pages.shownView, pages.total, pages.loading]).toEqual(['new', 3, true]);
    asked[1]!.answer(page(POSTS_PAGE, 120));
    await second;
    expect([pages.shownView, pages.total, pages.posts.length, pages.loading]).toEqual(['all', 120, POSTS_PAGE, false]);
  });

  it('reads the next page of the shown view from where it ends, and drops an answer overtaken by a reload', async () => {
    const { asked, read } = held();
    const pages = new PostPages<string>(read, 'all');
    const first = pages.reload();
    asked[0]!.answer(page(POSTS_PAGE, 120));
    await first;
    const more = pages.more();
    expect(asked[0]).toMatchObject({ after: null, offset: 0 });
    // After the last post shown (keyset paging), the offset for when that post is gone.
    expect(asked[1]).toMatchObject({ view: 'all', after: String(POSTS_PAGE), offset: POSTS_PAGE, limit: POSTS_PAGE });
    void pages.more(); // one page at a time
    expect(asked).toHaveLength(2);
    asked[1]!.answer(page(POSTS_PAGE, 120, POSTS_PAGE));
    await more;
    expect(pages.posts).toHaveLength(2 * POSTS_PAGE);

    const late = pages.more();
    const again = pages.reload('new');
    asked[3]!.answer(page(2, 2));
    await again;
    asked[2]!.answer(page(20, 120, 2 * POSTS_PAGE));
    await late;
    expect([pages.shownView, pages.total, pages.posts.length]).toEqual(['new', 2, 2]);
  });

  it('says in words when a page could not be read, and keeps what it showed', async () => {
    const pages = new PostPages<string>(async () => {
      throw { kind: 'database', message: 'disk I/O error' };
    }, 'all');
    await pages.reload();
    expect(pages.loaded).toBe(true);
    expect(pages.failure).toMatch(/^The posts could not be read: /);
    expect(pages.posts).toEqual([]);
  });
});
