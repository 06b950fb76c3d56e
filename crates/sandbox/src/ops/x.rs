//! The X (Twitter) operations: search with every filter, posts by URL or id, user posts,
//! replies, retweeters and trends.

use super::{Ctx, Outcome};
use crate::posts::Posts;
use crate::render;
use crate::rng::{base64_url_decode, base64_url_encode, fnv1a};
use crate::search::{end_of_day, SearchQuery};
use crate::validate::{Query, MAX_QUERY_CHARS};
use crate::world::corpus::{COUNTRIES, LANGS};
use crate::world::text::{is_stopword, tokens};
use crate::world::{Post, TimelineEntry, World, DAY_MS};
use serde_json::{json, Value};

/// Items per page of the cursor-paginated operations.
pub const PAGE_SIZE: usize = 20;

/// Filters of `/twitter` beyond the query text.
#[derive(Default)]
struct Filters {
    user: Option<Option<u32>>,
    since_ms: Option<i64>,
    until_ms: Option<i64>,
    lang: Option<String>,
    verified: Option<bool>,
    blue_verified: Option<bool>,
    is_quote: Option<bool>,
    is_video: Option<bool>,
    is_image: Option<bool>,
    min_retweets: Option<u64>,
    min_replies: Option<u64>,
    min_likes: Option<u64>,
}

impl Filters {
    fn accepts(&self, world: &World, post: &Post) -> bool {
        let author = &world.users[post.author as usize];
        if let Some(user) = self.user {
            if user != Some(post.author) {
                return false;
            }
        }
        self.since_ms.is_none_or(|s| post.created_ms >= s)
            && self.until_ms.is_none_or(|u| post.created_ms < u)
            && self
                .lang
                .as_deref()
                .is_none_or(|l| LANGS[post.lang as usize].eq_ignore_ascii_case(l))
            && self.verified.is_none_or(|v| author.verified == v)
            && self.blue_verified.is_none_or(|v| author.blue_verified == v)
            && self.is_quote.is_none_or(|v| post.quote_of.is_some() == v)
            && self.is_video.is_none_or(|v| post.has_video() == v)
            && self.is_image.is_none_or(|v| post.has_photo() == v)
            && self.min_retweets.is_none_or(|n| post.retweets >= n)
            && self.min_replies.is_none_or(|n| post.replies >= n)
            && self.min_likes.is_none_or(|n| post.likes >= n)
    }
}

fn tweets_json(ctx: &Ctx<'_>, indices: &[u32]) -> Outcome {
    Outcome::Json {
        body: ctx.posts.array(indices).into_bytes(),
        usage: indices.len() as u64,
    }
}

/// Posts matching `query` and `filters`, newest first or by engagement ("Top").
fn find_posts(
    posts: &Posts<'_>,
    query: &SearchQuery,
    filters: &Filters,
    top: bool,
    count: usize,
) -> Vec<u32> {
    let world = posts.world;
    let mut satisfied = None;
    let candidates: std::borrow::Cow<'_, [u32]> = match (query.candidates(posts), filters.user) {
        (Some(c), _) => {
            satisfied = c.satisfied_clause;
            c.posts
        }
        (None, Some(Some(u))) => posts.by_user(u),
        (None, Some(None)) => std::borrow::Cow::Borrowed(&[]),
        (None, None) => {
            // Every post may match: walk the whole timeline without materialising it.
            let from = filters.since_ms.map_or(0, |s| posts.first_at_or_after(s));
            return scan_all(posts, query, filters, top, count, from);
        }
    };
    let keep = |i: &&u32| {
        let post = posts.get(**i);
        filters.accepts(world, post) && query.matches_except(posts, **i, satisfied)
    };
    if top {
        let mut hits: Vec<u32> = candidates.iter().filter(keep).copied().collect();
        rank_by_engagement(posts, &mut hits, count);
        hits
    } else {
        candidates
            .iter()
            .rev()
            .filter(keep)
            .take(count)
            .copied()
            .collect()
    }
}

/// `find_posts` when no index narrows the search: all posts from `from` on.
fn scan_all(
    posts: &Posts<'_>,
    query: &SearchQuery,
    filters: &Filters,
    top: bool,
    count: usize,
    from: u32,
) -> Vec<u32> {
    let hits = (from..posts.end())
        .rev()
        .filter(|&i| filters.accepts(posts.world, posts.get(i)) && query.matches(posts, i));
    if !top {
        return hits.take(count).collect();
    }
    let mut all: Vec<u32> = hits.collect();
    rank_by_engagement(posts, &mut all, count);
    all
}

