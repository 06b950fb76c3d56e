//! The live trickle against a clock the test controls: what a monitor asking twice sees is
//! exactly the posts created between its two asks, the same on every run, found by every X
//! operation that can return them, billed per post returned, and nothing at all without a
//! trickle.

mod common;

use common::{client, fixed_now, get};
use serde_json::{json, Value};
use sightline_sandbox::world::live::posts_between;
use sightline_sandbox::world::Post;
use sightline_sandbox::Sandbox;
use std::time::Duration;

const RATE: u32 = sightline_sandbox::DEFAULT_LIVE_RATE;

async fn start_live(rate: u32) -> Sandbox {
    Sandbox::builder()
        .seed(42)
        .port(0)
        .pace_ms(0)
        .faults(true)
        .now(fixed_now())
        .manual_clock()
        .live_rate(rate)
        .start()
        .await
        .expect("sandbox starts")
}

fn ids(answer: &Value) -> Vec<String> {
    answer
        .as_array()
        .expect("an array of posts")
        .iter()
        .map(|t| t["id"].as_str().expect("id").to_string())
        .collect()
}

fn has_tag(post: &Post, tag: &str) -> bool {
    post.hashtags.iter().any(|h| h.eq_ignore_ascii_case(tag))
}

/// Newest first, as `sort=Latest` answers.
fn newest_first(posts: &[&Post]) -> Vec<String> {
    posts.iter().rev().map(|p| p.id.to_string()).collect()
}

async fn hashtag_since(sb: &Sandbox, tag: &str, since_ms: i64) -> common::Reply {
    let query = format!("#{tag} since_time:{}", since_ms / 1000);
    get(
        sb,
        "/twitter",
        &[("query", &query), ("sort", "Latest"), ("count", "100")],
    )
    .await
}

#[tokio::test]
async fn a_second_ask_sees_exactly_the_posts_created_between() {
    let sb = start_live(RATE).await;
    let world = sb.world();
    let t0 = sb.now_ms();
    assert_eq!(t0, world.now_ms, "a manual clock starts at the world's now");

    let first = hashtag_since(&sb, "AI", t0).await;
    assert_eq!(first.status, 200);
    assert_eq!(first.json(), json!([]), "nothing is newer than now yet");
    assert_eq!(first.header("x-service-usage-count"), Some("0"));
    assert_eq!(first.header("x-service-cost-usd"), Some("0"));

    sb.advance_clock(Duration::from_secs(180));
    let t1 = sb.now_ms();
    let second = hashtag_since(&sb, "AI", t0).await;
    let trickled = posts_between(world, RATE, t0, t1);
    assert_eq!(trickled.len(), 36, "three minutes at 12 a minute");
    let expected: Vec<&Post> = trickled.iter().filter(|p| has_tag(p, "AI")).collect();
    assert!(
        expected.len() >= 4,
        "each topic's headline tag every 8 posts"
    );
    assert_eq!(ids(&second.json()), newest_first(&expected));
    for t in second.json().as_array().unwrap() {
        let at = chrono::DateTime::parse_from_rfc3339(t["created_at"].as_str().unwrap())
            .unwrap()
            .timestamp_millis();
        assert!(at > t0 && at <= t1, "{at} not in ({t0}, {t1}]");
    }
    // Billed for exactly what came back: 0.30 USD per 1,000 posts.
    let n = expected.len();
    assert_eq!(
        second.header("x-service-usage-count"),
        Some(&*n.to_string())
    );
    let cost = rust_decimal::Decimal::new(3 * n as i64, 4).normalize();
    assert_eq!(
        second.header("x-service-cost-usd"),
        Some(&*cost.to_string())
    );

    // Asking again from t1 finds nothing until the clock moves on.
    assert_eq!(hashtag_since(&sb, "AI", t1 + 1_000).await.json(), json!([]));

    // Every trickle post is newer, in time and in id, than every seeded one.
    let newest_seeded = world.posts.last().unwrap();
    assert!(trickled
        .iter()
        .all(|p| p.created_ms > world.now_ms && p.id > newest_seeded.id));
    assert!(trickled
        .windows(2)
        .all(|w| w[0].created_ms < w[1].created_ms && w[0].id < w[1].id));
}

