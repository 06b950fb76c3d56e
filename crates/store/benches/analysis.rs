//! Analysis benchmark: `cargo bench -p sightline-store --bench analysis`.
//!
//! Builds, in a temporary folder, an archive of 1,000,000 posts over a year (by 20,000
//! accounts, in 6 languages, with hashtags, mentions, cashtags, links, replies and quotes in
//! their raw records, as the service sends them), of which 100,000 are the results of one X
//! search paged 100 times (a request scope) and also filed in an investigation; plus
//! reposters lists for 200 of those posts. Then times every aggregate over each scope — the
//! summary, activity per day stacked by language and by account kind, the heatmap in
//! America/New_York, the top lists and the network — and prints the median and slowest of
//! several runs. The whole archive is timed twice: as the app reads it (tallies and roll-ups)
//! and counted post by post (a range from 1900, which holds every post). It asserts nothing
//! about time.
//!
//! The archive takes minutes to build. With `ANALYSIS_BENCH_DB=<file>` it is built into that
//! file once and reused by later runs (delete the file after changing migration 0008: a
//! changed migration no longer opens it).
//!
//! With `ANALYSIS_BENCH_WRITES=1` it times instead what migration 0008 costs a normal write:
//! recording one page of 20 and of 100 new posts (as a search's page is recorded) into two
//! throwaway copies of the archive, page by page in turn, one copy as migrated and the other
//! without 0008's secondary indexes (but the one its triggers need), then with each alone, then
//! without the triggers too (nothing taken out of a post as it is written). It first times
//! what migration 0009's tallies cost the same writes, against a third copy without their
//! triggers.

use std::time::{Duration, Instant};

use chrono::{TimeZone, Utc};
use sightline_store::{
    AnalysisScope, Bucket, NetworkQuery, NewPost, PostQuery, ScopeFilters, ScopeSource, StackBy,
    Store, Tz,
};

#[path = "common/posts.rs"]
mod posts;
use posts::{post, POSTS};

#[path = "common/archive.rs"]
mod archive;
use archive::{build, built, record};

const RUNS: usize = 5;

fn report(name: &str, mut runs: Vec<Duration>) {
    runs.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "{name:<58} median {:>8.1} ms   slowest {:>8.1} ms",
        ms(runs[runs.len() / 2]),
        ms(runs[runs.len() - 1])
    );
}

async fn time_all(store: &Store, label: &str, scope: &AnalysisScope) {
    let tz: Tz = "America/New_York".parse().unwrap();
    let summary = store.analysis_summary(scope).await.unwrap().unwrap();
    println!("{label}: {} posts", summary.post_count);
    macro_rules! time {
        ($name:expr, $call:expr) => {{
            let mut runs = Vec::new();
            for _ in 0..RUNS {
                let clock = Instant::now();
                let answer = $call.await.unwrap().unwrap();
                runs.push(clock.elapsed());
                std::hint::black_box(answer);
            }
            report(&format!("  {}", $name), runs);
        }};
    }
    time!("summary", store.analysis_summary(scope));
    time!(
        "activity per day by language",
        store.analysis_activity(scope, StackBy::Language, Some(Bucket::Day), tz)
    );
    time!(
        "activity per hour by account kind",
        store.analysis_activity(scope, StackBy::AccountKind, Some(Bucket::Hour), tz)
    );
    time!(
        "heatmap in America/New_York",
        store.analysis_heatmap(scope, tz)
    );
    time!(
        "top lists (7 lists, 20 each)",
        store.analysis_top(scope, 20)
    );
    time!(
        "network (all kinds, heaviest 5,000 edges)",
        store.analysis_network(scope, &NetworkQuery::default())
    );
}

/// Migration 0008's secondary indexes on what a post's triggers write, as it creates them;
/// all but `post_entities_post`, which the triggers themselves need (without it, each post
/// written scans every entity of the archive to delete its own: 2.9 s a page of 100).
const INDEXES_0008: [(&str, &str); 8] = [
    ("post_facts_created", "post_facts(created_at)"),
    (
        "post_facts_author",
        "post_facts(author, created_at, engagement)",
    ),
    ("post_facts_lang", "post_facts(lang)"),
    (
        "post_facts_reply_edges",
        "post_facts(author, reply_to_author, created_at) WHERE reply_to_author IS NOT NULL",
    ),
    (
        "post_facts_quote_edges",
        "post_facts(author, quoted_author, created_at) WHERE quoted_author IS NOT NULL",
    ),
    (
        "post_facts_reply_to",
        "post_facts(reply_to_id) WHERE reply_to_id IS NOT NULL",
    ),
    (
        "post_facts_quoted",
        "post_facts(quoted_id) WHERE quoted_id IS NOT NULL",
    ),
    (
        "post_entities_mention_edges",
        "post_entities(kind, author, value, created_at) WHERE kind = 2",
    ),
];

/// Runs SQL on a database file outside the store (the copies' schema changes).
async fn execute(path: &std::path::Path, sql: &str) {
    use sqlx::ConnectOptions;
    let mut conn = sqlx::sqlite::SqliteConnectOptions::new()
        .filename(path)
        .connect()
        .await
        .unwrap();
    sqlx::raw_sql(sql).execute(&mut conn).await.unwrap();
}

