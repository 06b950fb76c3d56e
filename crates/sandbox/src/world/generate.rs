//! Deterministic generation of users, posts, threads, quotes, retweets and the indexes.

use super::campaigns;
use super::corpus::{self, COUNTRIES, LANG_WEIGHTS, TOPICS};
use super::{snowflake, Link, Media, MediaKind, Post, Retweet, TimelineEntry, User, World, DAY_MS};
use crate::fxhash::{FxMap, FxSet};
use crate::rng::{url_safe_chars, Rng};

pub const USER_COUNT: usize = 2_500;
pub const POST_COUNT: usize = 60_000;
/// Retweeters kept per post: enough for several pages of `/twitter/post/retweeters`.
const MAX_RETWEETERS: u64 = 100;
const SPAN_MS: i64 = 730 * DAY_MS;

pub fn build(seed: u64, now_ms: i64) -> World {
    build_with(seed, now_ms, true)
}

/// The world, with the last days' news and campaigns added or (for a test) without.
pub(super) fn build_with(seed: u64, now_ms: i64, with_added: bool) -> World {
    let pages = super::web::generate_pages(seed, now_ms);
    let mut users = generate_users(seed, now_ms);
    let seeded = generate_posts(seed, now_ms, &users, &pages);
    let seeded_retweets = generate_retweets(seed, now_ms, &users, &seeded);
    let pins = draw_pins(seed, users.len(), &seeded);
    // The last two days' news and campaigns come on top, without changing what was seeded.
    let added = match with_added {
        true => campaigns::plant(seed, now_ms, &users, &pages, POST_COUNT as u64),
        false => campaigns::Added::default(),
    };
    let (mut posts, retweets, pins) = merge_added(seeded, seeded_retweets, pins, added, &mut users);
    let user_by_name: FxMap<String, u32> = users
        .iter()
        .enumerate()
        .map(|(i, u)| (u.username.to_lowercase(), i as u32))
        .collect();
    let post_by_id: FxMap<u64, u32> = posts
        .iter()
        .enumerate()
        .map(|(i, p)| (p.id, i as u32))
        .collect();

    let mut children = vec![Vec::new(); posts.len()];
    let mut quoted_by = vec![0u64; posts.len()];
    let mut posts_by_user = vec![Vec::new(); users.len()];
    for (i, p) in posts.iter().enumerate() {
        if let Some(parent) = p.reply_to {
            children[parent as usize].push(i as u32);
        }
        if let Some(q) = p.quote_of {
            quoted_by[q as usize] += 1;
        }
        posts_by_user[p.author as usize].push(i as u32);
    }
    shrink_lists(&mut children);
    shrink_lists(&mut posts_by_user);
    let mut retweets_of = vec![Vec::new(); posts.len()];
    for (r, rt) in retweets.iter().enumerate() {
        retweets_of[rt.post as usize].push(r as u32);
    }
    shrink_lists(&mut retweets_of);
    // The counts a post shows are what the world holds, so that every reply, repost and quote
    // a count promises can be fetched: replies are the whole thread below the post (what
    // `/twitter/replies/post` returns), reposts its retweeters, quotes the posts quoting it.
    let thread_sizes = thread_sizes(&posts);
    for (i, p) in posts.iter_mut().enumerate() {
        p.replies = thread_sizes[i];
        p.retweets = retweets_of[i].len() as u64;
        p.quotes = quoted_by[i];
    }
    let timelines = build_timelines(&users, &posts, &retweets, &posts_by_user);

    for (u, user) in users.iter_mut().enumerate() {
        let own = &posts_by_user[u];
        user.statuses = user.statuses.max(own.len() as u64);
        user.media_count = own
            .iter()
            .filter(|&&i| !posts[i as usize].media.is_empty())
            .count() as u64;
        user.pinned = pins[u];
    }

    let (token_index, hashtag_index) = build_indexes(&posts);
    let page_by_link = pages
        .iter()
        .enumerate()
        .map(|(i, p)| (p.link.clone(), i as u32))
        .collect();

    World {
        seed,
        now_ms,
        created: std::time::Instant::now(),
        users,
        posts,
        retweets,
        pages,
        user_by_name,
        post_by_id,
        page_by_link,
        token_index,
        hashtag_index,
        posts_by_user,
        timelines,
        children,
        retweets_of,
    }
}

