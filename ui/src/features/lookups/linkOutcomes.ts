/**
 * What became of each link of a posts-by-links lookup: the post it brought back, or why none
 * came (not a post link, not returned by the service, or the same post as an earlier link).
 * Worked out from the links as they were sent and the posts the service answered with.
 */
import type { Post } from '$lib/bindings/Post';
import { isPostUrl } from '$lib/rules';

export type LinkOutcome =
  | { kind: 'found'; line: number; link: string; post: Post }
  | { kind: 'not-returned'; line: number; link: string; postId: string }
  | { kind: 'duplicate'; line: number; link: string; sameAsLine: number }
  | { kind: 'not-a-post-link'; line: number; link: string };

/** The post id a post link names (`…/status/<digits>` or `…/i/web/status/<digits>`). */
export function postIdOf(link: string): string | null {
  try {
    const match = /\/status\/(\d+)(?:\/|$)/.exec(new URL(link.trim()).pathname);
    return match?.[1] ?? null;
  } catch {
    return null;
  }
}

/** One outcome per piece of `sentText` (split as the form splits it), in the order given. */
export function linkOutcomes(sentText: string, posts: Post[]): LinkOutcome[] {
  const byId = new Map(posts.map((post) => [post.id, post]));
  const firstLineOf = new Map<string, number>();
  const outcomes: LinkOutcome[] = [];
  sentText.split(/\r?\n/).forEach((lineText, index) => {
    const line = index + 1;
    for (const link of lineText.split(/\s+/).filter(Boolean)) {
      const postId = isPostUrl(link) ? postIdOf(link) : null;
      if (postId === null) {
        outcomes.push({ kind: 'not-a-post-link', line, link });
        continue;
      }
      const earlier = firstLineOf.get(postId);
      if (earlier !== undefined) {
        outcomes.push({ kind: 'duplicate', line, link, sameAsLine: earlier });
        continue;
      }
      firstLineOf.set(postId, line);
      const post = byId.get(postId);
      outcomes.push(post ? { kind: 'found', line, link, post } : { kind: 'not-returned', line, link, postId });
    }
  });
  return outcomes;
}

/** The outcome in plain words, for the list and for screen readers. */
export function outcomeWords(outcome: LinkOutcome): string {
  switch (outcome.kind) {
    case 'found':
      return `Found: the post by ${outcome.post.user?.name || `@${outcome.post.user?.username ?? 'unknown'}`}`;
    case 'not-returned':
      return `Not returned by the service: post ${outcome.postId} may have been deleted or made private, or never existed`;
    case 'duplicate':
      return `Not looked up again: the same post as the link on line ${outcome.sameAsLine}`;
    case 'not-a-post-link':
      return 'Not sent: this is not a link to a post on X';
  }
}