#[tokio::test]
async fn the_trickle_is_a_function_of_the_seed_and_the_clock() {
    let a = start_live(RATE).await;
    let b = start_live(RATE).await;
    // One asks every minute, the other once at the end: they agree.
    let latest = [("query", ""), ("sort", "Latest"), ("count", "100")];
    for _ in 0..10 {
        a.advance_clock(Duration::from_secs(60));
        assert_eq!(get(&a, "/twitter", &latest).await.status, 200);
    }
    b.advance_clock(Duration::from_secs(600));
    let from_a = get(&a, "/twitter", &latest).await;
    let from_b = get(&b, "/twitter", &latest).await;
    // Media links name each sandbox's own address; all else is the same.
    assert_eq!(
        from_a.text.replace(a.base_url(), "SANDBOX"),
        from_b.text.replace(b.base_url(), "SANDBOX")
    );
    let trickled = posts_between(a.world(), RATE, a.world().now_ms, a.now_ms());
    assert_eq!(trickled.len(), 120, "ten minutes at 12 a minute");
    let newest: Vec<&Post> = trickled[20..].iter().collect();
    assert_eq!(ids(&from_a.json()), newest_first(&newest));

    // Another seed, another trickle; another rate, another schedule.
    let other = sightline_sandbox::World::generate(7, a.world().now_ms);
    let theirs = posts_between(&other, RATE, other.now_ms, other.now_ms + 600_000);
    assert_ne!(theirs[0].text, trickled[0].text);
    let faster = posts_between(a.world(), 60, a.world().now_ms, a.world().now_ms + 600_000);
    assert_eq!(faster.len(), 600);
}