/// Posts in the thread below each post (replies, replies to them, and so on). A reply always
/// comes after its parent, so one pass from the newest post adds each thread to its parent.
fn thread_sizes(posts: &[Post]) -> Vec<u64> {
    let mut sizes = vec![0u64; posts.len()];
    for (i, p) in posts.iter().enumerate().rev() {
        if let Some(parent) = p.reply_to {
            sizes[parent as usize] += 1 + sizes[i];
        }
    }
    sizes
}

fn pick_lang(rng: &mut Rng) -> usize {
    let total: u32 = LANG_WEIGHTS.iter().sum();
    let mut r = rng.below(total as usize) as u32;
    for (i, w) in LANG_WEIGHTS.iter().enumerate() {
        if r < *w {
            return i;
        }
        r -= w;
    }
    0
}

fn generate_users(seed: u64, now_ms: i64) -> Vec<User> {
    let mut rng = Rng::derive(seed, 0x05E5);
    let mut taken: FxSet<String> = FxSet::default();
    let mut users = Vec::with_capacity(USER_COUNT);
    const BIOS: [&str; 6] = [
        "Writing about #{tag}. Views my own.",
        "Escribo sobre #{tag}. Opiniones propias.",
        "J'écris sur #{tag}. Avis perso.",
        "Schreibe über #{tag}. Meine Meinung.",
        "Escrevo sobre #{tag}. Opiniões próprias.",
        "#{tag} について発信しています。",
    ];
    for i in 0..USER_COUNT {
        let org = corpus::ORGS.get(i);
        let lang = org.map_or_else(|| pick_lang(&mut rng), |o| o.2);
        let countries: Vec<usize> = (0..COUNTRIES.len())
            .filter(|&c| COUNTRIES[c].lang == lang)
            .collect();
        let country = rng.pick(&countries);
        let topic = org.map_or_else(|| rng.below(TOPICS.len()), |_| i % TOPICS.len());
        let (name, username) = match org {
            Some((name, handle, _)) => (name.to_string(), handle.to_string()),
            None => {
                let first = rng.pick(corpus::FIRST_NAMES[lang]);
                let last = rng.pick(corpus::LAST_NAMES[lang]);
                let name = format!("{first} {last}");
                let base: String = ascii_handle(&format!(
                    "{first}{}",
                    &last[..last.char_indices().nth(1).map_or(last.len(), |(b, _)| b)]
                ));
                let mut handle = match rng.below(4) {
                    0 => format!("{}_{}", ascii_handle(first), ascii_handle(last)),
                    1 => format!("{base}{}", rng.below(999)),
                    2 => format!("{}{}", ascii_handle(first), rng.pick(corpus::HANDLE_WORDS)),
                    _ => format!("{}_{}", TOPICS[topic].key, ascii_handle(first)),
                };
                handle.truncate(15);
                while taken.contains(&handle.to_lowercase()) {
                    handle.truncate(11);
                    handle.push_str(&rng.below(9_999).to_string());
                }
                (name, handle)
            }
        };
        taken.insert(username.to_lowercase());
        let followers = if org.is_some() {
            200_000 + rng.long_tail(200_000.0, 1.5, 20_000_000)
        } else {
            rng.long_tail(150.0, 1.1, 5_000_000)
        };
        let tag = rng.pick(TOPICS[topic].hashtags);
        let description = if i % 397 == 5 {
            // A few bios contain markup, as real ones do.
            "I <3 <b>bold</b> takes & \"quotes\" <script>alert('bio')</script>".to_string()
        } else {
            BIOS[lang].replace("{tag}", tag)
        };
        users.push(User {
            id: 10_000_000 + rng.next_u64() % 1_900_000_000_000_000_000,
            username,
            name,
            lang: lang as u8,
            country: country as u8,
            location: rng.pick(COUNTRIES[country].cities),
            description,
            created_at_ms: now_ms
                - SPAN_MS
                - rng.below(13 * 365) as i64 * DAY_MS
                - rng.below(86_400) as i64 * 1000,
            followers,
            followings: rng.long_tail(200.0, 1.8, 8_000),
            favourites: rng.long_tail(800.0, 1.2, 400_000),
            listed: followers / 120,
            media_count: 0,
            statuses: rng.long_tail(900.0, 1.1, 300_000),
            verified: org.is_some() || rng.chance(0.01),
            blue_verified: org.is_none() && rng.chance(0.15),
            can_dm: rng.chance(0.4),
            professional: if org.is_some() {
                Some("Business")
            } else if rng.chance(0.05) {
                Some("Creator")
            } else {
                None
            },
            topic: topic as u8,
            pinned: None,
            image_key: url_safe_chars(&mut rng, 8),
        });
    }
    users
}