/// Keeps the `count` most engaging posts, best first (newer first on ties).
fn rank_by_engagement(posts: &Posts<'_>, hits: &mut Vec<u32>, count: usize) {
    // Keys computed once: ranking thousands of hits must not revisit every post per comparison.
    let mut keyed: Vec<(std::cmp::Reverse<u64>, std::cmp::Reverse<u32>)> = hits
        .iter()
        .map(|&i| {
            (
                std::cmp::Reverse(posts.get(i).engagement()),
                std::cmp::Reverse(i),
            )
        })
        .collect();
    if keyed.len() > count {
        keyed.select_nth_unstable(count);
        keyed.truncate(count);
    }
    keyed.sort_unstable();
    *hits = keyed
        .into_iter()
        .map(|(_, std::cmp::Reverse(i))| i)
        .collect();
}

/// `GET /twitter`
pub fn search(ctx: &Ctx<'_>, raw: Option<&str>) -> Outcome {
    let world = ctx.world;
    let mut q = Query::parse(raw);
    let text = q.required_str("query");
    q.limit_chars("query", &text, MAX_QUERY_CHARS);
    let sort = q.pattern("sort", &["Top", "Latest"], "Top");
    let user = q.opt_str("user");
    let since = q.opt_date("start_date");
    let until = q.opt_date("end_date").map(end_of_day);
    let filters = Filters {
        user: user
            .filter(|u| !u.trim().is_empty())
            .map(|u| world.user_named(&u)),
        since_ms: since,
        until_ms: until,
        lang: q.opt_str("lang").filter(|l| !l.is_empty()),
        verified: q.opt_bool("verified"),
        blue_verified: q.opt_bool("blue_verified"),
        is_quote: q.opt_bool("is_quote"),
        is_video: q.opt_bool("is_video"),
        is_image: q.opt_bool("is_image"),
        min_retweets: q.opt_count("min_retweets"),
        min_replies: q.opt_count("min_replies"),
        min_likes: q.opt_count("min_likes"),
    };
    let count = q.int_in("count", 20, 1, 100) as usize;
    if !q.problems.is_empty() {
        return Outcome::invalid(&q.problems);
    }
    let query = SearchQuery::parse(&text);
    let found = find_posts(&ctx.posts, &query, &filters, sort == "Top", count);
    tweets_json(ctx, &found)
}

/// The post id of an `x.com` or `twitter.com` status link: `/{user}/status/{id}`, or
/// `/i/web/status/{id}`, the form X uses where it names no user.
pub fn status_id(url: &str) -> Option<&str> {
    let rest = url.trim().split_once("://").map_or(url.trim(), |(_, r)| r);
    let (host, path) = rest.split_once('/')?;
    let host = host.to_ascii_lowercase();
    let host = host
        .trim_start_matches("www.")
        .trim_start_matches("mobile.");
    if !matches!(host, "x.com" | "twitter.com") {
        return None;
    }
    // Past the user, or past `i/web`, which stands where the user would.
    let path = path
        .strip_prefix("i/web/")
        .unwrap_or(path.split_once('/')?.1);
    let mut parts = path.split(['/', '?', '#']);
    if !matches!(parts.next()?, "status" | "statuses") {
        return None;
    }
    let id = parts.next()?;
    (!id.is_empty() && id.bytes().all(|b| b.is_ascii_digit())).then_some(id)
}

/// `GET /twitter/urls`
pub fn by_urls(ctx: &Ctx<'_>, raw: Option<&str>) -> Outcome {
    let mut q = Query::parse(raw);
    let urls = q.required_list("urls");
    if !q.problems.is_empty() {
        return Outcome::invalid(&q.problems);
    }
    let found: Vec<u32> = urls
        .iter()
        .filter_map(|u| status_id(u))
        .filter_map(|id| ctx.posts.with_id(id))
        .collect();
    tweets_json(ctx, &found)
}