#[tokio::test]
async fn trickle_posts_reach_every_x_operation_once_they_exist() {
    let sb = start_live(RATE).await;
    let world = sb.world();
    let t0 = sb.now_ms();
    let trickled = posts_between(world, RATE, t0, t0 + 600_000);
    let post = &trickled[30];
    let id = post.id.to_string();
    let author = &world.users[post.author as usize].username;
    let url = format!("https://x.com/{author}/status/{id}");

    // Not yet: a post of the future is nowhere.
    assert_eq!(get(&sb, "/twitter/post", &[("id", &id)]).await.status, 404);
    assert_eq!(
        get(&sb, "/twitter/urls", &[("urls", &url)]).await.json(),
        json!([])
    );

    sb.advance_clock(Duration::from_secs(600));
    let one = get(&sb, "/twitter/post", &[("id", &id)]).await;
    assert_eq!(one.status, 200);
    let tweet = one.json();
    assert_eq!(tweet["id"], json!(id));
    assert_eq!(tweet["text"], json!(post.text));
    assert_eq!(tweet["conversation_id"], json!(id));
    for count in ["reply_count", "retweet_count", "quote_count"] {
        assert_eq!(tweet[count], json!(0), "{count}");
    }
    assert_eq!(
        ids(&get(&sb, "/twitter/urls", &[("urls", &url)]).await.json()),
        std::slice::from_ref(&id)
    );
    let crawl = get(&sb, "/web/crawl", &[("url", &url)]).await;
    assert!(crawl.text.contains(&*post.text), "{}", crawl.text);

    // The author's posts and timeline, newest first.
    let newest_by_author = trickled.iter().rfind(|p| p.author == post.author).unwrap();
    let own = get(&sb, "/twitter/post/user", &[("user", author)])
        .await
        .json();
    assert_eq!(ids(&own)[0], newest_by_author.id.to_string());
    assert!(ids(&own).contains(&id));
    let timeline = get(&sb, "/twitter/user/posts", &[("username", author)])
        .await
        .json();
    assert_eq!(
        timeline["tweets"][0]["id"],
        json!(newest_by_author.id.to_string())
    );
    let from = get(
        &sb,
        "/twitter",
        &[("query", &format!("from:{author}")), ("sort", "Latest")],
    )
    .await;
    assert_eq!(ids(&from.json())[0], newest_by_author.id.to_string());

    // It starts its own conversation, with nobody below it yet.
    let replies = get(&sb, "/twitter/replies/post", &[("post_id", &id)]).await;
    assert_eq!((replies.status, replies.json()), (200, json!([])));
    let reposters = get(&sb, "/twitter/post/retweeters", &[("id", &id)])
        .await
        .json();
    assert_eq!(
        (&reposters["users"], &reposters["next_cursor"]),
        (&json!([]), &Value::Null)
    );

    // Its words and dates find it; a window that ends before it does not.
    let word = post
        .lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.len() >= 6 && w.chars().all(char::is_alphabetic) && *w != "https")
        .max_by_key(|w| w.len())
        .unwrap();
    let tag = post.hashtags[0];
    let day = chrono::DateTime::from_timestamp_millis(post.created_ms)
        .unwrap()
        .format("%Y-%m-%d");
    // (Top ranks the whole world: only narrow windows are asked for it.)
    let lang = sightline_sandbox::world::corpus::LANGS[post.lang as usize];
    for (query, sorts) in [
        (format!("{word} #{tag} since:{day}"), &["Latest", "Top"][..]),
        (
            format!("#{tag} since_time:{}", post.created_ms / 1000),
            &["Latest", "Top"],
        ),
        (format!("{word} lang:{lang}"), &["Latest"]),
    ] {
        for &sort in sorts {
            let found = get(
                &sb,
                "/twitter",
                &[("query", &query), ("sort", sort), ("count", "100")],
            )
            .await;
            assert!(ids(&found.json()).contains(&id), "{query} ({sort})");
        }
    }
    let dated = get(
        &sb,
        "/twitter",
        &[
            ("query", &format!("#{tag}")),
            ("start_date", &day.to_string()),
            ("sort", "Latest"),
            ("count", "100"),
        ],
    )
    .await;
    assert!(ids(&dated.json()).contains(&id));
    let before = get(
        &sb,
        "/twitter",
        &[
            ("query", &format!("#{tag} until_time:{}", t0 / 1000)),
            ("sort", "Latest"),
        ],
    )
    .await;
    let trickle_ids: Vec<String> = trickled.iter().map(|p| p.id.to_string()).collect();
    assert!(!ids(&before.json()).iter().any(|i| trickle_ids.contains(i)));
}

#[tokio::test]
async fn timeline_pages_do_not_shift_when_posts_arrive() {
    let sb = start_live(RATE).await;
    let world = sb.world();
    let t0 = sb.now_ms();
    // An author of the trickle's next hour with a timeline of several pages.
    let trickled = posts_between(world, RATE, t0, t0 + 3_600_000);
    let post = trickled
        .iter()
        .find(|p| world.timelines[p.author as usize].len() > 40)
        .expect("a busy author posts within the hour");
    let author = world.users[post.author as usize].username.clone();
    let page = |cursor: Option<String>| {
        let (sb, author) = (&sb, author.clone());
        async move {
            let mut query = vec![("username", author)];
            if let Some(c) = cursor {
                query.push(("cursor", c));
            }
            let query: Vec<(&str, &str)> = query.iter().map(|(k, v)| (*k, v.as_str())).collect();
            get(sb, "/twitter/user/posts", &query).await.json()
        }
    };
    let first = page(None).await;
    sb.advance_clock(Duration::from_millis((post.created_ms - t0 + 1) as u64));
    let second = page(first["next_cursor"].as_str().map(str::to_string)).await;
    let tweets = |p: &Value| -> Vec<String> {
        p["tweets"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["id"].as_str().unwrap().to_string())
            .collect()
    };
    let mut both = tweets(&first);
    both.extend(tweets(&second));
    let mut unique = both.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), both.len(), "a post came twice across pages");
    assert!(!both.contains(&post.id.to_string()));
    // A walk started now begins with the new post.
    assert_eq!(tweets(&page(None).await)[0], post.id.to_string());
}