/// ASCII-only handle fragment ("Lucía" → "lucia").
fn ascii_handle(s: &str) -> String {
    s.chars()
        .filter_map(|c| match c {
            'á' | 'à' | 'ã' | 'â' | 'ä' => Some('a'),
            'é' | 'è' | 'ê' | 'ë' => Some('e'),
            'í' | 'ï' => Some('i'),
            'ó' | 'ô' | 'õ' | 'ö' => Some('o'),
            'ú' | 'ü' => Some('u'),
            'ç' => Some('c'),
            'ñ' => Some('n'),
            'ß' => Some('s'),
            c if c.is_ascii_alphanumeric() => Some(c.to_ascii_lowercase()),
            _ => None,
        })
        .collect()
}

/// Cumulative activity weights: a few accounts post a lot, most post a little.
fn activity_table(seed: u64, users: &[User]) -> Vec<u64> {
    let mut rng = Rng::derive(seed, 0xAC71);
    let mut acc = 0;
    users
        .iter()
        .map(|u| {
            acc += 1 + rng.long_tail(4.0, 1.3, 400) + if u.verified { 60 } else { 0 };
            acc
        })
        .collect()
}

fn weighted_user(rng: &mut Rng, table: &[u64]) -> u32 {
    let r = rng.next_u64() % table.last().copied().unwrap_or(1);
    table.partition_point(|&c| c <= r) as u32
}

fn short_link(rng: &mut Rng) -> String {
    format!("https://t.co/{}", url_safe_chars(rng, 10))
}