/// `GET /twitter/post`
pub fn post(ctx: &Ctx<'_>, raw: Option<&str>) -> Outcome {
    let mut q = Query::parse(raw);
    let id = q.required_str("id");
    if !q.problems.is_empty() {
        return Outcome::invalid(&q.problems);
    }
    match ctx.posts.with_id(&id) {
        Some(i) => Outcome::Json {
            body: ctx.posts.json(i).as_bytes().to_vec(),
            usage: 1,
        },
        None => Outcome::not_found("Post"),
    }
}

/// `GET /twitter/post/user`: the user's own posts, replies included ("a user's tweets and
/// replies", as the contract names `/twitter/replies`), newest first, filtered by `query`.
pub fn posts_by_user(ctx: &Ctx<'_>, raw: Option<&str>) -> Outcome {
    let mut q = Query::parse(raw);
    let user = q.required_str("user");
    let text = q.opt_str("query").unwrap_or_default();
    q.limit_chars("query", &text, MAX_QUERY_CHARS);
    let count = q.int_in("count", 10, 1, 100) as usize;
    if !q.problems.is_empty() {
        return Outcome::invalid(&q.problems);
    }
    let found: Vec<u32> = match ctx.world.user_named(&user) {
        Some(u) => {
            let query = SearchQuery::parse(&text);
            ctx.posts
                .by_user(u)
                .iter()
                .rev()
                .filter(|&&i| query.matches(&ctx.posts, i))
                .take(count)
                .copied()
                .collect()
        }
        None => Vec::new(),
    };
    tweets_json(ctx, &found)
}

/// `GET /twitter/replies`: the same list as `/twitter/post/user`, the user's own posts with
/// their replies among them.
pub fn replies_by_user(ctx: &Ctx<'_>, raw: Option<&str>) -> Outcome {
    posts_by_user(ctx, raw)
}

/// `GET /twitter/replies/post`: the thread below a post, in reading (time) order.
pub fn replies_to_post(ctx: &Ctx<'_>, raw: Option<&str>) -> Outcome {
    let mut q = Query::parse(raw);
    let id = q.required_str("post_id");
    let count = q.int_in("count", 10, 1, 100) as usize;
    let text = q.opt_str("query").unwrap_or_default();
    q.limit_chars("query", &text, MAX_QUERY_CHARS);
    if !q.problems.is_empty() {
        return Outcome::invalid(&q.problems);
    }
    let Some(root) = ctx.posts.with_id(&id) else {
        return Outcome::not_found("Post");
    };
    let mut thread = Vec::new();
    let mut stack = vec![root];
    while let Some(p) = stack.pop() {
        for &c in ctx.posts.children(p) {
            thread.push(c);
            stack.push(c);
        }
    }
    thread.sort_unstable();
    let query = SearchQuery::parse(&text);
    let found: Vec<u32> = thread
        .into_iter()
        .filter(|&i| query.matches(&ctx.posts, i))
        .take(count)
        .collect();
    tweets_json(ctx, &found)
}

/// Where a page starts: an offset into the list as it was when its first page was asked, whose
/// newest entry then was below index `upto`. Posts that arrive later do not shift the pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Page {
    offset: usize,
    upto: u32,
}

/// Opaque cursor: what it pages through, and where the next page starts.
fn encode_cursor(kind: u8, key: u64, page: Page) -> String {
    let plain = format!("{}:{key}:{}:{}", kind as char, page.offset, page.upto);
    let check = fnv1a(plain.as_bytes()) & 0xFFFF;
    base64_url_encode(format!("{plain}:{check:x}").as_bytes())
}

fn decode_cursor(cursor: &str, kind: u8, key: u64) -> Option<Page> {
    let text = String::from_utf8(base64_url_decode(cursor.trim())?).ok()?;
    let (plain, check) = text.rsplit_once(':')?;
    if u64::from_str_radix(check, 16).ok()? != fnv1a(plain.as_bytes()) & 0xFFFF {
        return None;
    }
    let mut parts = plain.split(':');
    let k = parts.next()?;
    let stored_key: u64 = parts.next()?.parse().ok()?;
    let offset: usize = parts.next()?.parse().ok()?;
    // Cursors issued before the trickle carried no bound: everything visible.
    let upto: u32 = match parts.next() {
        Some(u) => u.parse().ok()?,
        None => u32::MAX,
    };
    (k.as_bytes() == [kind] && stored_key == key).then_some(Page { offset, upto })
}

