//! Investigation benchmark: `cargo bench -p sightline-store --bench investigations`.
//!
//! Builds, in a temporary folder, an archive of 200,000 posts of which 100,000 were found by
//! 1,000 requests sent while one investigation was active (so they were filed by the record
//! transaction itself), a tenth of them tagged and noted; then times the investigation's
//! first view as the screen opens it — the detail (summary, cost from the ledger by day and
//! operation, tag counts, latest check) and the first page of posts — and first pages under
//! each filter. It prints measured figures (median and slowest of several runs); it asserts
//! nothing about time.

use std::str::FromStr;
use std::time::{Duration, Instant};

use chrono::{DateTime, TimeZone, Utc};
use rust_decimal::Decimal;
use sightline_store::{
    Billing, InvestigationPostQuery, NewPost, RequestRecord, RequestStatus, Store, Tz,
};

const REQUESTS: usize = 1_000;
const POSTS_PER_REQUEST: usize = 100;
const RUNS: usize = 15;
const WORDS: [&str; 12] = [
    "harbour",
    "ferry",
    "storm",
    "lighthouse",
    "council",
    "flood",
    "bridge",
    "market",
    "school",
    "station",
    "river",
    "festival",
];

fn post(n: usize, at: DateTime<Utc>) -> NewPost {
    let word = WORDS[n % WORDS.len()];
    let rare = if n % 997 == 0 { " zephyrine" } else { "" };
    NewPost {
        id: format!("{}", 1_800_000_000_000_000_000u64 + n as u64),
        conversation_id: None,
        author_id: Some(format!("u{}", n % 5_000)),
        author_username: format!("user{}", n % 5_000),
        author_name: format!("User {}", n % 5_000),
        author_verified: false,
        text: format!("post {n} about the {word} and the town{rare}"),
        lang: Some("en".into()),
        created_at: at,
        like_count: (n % 300) as i64,
        retweet_count: (n % 40) as i64,
        reply_count: (n % 12) as i64,
        quote_count: 0,
        view_count: Some((n * 7 % 10_000) as i64),
        bookmark_count: 0,
        hashtags: vec![word.into()],
        url: None,
        raw_json: format!(r#"{{"id":"{n}","text":"post {n}"}}"#),
        nested: false,
    }
}

fn request(r: usize, first_post: usize, start: DateTime<Utc>) -> RequestRecord {
    let at = start + chrono::Duration::minutes(r as i64 * 37);
    RequestRecord {
        request_id: format!("req-{r}"),
        started_at: at,
        operation: if r % 3 == 0 {
            "twitter_urls"
        } else {
            "twitter_search"
        }
        .into(),
        params_json: format!(r#"{{"query":"bench {r}"}}"#),
        key_label: Some("bench".into()),
        mode: "live".into(),
        status: RequestStatus::Ok,
        error_class: None,
        error_message: None,
        duration_ms: 300,
        result_count: POSTS_PER_REQUEST as i64,
        billing: Some(Billing {
            cost: Decimal::from_str("0.03").ok(),
            cost_text: None,
            usage_count: POSTS_PER_REQUEST as i64,
            service: "x".into(),
            currency: "USD".into(),
        }),
        cursor: None,
        next_cursor: None,
        parent_id: None,
        result_json: None,
        provenance: None,
        posts: (first_post..first_post + POSTS_PER_REQUEST)
            .map(|n| post(n, at - chrono::Duration::seconds(n as i64 % 86_400)))
            .collect(),
        users: Vec::new(),
        links: Vec::new(),
    }
}

fn report(name: &str, mut runs: Vec<Duration>) {
    runs.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "{name:<48} median {:>7.2} ms   slowest {:>7.2} ms",
        ms(runs[runs.len() / 2]),
        ms(runs[runs.len() - 1])
    );
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path().join("bench.db")).await.unwrap();
    let start = Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap();

    let build = Instant::now();
    // 100,000 posts outside the investigation, then 100,000 found while it was active.
    let outside: Vec<RequestRecord> = (0..REQUESTS)
        .map(|r| request(r, r * POSTS_PER_REQUEST, start))
        .collect();
    for chunk in outside.chunks(100) {
        store.record_requests(chunk).await.unwrap();
    }
    let case = store
        .create_investigation("Bench", "", start)
        .await
        .unwrap();
    store.set_active_investigation(Some(case)).await.unwrap();
    let offset = REQUESTS * POSTS_PER_REQUEST;
    let inside: Vec<RequestRecord> = (0..REQUESTS)
        .map(|r| {
            let mut rec = request(REQUESTS + r, offset + r * POSTS_PER_REQUEST, start);
            rec.request_id = format!("case-{r}");
            rec
        })
        .collect();
    for chunk in inside.chunks(100) {
        store.record_requests(chunk).await.unwrap();
    }
    store.set_active_investigation(None).await.unwrap();
    let tags = |n: usize| vec![format!("tag{}", (n / 10) % 25), "reviewed".to_owned()];
    for n in (offset..offset + REQUESTS * POSTS_PER_REQUEST).step_by(10) {
        let id = post(n, start).id;
        store
            .set_investigation_post(case, &id, Some("seen"), Some(&tags(n)))
            .await
            .unwrap();
    }
    println!(
        "built: 200,000 posts, 100,000 filed in one investigation, 10,000 tagged, in {:.1} s",
        build.elapsed().as_secs_f64()
    );
    let summary = store.investigation(case).await.unwrap().unwrap();
    assert_eq!(summary.post_count, (REQUESTS * POSTS_PER_REQUEST) as i64);

    let mut first_view = Vec::new();
    for _ in 0..RUNS {
        let clock = Instant::now();
        let detail = store
            .investigation_detail(case, Tz::UTC)
            .await
            .unwrap()
            .unwrap();
        let page = store
            .investigation_posts(case, &InvestigationPostQuery::default())
            .await
            .unwrap();
        first_view.push(clock.elapsed());
        assert_eq!(page.posts.len(), 50);
        assert_eq!(page.total, 100_000);
        assert!(detail.tags.len() > 1);
    }
    report("first view: detail + first page of 50 posts", first_view);

    let filters: [(&str, InvestigationPostQuery); 6] = [
        (
            "first page, tag filter (10,000 posts)",
            InvestigationPostQuery {
                tag: Some("reviewed".into()),
                ..Default::default()
            },
        ),
        (
            "first page, rare tag (400 posts)",
            InvestigationPostQuery {
                tag: Some("tag7".into()),
                ..Default::default()
            },
        ),
        (
            "first page, common word (1 in 12 posts)",
            InvestigationPostQuery {
                text: Some("ferry".into()),
                ..Default::default()
            },
        ),
        (
            "first page, rare word (~100 posts)",
            InvestigationPostQuery {
                text: Some("zephyrine".into()),
                ..Default::default()
            },
        ),
        (
            "first page, author (20 posts)",
            InvestigationPostQuery {
                author: Some("@user42".into()),
                ..Default::default()
            },
        ),
        (
            "first page, one week",
            InvestigationPostQuery {
                from: Some(start + chrono::Duration::days(30)),
                to: Some(start + chrono::Duration::days(37)),
                ..Default::default()
            },
        ),
    ];
    for (name, query) in filters {
        let mut runs = Vec::new();
        for _ in 0..RUNS {
            let clock = Instant::now();
            let page = store.investigation_posts(case, &query).await.unwrap();
            runs.push(clock.elapsed());
            assert!(page.total > 0, "{name} matched nothing");
        }
        report(name, runs);
    }
    let mut runs = Vec::new();
    for _ in 0..RUNS {
        let clock = Instant::now();
        store
            .investigation_tag_suggestions(case, "ta", 10)
            .await
            .unwrap();
        runs.push(clock.elapsed());
    }
    report("tag suggestions for \"ta\"", runs);
    let mut runs = Vec::new();
    for _ in 0..RUNS {
        let clock = Instant::now();
        store.investigations(false).await.unwrap();
        runs.push(clock.elapsed());
    }
    report("investigation list", runs);
    store.close().await;
}