fn generate_posts(seed: u64, now_ms: i64, users: &[User], pages: &[super::Page]) -> Vec<Post> {
    let mut rng = Rng::derive(seed, 0x9057);
    // Activity grows towards the present: density ~ 1/sqrt(age).
    let mut times: Vec<i64> = (0..POST_COUNT)
        .map(|_| {
            let u = rng.unit();
            now_ms - 30_000 - (u * u * SPAN_MS as f64) as i64
        })
        .collect();
    times.sort_unstable();
    let table = activity_table(seed, users);
    let mut pages_by_topic: Vec<Vec<u32>> = vec![Vec::new(); TOPICS.len()];
    for (i, p) in pages.iter().enumerate() {
        pages_by_topic[p.topic as usize].push(i as u32);
    }

    let mut posts: Vec<Post> = Vec::with_capacity(POST_COUNT);
    for (i, &created_ms) in times.iter().enumerate() {
        let roll = rng.unit();
        let parent = if i > 100 {
            // Replies and quotes target recent posts, as conversations happen quickly.
            let back = 1 + rng.long_tail(40.0, 1.0, (i - 1) as u64) as usize;
            Some((i - back.min(i)) as u32)
        } else {
            None
        };
        let (reply_to, quote_of) = match parent {
            Some(p) if roll < 0.2 => (Some(p), None),
            Some(p) if roll < 0.27 => (None, Some(p)),
            _ => (None, None),
        };
        let author = match reply_to {
            // Self-replies make threads.
            Some(p) if rng.chance(0.2) => posts[p as usize].author,
            _ => weighted_user(&mut rng, &table),
        };
        let user = &users[author as usize];
        let lang = user.lang as usize;
        let topic = match reply_to.or(quote_of) {
            Some(p) => posts[p as usize].topic as usize,
            None if rng.chance(0.6) => user.topic as usize,
            None => rng.below(TOPICS.len()),
        };
        let t = &TOPICS[topic];

        let mut text = String::new();
        let mut mentions = Vec::new();
        if let Some(p) = reply_to {
            let parent_author = posts[p as usize].author;
            if parent_author != author {
                text.push_str(&format!("@{} ", users[parent_author as usize].username));
                mentions.push(parent_author);
            }
            if parent_author != author || rng.chance(0.3) {
                text.push_str(rng.pick(corpus::REPLIES[lang]));
                text.push(' ');
            }
        } else if quote_of.is_some() {
            text.push_str(rng.pick(corpus::QUOTE_LEADS[lang]));
            text.push(' ');
        } else if rng.chance(0.25) {
            text.push_str(rng.pick(corpus::OPENERS[lang]));
            text.push(' ');
        }
        // A post always says something beyond its mention: a lead-in sentence, or a statement.
        let said_something = text.trim_end().ends_with(['.', '?', '!', '。', '？', '！']);
        if reply_to.is_none() || !said_something || rng.chance(0.6) {
            let sentence = rng.pick(t.sentences[lang]);
            text.push_str(&sentence.replace("{n}", &(2 + rng.below(90)).to_string()));
        }
        text.truncate(text.trim_end().len());
        if rng.chance(0.2) {
            text.push(' ');
            text.push_str(rng.pick(corpus::CLOSERS[lang]));
        }
        let mut hashtags = Vec::new();
        for _ in 0..rng.below(4).saturating_sub(1) {
            let tag = if rng.chance(0.35) {
                rng.pick(t.local_hashtags[lang])
            } else {
                rng.pick(t.hashtags)
            };
            if !hashtags.contains(&tag) {
                hashtags.push(tag);
                text.push_str(&format!(" #{tag}"));
            }
        }
        let mut symbols = Vec::new();
        if !t.symbols.is_empty() && rng.chance(0.08) {
            let s = rng.pick(t.symbols);
            symbols.push(s);
            text.push_str(&format!(" ${s}"));
        }
        if rng.chance(0.05) {
            let other = weighted_user(&mut rng, &table);
            if other != author && !mentions.contains(&other) {
                text.push_str(&format!(" cc @{}", users[other as usize].username));
                mentions.push(other);
            }
        }
        if rng.chance(0.003) {
            text.push(' ');
            text.push_str(rng.pick(corpus::HOSTILE_SNIPPETS));
        }
        let mut links = Vec::new();
        if rng.chance(0.12) {
            let page = rng.pick(&pages_by_topic[topic]);
            let short = short_link(&mut rng);
            text.push(' ');
            text.push_str(&short);
            links.push(Link { short, page });
        }
        let mut media = Vec::new();
        let media_roll = rng.unit();
        if media_roll < 0.2 {
            let (kind, n) = if media_roll < 0.05 {
                (MediaKind::Video, 1)
            } else {
                (MediaKind::Photo, 1 + rng.below(3) / 2)
            };
            let short = short_link(&mut rng);
            for k in 0..n {
                media.push(Media {
                    kind,
                    id: snowflake(created_ms - 5_000, 1, (i * 4 + k) as u64),
                    short: short.clone(),
                    file_key: url_safe_chars(&mut rng, 15),
                });
            }
            text.push(' ');
            text.push_str(&short);
        }

        // Engagement: long tail scaled by the author's audience. `retweets` is how many reposts
        // to generate (capped); replies and quotes are counted from the world once it is built.
        // Their two draws stay, so that every later draw, and so the world, is unchanged.
        let reach = 1.0 + (user.followers as f64 + 1.0).log10();
        let likes = (rng.long_tail(2.0 * reach, 1.05, 3_000_000) as f64 * reach / 2.0) as u64;
        let retweets = (likes as f64 * (0.03 + rng.unit() * 0.25)) as u64;
        let _replies_once_drawn = rng.unit();
        let _quotes_once_drawn = rng.unit();
        let bookmarks = (likes as f64 * rng.unit() * 0.1) as u64;
        let views = likes * (20 + rng.below(100) as u64) + rng.below(400) as u64 + 12;

        let conversation = match reply_to {
            Some(p) => posts[p as usize].conversation,
            None => i as u32,
        };
        posts.push(Post {
            id: snowflake(created_ms, 0, i as u64),
            author,
            created_ms,
            lower: text.to_lowercase().into(),
            text: text.into(),
            lang: lang as u8,
            topic: topic as u8,
            hashtags: hashtags.into(),
            symbols: symbols.into(),
            mentions: mentions.into(),
            links: links.into(),
            media: media.into(),
            reply_to,
            quote_of,
            conversation,
            likes,
            retweets,
            replies: 0,
            quotes: 0,
            bookmarks,
            views,
        });
    }
    posts
}

fn generate_retweets(seed: u64, now_ms: i64, users: &[User], posts: &[Post]) -> Vec<Retweet> {
    let mut rng = Rng::derive(seed, 0x7E7E);
    let mut retweets = Vec::new();
    for (i, p) in posts.iter().enumerate() {
        let n = p.retweets.min(MAX_RETWEETERS) as usize;
        let mut seen: Vec<u32> = Vec::with_capacity(n);
        let mut when = p.created_ms;
        for _ in 0..n {
            let user = rng.below(users.len()) as u32;
            if user == p.author || seen.contains(&user) {
                continue;
            }
            when += 1_000 + rng.long_tail(600_000.0, 1.2, DAY_MS as u64) as i64;
            if when >= now_ms {
                break;
            }
            seen.push(user);
            retweets.push(Retweet {
                id: snowflake(when, 1, retweets.len() as u64),
                user,
                post: i as u32,
                created_ms: when,
            });
        }
    }
    retweets
}

