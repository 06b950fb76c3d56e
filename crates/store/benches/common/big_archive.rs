//! The benches' 10,000,000-post archive (benches/scale.rs), built once and reused: the same
//! mix as the 1,000,000-post one (`archive.rs`, posts of `posts.rs`) scaled by ten, plus a
//! history of 1,000,000 rows with their ledger and provenance, as a long investigation's data
//! folder holds them:
//!
//! * 10,000,000 posts by 200,000 accounts over a year; of them 1,000,000 (every tenth) are the
//!   results of one X search paged 1,000 times (a request scope, 1,000,000 sightings), also
//!   filed in an investigation; a second investigation holds 1,000 posts;
//! * 2,000 reposters lists of 50 accounts;
//! * history rows up to 1,000,000 in all over the year before the build, of a dozen operations,
//!   each billed on the ledger as the service prices it (one in twenty failed, unbilled), every
//!   tenth with its capture's provenance (a single post's answer, about 1.5 KB).
//!
//! Everything is written through the store's own API, as the app writes it: a search's page
//! with `record_request` (history row, ledger, sightings, the posts' triggers: FTS5, facts,
//! entities, tallies), the rest of the posts with `archive_posts` (an import) in batches of
//! 50,000, history with `record_requests` in batches of 5,000; `Store::close` at the end runs
//! `PRAGMA optimize` and folds the write-ahead log in, as at every quit. So the file is what a
//! user's would be, indexes and FTS segments included, at the current schema, every trigger
//! firing. (Version 1 wrote at migration 0018's schema so the first open timed the later
//! migrations' backfills over the archive; the store's writes now need tables of migration 0020
//! on, so those backfills are timed per million posts by `benches/upgrade.rs` instead.)
//!
//! Kept in `$SIGHTLINE_BENCH_DATA/archive-10m/` (default: `bench-data/` beside the repository),
//! under the generator's version: a changed generator (bump [`GENERATOR_VERSION`]) deletes the
//! folder's old file and builds again. An interrupted build (no `.done` file yet) goes on where
//! it stopped: each step is committed whole, in order, and skipped when found done.
//! `SIGHTLINE_SCALE_POSTS=<n>` builds a smaller trial archive of the same mix in its own folder;
//! `SIGHTLINE_SCALE_SKIP_IMPORT=1` finishes an interrupted build without importing its remaining
//! posts (when the disk is short: the full archive needs about 13 GB), not marking it done;
//! `SIGHTLINE_SCALE_AS_IS=1` times such an unfinished file as it is, building nothing.

use std::path::PathBuf;
use std::str::FromStr;
use std::time::Instant;

use chrono::{DateTime, Duration, TimeZone, Utc};
use rust_decimal::Decimal;
use serde_json::json;
use sha2::{Digest, Sha256};
use sightline_store::{
    Billing, Check, InvestigationItem, NewPost, NewProvenance, PostQuery, RecordOutcome,
    RequestRecord, RequestStatus, Store, Upgrade,
};

use crate::posts::{post_of, TAGS};

/// Bump when anything below changes what is built: the old file is then deleted and rebuilt.
pub const GENERATOR_VERSION: u32 = 2;

const PER_PAGE: usize = 1_000;
const IMPORT_BATCH: usize = 50_000;
const HISTORY_BATCH: usize = 5_000;

/// How big an archive to build.
#[derive(Clone, Copy, Debug)]
pub struct Size {
    pub posts: usize,
    pub accounts: usize,
    pub history: usize,
    /// Posts of the paged search, also filed in the investigation.
    pub case_posts: usize,
}

impl Size {
    /// 10,000,000 posts, or `SIGHTLINE_SCALE_POSTS` for a trial (the rest scaled alike).
    pub fn from_env() -> Size {
        let posts = std::env::var("SIGHTLINE_SCALE_POSTS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(10_000_000usize);
        Size {
            posts,
            accounts: (posts / 50).max(100),
            history: (posts / 10).max(2_000),
            case_posts: (posts / 10 / PER_PAGE).max(1) * PER_PAGE,
        }
    }

    fn label(&self) -> String {
        if self.posts % 1_000_000 == 0 {
            format!("archive-{}m", self.posts / 1_000_000)
        } else {
            format!("archive-{}", self.posts)
        }
    }

    fn reposter_lists(&self) -> usize {
        (self.posts / 5_000).max(1)
    }
}

/// The archive's first post's date; the year after it holds every post.
pub fn start() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2025, 11, 1, 0, 0, 0).unwrap()
}

fn folder(size: &Size) -> PathBuf {
    let base = std::env::var_os("SIGHTLINE_BENCH_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../bench-data"));
    base.join(size.label())
}

