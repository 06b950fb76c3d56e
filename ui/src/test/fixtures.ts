/** Realistic records for component tests, shaped as the service sends them. */
import type { Post } from '$lib/bindings/Post';
import type { CostCheck } from '$lib/bindings/CostCheck';
import type { StoredImport } from '$lib/bindings/StoredImport';
import type { StoredPost } from '$lib/bindings/StoredPost';

export function makePost(overrides: Partial<Post> = {}): Post {
  // The generated Post type's index signature does not admit `entities` (its `media` is
  // `unknown`), so a literal needs the cast; the shape is what the service sends.
  const post: Record<string, unknown> = {
    id: '1890000000000000001',
    text: 'Flood defences held overnight #StormEowyn thanks to @metoffice https://example.org/report',
    reply_count: 12,
    retweet_count: 1234,
    like_count: 15300,
    quote_count: 3,
    bookmark_count: 40,
    created_at: '2026-02-16T18:33:57.000Z',
    user: {
      id: '42',
      username: 'ana_reports',
      name: 'Ana Lima',
      url: null,
      created_at: null,
      description: null,
      location: null,
      followers_count: 1000,
      followings_count: 10,
      favourites_count: null,
      statuses_count: null,
      listed_count: null,
      media_count: null,
      profile_image_url: 'https://pbs.example/avatar.jpg',
      profile_banner_url: null,
      verified: true,
      is_blue_verified: true,
    },
    url: 'https://x.com/ana_reports/status/1890000000000000001',
    view_count: 2_500_000,
    lang: 'en',
    media: [],
    is_retweet: false,
    is_quote_tweet: false,
    conversation_id: null,
    in_reply_to_screen_name: null,
    in_reply_to_status_id: null,
    in_reply_to_user_id: null,
    quoted_status_id: null,
    quote: null,
    retweet: null,
    entities: null,
    ...overrides,
  };
  return post as unknown as Post;
}

export function makeCheck(amount: string | null, verdict: 'allow' | 'warn' | 'block' = 'allow'): CostCheck {
  const period = { verdict, limit: '1.00', spent: '0.95', remaining: '0.05', after_request: '1.006' };
  return {
    estimate: { amount, currency: 'USD', units: amount === null ? null : 20 },
    budget: { verdict, estimate: amount ?? '0', warn_percent: 80, daily: verdict === 'allow' ? null : period, monthly: null },
  };
}

/** A post as the archive stores it (a monitor's or a collection's posts). */
export function makeStoredPost(id: string, createdAt = '2026-11-20T10:00:00Z'): StoredPost {
  return {
    id,
    conversation_id: null,
    author_id: '42',
    author_username: 'ana_reports',
    author_name: 'Ana Lima',
    author_verified: false,
    text: `Post ${id} about #StormEowyn`,
    lang: 'en',
    created_at: createdAt,
    like_count: 1,
    retweet_count: 0,
    reply_count: 0,
    quote_count: 0,
    view_count: null,
    bookmark_count: 0,
    hashtags: ['StormEowyn'],
    url: null,
    raw_json: '{}',
    first_seen: '2026-11-20T10:00:00Z',
    last_seen: '2026-11-20T10:00:00Z',
  };
}

/** An import as the store keeps it: a finished twarc2 file of 1,204 lines. */
export function makeStoredImport(overrides: Partial<StoredImport> = {}): StoredImport {
  return {
    id: 3,
    file_name: 'floods.jsonl',
    file_sha256: 'ab'.repeat(32),
    file_size: 2_000,
    format: 'twarc2_flat',
    investigation_id: null,
    state: 'done',
    error: null,
    lines_done: 1_204,
    offset_done: 2_000,
    imported: 1_190,
    already_held: 10,
    not_a_post: 2,
    unreadable: 2,
    started_at: '2026-11-28T04:30:00.000Z',
    finished_at: '2026-11-28T04:31:00.000Z',
    ...overrides,
  };
}