/// Each seeded user's pinned post (an index into the seeded posts), drawn as it always was:
/// from their seeded posts alone, so that the posts added later change no draw.
fn draw_pins(seed: u64, user_count: usize, posts: &[Post]) -> Vec<Option<u32>> {
    let mut own = vec![Vec::new(); user_count];
    for (i, p) in posts.iter().enumerate() {
        own[p.author as usize].push(i as u32);
    }
    let mut rng = Rng::derive(seed, 0x9119);
    own.iter()
        .map(|own| (!own.is_empty() && rng.chance(0.3)).then(|| own[rng.below(own.len())]))
        .collect()
}

/// The seeded posts and the added ones in one list in time order (a seeded post first on a
/// tie), every index into it (replies, quotes, conversations, reposts, pins) moved to match.
/// No seeded post's id, text or counts change; the added accounts come after the seeded ones.
fn merge_added(
    seeded: Vec<Post>,
    seeded_retweets: Vec<Retweet>,
    pins: Vec<Option<u32>>,
    added: campaigns::Added,
    users: &mut Vec<User>,
) -> (Vec<Post>, Vec<Retweet>, Vec<Option<u32>>) {
    let mut extra: Vec<(usize, Post)> = added.posts.into_iter().enumerate().collect();
    extra.sort_by_key(|(_, p)| (p.created_ms, p.id));
    let mut seeded_at = vec![0u32; seeded.len()];
    let mut added_at = vec![0u32; extra.len()];
    let mut posts: Vec<Post> = Vec::with_capacity(seeded.len() + extra.len());
    let mut extra = extra.into_iter().peekable();
    for (i, post) in seeded.into_iter().enumerate() {
        while let Some((k, p)) = extra.next_if(|(_, p)| p.created_ms < post.created_ms) {
            added_at[k] = posts.len() as u32;
            posts.push(p);
        }
        seeded_at[i] = posts.len() as u32;
        posts.push(post);
    }
    for (k, p) in extra {
        added_at[k] = posts.len() as u32;
        posts.push(p);
    }
    let moved = |i: u32| seeded_at[i as usize];
    let is_added: FxSet<u32> = added_at.iter().copied().collect();
    for (i, p) in posts.iter_mut().enumerate() {
        if is_added.contains(&(i as u32)) {
            p.conversation = i as u32;
        } else {
            p.reply_to = p.reply_to.map(moved);
            p.quote_of = p.quote_of.map(moved);
            p.conversation = moved(p.conversation);
        }
    }
    let mut retweets = seeded_retweets;
    for r in &mut retweets {
        r.post = moved(r.post);
    }
    // Each post's reposts oldest first, as the seeded ones are.
    let mut reposts = added.reposts;
    reposts.sort_by_key(|r| (r.post, r.created_ms));
    for r in reposts {
        let n = retweets.len() as u64;
        retweets.push(Retweet {
            id: snowflake(r.created_ms, 1, n),
            user: r.user,
            post: added_at[r.post],
            created_ms: r.created_ms,
        });
    }
    retweets.shrink_to_fit();
    let mut pins: Vec<Option<u32>> = pins.into_iter().map(|p| p.map(moved)).collect();
    pins.resize(users.len() + added.users.len(), None);
    users.extend(added.users);
    (posts, retweets, pins)
}

/// Drops the spare room vectors keep for growth: the world is built once and never grows
/// (the live trickle keeps its own), and the demo holds it in the app for as long as it runs.
fn shrink_lists(lists: &mut [Vec<u32>]) {
    for list in lists {
        list.shrink_to_fit();
    }
}

