/**
 * Test data for the perf harness: `count` posts shaped as the service sends them, deterministic
 * (same posts on every run) and varied the way real results are (short and long text, hashtags,
 * mentions and links with entities, media placeholders, quoted posts), so card heights differ.
 */
import type { Post } from '../../../ui/src/lib/bindings/Post';

const WORDS = (
  'the flood defences held overnight as river levels peaked near the town centre while crews ' +
  'worked through rain and wind to keep roads open for buses trains and emergency vehicles ' +
  'residents shared photos of water reaching gardens and fields forecasters expect another ' +
  'band of heavy showers tomorrow afternoon with gusts along the coast officials say repairs ' +
  'will take weeks and insurers are already counting claims from homes and small businesses'
).split(' ');
const TAGS = ['StormEowyn', 'climate', 'rustlang', 'svelte', 'opensource', 'weather', 'rail', 'energy'];
const HANDLES = ['metoffice', 'nasa', 'ana_reports', 'rustlang', 'sveltejs', 'bbcbreaking', 'noaa'];
const NAMES = ['Ana Lima', 'Jonas Berg', 'Priya Nair', 'Tomás Ruiz', 'Mei Chen', 'Olu Adeyemi', 'Sara Novak'];

/** xorshift32: small, fast, deterministic. */
function rng(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4_294_967_296;
  };
}

function post(index: number, random: () => number, allowQuote: boolean): Post {
  const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)] as T;
  const id = String(1_890_000_000_000_000_000n + BigInt(index));
  const author = Math.floor(random() * 5_000);
  const username = `${pick(HANDLES)}_${author}`;
  const words = Array.from({ length: 6 + Math.floor(random() * (random() < 0.25 ? 55 : 25)) }, () => pick(WORDS));
  let text = words.join(' ');
  text = text.charAt(0).toUpperCase() + text.slice(1) + '.';
  const hashtags: { text: string; indices: number[] }[] = [];
  const urls: { url: string; expanded_url: string; display_url: string; indices: number[] }[] = [];
  const mentions: { id_str: string; name: string; screen_name: string; indices: number[] }[] = [];
  if (random() < 0.35) {
    const tag = pick(TAGS);
    hashtags.push({ text: tag, indices: [text.length + 1, text.length + 2 + tag.length] });
    text += ` #${tag}`;
  }
  if (random() < 0.25) {
    const handle = pick(HANDLES);
    mentions.push({ id_str: String(author + 7), name: handle, screen_name: handle, indices: [text.length + 1, text.length + 2 + handle.length] });
    text += ` @${handle}`;
  }
  if (random() < 0.2) {
    const short = `https://t.co/${id.slice(-8)}`;
    urls.push({ url: short, expanded_url: `https://example.org/reports/${index}`, display_url: `example.org/reports/${index}`, indices: [text.length + 1, text.length + 1 + short.length] });
    text += ` ${short}`;
  }
  const media = random() < 0.12 ? Array.from({ length: 1 + Math.floor(random() * 2) }, (_, n) => ({ media_url: `https://pbs.example/media/${id}-${n}.jpg`, type: 'photo' })) : [];
  const likes = Math.floor(random() ** 3 * 200_000);
  const created = new Date(Date.UTC(2026, 0, 1) - Math.floor(random() * 30 * 86_400_000));
  const record: Record<string, unknown> = {
    id,
    text,
    reply_count: Math.floor(likes / 20),
    retweet_count: Math.floor(likes / 5),
    like_count: likes,
    quote_count: Math.floor(likes / 50),
    bookmark_count: Math.floor(likes / 30),
    created_at: created.toISOString(),
    user: {
      id: String(author),
      username,
      name: pick(NAMES),
      url: null,
      created_at: null,
      description: null,
      location: null,
      followers_count: author * 3,
      followings_count: 10,
      favourites_count: null,
      statuses_count: null,
      listed_count: null,
      media_count: null,
      profile_image_url: null,
      profile_banner_url: null,
      verified: author % 10 === 0,
      is_blue_verified: author % 7 === 0,
    },
    url: `https://x.com/${username}/status/${id}`,
    view_count: random() < 0.9 ? likes * 40 : null,
    lang: 'en',
    media,
    is_retweet: false,
    is_quote_tweet: false,
    conversation_id: id,
    in_reply_to_screen_name: null,
    in_reply_to_status_id: null,
    in_reply_to_user_id: null,
    quoted_status_id: null,
    quote: null,
    retweet: null,
    entities: { hashtags, symbols: [], urls, user_mentions: mentions, media: null },
  };
  if (allowQuote && random() < 0.08) {
    const quoted = post(index + 1_000_000, random, false);
    record.quote = quoted;
    record.is_quote_tweet = true;
    record.quoted_status_id = quoted.id;
  }
  // The generated Post type's index signature does not admit `entities`; the shape is the service's.
  return record as unknown as Post;
}

export function generatePosts(count: number, seed = 0x5eed): Post[] {
  const random = rng(seed);
  return Array.from({ length: count }, (_, index) => post(index, random, true));
}