/// The database file of an archive of `size`, built first unless a complete one of this
/// generator's version is there. Returns the file and the build's figures as first printed.
pub async fn ensure(size: &Size) -> (PathBuf, String) {
    let dir = folder(size);
    let db = dir.join(format!("g{GENERATOR_VERSION}.db"));
    let done = dir.join(format!("g{GENERATOR_VERSION}.done"));
    if let Ok(figures) = std::fs::read_to_string(&done) {
        return (db, figures);
    }
    if as_is() && db.exists() {
        return (
            db,
            "an unfinished build, timed as it is (SIGHTLINE_SCALE_AS_IS)\n".into(),
        );
    }
    // One copy only: whatever an older generator left goes first.
    std::fs::create_dir_all(&dir).unwrap();
    let ours = format!("g{GENERATOR_VERSION}.");
    for entry in std::fs::read_dir(&dir).unwrap() {
        let entry = entry.unwrap();
        if !entry.file_name().to_string_lossy().starts_with(&ours) {
            std::fs::remove_file(entry.path()).unwrap();
        }
    }
    let figures = build(&db, size).await;
    if !skip_import() {
        std::fs::write(&done, &figures).unwrap();
    }
    (db, figures)
}

fn billing(service: &str, cost: &str, units: i64) -> Billing {
    Billing {
        cost: Some(Decimal::from_str(cost).unwrap()),
        cost_text: Some(cost.into()),
        usage_count: units,
        service: service.into(),
        currency: "USD".into(),
    }
}

fn record(id: String, at: DateTime<Utc>, operation: &str, params: String) -> RequestRecord {
    RequestRecord {
        request_id: id,
        started_at: at,
        operation: operation.into(),
        params_json: params,
        key_label: Some("bench".into()),
        mode: "live".into(),
        status: RequestStatus::Ok,
        error_class: None,
        error_message: None,
        duration_ms: 300,
        result_count: 0,
        billing: None,
        cursor: None,
        next_cursor: None,
        parent_id: None,
        result_json: None,
        provenance: None,
        posts: Vec::new(),
        users: Vec::new(),
        links: Vec::new(),
    }
}

fn provenance(at: DateTime<Utc>, body: Vec<u8>) -> NewProvenance {
    NewProvenance {
        captured_at: at,
        service_url: "https://api.example.com".into(),
        response_url: "https://api.example.com/x/post".into(),
        http_status: 200,
        billing_headers: [("x-cost".to_string(), "0.0003".to_string())].into(),
        response_headers: Some(vec![("content-type".into(), "application/json".into())]),
        app_version: "0.1.0".into(),
        sha256: format!("{:x}", Sha256::digest(&body)),
        body,
        from_cache: false,
        stamp_with: None,
    }
}

/// History row `i` of the mix (not a search page nor a reposters list): one of a dozen
/// operations, billed as the service prices it, one in twenty failed; every tenth kept with
/// its capture.
fn history_row(i: usize, size: &Size, end: DateTime<Utc>) -> RequestRecord {
    let at = end
        - Duration::milliseconds(
            ((size.history - i) as i64 * 31_536_000_000) / size.history as i64,
        );
    let word = |k: usize| TAGS[(i / k + k) % TAGS.len()];
    let (operation, params, service, cost, units) = match i % 12 {
        0..=4 => (
            "twitter_search",
            json!({"query": format!("{} {}", word(1), word(7)), "max_results": 100}),
            "x",
            "0.03",
            100,
        ),
        5 | 6 => (
            "twitter_user_posts",
            json!({"username": format!("user{}", i * 13 % size.accounts)}),
            "x",
            "0.006",
            20,
        ),
        7 => (
            "twitter_post",
            json!({"id": (1_800_000_000_000_000_000u64 + i as u64).to_string()}),
            "x",
            "0.0003",
            1,
        ),
        8 => (
            "twitter_replies",
            json!({"id": (1_800_000_000_000_000_000u64 + i as u64).to_string()}),
            "x",
            "0.03",
            100,
        ),
        9 => (
            "ai_search",
            json!({"query": format!("what happened with the {} in the {}", word(3), word(5))}),
            "ai-search",
            "0.004",
            1,
        ),
        10 => (
            "ai_links_web",
            json!({"query": format!("{} {} report", word(2), word(11))}),
            "ai-search",
            "0.004",
            1,
        ),
        _ => (
            "twitter_trends",
            json!({"woeid": 1 + i % 50}),
            "x",
            "0.0003",
            1,
        ),
    };
    let mut rec = record(format!("h-{i}"), at, operation, params.to_string());
    if i % 20 == 19 {
        rec.status = RequestStatus::Error;
        rec.error_class = Some("server".into());
        rec.error_message = Some("The service failed (502).".into());
        return rec;
    }
    rec.billing = Some(billing(service, cost, units));
    rec.result_count = units;
    if i % 10 == 0 {
        let post = post_of(i, size.posts, size.accounts, start());
        rec.provenance = Some(provenance(
            at,
            json!({"tweets": [serde_json::from_str::<serde_json::Value>(&post.raw_json).unwrap()]})
                .to_string()
                .into_bytes(),
        ));
    }
    rec
}

