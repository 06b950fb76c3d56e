//! Crash safety: a writer process is killed with SIGKILL in the middle of a long run of
//! request writes. After reopening, SQLite's integrity check must pass, every request the
//! writer reported as committed must be there in full (history, result, ledger, posts), and no
//! request may be there in part: none without its posts' media queued, which it records in
//! the same transaction.
//!
//! The writer is this same test binary re-invoked with an environment variable that turns the
//! `crash_writer_child` test into the writer loop (it is a no-op in a normal test run).

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::str::FromStr;
use std::time::{Duration, Instant};

use chrono::{TimeZone, Utc};
use rust_decimal::Decimal;
use sightline_store::{
    Billing, HistoryQuery, MediaKind, NewLink, NewMediaItem, NewPost, PostQuery, RequestRecord,
    RequestStatus, Store,
};

const CHILD_DB_ENV: &str = "SIGHTLINE_STORE_CRASH_CHILD_DB";
const CHILD_PREFIX_ENV: &str = "SIGHTLINE_STORE_CRASH_CHILD_PREFIX";
const POSTS_PER_REQUEST: usize = 8;
const ROUNDS: usize = 3;

fn request(id: &str, n: usize) -> RequestRecord {
    let at =
        Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap() + chrono::Duration::seconds(n as i64);
    let posts = (0..POSTS_PER_REQUEST)
        .map(|p| NewPost {
            // Half the posts are shared between neighbouring requests, so upserts happen too.
            id: format!("post-{}", n / 2 * POSTS_PER_REQUEST + p),
            conversation_id: None,
            author_id: Some("a1".into()),
            author_username: "writer".into(),
            author_name: "Crash Writer".into(),
            author_verified: false,
            text: format!("crash test post {p} of request {id} with some words to index"),
            lang: Some("en".into()),
            created_at: at,
            like_count: n as i64,
            retweet_count: 0,
            reply_count: 0,
            quote_count: 0,
            view_count: None,
            bookmark_count: 0,
            hashtags: vec!["crash".into()],
            url: None,
            raw_json: format!(r#"{{"id":"post-{p}","n":{n}}}"#),
            nested: false,
        })
        .collect();
    RequestRecord {
        provenance: None,
        request_id: id.into(),
        started_at: at,
        operation: "twitter_search".into(),
        params_json: format!(r#"{{"query":"crash {n}"}}"#),
        key_label: Some("work".into()),
        mode: "live".into(),
        status: RequestStatus::Ok,
        error_class: None,
        error_message: None,
        duration_ms: 10,
        result_count: POSTS_PER_REQUEST as i64,
        billing: Some(Billing {
            cost: Decimal::from_str("0.0024").ok(),
            cost_text: None,
            usage_count: POSTS_PER_REQUEST as i64,
            service: "x".into(),
            currency: "USD".into(),
        }),
        cursor: None,
        next_cursor: None,
        parent_id: None,
        result_json: Some(format!(
            r#"{{"request":"{id}","padding":"{}"}}"#,
            "x".repeat(2000)
        )),
        posts,
        users: vec![],
        links: vec![NewLink {
            source: sightline_store::LinkSource::Web,
            title: format!("link {n}"),
            snippet: "s".into(),
            link: format!("https://example.org/{n}"),
            score: None,
        }],
    }
}

/// A picture per post of `record`, queued with it.
fn media(record: &RequestRecord) -> Vec<NewMediaItem> {
    record
        .posts
        .iter()
        .map(|post| NewMediaItem {
            post_id: post.id.clone(),
            position: 0,
            kind: MediaKind::Photo,
            source_url: format!("https://pbs.example/media/{}.jpg", post.id),
            poster_url: None,
        })
        .collect()
}

/// The writer: records requests forever, printing each id only after its commit returned.
#[test]
fn crash_writer_child() {
    let Ok(db) = std::env::var(CHILD_DB_ENV) else {
        return; // normal test run: nothing to do
    };
    let prefix = std::env::var(CHILD_PREFIX_ENV).unwrap_or_default();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let store = Store::open(&db).await.unwrap();
        // Writes until the parent kills this process (newer clippy refuses `for n in 0..`).
        let mut n = 0;
        loop {
            let id = format!("{prefix}-{n}");
            let record = request(&id, n);
            store
                .record_request_with_media(&record, &media(&record))
                .await
                .unwrap();
            // The test reads this line as proof of a commit.
            println!("COMMITTED {id}");
            n += 1;
        }
    });
}