#[tokio::test]
async fn seeded_counts_stay_what_the_world_holds() {
    let sb = start_live(RATE).await;
    let world = sb.world();
    let links: Vec<String> = world
        .posts
        .iter()
        .rev()
        .filter(|p| p.replies > 0)
        .take(100)
        .map(|p| {
            format!(
                "https://x.com/{}/status/{}",
                world.users[p.author as usize].username, p.id
            )
        })
        .collect();
    let query: Vec<(&str, &str)> = links.iter().map(|u| ("urls", u.as_str())).collect();
    let before = get(&sb, "/twitter/urls", &query).await;
    sb.advance_clock(Duration::from_secs(6 * 3600));
    let after = get(&sb, "/twitter/urls", &query).await;
    assert_eq!(
        before.text, after.text,
        "the trickle never replies to or quotes seeded posts"
    );
    let latest = get(
        &sb,
        "/twitter",
        &[("query", ""), ("sort", "Latest"), ("count", "100")],
    )
    .await;
    assert!(ids(&latest.json())
        .iter()
        .all(|i| i.parse::<u64>().unwrap() > world.posts.last().unwrap().id));
}

#[tokio::test]
async fn without_a_trickle_nothing_changes() {
    for sb in [start_live(0).await, common::start().await] {
        let latest = [("query", "#AI"), ("sort", "Latest"), ("count", "20")];
        let before = get(&sb, "/twitter", &latest).await;
        sb.advance_clock(Duration::from_secs(86_400));
        let after = get(&sb, "/twitter", &latest).await;
        assert_eq!(before.text, after.text);
        assert_eq!(before.header("etag"), after.header("etag"));
    }
}

#[tokio::test]
async fn the_clock_moves_over_http_for_process_level_tests() {
    let sb = start_live(RATE).await;
    let clock = format!("{}/__sandbox/clock", sb.base_url());
    let now: Value = client()
        .get(&clock)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(now["now_ms"], json!(sb.now_ms()));
    assert_eq!(now["now"], json!("2026-11-20T12:00:00.000Z"));
    let moved = client()
        .post(&clock)
        .json(&json!({ "advance_ms": 90_000 }))
        .send()
        .await
        .unwrap();
    assert_eq!(moved.status(), 200);
    let moved: Value = moved.json().await.unwrap();
    assert_eq!(moved["now"], json!("2026-11-20T12:01:30.000Z"));
    assert_eq!(sb.now_ms(), sb.world().now_ms + 90_000);
    let since = hashtag_since(&sb, "AI", sb.world().now_ms).await;
    let trickled = posts_between(sb.world(), RATE, sb.world().now_ms, sb.now_ms());
    let expected: Vec<&Post> = trickled.iter().filter(|p| has_tag(p, "AI")).collect();
    assert!(!expected.is_empty());
    assert_eq!(ids(&since.json()), newest_first(&expected));
    for bad in [
        json!({ "advance_ms": -1 }),
        json!({}),
        json!({ "advance_ms": "5" }),
    ] {
        let r = client().post(&clock).json(&bad).send().await.unwrap();
        assert_eq!(r.status(), 422, "{bad}");
    }
    // Only with the test routes on: an app's demo service keeps its own time.
    let plain = Sandbox::builder()
        .port(0)
        .now(fixed_now())
        .start()
        .await
        .unwrap();
    let r = client()
        .post(format!("{}/__sandbox/clock", plain.base_url()))
        .json(&json!({ "advance_ms": 1 }))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 404);
}