/// Reads the optional `cursor` parameter (the first page when there is none, up to `upto`),
/// recording a 422 when it is not one of ours.
fn cursor_page(q: &mut Query, kind: u8, key: u64, upto: u32) -> Page {
    let first = Page { offset: 0, upto };
    match q.opt_str("cursor").filter(|c| !c.is_empty()) {
        None => first,
        Some(c) => decode_cursor(&c, kind, key).unwrap_or_else(|| {
            q.problems.push(
                "value_error",
                vec![Value::from("query"), Value::from("cursor")],
                "Value error, invalid or expired cursor",
                Value::from(c),
                Some(json!({ "error": "invalid cursor" })),
            );
            first
        }),
    }
}

fn next_cursor(kind: u8, key: u64, page: Page, total: usize) -> Option<String> {
    (page.offset + PAGE_SIZE < total).then(|| {
        let next = Page {
            offset: page.offset + PAGE_SIZE,
            ..page
        };
        encode_cursor(kind, key, next)
    })
}

/// `GET /twitter/post/retweeters`
pub fn retweeters(ctx: &Ctx<'_>, raw: Option<&str>) -> Outcome {
    let world = ctx.world;
    let mut q = Query::parse(raw);
    let id = q.required_str("id");
    let post = ctx.posts.with_id(&id);
    let key = post.map_or(0, |p| ctx.posts.get(p).id);
    // A post's retweeters never change: nothing to bound.
    let page = cursor_page(&mut q, b'r', key, 0);
    if !q.problems.is_empty() {
        return Outcome::invalid(&q.problems);
    }
    let Some(p) = post else {
        return Outcome::not_found("Post");
    };
    let all = ctx.posts.retweets_of(p);
    let users: Vec<_> = all
        .iter()
        .skip(page.offset)
        .take(PAGE_SIZE)
        .map(|&r| {
            render::user(
                world,
                &world.users[world.retweets[r as usize].user as usize],
            )
        })
        .collect();
    let n = users.len() as u64;
    Outcome::json(
        &json!({ "users": users, "next_cursor": next_cursor(b'r', key, page, all.len()) }),
        n,
    )
}

/// `GET /twitter/user/posts`: the timeline, own posts and retweets, newest first.
pub fn user_posts(ctx: &Ctx<'_>, raw: Option<&str>) -> Outcome {
    let world = ctx.world;
    let mut q = Query::parse(raw);
    let name = q.required_str("username");
    let user = world.user_named(&name);
    let key = user.map_or(0, |u| world.users[u as usize].id);
    let page = cursor_page(&mut q, b'u', key, ctx.posts.end());
    if !q.problems.is_empty() {
        return Outcome::invalid(&q.problems);
    }
    let Some(u) = user else {
        return Outcome::not_found("User");
    };
    let timeline = ctx.posts.timeline(u, page.upto);
    let tweets: Vec<_> = timeline
        .iter()
        .skip(page.offset)
        .take(PAGE_SIZE)
        .map(|e| match e {
            TimelineEntry::Post(p) => ctx.posts.record(*p),
            TimelineEntry::Retweet(r) => ctx.posts.retweet(&world.retweets[*r as usize]),
        })
        .collect();
    let n = tweets.len() as u64;
    let body = json!({
        "user": render::user(world, &world.users[u as usize]),
        "tweets": tweets,
        "next_cursor": next_cursor(b'u', key, page, timeline.len()),
    });
    Outcome::json(&body, n)
}

