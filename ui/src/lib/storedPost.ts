/** Archived posts keep the service's record as `raw_json`; cards need it back as a Post. */
import type { StoredPost } from '$lib/bindings/StoredPost';
import type { Post } from '$lib/bindings/Post';

export function storedToPost(stored: StoredPost): Post {
  let raw: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(stored.raw_json);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) raw = parsed as Record<string, unknown>;
  } catch {
    // A damaged raw copy still leaves the indexed columns, which are enough for a card.
  }
  const rawUser = raw.user && typeof raw.user === 'object' ? (raw.user as Record<string, unknown>) : {};
  const post = {
    ...raw,
    id: stored.id,
    text: stored.text,
    created_at: stored.created_at,
    url: stored.url,
    lang: stored.lang,
    like_count: stored.like_count,
    retweet_count: stored.retweet_count,
    reply_count: stored.reply_count,
    quote_count: stored.quote_count,
    bookmark_count: stored.bookmark_count,
    view_count: stored.view_count,
    media: Array.isArray(raw.media) ? raw.media : [],
    quote: raw.quote && typeof raw.quote === 'object' ? raw.quote : null,
    entities: raw.entities && typeof raw.entities === 'object' ? raw.entities : null,
    user: { ...rawUser, id: stored.author_id ?? String(rawUser.id ?? ''), username: stored.author_username, name: stored.author_name, verified: stored.author_verified },
  };
  return post as unknown as Post;
}
