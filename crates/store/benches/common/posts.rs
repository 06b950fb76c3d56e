//! The posts of the benches' 1,000,000-post archive (analysis, upgrade): a year of posts by
//! 20,000 accounts, in 6 languages, with hashtags, mentions, cashtags, links, replies and
//! quotes in their raw records, as the service sends them. Included by each bench with
//! `#[path]`.

use chrono::{DateTime, Utc};
use serde_json::json;
use sightline_store::NewPost;

pub const POSTS: usize = 1_000_000;
pub const ACCOUNTS: usize = 20_000;
pub const TAGS: [&str; 40] = [
    "flood", "storm", "harbour", "ferry", "council", "bridge", "market", "school", "station",
    "river", "festival", "rain", "wind", "coast", "tide", "ship", "port", "news", "city", "road",
    "rail", "bus", "fire", "police", "vote", "budget", "mayor", "park", "music", "art", "film",
    "food", "beer", "wine", "tech", "ai", "crypto", "sport", "match", "league",
];
pub const LANGS: [&str; 6] = ["en", "de", "fr", "es", "ja", "und"];
pub const HOSTS: [&str; 8] = [
    "https://www.example.com/a",
    "https://news.example.org/b?c=1",
    "https://blog.site.net/x",
    "http://t.co/abc",
    "https://www.youtube.com/watch?v=1",
    "https://github.com/a/b",
    "https://paper.example.edu/p",
    "https://shop.example.com:8443/item",
];

/// Post number `n` of the archive, dated within the year from `start`.
pub fn post(n: usize, start: DateTime<Utc>) -> NewPost {
    post_of(n, POSTS, ACCOUNTS, start)
}

/// Post number `n` of an archive of `total` posts by `accounts` accounts (the 10,000,000-post
/// one of `big_archive.rs`), dated within the year from `start`: the same mix at any size.
pub fn post_of(n: usize, total: usize, accounts: usize, start: DateTime<Utc>) -> NewPost {
    let account = (n * 7_919) % accounts;
    let handle = format!("user{account}");
    let at = start + chrono::Duration::seconds((n as i64 * 31_536_000) / total as i64);
    let id = (1_800_000_000_000_000_000u64 + n as u64).to_string();
    let tags: Vec<&str> = (0..n % 3)
        .map(|i| TAGS[(n / 7 + i * 13) % TAGS.len()])
        .collect();
    let mentions: Vec<String> = (0..(n / 3) % 3)
        .map(|i| format!("user{}", (n * 31 + i * 101) % accounts))
        .collect();
    let mut raw = json!({
        "id": id,
        "text": format!("post {n} about the {}", TAGS[n % TAGS.len()]),
        "created_at": at.to_rfc3339(),
        "lang": LANGS[n % LANGS.len()],
        "like_count": n % 300, "retweet_count": n % 40, "reply_count": n % 12, "quote_count": n % 5,
        "user": {"id": format!("{account}"), "username": handle, "name": format!("User {account}"),
                 "verified": account % 50 == 0, "is_blue_verified": account % 7 == 0,
                 "followers_count": account * 3},
        "entities": {
            "hashtags": tags.iter().map(|t| json!({"text": t, "indices": [0, 3]})).collect::<Vec<_>>(),
            "user_mentions": mentions.iter().map(|m| json!({"id_str": "1", "name": m, "screen_name": m, "indices": [0, 3]})).collect::<Vec<_>>(),
            "symbols": if n % 17 == 0 { json!([{"text": "BTC", "indices": [0, 3]}]) } else { json!([]) },
            "urls": if n % 4 == 0 { json!([{"url": "https://t.co/x", "expanded_url": HOSTS[n % HOSTS.len()], "display_url": "x"}]) } else { json!([]) },
        },
    });
    if n % 5 == 1 && n > 10 {
        raw["in_reply_to_status_id"] =
            json!((1_800_000_000_000_000_000u64 + (n - 7) as u64).to_string());
        raw["in_reply_to_screen_name"] = json!(format!("user{}", ((n - 7) * 7_919) % accounts));
    }
    if n % 11 == 2 && n > 10 {
        raw["quoted_status_id"] =
            json!((1_800_000_000_000_000_000u64 + (n - 9) as u64).to_string());
        raw["quote"] = json!({"id": (1_800_000_000_000_000_000u64 + (n - 9) as u64).to_string(),
                             "user": {"id": "q", "username": format!("user{}", ((n - 9) * 7_919) % accounts)}});
    }
    NewPost {
        id,
        conversation_id: None,
        author_id: Some(format!("{account}")),
        author_username: handle,
        author_name: format!("User {account}"),
        author_verified: account % 50 == 0 || account % 7 == 0,
        text: format!("post {n} about the {}", TAGS[n % TAGS.len()]),
        lang: Some(LANGS[n % LANGS.len()].into()),
        created_at: at,
        like_count: (n % 300) as i64,
        retweet_count: (n % 40) as i64,
        reply_count: (n % 12) as i64,
        quote_count: (n % 5) as i64,
        view_count: None,
        bookmark_count: 0,
        hashtags: tags.iter().map(|t| (*t).to_owned()).collect(),
        url: None,
        raw_json: raw.to_string(),
        nested: false,
    }
}
