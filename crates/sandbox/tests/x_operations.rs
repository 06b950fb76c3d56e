//! The X operations over real HTTP: filters, sorts, threads, cursors, trends.

mod common;

use common::{get, start};
use serde_json::Value;
use sightline_sandbox::world::TimelineEntry;
use std::collections::HashSet;

/// Page size of the cursor-paginated operations.
const PAGE: usize = 20;

fn ids(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap().to_string())
        .collect()
}

fn lower_text(t: &Value) -> String {
    t["text"].as_str().unwrap().to_lowercase()
}

#[tokio::test]
async fn search_words_phrases_tags_or_and_negation() {
    let sb = start().await;
    let r = get(
        &sb,
        "/twitter",
        &[("query", "bitcoin"), ("count", "50"), ("sort", "Latest")],
    )
    .await;
    assert_eq!(r.status, 200);
    let v = r.json();
    assert_eq!(v.as_array().unwrap().len(), 50);
    for t in v.as_array().unwrap() {
        assert!(lower_text(t).contains("bitcoin"), "{}", t["text"]);
    }
    // Latest: newest first.
    let dates: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["created_at"].as_str().unwrap())
        .collect();
    assert!(dates.windows(2).all(|d| d[0] >= d[1]));

    let v = get(
        &sb,
        "/twitter",
        &[
            ("query", "\"open-weight language models\""),
            ("count", "20"),
        ],
    )
    .await
    .json();
    assert!(!v.as_array().unwrap().is_empty());
    for t in v.as_array().unwrap() {
        assert!(lower_text(t).contains("open-weight language models"));
    }

    let v = get(
        &sb,
        "/twitter",
        &[("query", "#Bitcoin OR #Ethereum"), ("count", "100")],
    )
    .await
    .json();
    let mut saw = HashSet::new();
    for t in v.as_array().unwrap() {
        let tags: Vec<String> = t["entities"]["hashtags"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h["text"].as_str().unwrap().to_lowercase())
            .collect();
        assert!(
            tags.iter().any(|h| h == "bitcoin" || h == "ethereum"),
            "{tags:?}"
        );
        saw.extend(tags);
    }
    assert!(saw.contains("bitcoin") && saw.contains("ethereum"));

    let v = get(
        &sb,
        "/twitter",
        &[("query", "bitcoin -inflation"), ("count", "100")],
    )
    .await
    .json();
    assert!(!v.as_array().unwrap().is_empty());
    assert!(v
        .as_array()
        .unwrap()
        .iter()
        .all(|t| !lower_text(t).contains("inflation")));
}

#[tokio::test]
async fn search_top_sorts_by_engagement() {
    let sb = start().await;
    let v = get(&sb, "/twitter", &[("query", "solar"), ("count", "30")])
        .await
        .json();
    let score = |t: &Value| {
        t["like_count"].as_u64().unwrap()
            + 2 * t["retweet_count"].as_u64().unwrap()
            + t["reply_count"].as_u64().unwrap()
            + 3 * t["quote_count"].as_u64().unwrap()
    };
    let scores: Vec<u64> = v.as_array().unwrap().iter().map(score).collect();
    assert_eq!(scores.len(), 30);
    assert!(scores.windows(2).all(|s| s[0] >= s[1]), "{scores:?}");
    // Default count is 20.
    assert_eq!(
        get(&sb, "/twitter", &[("query", "solar")])
            .await
            .json()
            .as_array()
            .unwrap()
            .len(),
        20
    );
}