fn build_timelines(
    users: &[User],
    posts: &[Post],
    retweets: &[Retweet],
    posts_by_user: &[Vec<u32>],
) -> Vec<Vec<TimelineEntry>> {
    let mut rts_by_user: Vec<Vec<u32>> = vec![Vec::new(); users.len()];
    for (r, rt) in retweets.iter().enumerate() {
        rts_by_user[rt.user as usize].push(r as u32);
    }
    (0..users.len())
        .map(|u| {
            let mut entries: Vec<(i64, TimelineEntry)> = posts_by_user[u]
                .iter()
                .map(|&p| (posts[p as usize].created_ms, TimelineEntry::Post(p)))
                .chain(
                    rts_by_user[u]
                        .iter()
                        .map(|&r| (retweets[r as usize].created_ms, TimelineEntry::Retweet(r))),
                )
                .collect();
            entries.sort_unstable_by_key(|e| std::cmp::Reverse(e.0));
            // Collected in place, the list would keep the room of the (time, entry) pairs.
            let mut timeline: Vec<TimelineEntry> = entries.into_iter().map(|e| e.1).collect();
            timeline.shrink_to_fit();
            timeline
        })
        .collect()
}

type Index = FxMap<String, Vec<u32>>;

fn build_indexes(posts: &[Post]) -> (Index, Index) {
    let mut tokens: Index = FxMap::default();
    let mut hashtags: Index = FxMap::default();
    for (i, p) in posts.iter().enumerate() {
        let i = i as u32;
        for tok in super::text::tokens(&p.lower) {
            if tok.len() > 40 {
                continue;
            }
            let list = tokens.entry(tok).or_default();
            if list.last() != Some(&i) {
                list.push(i);
            }
        }
        for tag in &p.hashtags {
            let list = hashtags.entry(tag.to_lowercase()).or_default();
            if list.last() != Some(&i) {
                list.push(i);
            }
        }
    }
    for list in tokens.values_mut().chain(hashtags.values_mut()) {
        list.shrink_to_fit();
    }
    (tokens, hashtags)
}

#[cfg(test)]
mod tests {
    use super::super::corpus::LANGS;
    use super::*;

    const NOW: i64 = 1_790_000_000_000;

    #[test]
    fn world_is_deterministic_and_large_enough() {
        let a = build(42, NOW);
        let b = build(42, NOW);
        assert!(a.users.len() >= 2_000);
        assert!(a.posts.len() >= 50_000);
        assert_eq!(a.posts[1234].text, b.posts[1234].text);
        assert_eq!(a.posts[1234].id, b.posts[1234].id);
        assert_eq!(a.users[77].username, b.users[77].username);
        let c = build(43, NOW);
        assert_ne!(a.posts[1234].text, c.posts[1234].text);
    }

    #[test]
    fn world_has_the_variety_the_issue_asks_for() {
        let w = build(42, NOW);
        for (lang, code) in LANGS.iter().enumerate() {
            assert!(
                w.posts.iter().filter(|p| p.lang as usize == lang).count() > 1_000,
                "{code}"
            );
        }
        let day_ago = NOW - DAY_MS;
        assert!(w.posts.iter().filter(|p| p.created_ms >= day_ago).count() > 500);
        assert!(w
            .posts
            .iter()
            .all(|p| p.created_ms < NOW && p.created_ms > NOW - SPAN_MS - DAY_MS));
        assert!(w.posts.iter().all(|p| *p.text == *p.text.trim()
            && p.text.chars().filter(|c| c.is_alphabetic()).count() > 3));
        assert!(w.posts.iter().any(|p| p.has_video()));
        assert!(w.posts.iter().any(|p| p.has_photo()));
        assert!(w.posts.iter().any(|p| p.quote_of.is_some()));
        assert!(w.posts.iter().any(|p| !p.links.is_empty()));
        assert!(w.posts.iter().any(|p| p.text.contains("<script>")));
        assert!(w.users.iter().any(|u| u.verified));
        assert!(w.users.iter().any(|u| u.blue_verified));
        // Threads: some conversation has a reply to a reply.
        assert!(w.posts.iter().any(|p| p
            .reply_to
            .is_some_and(|r| w.posts[r as usize].reply_to.is_some())));
        assert!(w
            .timelines
            .iter()
            .any(|t| t.iter().any(|e| matches!(e, TimelineEntry::Retweet(_)))));
        // Long tail: the most liked post has far more likes than the median one.
        let mut likes: Vec<u64> = w.posts.iter().map(|p| p.likes).collect();
        likes.sort_unstable();
        assert!(likes[likes.len() - 1] > 100 * likes[likes.len() / 2].max(1));
        // Ids are unique and increase with time.
        assert!(w
            .posts
            .windows(2)
            .all(|p| p[0].id < p[1].id || p[0].created_ms == p[1].created_ms));
        assert_eq!(w.post_by_id.len(), w.posts.len());
    }
}