/// Whether `SIGHTLINE_SCALE_AS_IS` asks to time an unfinished build's file as it is, writing
/// nothing to it but the upgrade its first open makes (when the disk is short for the rest).
fn as_is() -> bool {
    std::env::var_os("SIGHTLINE_SCALE_AS_IS").is_some()
}

/// Whether `SIGHTLINE_SCALE_SKIP_IMPORT` asks to leave the imported posts as they are (a
/// partial archive, when the disk is short): the build is then not marked done.
fn skip_import() -> bool {
    std::env::var_os("SIGHTLINE_SCALE_SKIP_IMPORT").is_some()
}

async fn build(db: &std::path::Path, size: &Size) -> String {
    let clock = Instant::now();
    // A new file is written at the current schema; one an interrupted build left is opened as
    // the app opens it, upgraded first if this build has newer migrations.
    let store = if db.exists() {
        let upgrade = Upgrade {
            check: Check::BeforeMigrating,
            ..Upgrade::default()
        };
        Store::open_upgrading(db, &upgrade).await.unwrap()
    } else {
        Store::open(db).await.unwrap()
    };
    println!(
        "  opened (any upgrade included): {:.1} s",
        clock.elapsed().as_secs_f64()
    );
    let end = Utc::now();
    let mut raw_bytes = 0u64;
    let mut lines = Vec::new();
    let mut phase = |name: &str, since: &mut Instant| {
        lines.push(format!("  {name}: {:.1} s", since.elapsed().as_secs_f64()));
        println!("{}", lines.last().unwrap());
        *since = Instant::now();
    };
    let mut since = Instant::now();

    // The search's pages, a paging chain: every tenth post, 1,000 a page. A build going on
    // after an interruption starts after the last page recorded.
    let pages = size.case_posts / PER_PAGE;
    let mut parent = None;
    let mut first_page = 0;
    while first_page < pages {
        match store
            .history_by_request_id(&format!("page-{first_page}"))
            .await
            .unwrap()
        {
            Some(entry) => parent = Some(entry.id),
            None => break,
        }
        first_page += 1;
    }
    if first_page > 0 {
        println!("  going on from an interrupted build: {first_page} pages there");
        raw_bytes += (0..first_page * PER_PAGE)
            .map(|n| {
                post_of(n * 10, size.posts, size.accounts, start())
                    .raw_json
                    .len() as u64
            })
            .sum::<u64>();
    }
    for page in first_page..pages {
        let posts: Vec<NewPost> = (page * PER_PAGE..(page + 1) * PER_PAGE)
            .map(|n| post_of(n * 10, size.posts, size.accounts, start()))
            .collect();
        raw_bytes += posts.iter().map(|p| p.raw_json.len() as u64).sum::<u64>();
        let at = end - Duration::days(300) + Duration::seconds(page as i64 * 5);
        let mut rec = record(
            format!("page-{page}"),
            at,
            "twitter_search",
            r#"{"query":"bench","max_results":1000}"#.into(),
        );
        rec.parent_id = parent;
        rec.result_count = PER_PAGE as i64;
        rec.billing = Some(billing("x", "0.3", PER_PAGE as i64));
        rec.posts = posts;
        match store.record_request(&rec).await.unwrap() {
            RecordOutcome::Recorded { history_id } => parent = Some(history_id),
            other => panic!("{other:?}"),
        }
    }
    phase(
        &format!("{pages} search pages of {PER_PAGE} posts"),
        &mut since,
    );

    // The rest of the posts, imported in batches (one statement each: one FTS5 segment).
    let in_case = |n: usize| n % 10 == 0 && n / 10 < size.case_posts;
    let mut batch = Vec::with_capacity(IMPORT_BATCH);
    // Batches are imported in order, each whole: those already there are skipped.
    let stored = store.posts_count(&PostQuery::default()).await.unwrap() as usize;
    let mut done = stored - size.case_posts;
    if done > 0 {
        println!("  going on from an interrupted build: {done} posts imported");
    }
    let skipped = done;
    let wanted = if skip_import() { skipped } else { size.posts };
    for (i, n) in (0..size.posts)
        .filter(|n| !in_case(*n))
        .take(wanted)
        .enumerate()
    {
        let post = post_of(n, size.posts, size.accounts, start());
        if i < skipped {
            // Imported before: only its size is counted.
            raw_bytes += post.raw_json.len() as u64;
            continue;
        }
        batch.push(post);
        if batch.len() == IMPORT_BATCH {
            raw_bytes += batch.iter().map(|p| p.raw_json.len() as u64).sum::<u64>();
            store.archive_posts(end, &batch).await.unwrap();
            done += batch.len();
            batch.clear();
            if done % 1_000_000 < IMPORT_BATCH {
                println!(
                    "    {done} posts imported, {:.0} s",
                    since.elapsed().as_secs_f64()
                );
            }
        }
    }
    if !batch.is_empty() {
        raw_bytes += batch.iter().map(|p| p.raw_json.len() as u64).sum::<u64>();
        store.archive_posts(end, &batch).await.unwrap();
    }
    phase("the other posts imported", &mut since);

    // Reposters lists of some of the search's posts.
    for r in 0..size.reposter_lists() {
        let target = post_of(
            (r * 500 % size.case_posts) * 10,
            size.posts,
            size.accounts,
            start(),
        );
        let users: Vec<_> = (0..50)
            .map(|u| json!({"id": u.to_string(), "username": format!("user{}", (r * 53 + u * 7) % size.accounts)}))
            .collect();
        let mut rec = record(
            format!("rt-{r}"),
            end - Duration::days(200),
            "twitter_retweeters",
            json!({"id": target.id}).to_string(),
        );
        rec.result_json = Some(json!({"users": users}).to_string());
        rec.billing = Some(billing("x", "0.015", 50));
        rec.result_count = 50;
        store.record_request(&rec).await.unwrap();
    }
    phase("reposters lists", &mut since);

    // The rest of the history, with its ledger and captures.
    let rows = size.history.saturating_sub(pages + size.reposter_lists());
    for first in (0..rows).step_by(HISTORY_BATCH) {
        let last = (first + HISTORY_BATCH).min(rows) - 1;
        if store
            .history_by_request_id(&format!("h-{last}"))
            .await
            .unwrap()
            .is_some()
        {
            continue;
        }
        let records: Vec<RequestRecord> = (first..(first + HISTORY_BATCH).min(rows))
            .map(|i| history_row(i, size, end))
            .collect();
        store.record_requests(&records).await.unwrap();
    }
    phase(&format!("{rows} more history rows"), &mut since);

    // Filing again what is filed changes nothing, so an interrupted filing is simply redone.
    let cases = store.investigations(true).await.unwrap();
    let existing = |name: &str| cases.iter().find(|c| c.name == name).map(|c| c.id);
    let case = match existing("Bench") {
        Some(id) => id,
        None => store.create_investigation("Bench", "", end).await.unwrap(),
    };
    let items: Vec<InvestigationItem> = (0..size.case_posts)
        .map(|n| InvestigationItem::Post {
            post_id: (1_800_000_000_000_000_000u64 + (n * 10) as u64).to_string(),
        })
        .collect();
    for chunk in items.chunks(100_000) {
        store.add_to_investigation(case, chunk, end).await.unwrap();
    }
    let small = match existing("Small") {
        Some(id) => id,
        None => store.create_investigation("Small", "", end).await.unwrap(),
    };
    store
        .add_to_investigation(small, &items[..1_000], end)
        .await
        .unwrap();
    phase("investigations filed", &mut since);
    let posts_stored = store.posts_count(&PostQuery::default()).await.unwrap() as usize;
    store.close().await;
    phase("closed (optimize, checkpoint)", &mut since);

    let bytes = std::fs::metadata(db).unwrap().len();
    let millions = posts_stored as f64 / 1e6;
    let summary = format!(
        "generator v{GENERATOR_VERSION}: {} posts, {} history rows, built in {:.0} s ({:.0} s per million posts; this run's time only, if it went on from an interrupted one)\n\
         database {:.2} GB ({:.0} MB per million posts); the posts' raw JSON {:.2} GB ({:.0} MB per million)\n{}\n",
        posts_stored,
        size.history,
        clock.elapsed().as_secs_f64(),
        clock.elapsed().as_secs_f64() / millions,
        bytes as f64 / 1e9,
        bytes as f64 / 1e6 / millions,
        raw_bytes as f64 / 1e9,
        raw_bytes as f64 / 1e6 / millions,
        lines.join("\n"),
    );
    println!("{summary}");
    summary
}
