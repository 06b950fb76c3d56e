/**
 * Stored posts read a page at a time (a monitor's, a collection's), for components/PagedPosts:
 * the first page again when the list or its view changes, the next one on "Show more". The
 * view the shown posts were read for (`shownView`, e.g. New or All found) changes with them,
 * when their page arrives, never before: a count worded for one view is never shown with the
 * other view's number.
 */
import type { Post } from './bindings/Post';
import { errorMessage } from './ipc';

/** Posts a page asks for: the same for every list. */
export const POSTS_PAGE = 50;

/** A page as the list shows it: its posts as cards, and how many there are in all. */
export interface PostPage {
  posts: Post[];
  total: number;
}

export class PostPages<View> {
  posts = $state.raw<Post[]>([]);
  total = $state(0);
  /** The view the shown posts and total belong to; the one asked for until the first answer. */
  shownView = $state.raw<View>() as View;
  /** The first page has been read (or failed). */
  loaded = $state(false);
  loading = $state(false);
  failure = $state<string | null>(null);
  private view: View;
  private generation = 0;

  constructor(
    /** `after`: the last post shown, the next page starts after it (keyset paging: an offset reads every post it skips). */
    private readonly read: (view: View, after: string | null, offset: number, limit: number) => Promise<PostPage>,
    view: View,
  ) {
    this.view = view;
    this.shownView = view;
  }

  /** Reads the first page of `view` (the current one if not given); the shown posts stay until it answers. */
  async reload(view: View = this.view): Promise<void> {
    this.view = view;
    const current = ++this.generation;
    this.loading = true;
    try {
      const page = await this.read(view, null, 0, POSTS_PAGE);
      if (current !== this.generation) return;
      this.posts = page.posts;
      this.total = page.total;
      this.shownView = view;
      this.failure = null;
    } catch (error) {
      if (current === this.generation) this.failure = `The posts could not be read: ${errorMessage(error)}`;
    } finally {
      if (current === this.generation) {
        this.loading = false;
        this.loaded = true;
      }
    }
  }

  /** Reads the next page, unless one is loading or all are shown. */
  async more(): Promise<void> {
    if (this.loading || this.posts.length >= this.total) return;
    const current = this.generation;
    const view = this.shownView;
    this.loading = true;
    try {
      const page = await this.read(view, this.posts.at(-1)?.id ?? null, this.posts.length, POSTS_PAGE);
      if (current !== this.generation) return;
      this.posts = [...this.posts, ...page.posts];
      this.total = page.total;
    } catch (error) {
      if (current === this.generation) this.failure = `The posts could not be read: ${errorMessage(error)}`;
    } finally {
      if (current === this.generation) this.loading = false;
    }
  }
}