#[test]
fn killed_writer_loses_no_committed_request_and_leaves_no_partial_one() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("crash.db");
    let exe = std::env::current_exe().unwrap();
    let mut committed = Vec::new();

    for round in 0..ROUNDS {
        let mut child = Command::new(&exe)
            .args([
                "--exact",
                "crash_writer_child",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(CHILD_DB_ENV, &db)
            .env(CHILD_PREFIX_ENV, format!("round{round}"))
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        // Let it write for a while (a different amount each round), then kill it mid-stream.
        let target = 150 + 70 * round;
        let started = Instant::now();
        let mut seen = 0;
        while seen < target && started.elapsed() < Duration::from_secs(120) {
            match lines.next() {
                Some(Ok(line)) => {
                    if let Some(id) = line.strip_prefix("COMMITTED ") {
                        committed.push(id.to_owned());
                        seen += 1;
                    }
                }
                _ => break,
            }
        }
        // Killed a little later each round, so the kill falls at a different point of a write.
        std::thread::sleep(Duration::from_micros(700 * round as u64 + 300));
        child.kill().unwrap(); // SIGKILL on Unix: no destructors, no checkpoint
                               // Lines already printed before the kill were committed too.
        for line in lines.map_while(Result::ok) {
            if let Some(id) = line.strip_prefix("COMMITTED ") {
                committed.push(id.to_owned());
            }
        }
        child.wait().unwrap();
        assert!(
            seen >= target,
            "round {round}: the writer stopped early after {seen} commits"
        );
    }

    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let store = Store::open(&db).await.unwrap();
        assert_eq!(
            store.integrity_check().await.unwrap(),
            vec!["ok".to_owned()]
        );

        for id in &committed {
            let entry = store
                .history_by_request_id(id)
                .await
                .unwrap()
                .unwrap_or_else(|| panic!("committed request {id} is missing"));
            assert!(entry.has_result, "{id} lost its result");
            let posts = store
                .posts(&PostQuery {
                    history_ids: vec![entry.id],
                    ..Default::default()
                })
                .await
                .unwrap();
            assert_eq!(posts.len(), POSTS_PER_REQUEST, "{id} lost posts");
        }

        // Whatever is there is whole: every request has its result, ledger row, posts, link.
        let total = store.history_count(&HistoryQuery::default()).await.unwrap();
        assert!(total as usize >= committed.len());
        let mut offset = 0;
        loop {
            let page = store
                .history(&HistoryQuery {
                    limit: 500,
                    offset,
                    ..Default::default()
                })
                .await
                .unwrap();
            if page.is_empty() {
                break;
            }
            for entry in &page {
                assert!(
                    entry.has_result && entry.billing.is_some(),
                    "partial row {}",
                    entry.request_id
                );
                let links = store
                    .links(&sightline_store::LinkQuery {
                        history_id: Some(entry.id),
                        ..Default::default()
                    })
                    .await
                    .unwrap();
                assert_eq!(links.len(), 1, "partial row {}", entry.request_id);
                let posts: Vec<String> = store
                    .posts(&PostQuery {
                        history_ids: vec![entry.id],
                        ..Default::default()
                    })
                    .await
                    .unwrap()
                    .into_iter()
                    .map(|post| post.id)
                    .collect();
                let queued = store.media_for_posts(&posts).await.unwrap();
                assert_eq!(
                    queued.len(),
                    posts.len(),
                    "{} was recorded without its media queued",
                    entry.request_id
                );
            }
            offset += 500;
        }

        eprintln!(
            "crash test: {} requests reported committed across {ROUNDS} kills, {total} on disk",
            committed.len()
        );

        // The money adds up: every billed request once, in the ledger and in the roll-ups.
        let spent = store
            .spend_breakdown(
                sightline_store::SpendDimension::Service,
                sightline_store::Tz::UTC,
                None,
            )
            .await
            .unwrap();
        assert_eq!(
            spent.total,
            Decimal::from_str("0.0024").unwrap() * Decimal::from(total)
        );
        let per_day = store
            .spend_by_day(
                sightline_store::Tz::UTC,
                chrono::NaiveDate::from_ymd_opt(2025, 12, 31).unwrap(),
                chrono::NaiveDate::from_ymd_opt(2026, 1, 2).unwrap(),
            )
            .await
            .unwrap();
        let series_total: Decimal = per_day.iter().map(|d| d.total).sum();
        assert_eq!(series_total, spent.total);

        // The full-text index agrees with the posts table.
        let fts_hits = store
            .posts_count(&PostQuery {
                text: Some("crash".into()),
                ..Default::default()
            })
            .await
            .unwrap();
        let all_posts = store.posts_count(&PostQuery::default()).await.unwrap();
        assert_eq!(fts_hits, all_posts);
    });
}