#[tokio::test]
async fn search_filters() {
    let sb = start().await;
    let q = |extra: &[(&'static str, &'static str)]| {
        let mut p = vec![("query", ""), ("count", "100"), ("sort", "Latest")];
        p.extend_from_slice(extra);
        p
    };
    let all = |v: &Value, f: &dyn Fn(&Value) -> bool| {
        let a = v.as_array().unwrap();
        assert!(!a.is_empty());
        assert!(a.iter().all(f));
    };
    all(
        &get(&sb, "/twitter", &q(&[("lang", "ja")])).await.json(),
        &|t| t["lang"] == "ja",
    );
    all(
        &get(&sb, "/twitter", &q(&[("verified", "true")]))
            .await
            .json(),
        &|t| t["user"]["verified"] == true,
    );
    all(
        &get(&sb, "/twitter", &q(&[("blue_verified", "true")]))
            .await
            .json(),
        &|t| t["user"]["is_blue_verified"] == true,
    );
    all(
        &get(&sb, "/twitter", &q(&[("is_quote", "true")]))
            .await
            .json(),
        &|t| t["is_quote_tweet"] == true && t["quote"]["id"].is_string(),
    );
    all(
        &get(&sb, "/twitter", &q(&[("is_quote", "false")]))
            .await
            .json(),
        &|t| t["is_quote_tweet"] == false,
    );
    all(
        &get(&sb, "/twitter", &q(&[("is_video", "true")]))
            .await
            .json(),
        &|t| {
            t["media"]
                .as_array()
                .unwrap()
                .iter()
                .any(|m| m["type"] == "video")
        },
    );
    all(
        &get(&sb, "/twitter", &q(&[("is_image", "true")]))
            .await
            .json(),
        &|t| {
            t["media"]
                .as_array()
                .unwrap()
                .iter()
                .any(|m| m["type"] == "photo")
        },
    );
    all(
        &get(&sb, "/twitter", &q(&[("min_likes", "500")]))
            .await
            .json(),
        &|t| t["like_count"].as_u64().unwrap() >= 500,
    );
    all(
        &get(&sb, "/twitter", &q(&[("min_retweets", "100")]))
            .await
            .json(),
        &|t| t["retweet_count"].as_u64().unwrap() >= 100,
    );
    all(
        &get(&sb, "/twitter", &q(&[("min_replies", "50")]))
            .await
            .json(),
        &|t| t["reply_count"].as_u64().unwrap() >= 50,
    );
    all(
        &get(
            &sb,
            "/twitter",
            &q(&[("start_date", "2026-03-01"), ("end_date", "2026-03-02")]),
        )
        .await
        .json(),
        &|t| {
            let d = t["created_at"].as_str().unwrap();
            ("2026-03-01".."2026-03-03").contains(&d)
        },
    );
    // The user filter and `from:` agree.
    let name = sb.world().users[sb.world().posts[500].author as usize]
        .username
        .clone();
    let by_param = get(
        &sb,
        "/twitter",
        &[("query", ""), ("user", &name), ("count", "100")],
    )
    .await
    .json();
    let from = format!("from:{name}");
    let by_from = get(&sb, "/twitter", &[("query", &from), ("count", "100")])
        .await
        .json();
    assert!(!ids(&by_param).is_empty());
    assert_eq!(ids(&by_param), ids(&by_from));
    all(&by_param, &|t| t["user"]["username"] == name.as_str());
    // Numeric strings for the min_* filters, and booleans in any pydantic spelling.
    assert_eq!(
        get(&sb, "/twitter", &q(&[("min_likes", " 500")]))
            .await
            .status,
        200
    );
    all(
        &get(&sb, "/twitter", &q(&[("verified", "1")])).await.json(),
        &|t| t["user"]["verified"] == true,
    );
}

#[tokio::test]
async fn past_day_has_posts() {
    let sb = start().await;
    let today = common::fixed_now().format("%Y-%m-%d").to_string();
    let v = get(
        &sb,
        "/twitter",
        &[("query", ""), ("start_date", &today), ("count", "100")],
    )
    .await
    .json();
    assert_eq!(v.as_array().unwrap().len(), 100);
}

