/**
 * A Markdown citation list of posts, in the same form as the archive's Markdown export (author,
 * handle, time posted in UTC and in the display zone, the text quoted, the link and when it was
 * fetched), so a post and its replies can go straight into notes. Both run the case table
 * crates/store/tests/fixtures/citation-cases.json.
 */
import type { Post } from '$lib/bindings/Post';
import { citedTime, parseCreatedAt } from '$lib/format';
import { zoneSetting } from '$lib/displayZone.svelte';

/**
 * The lines of a post's text as the Rust export quotes them (`str::lines`): split at each line
 * feed, a carriage return before it dropped, and no empty line after a final one (none at all
 * for no text).
 */
function textLines(text: string): string[] {
  const lines = text.split('\n');
  const last = lines.pop() ?? '';
  return [...lines.map((line) => line.replace(/\r$/, '')), ...(last ? [last] : [])];
}

/** Backslash before every character Markdown would read as markup (as the Rust export does). */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_[\]<>|#!]/g, (c) => `\\${c}`);
}

export function postUrl(post: Post): string {
  const handle = post.user?.username;
  return post.url && /^https?:\/\//i.test(post.url)
    ? post.url
    : `https://x.com/${encodeURIComponent(handle || 'i')}/status/${encodeURIComponent(post.id)}`;
}

export function citationMarkdown(posts: Post[], fetchedAt: Date, zone: string = zoneSetting.zone): string {
  return posts
    .map((post, index) => {
      const name = post.user?.name || post.user?.username || 'Unknown author';
      const handle = post.user?.username ? ` (@${escapeMarkdown(post.user.username)})` : '';
      const created = parseCreatedAt(post.created_at);
      const lines = [`${index + 1}. **${escapeMarkdown(name)}**${handle}${created ? `, ${citedTime(created, zone)}` : ''}`];
      for (const line of textLines(post.text)) lines.push(`   > ${escapeMarkdown(line)}`);
      lines.push(`   <${postUrl(post).replace(/>/g, '%3E')}> (fetched ${citedTime(fetchedAt, zone)})`);
      return `${lines.join('\n')}\n`;
    })
    .join('\n');
}
