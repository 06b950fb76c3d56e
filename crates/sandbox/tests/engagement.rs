//! The counts a post shows lead somewhere: walked over real HTTP for every post of a seeded
//! world, each `reply_count` is the number of replies `/twitter/replies/post` returns, each
//! `retweet_count` the number of accounts `/twitter/post/retweeters` pages through, and each
//! `quote_count` the number of posts whose `quoted_status_id` names it. The walk runs an hour
//! into the live trickle, its posts included: they leave every count as the world holds it.

mod common;

use common::{fixed_now, get};
use serde::Deserialize;
use sightline_sandbox::Sandbox;
use std::collections::HashMap;
use std::sync::Arc;

/// Concurrent walkers: enough to keep both cores of a CI machine busy.
const WALKERS: usize = 8;
/// Links per `/twitter/urls` request (a URL of about 6 KB).
const URLS_PER_REQUEST: usize = 100;

/// Runs `visit` over `items` from a few concurrent tasks, keeping what each returns.
async fn walk<T, R, F, Fut>(sb: &Arc<Sandbox>, items: Vec<T>, visit: F) -> Vec<R>
where
    T: Send + 'static,
    R: Send + 'static,
    F: Fn(Arc<Sandbox>, T) -> Fut + Send + Sync + Copy + 'static,
    Fut: std::future::Future<Output = R> + Send,
{
    let queue = Arc::new(std::sync::Mutex::new(items));
    let mut tasks = tokio::task::JoinSet::new();
    for _ in 0..WALKERS {
        let (sb, queue) = (sb.clone(), queue.clone());
        tasks.spawn(async move {
            let mut out = Vec::new();
            loop {
                let next = queue.lock().unwrap().pop();
                let Some(item) = next else { break };
                out.push(visit(sb.clone(), item).await);
            }
            out
        });
    }
    let mut all = Vec::new();
    while let Some(done) = tasks.join_next().await {
        all.extend(done.expect("walker"));
    }
    all
}

/// The fields of a Tweet this test reads (parsing whole posts in a debug build is slow).
#[derive(Deserialize)]
struct Counts {
    id: String,
    reply_count: u64,
    retweet_count: u64,
    quote_count: u64,
    quoted_status_id: Option<String>,
}

/// A page of retweeters, counted but not read.
#[derive(Deserialize)]
struct RetweetersPage {
    users: Vec<serde::de::IgnoredAny>,
    next_cursor: Option<String>,
}

/// GET with the demo key on a shared client, so that walkers reuse their connections.
async fn fetch<T: serde::de::DeserializeOwned>(
    sb: &Sandbox,
    path: &str,
    query: &[(&str, &str)],
) -> T {
    static CLIENT: std::sync::OnceLock<reqwest::Client> = std::sync::OnceLock::new();
    let client = CLIENT.get_or_init(reqwest::Client::new);
    let r = client
        .get(format!("{}{path}", sb.base_url()))
        .query(query)
        .header("Authorization", sb.demo_key())
        .send()
        .await
        .expect("request");
    assert_eq!(r.status(), 200, "{path} {query:?}");
    r.json().await.expect("JSON")
}

#[tokio::test]
async fn every_count_matches_what_can_be_fetched() {
    let rate = sightline_sandbox::DEFAULT_LIVE_RATE;
    let sb = Sandbox::builder()
        .seed(42)
        .pace_ms(0)
        .now(fixed_now())
        .manual_clock()
        .live_rate(rate)
        .start()
        .await
        .expect("sandbox starts");
    sb.advance_clock(std::time::Duration::from_secs(3_600));
    let sb = Arc::new(sb);
    let world = sb.world();
    let trickled =
        sightline_sandbox::world::live::posts_between(world, rate, world.now_ms, sb.now_ms());
    assert_eq!(trickled.len(), 720);
    let links: Vec<String> = world
        .posts
        .iter()
        .chain(&trickled)
        .map(|p| {
            let author = &world.users[p.author as usize].username;
            format!("https://x.com/{author}/status/{}", p.id)
        })
        .collect();

    // Every post as the service renders it.
    let batches: Vec<Vec<String>> = links.chunks(URLS_PER_REQUEST).map(<[_]>::to_vec).collect();
    let tweets: Vec<Counts> = walk(&sb, batches, |sb, batch| async move {
        let query: Vec<(&str, &str)> = batch.iter().map(|u| ("urls", u.as_str())).collect();
        let found: Vec<Counts> = fetch(&sb, "/twitter/urls", &query).await;
        assert_eq!(found.len(), batch.len());
        found
    })
    .await
    .into_iter()
    .flatten()
    .collect();
    assert_eq!(tweets.len(), world.posts.len() + trickled.len());

    // Quotes: the posts that name a post as quoted are as many as its count says.
    let mut quoted: HashMap<&str, u64> = HashMap::new();
    for t in &tweets {
        if let Some(q) = &t.quoted_status_id {
            *quoted.entry(q).or_default() += 1;
        }
    }
    assert!(quoted.len() > 1_000, "{} posts quoted", quoted.len());
    for t in &tweets {
        let quotes = quoted.get(t.id.as_str()).copied().unwrap_or(0);
        assert_eq!(t.quote_count, quotes, "quotes of {}", t.id);
    }

    // Replies: the thread below each post with replies, in one request of at most 100.
    let with_replies: Vec<(String, u64)> = tweets
        .iter()
        .filter(|t| t.reply_count > 0)
        .map(|t| (t.id.clone(), t.reply_count))
        .collect();
    assert!(with_replies.len() > 1_000, "{} threads", with_replies.len());
    let most = with_replies.iter().map(|r| r.1).max().unwrap();
    assert!(most <= 100, "a thread of {most} cannot be fetched at once");
    walk(&sb, with_replies, |sb, (id, expected)| async move {
        let query = [("post_id", id.as_str()), ("count", "100")];
        let replies: Vec<serde::de::IgnoredAny> = fetch(&sb, "/twitter/replies/post", &query).await;
        assert_eq!(replies.len() as u64, expected, "replies of {id}");
    })
    .await;

    // Reposts: every page of retweeters, counted.
    let with_reposts: Vec<(String, u64)> = tweets
        .iter()
        .filter(|t| t.retweet_count > 0)
        .map(|t| (t.id.clone(), t.retweet_count))
        .collect();
    assert!(
        with_reposts.len() > 1_000,
        "{} reposted",
        with_reposts.len()
    );
    walk(&sb, with_reposts, |sb, (id, expected)| async move {
        let mut seen = 0u64;
        let mut cursor: Option<String> = None;
        loop {
            let mut query = vec![("id", id.as_str())];
            if let Some(c) = &cursor {
                query.push(("cursor", c.as_str()));
            }
            let page: RetweetersPage = fetch(&sb, "/twitter/post/retweeters", &query).await;
            seen += page.users.len() as u64;
            match page.next_cursor {
                Some(next) => cursor = Some(next),
                None => break,
            }
        }
        assert_eq!(seen, expected, "reposters of {id}");
    })
    .await;

    // And a post without replies has none to fetch.
    let quiet = tweets
        .iter()
        .find(|t| t.reply_count == 0)
        .expect("a quiet post");
    let r = get(
        &sb,
        "/twitter/replies/post",
        &[("post_id", &quiet.id), ("count", "100")],
    )
    .await;
    assert_eq!(r.json(), serde_json::json!([]));
}