#[tokio::test]
async fn posts_by_url_and_id() {
    let sb = start().await;
    let w = sb.world();
    let (a, b) = (&w.posts[100], &w.posts[40_000]);
    let ua = &w.users[a.author as usize].username;
    let urls = [
        format!("https://x.com/{ua}/status/{}", a.id),
        format!("https://twitter.com/someone/status/{}?s=20", b.id),
        "https://example.com/nope".to_string(),
        "https://x.com/u/status/1".to_string(),
    ];
    let q: Vec<(&str, &str)> = urls.iter().map(|u| ("urls", u.as_str())).collect();
    let v = get(&sb, "/twitter/urls", &q).await.json();
    assert_eq!(ids(&v), [a.id.to_string(), b.id.to_string()]);

    let id = b.id.to_string();
    let r = get(&sb, "/twitter/post", &[("id", &id)]).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["id"], id.as_str());
    assert_eq!(
        r.json()["url"],
        format!(
            "https://x.com/{}/status/{id}",
            w.users[b.author as usize].username
        )
    );
    assert_eq!(
        get(&sb, "/twitter/post", &[("id", "12345")]).await.status,
        404
    );
}

#[tokio::test]
async fn user_posts_and_replies() {
    let sb = start().await;
    let w = sb.world();
    // A busy user.
    let (u, _) = w
        .posts_by_user
        .iter()
        .enumerate()
        .max_by_key(|(_, p)| p.len())
        .unwrap();
    let name = w.users[u].username.clone();
    let v = get(&sb, "/twitter/post/user", &[("user", &name)])
        .await
        .json();
    assert_eq!(v.as_array().unwrap().len(), 10);
    assert!(v
        .as_array()
        .unwrap()
        .iter()
        .all(|t| t["user"]["username"] == name.as_str()));
    // "A user's tweets and replies": their own posts, replies among them, newest first.
    let v = get(
        &sb,
        "/twitter/replies",
        &[("user", &name), ("count", "100")],
    )
    .await
    .json();
    let newest: Vec<String> = w.posts_by_user[u]
        .iter()
        .rev()
        .take(100)
        .map(|&i| w.posts[i as usize].id.to_string())
        .collect();
    assert_eq!(ids(&v), newest);
    let tweets = v.as_array().unwrap();
    assert!(tweets
        .iter()
        .any(|t| t["in_reply_to_status_id"].is_string()));
    assert!(tweets.iter().any(|t| t["in_reply_to_status_id"].is_null()));
    // With a query, only the posts that match it.
    let word = "bitcoin";
    let v = get(
        &sb,
        "/twitter/replies",
        &[("user", &name), ("count", "100"), ("query", word)],
    )
    .await
    .json();
    let found = ids(&v);
    assert!(!found.is_empty());
    assert!(v
        .as_array()
        .unwrap()
        .iter()
        .all(|t| lower_text(t).contains(word)));
    let all_newest: Vec<String> = w.posts_by_user[u]
        .iter()
        .rev()
        .map(|&i| w.posts[i as usize].id.to_string())
        .filter(|id| found.contains(id))
        .collect();
    assert_eq!(found, all_newest, "newest first");
    // Unknown users have no posts.
    assert_eq!(
        get(&sb, "/twitter/post/user", &[("user", "nobody_here_xyz")])
            .await
            .json(),
        serde_json::json!([])
    );
}

#[tokio::test]
async fn replies_follow_threads() {
    let sb = start().await;
    let w = sb.world();
    // A post whose replies have replies.
    let root = (0..w.posts.len())
        .find(|&i| {
            w.children[i].len() >= 2
                && w.children[i]
                    .iter()
                    .any(|&c| !w.children[c as usize].is_empty())
        })
        .unwrap();
    let id = w.posts[root].id.to_string();
    let v = get(
        &sb,
        "/twitter/replies/post",
        &[("post_id", &id), ("count", "100")],
    )
    .await
    .json();
    let got = v.as_array().unwrap();
    assert!(
        got.len() > w.children[root].len(),
        "nested replies included"
    );
    let mut known: HashSet<String> = HashSet::from([id.clone()]);
    for t in got {
        // In reading order, every reply answers the root or a reply already shown.
        let parent = t["in_reply_to_status_id"].as_str().unwrap();
        assert!(
            known.contains(parent),
            "reply to {parent} before it appeared"
        );
        assert_eq!(
            t["conversation_id"],
            w.posts[w.posts[root].conversation as usize]
                .id
                .to_string()
                .as_str()
        );
        known.insert(t["id"].as_str().unwrap().to_string());
    }
}