/// Records pages of `size` new posts into `a` and `b` in turn and prints the median time of a
/// page in each. `next` numbers the posts, so every page is new to both.
async fn time_pages(
    next: &mut usize,
    size: usize,
    (a, a_name): (&Store, &str),
    (b, b_name): (&Store, &str),
) {
    const PAGES_TIMED: usize = 40;
    let start = Utc.with_ymd_and_hms(2025, 11, 1, 0, 0, 0).unwrap();
    let (mut in_a, mut in_b) = (Vec::new(), Vec::new());
    for page in 0..PAGES_TIMED {
        let posts: Vec<NewPost> = (*next..*next + size).map(|n| post(n, start)).collect();
        *next += size;
        // Each copy goes first every other page, so neither always finds the disk warm.
        let order: [(&Store, &mut Vec<Duration>); 2] = if page % 2 == 0 {
            [(a, &mut in_a), (b, &mut in_b)]
        } else {
            [(b, &mut in_b), (a, &mut in_a)]
        };
        for (store, runs) in order {
            let rec = record(
                format!("write-{next}"),
                "twitter_search",
                r#"{"query":"writes"}"#.into(),
                None,
                None,
                posts.clone(),
            );
            let clock = Instant::now();
            store.record_request(&rec).await.unwrap();
            runs.push(clock.elapsed());
        }
    }
    report(&format!("  a page of {size} posts, {a_name}"), in_a);
    report(&format!("  a page of {size} posts, {b_name}"), in_b);
}

/// What migration 0008 costs a normal write, on two throwaway copies of the archive at `path`
/// (the second one's schema changed from outside its store, between rounds).
async fn time_writes(path: &std::path::Path) {
    execute(path, "PRAGMA wal_checkpoint(TRUNCATE)").await;
    let copy = |name: &str| {
        let to = path.with_extension(format!("writes-{name}.db"));
        std::fs::copy(path, &to).unwrap();
        to
    };
    let (path_a, path_b, path_c) = (copy("a"), copy("b"), copy("c"));
    execute(
        &path_c,
        "DROP TRIGGER post_facts_tally_add; DROP TRIGGER post_facts_tally_remove;
         DROP TRIGGER post_entities_tally_add; DROP TRIGGER post_entities_tally_remove;",
    )
    .await;
    let drop_indexes: String = INDEXES_0008
        .iter()
        .map(|(name, _)| format!("DROP INDEX {name};"))
        .collect();
    execute(&path_b, &drop_indexes).await;
    let a = Store::open(&path_a).await.unwrap();
    let b = Store::open(&path_b).await.unwrap();
    let c = Store::open(&path_c).await.unwrap();
    let mut next = 10 * POSTS;
    println!("writes into copies of the archive ({POSTS} posts), 40 pages each:");
    for size in [20, 100] {
        time_pages(
            &mut next,
            size,
            (&a, "with migration 0009"),
            (&c, "without its tally triggers"),
        )
        .await;
    }
    c.close().await;
    let full = (&a, "with migration 0008");
    for size in [20, 100] {
        time_pages(
            &mut next,
            size,
            full,
            (&b, "without its indexes but post_entities_post"),
        )
        .await;
    }
    for (name, on) in INDEXES_0008 {
        execute(&path_b, &format!("CREATE INDEX {name} ON {on}")).await;
        let label = format!("with {name} alone");
        time_pages(&mut next, 100, full, (&b, &label)).await;
        execute(&path_b, &format!("DROP INDEX {name}")).await;
    }
    execute(
        &path_b,
        "DROP TRIGGER post_facts_insert; DROP TRIGGER post_facts_update;
         DROP INDEX post_entities_post;",
    )
    .await;
    for size in [20, 100] {
        time_pages(
            &mut next,
            size,
            full,
            (&b, "without its indexes and triggers"),
        )
        .await;
    }
    a.close().await;
    b.close().await;
    for file in [path_a, path_b, path_c] {
        for suffix in ["", "-wal", "-shm"] {
            let mut name = file.clone().into_os_string();
            name.push(suffix);
            let _ = std::fs::remove_file(name);
        }
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let dir = tempfile::tempdir().unwrap();
    let path = std::env::var_os("ANALYSIS_BENCH_DB")
        .map_or_else(|| dir.path().join("bench.db"), std::path::PathBuf::from);
    let kept = path.exists();
    let store = Store::open(&path).await.unwrap();
    if std::env::var_os("ANALYSIS_BENCH_WRITES").is_some() {
        if !kept {
            build(&store).await;
        }
        store.close().await;
        time_writes(&path).await;
        return;
    }
    let (first_page, case) = if kept {
        println!("reusing the archive in {}", path.display());
        built(&store).await
    } else {
        build(&store).await
    };
    let scope = |source| AnalysisScope {
        source,
        from: None,
        to: None,
        filters: ScopeFilters::default(),
    };
    time_all(
        &store,
        "request scope (search, 100 pages)",
        &scope(ScopeSource::Request {
            history_id: first_page,
        }),
    )
    .await;
    time_all(
        &store,
        "investigation scope",
        &scope(ScopeSource::Investigation { id: case }),
    )
    .await;
    time_all(
        &store,
        "whole archive",
        &scope(ScopeSource::Archive {
            query: PostQuery::default(),
        }),
    )
    .await;
    time_all(
        &store,
        "archive search for a common word (1 in 40)",
        &scope(ScopeSource::Archive {
            query: PostQuery {
                text: Some("harbour".into()),
                ..PostQuery::default()
            },
        }),
    )
    .await;
    // The same posts as the whole archive, but counted post by post (a range narrows the
    // scope, so nothing reads the tallies or roll-ups): what the whole archive cost before.
    let mut from_1900 = scope(ScopeSource::Archive {
        query: PostQuery::default(),
    });
    from_1900.from = Some(Utc.with_ymd_and_hms(1900, 1, 1, 0, 0, 0).unwrap());
    time_all(
        &store,
        "whole archive counted post by post (a range from 1900)",
        &from_1900,
    )
    .await;
    let mut narrowed = scope(ScopeSource::Archive {
        query: PostQuery::default(),
    });
    narrowed.filters.hashtag = Some("flood".into());
    time_all(&store, "whole archive, one hashtag clicked", &narrowed).await;
}