/// `GET /twitter/trends`: hashtags (then words) ranked by recent frequency in a place.
pub fn trends(ctx: &Ctx<'_>, raw: Option<&str>) -> Outcome {
    let world = ctx.world;
    let mut q = Query::parse(raw);
    let woeid = q.required_int("woeid");
    let count = q.int_in("count", 30, 30, 100) as usize;
    let place = match woeid {
        Some(1) => Some(None),
        Some(w) => match COUNTRIES.iter().position(|c| c.woeid == w) {
            Some(c) => Some(Some(c)),
            None => {
                let known: Vec<String> = std::iter::once(1)
                    .chain(COUNTRIES.iter().map(|c| c.woeid))
                    .map(|w| w.to_string())
                    .collect();
                q.problems.push(
                    "value_error",
                    vec![Value::from("query"), Value::from("woeid")],
                    format!(
                        "Value error, no trends for this WOEID; known: {}",
                        known.join(", ")
                    ),
                    Value::from(w.to_string()),
                    Some(json!({ "error": "unknown woeid" })),
                );
                None
            }
        },
        None => None,
    };
    if !q.problems.is_empty() {
        return Outcome::invalid(&q.problems);
    }
    let country = place.flatten();
    let trends = rank_trends(world, ctx.now_ms, country, count);
    let name = country.map_or("Worldwide", |c| COUNTRIES[c].name);
    let items: Vec<Value> = trends
        .into_iter()
        .enumerate()
        .map(|(i, (name, query))| json!({ "name": name, "query": query, "rank": i + 1 }))
        .collect();
    let n = items.len() as u64;
    Outcome::json(
        &json!({ "trends": items, "woeid": { "name": name, "id": woeid } }),
        n,
    )
}

/// Recency-weighted counts over the last week; the last day counts four times.
fn rank_trends(
    world: &World,
    now_ms: i64,
    country: Option<usize>,
    count: usize,
) -> Vec<(String, String)> {
    let week = world.first_post_at_or_after(now_ms - 7 * DAY_MS);
    let mut tags: crate::fxhash::FxMap<&str, u64> = Default::default();
    let mut words: crate::fxhash::FxMap<String, u64> = Default::default();
    for post in &world.posts[week..] {
        if country.is_some_and(|c| world.users[post.author as usize].country as usize != c) {
            continue;
        }
        let weight = if post.created_ms >= now_ms - DAY_MS {
            4
        } else {
            1
        };
        for t in &post.hashtags {
            *tags.entry(t).or_default() += weight;
        }
        for w in tokens(&post.lower) {
            if w.chars().count() >= 5
                && !is_stopword(&w)
                && !w.starts_with("http")
                && w.chars().all(char::is_alphabetic)
            {
                *words.entry(w).or_default() += weight;
            }
        }
    }
    let mut ranked_tags: Vec<(&str, u64)> = tags.into_iter().collect();
    ranked_tags.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let mut out: Vec<(String, String)> = ranked_tags
        .iter()
        .map(|(t, _)| (format!("#{t}"), format!("#{t}")))
        .collect();
    if out.len() < count {
        let mut ranked_words: Vec<(String, u64)> = words.into_iter().collect();
        ranked_words.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        for (w, _) in ranked_words {
            if out.len() >= count {
                break;
            }
            if out.iter().any(|(n, _)| n[1..].eq_ignore_ascii_case(&w)) {
                continue;
            }
            let mut name = w.clone();
            if let Some(f) = name.get(0..1) {
                name = f.to_uppercase() + &name[1..];
            }
            out.push((name, w));
        }
    }
    out.truncate(count);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_links() {
        assert_eq!(status_id("https://x.com/bob/status/123"), Some("123"));
        assert_eq!(
            status_id("https://twitter.com/bob/status/123?s=20"),
            Some("123")
        );
        assert_eq!(
            status_id("http://www.twitter.com/bob/statuses/9/photo/1"),
            Some("9")
        );
        assert_eq!(
            status_id("https://mobile.x.com/bob/status/77#m"),
            Some("77")
        );
        assert_eq!(status_id("x.com/bob/status/5"), Some("5"));
        assert_eq!(status_id("https://example.com/bob/status/5"), None);
        assert_eq!(status_id("https://x.com/bob"), None);
        assert_eq!(status_id("https://x.com/bob/status/abc"), None);
        assert_eq!(status_id("https://x.com/i/web/status/42"), Some("42"));
    }

    #[test]
    fn cursors_are_opaque_and_checked() {
        let page = Page {
            offset: 40,
            upto: 60_123,
        };
        let c = encode_cursor(b'u', 42, page);
        assert!(!c.contains("42"));
        assert_eq!(decode_cursor(&c, b'u', 42), Some(page));
        assert_eq!(decode_cursor(&c, b'u', 43), None);
        assert_eq!(decode_cursor(&c, b'r', 42), None);
        assert_eq!(decode_cursor("garbage", b'u', 42), None);
        let forged = base64_url_encode(b"u:42:0:0");
        assert_eq!(decode_cursor(&forged, b'u', 42), None);
    }
}