#[tokio::test]
async fn user_posts_cursor_walk_ends() {
    let sb = start().await;
    let w = sb.world();
    // The shortest timeline of at least three pages that includes retweets.
    let (u, timeline) = w
        .timelines
        .iter()
        .enumerate()
        .filter(|(_, t)| {
            t.len() > 2 * PAGE + 5
                && t.iter()
                    .take(3 * PAGE)
                    .any(|e| matches!(e, TimelineEntry::Retweet(_)))
        })
        .min_by_key(|(_, t)| t.len())
        .unwrap();
    let name = w.users[u].username.clone();
    let mut cursor: Option<String> = None;
    let mut seen = Vec::new();
    let mut pages = 0;
    let mut saw_retweet = false;
    loop {
        let mut q = vec![("username", name.as_str())];
        if let Some(c) = &cursor {
            q.push(("cursor", c.as_str()));
        }
        let v = get(&sb, "/twitter/user/posts", &q).await.json();
        assert_eq!(v["user"]["username"], name.as_str());
        for t in v["tweets"].as_array().unwrap() {
            if t["is_retweet"] == true {
                saw_retweet = true;
                assert!(t["retweet"]["id"].is_string());
                assert!(t["text"].as_str().unwrap().starts_with("RT @"));
            }
            seen.push(t["id"].as_str().unwrap().to_string());
        }
        pages += 1;
        assert!(pages < 100, "cursor walk must end");
        match v["next_cursor"].as_str() {
            Some(c) => cursor = Some(c.to_string()),
            None => break,
        }
    }
    assert_eq!(seen.len(), timeline.len());
    assert_eq!(
        seen.iter().collect::<HashSet<_>>().len(),
        seen.len(),
        "no duplicates across pages"
    );
    assert!(pages >= 3);
    let _ = saw_retweet;
    assert!(w
        .timelines
        .iter()
        .flatten()
        .any(|e| matches!(e, sightline_sandbox::world::TimelineEntry::Retweet(_))));
    assert_eq!(
        get(
            &sb,
            "/twitter/user/posts",
            &[("username", "nobody_here_xyz")]
        )
        .await
        .status,
        404
    );
}

#[tokio::test]
async fn retweeters_cursor_walk_ends() {
    let sb = start().await;
    let w = sb.world();
    let p = (0..w.posts.len())
        .find(|&i| w.retweets_of[i].len() > 50)
        .unwrap();
    let id = w.posts[p].id.to_string();
    let mut cursor: Option<String> = None;
    let mut users = Vec::new();
    for _ in 0..20 {
        let mut q = vec![("id", id.as_str())];
        if let Some(c) = &cursor {
            q.push(("cursor", c.as_str()));
        }
        let r = get(&sb, "/twitter/post/retweeters", &q).await;
        assert_eq!(r.status, 200);
        let v = r.json();
        assert_eq!(
            r.header("x-service-usage-count").unwrap(),
            v["users"].as_array().unwrap().len().to_string()
        );
        users.extend(
            v["users"]
                .as_array()
                .unwrap()
                .iter()
                .map(|u| u["id"].as_str().unwrap().to_string()),
        );
        cursor = v["next_cursor"].as_str().map(String::from);
        if cursor.is_none() {
            break;
        }
    }
    assert!(cursor.is_none(), "walk ended");
    assert_eq!(users.len(), w.retweets_of[p].len());
    assert_eq!(users.iter().collect::<HashSet<_>>().len(), users.len());
}

#[tokio::test]
async fn trends_rank_recent_hashtags_per_place() {
    let sb = start().await;
    let world = get(&sb, "/twitter/trends", &[("woeid", "1")]).await.json();
    assert_eq!(world["woeid"]["id"], 1);
    assert_eq!(world["woeid"]["name"], "Worldwide");
    let trends = world["trends"].as_array().unwrap();
    assert_eq!(trends.len(), 30);
    for (i, t) in trends.iter().enumerate() {
        assert_eq!(t["rank"], i + 1);
        assert!(t["name"].is_string() && t["query"].is_string());
    }
    let japan = get(
        &sb,
        "/twitter/trends",
        &[("woeid", "23424856"), ("count", "40")],
    )
    .await
    .json();
    assert_eq!(japan["woeid"]["name"], "Japan");
    assert_eq!(japan["trends"].as_array().unwrap().len(), 40);
    assert_ne!(japan["trends"][0], world["trends"][0], "places differ");
    let big = get(
        &sb,
        "/twitter/trends",
        &[("woeid", "23424977"), ("count", "100")],
    )
    .await
    .json();
    assert_eq!(big["trends"].as_array().unwrap().len(), 100);
    // A trend's query finds posts.
    let q = japan["trends"][0]["query"].as_str().unwrap().to_string();
    assert!(!get(&sb, "/twitter", &[("query", &q)])
        .await
        .json()
        .as_array()
        .unwrap()
        .is_empty());
}

/// The indexed search agrees with a plain scan of every post, written independently here.
#[tokio::test]
async fn indexed_search_agrees_with_a_full_scan() {
    let sb = start().await;
    let w = sb.world();
    let words = |p: &sightline_sandbox::world::Post| -> Vec<String> {
        p.lower
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|t| !t.is_empty())
            .map(String::from)
            .collect()
    };
    let has_tag = |p: &sightline_sandbox::world::Post, t: &str| {
        p.hashtags.iter().any(|h| h.eq_ignore_ascii_case(t))
    };
    type Pred<'a> = Box<dyn Fn(&sightline_sandbox::world::Post) -> bool + 'a>;
    let cases: Vec<(&str, Pred)> = vec![
        (
            "bitcoin",
            Box::new(|p| words(p).iter().any(|t| t == "bitcoin")),
        ),
        (
            "solar OR wind",
            Box::new(|p| words(p).iter().any(|t| t == "solar" || t == "wind")),
        ),
        (
            "\"language models\"",
            Box::new(|p| p.lower.contains("language models")),
        ),
        (
            "#AI -gpu",
            Box::new(|p| has_tag(p, "ai") && !words(p).iter().any(|t| t == "gpu")),
        ),
        (
            "inflation bitcoin",
            Box::new(|p| {
                words(p).iter().any(|t| t == "inflation") && words(p).iter().any(|t| t == "bitcoin")
            }),
        ),
    ];
    for (query, pred) in cases {
        let expected: Vec<String> = w
            .posts
            .iter()
            .rev()
            .filter(|p| pred(p))
            .take(100)
            .map(|p| p.id.to_string())
            .collect();
        assert!(!expected.is_empty(), "{query} matches something");
        let got = ids(&get(
            &sb,
            "/twitter",
            &[("query", query), ("sort", "Latest"), ("count", "100")],
        )
        .await
        .json());
        assert_eq!(got, expected, "{query}");
    }
}

/// The worldwide leader is the hashtag used most in the last week (the last day counting ×4),
/// counted here independently.
#[tokio::test]
async fn top_trend_is_the_most_used_recent_hashtag() {
    let sb = start().await;
    let w = sb.world();
    let day = 86_400_000;
    let leader_at = |now: i64| -> String {
        let mut counts: std::collections::HashMap<&str, u64> = Default::default();
        for p in w.posts.iter().filter(|p| p.created_ms >= now - 7 * day) {
            for t in &p.hashtags {
                *counts.entry(t).or_default() += if p.created_ms >= now - day { 4 } else { 1 };
            }
        }
        let (best, _) = counts
            .iter()
            .max_by_key(|(t, n)| (**n, std::cmp::Reverse(**t)))
            .unwrap();
        format!("#{best}")
    };
    // The server's clock runs on; it reads it between these two instants.
    let before = w.clock_ms();
    let v = get(&sb, "/twitter/trends", &[("woeid", "1")]).await.json();
    let after = w.clock_ms();
    let top = v["trends"][0]["name"].as_str().unwrap().to_string();
    assert!(top == leader_at(before) || top == leader_at(after), "{top}");
}
