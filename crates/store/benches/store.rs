//! Store benchmark: `cargo bench -p sightline-store --bench store`.
//!
//! Builds (once, into `$SIGHTLINE_BENCH_DIR` or the system temp folder) a database with
//! 1,000,000 history rows spread over three years and 1,000,000 archived posts, then measures
//! what the app does against it: open + migrate, spend aggregates and per-day series, budget
//! checks, full-text top-50 searches, history pages, and batched archive inserts. It prints
//! measured figures; it asserts nothing about time.

use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::{Duration, Instant};

use chrono::{DateTime, Datelike, TimeZone, Utc};
use rust_decimal::Decimal;
use sightline_store::{
    Billing, BudgetLimits, HistoryQuery, NewPost, PostQuery, PostSort, RequestRecord,
    RequestStatus, SpendDimension, Store, Tz,
};

/// History rows (and archived posts) in the dataset; `SIGHTLINE_BENCH_ROWS` overrides it for
/// quick trial runs, the reported figures use the default.
const HISTORY_ROWS: usize = 1_000_000;
const POSTS_PER_POSTING_REQUEST: usize = 20;
/// Every n-th request carries posts, so the archive holds as many posts as history rows.
const POSTING_EVERY: usize = POSTS_PER_POSTING_REQUEST;

fn history_rows() -> usize {
    std::env::var("SIGHTLINE_BENCH_ROWS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(HISTORY_ROWS)
}
const BUILD_BATCH: usize = 2_000;
const VOCABULARY: usize = 20_000;
const DATASET_MARK: &str = "bench_dataset_v1";

/// Deterministic xorshift generator: the dataset is the same on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    /// A rank from a Zipf-like distribution (density ~ 1/rank), as word frequencies are.
    fn zipf(&mut self, n: usize) -> usize {
        ((n as f64).powf(self.unit()) as usize).clamp(1, n) - 1
    }
}

fn vocabulary() -> Vec<String> {
    const SYLLABLES: [&str; 24] = [
        "ka", "lo", "mi", "ren", "sa", "tor", "vi", "el", "an", "du", "bra", "cel", "fin", "go",
        "hu", "jo", "ler", "mon", "nu", "pe", "qua", "ris", "sol", "te",
    ];
    (0..VOCABULARY)
        .map(|i| {
            let mut word = String::new();
            let mut n = i + 24;
            while n > 0 {
                word.push_str(SYLLABLES[n % 24]);
                n /= 24;
            }
            word
        })
        .collect()
}

struct Operation {
    name: &'static str,
    service: &'static str,
    nanos_per_unit: i64,
    max_units: u64,
}

const OPERATIONS: [Operation; 12] = [
    Operation {
        name: "ai_search",
        service: "ai-search",
        nanos_per_unit: 4_000_000,
        max_units: 1,
    },
    Operation {
        name: "ai_links_web",
        service: "ai-search",
        nanos_per_unit: 4_000_000,
        max_units: 1,
    },
    Operation {
        name: "ai_links_twitter",
        service: "ai-search",
        nanos_per_unit: 4_000_000,
        max_units: 1,
    },
    Operation {
        name: "twitter_search",
        service: "x",
        nanos_per_unit: 300_000,
        max_units: 100,
    },
    Operation {
        name: "twitter_urls",
        service: "x",
        nanos_per_unit: 300_000,
        max_units: 10,
    },
    Operation {
        name: "twitter_post",
        service: "x",
        nanos_per_unit: 300_000,
        max_units: 1,
    },
    Operation {
        name: "twitter_user_posts",
        service: "x",
        nanos_per_unit: 300_000,
        max_units: 20,
    },
    Operation {
        name: "twitter_replies",
        service: "x",
        nanos_per_unit: 300_000,
        max_units: 100,
    },
    Operation {
        name: "twitter_retweeters",
        service: "x",
        nanos_per_unit: 300_000,
        max_units: 100,
    },
    Operation {
        name: "twitter_trends",
        service: "x",
        nanos_per_unit: 300_000,
        max_units: 30,
    },
    Operation {
        name: "web_search",
        service: "web",
        nanos_per_unit: 2_500_000,
        max_units: 1,
    },
    Operation {
        name: "web_crawl",
        service: "web",
        nanos_per_unit: 2_500_000,
        max_units: 1,
    },
];
const KEY_LABELS: [Option<&str>; 3] = [Some("work"), Some("personal"), None];

fn dataset_start() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2023, 11, 21, 0, 0, 0).unwrap()
}

fn dataset_end() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 21, 0, 0, 0).unwrap()
}

fn post(rng: &mut Rng, words: &[String], id: String, created_at: DateTime<Utc>) -> NewPost {
    let length = 8 + rng.below(20) as usize;
    let text: Vec<&str> = (0..length)
        .map(|_| words[rng.zipf(words.len())].as_str())
        .collect();
    let text = text.join(" ");
    let author = rng.below(50_000);
    let hashtags: Vec<String> = (0..rng.below(3))
        .map(|_| words[rng.zipf(2_000)].clone())
        .collect();
    let lang = ["en", "en", "en", "es", "fr", "de", "ja"][rng.below(7) as usize];
    let likes = (rng.zipf(100_000)) as i64;
    let username = format!("user{author}");
    let url = format!("https://x.com/{username}/status/{id}");
    // A raw record shaped like the service's Tweet, so the stored size is realistic.
    let raw = serde_json::json!({
        "id": id, "text": text, "created_at": created_at.to_rfc3339(),
        "reply_count": likes / 20, "retweet_count": likes / 5, "like_count": likes,
        "quote_count": likes / 50, "bookmark_count": likes / 30, "view_count": likes * 40,
        "lang": lang, "url": url, "conversation_id": id, "is_retweet": false,
        "is_quote_tweet": false, "media": [],
        "entities": { "hashtags": hashtags.iter().map(|h| serde_json::json!({"text": h})).collect::<Vec<_>>() },
        "user": { "id": author.to_string(), "username": username, "name": format!("User {author}"),
                  "verified": author % 10 == 0, "followers_count": author * 3,
                  "description": "Researcher. Opinions my own. Writing about things that matter.",
                  "location": "Somewhere", "created_at": "2015-03-01T10:00:00Z" }
    });
    NewPost {
        conversation_id: Some(id.clone()),
        id,
        author_id: Some(author.to_string()),
        author_username: username,
        author_name: format!("User {author}"),
        author_verified: author % 10 == 0,
        text,
        lang: Some(lang.into()),
        created_at,
        like_count: likes,
        retweet_count: likes / 5,
        reply_count: likes / 20,
        quote_count: likes / 50,
        view_count: Some(likes * 40),
        bookmark_count: likes / 30,
        hashtags,
        url: Some(url),
        raw_json: raw.to_string(),
        nested: false,
    }
}

fn request(
    rng: &mut Rng,
    words: &[String],
    n: usize,
    rows: usize,
    next_post_id: &mut u64,
) -> RequestRecord {
    let span = (dataset_end() - dataset_start()).num_milliseconds();
    let started_at =
        dataset_start() + chrono::Duration::milliseconds(span * n as i64 / rows as i64);
    let carries_posts = n % POSTING_EVERY == 0;
    let op = if carries_posts {
        &OPERATIONS[3]
    } else {
        &OPERATIONS[rng.below(12) as usize]
    };
    let failed = !carries_posts && rng.below(10) == 0;
    let units = if carries_posts {
        POSTS_PER_POSTING_REQUEST as i64
    } else {
        1 + rng.below(op.max_units) as i64
    };
    let posts = if carries_posts {
        (0..POSTS_PER_POSTING_REQUEST)
            .map(|_| {
                *next_post_id += 1;
                let age = chrono::Duration::minutes(rng.below(60 * 24 * 30) as i64);
                post(
                    rng,
                    words,
                    (1_700_000_000_000_000_000 + *next_post_id).to_string(),
                    started_at - age,
                )
            })
            .collect()
    } else {
        Vec::new()
    };
    let query = format!(
        "{} {}",
        words[rng.zipf(words.len())],
        words[rng.zipf(words.len())]
    );
    RequestRecord {
        provenance: None,
        request_id: format!("bench-{n}"),
        started_at,
        operation: op.name.into(),
        params_json: serde_json::json!({ "query": query, "count": units }).to_string(),
        key_label: KEY_LABELS[rng.below(3) as usize].map(str::to_owned),
        mode: "live".into(),
        status: if failed {
            RequestStatus::Error
        } else {
            RequestStatus::Ok
        },
        error_class: failed.then(|| "rate_limited".into()),
        error_message: failed.then(|| "Too many requests; try again in 60 seconds".into()),
        duration_ms: 200 + rng.below(3000) as i64,
        result_count: if failed { 0 } else { units },
        billing: (!failed).then(|| Billing {
            cost: Some(
                Decimal::from_i128_with_scale(i128::from(op.nanos_per_unit * units), 9).normalize(),
            ),
            cost_text: None,
            usage_count: units,
            service: op.service.into(),
            currency: "USD".into(),
        }),
        cursor: None,
        next_cursor: None,
        parent_id: None,
        // Real bodies are larger; a small one keeps a million rows buildable in minutes.
        result_json: (!failed).then(|| format!(r#"{{"query":"{query}","result_count":{units}}}"#)),
        posts,
        users: vec![],
        links: vec![],
    }
}

fn file_size(path: &Path) -> u64 {
    let wal = PathBuf::from(format!("{}-wal", path.display()));
    std::fs::metadata(path).map(|m| m.len()).unwrap_or(0)
        + std::fs::metadata(wal).map(|m| m.len()).unwrap_or(0)
}

async fn build_dataset(path: &Path) -> Store {
    let store = Store::open(path).await.unwrap();
    if store.archive_state::<bool>(DATASET_MARK).await.unwrap() == Some(true) {
        println!("dataset: reusing {}", path.display());
        return store;
    }
    store.close().await;
    let _ = std::fs::remove_file(path);
    let _ = std::fs::remove_file(format!("{}-wal", path.display()));
    let _ = std::fs::remove_file(format!("{}-shm", path.display()));
    let store = Store::open(path).await.unwrap();
    let rows = history_rows();
    println!(
        "dataset: building {rows} history rows and {rows} posts in {}",
        path.display()
    );
    let words = vocabulary();
    let mut rng = Rng(0x5eed_1234_abcd_ef01);
    let mut next_post_id = 0;
    let started = Instant::now();
    let cpu_before = cpu_seconds();
    let mut batch = Vec::with_capacity(BUILD_BATCH);
    for n in 0..rows {
        batch.push(request(&mut rng, &words, n, rows, &mut next_post_id));
        if batch.len() == BUILD_BATCH {
            store.record_requests(&batch).await.unwrap();
            batch.clear();
        }
        if (n + 1) % (rows / 5).max(1) == 0 {
            println!("  {} rows, {:.1} s", n + 1, started.elapsed().as_secs_f64());
        }
    }
    store.record_requests(&batch).await.unwrap();
    store.set_archive_state(DATASET_MARK, &true).await.unwrap();
    store.checkpoint().await.unwrap();
    if let (Some(a), Some(b)) = (cpu_before, cpu_seconds()) {
        println!("dataset: {:.1} CPU-seconds (generation included)", b - a);
    }
    println!(
        "dataset: built in {:.1} s ({} posts), file {:.0} MB",
        started.elapsed().as_secs_f64(),
        next_post_id,
        file_size(path) as f64 / 1e6
    );
    store
}

struct Stats {
    median: Duration,
    p95: Duration,
    max: Duration,
}

async fn measure<F, Fut, T>(name: &str, runs: usize, mut f: F) -> Stats
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = T>,
{
    // The first call runs cold (statement cache, page cache): report it apart.
    let first = Instant::now();
    let _ = std::hint::black_box(f().await);
    let first = first.elapsed();
    let mut times = Vec::with_capacity(runs);
    let cpu_before = cpu_seconds();
    for _ in 0..runs {
        let t = Instant::now();
        let _ = std::hint::black_box(f().await);
        times.push(t.elapsed());
    }
    // Mean CPU time per call: what the query costs regardless of other load on the machine.
    let cpu_ms = match (cpu_before, cpu_seconds()) {
        (Some(a), Some(b)) => format!("{:>7.2}", (b - a) * 1000.0 / runs as f64),
        _ => "    n/a".to_owned(),
    };
    times.sort();
    let stats = Stats {
        median: times[runs / 2],
        p95: times[(runs * 95 / 100).min(runs - 1)],
        max: times[runs - 1],
    };
    println!(
        "{name:<58} median {:>8.2} ms   p95 {:>8.2} ms   max {:>8.2} ms   first {:>8.2} ms   cpu {cpu_ms} ms",
        ms(stats.median),
        ms(stats.p95),
        ms(stats.max),
        ms(first)
    );
    stats
}

/// CPU time used by this process so far (all threads, user + system), from /proc on Linux.
/// The bench machine may be shared; posts per CPU-second does not depend on the other load.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which is in parentheses and may contain spaces).
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0) // USER_HZ is 100 on Linux
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Records `requests` requests of `posts_per_request` new posts each, one call (one
/// transaction) per request, and returns posts per second. Ids are unique per run, so a
/// reused dataset never turns the inserts into "already recorded" no-ops.
async fn insert_rate(
    store: &Store,
    words: &[String],
    requests: usize,
    posts_per_request: usize,
    seed: u64,
) -> (f64, Option<f64>) {
    let run = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let mut rng = Rng(seed);
    let now = dataset_end();
    let records: Vec<RequestRecord> = (0..requests)
        .map(|r| {
            let posts = (0..posts_per_request)
                .map(|p| post(&mut rng, words, format!("{run}-{seed}-{r}-{p}"), now))
                .collect();
            RequestRecord {
                provenance: None,
                request_id: format!("insert-{run}-{seed}-{r}"),
                started_at: now,
                operation: "twitter_search".into(),
                params_json: r#"{"query":"insert rate"}"#.into(),
                key_label: Some("work".into()),
                mode: "live".into(),
                status: RequestStatus::Ok,
                error_class: None,
                error_message: None,
                duration_ms: 300,
                result_count: posts_per_request as i64,
                billing: Some(Billing {
                    cost: Decimal::from_str("0.03").ok(),
                    cost_text: None,
                    usage_count: posts_per_request as i64,
                    service: "x".into(),
                    currency: "USD".into(),
                }),
                cursor: None,
                next_cursor: None,
                parent_id: None,
                result_json: Some("[]".into()),
                posts,
                users: vec![],
                links: vec![],
            }
        })
        .collect();
    let started = Instant::now();
    let cpu_before = cpu_seconds();
    for record in &records {
        store.record_request(record).await.unwrap();
    }
    let posts = (requests * posts_per_request) as f64;
    let per_cpu = match (cpu_before, cpu_seconds()) {
        (Some(a), Some(b)) if b > a => Some(posts / (b - a)),
        _ => None,
    };
    (posts / started.elapsed().as_secs_f64(), per_cpu)
}

/// Archives `batches` batches of new posts with [`Store::archive_posts`] (one transaction a
/// batch, as an import does) and returns posts per second (wall, CPU).
async fn archive_rate(
    store: &Store,
    words: &[String],
    batches: usize,
    batch_size: usize,
    seed: u64,
) -> (f64, Option<f64>) {
    let run = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let mut rng = Rng(seed);
    let now = dataset_end();
    let all: Vec<Vec<NewPost>> = (0..batches)
        .map(|b| {
            (0..batch_size)
                .map(|p| post(&mut rng, words, format!("{run}-{seed}-{b}-{p}"), now))
                .collect()
        })
        .collect();
    let started = Instant::now();
    let cpu_before = cpu_seconds();
    for batch in &all {
        store.archive_posts(now, batch).await.unwrap();
    }
    let posts = (batches * batch_size) as f64;
    let per_cpu = match (cpu_before, cpu_seconds()) {
        (Some(a), Some(b)) if b > a => Some(posts / (b - a)),
        _ => None,
    };
    (posts / started.elapsed().as_secs_f64(), per_cpu)
}

fn print_rate(label: &str, (wall, cpu): (f64, Option<f64>)) {
    let cpu = cpu
        .map(|c| format!("{c:.0} posts per CPU-second"))
        .unwrap_or_default();
    println!("{label:<58} {wall:>8.0} posts/s   {cpu}");
}

fn main() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(run());
}

async fn run() {
    let dir = std::env::var_os("SIGHTLINE_BENCH_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| std::env::temp_dir().join("sightline-store-bench"));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("bench-{}.db", history_rows()));
    let total = Instant::now();

    let store = build_dataset(&path).await;
    store.close().await;
    println!("database file: {:.0} MB", file_size(&path) as f64 / 1e6);

    println!("\n== open + migrate an existing database");
    let mut opens = Vec::new();
    for _ in 0..10 {
        let t = Instant::now();
        let s = Store::open(&path).await.unwrap();
        opens.push(t.elapsed());
        s.close().await;
    }
    opens.sort();
    println!("open + migrate (existing database)                          median {:>8.2} ms   max {:>8.2} ms", ms(opens[5]), ms(opens[9]));

    let store = Store::open(&path).await.unwrap();
    let ny: Tz = "America/New_York".parse().unwrap();
    let kolkata: Tz = "Asia/Kolkata".parse().unwrap();
    let now = dataset_end() - chrono::Duration::hours(3);
    let today = now.with_timezone(&ny).date_naive();
    let month_start = today.with_day(1).unwrap();
    let days_ago = |n: u64| today.checked_sub_days(chrono::Days::new(n)).unwrap();

    println!("\n== spend ({} history rows, 90% billed)", history_rows());
    let runs = 30;
    measure(
        "totals: today, this month, all time (New York)",
        runs,
        || store.spend_totals(ny, now),
    )
    .await;
    measure(
        "per-day series, 30 days, by service (New York)",
        runs,
        || store.spend_by_day(ny, days_ago(29), today),
    )
    .await;
    measure(
        "per-day series, 365 days, by service (New York)",
        runs,
        || store.spend_by_day(ny, days_ago(364), today),
    )
    .await;
    measure(
        "per-day series, 365 days, by service (Kolkata, +05:30)",
        runs,
        || store.spend_by_day(kolkata, days_ago(364), today),
    )
    .await;
    measure("per operation, this month", runs, || {
        store.spend_breakdown(SpendDimension::Operation, ny, Some((month_start, today)))
    })
    .await;
    measure("per operation, 365 days", runs, || {
        store.spend_breakdown(SpendDimension::Operation, ny, Some((days_ago(364), today)))
    })
    .await;
    measure("per key label, all time", runs, || {
        store.spend_breakdown(SpendDimension::KeyLabel, ny, None)
    })
    .await;
    measure("learned rates, all services", runs, || {
        store.learned_rates()
    })
    .await;
    measure("estimate (x, 100 units)", runs, || store.estimate("x", 100)).await;
    store
        .set_budget(&BudgetLimits {
            daily: Some(Decimal::from(5)),
            monthly: Some(Decimal::from(100)),
            warn_percent: 80,
        })
        .await
        .unwrap();
    measure("budget check (daily + monthly)", runs, || {
        store.check_budget(ny, now, Decimal::from_str("0.03").unwrap())
    })
    .await;

    println!("\n== history");
    let first_page = HistoryQuery::default();
    measure("history, first page of 100", runs, || {
        store.history(&first_page)
    })
    .await;
    let by_operation = HistoryQuery {
        operation: Some("web_crawl".into()),
        ..Default::default()
    };
    measure("history, filtered by operation, page of 100", runs, || {
        store.history(&by_operation)
    })
    .await;
    measure("history, re-open one stored result", runs, || {
        store.result(500_000)
    })
    .await;

    println!(
        "\n== archive full-text search ({} posts), top 50",
        history_rows()
    );
    let words = vocabulary();
    let search = |text: String, sort: PostSort| PostQuery {
        text: Some(text),
        sort,
        limit: 50,
        ..Default::default()
    };
    for (label, rank) in [
        ("common word", 30),
        ("mid-frequency word", 300),
        ("rare word", 5_000),
    ] {
        let word = words[rank].clone();
        let hits = store
            .posts_count(&search(word.clone(), PostSort::Relevance))
            .await
            .unwrap();
        let q = search(word.clone(), PostSort::Relevance);
        measure(
            &format!("relevance, {label} ({hits} matches)"),
            runs,
            || store.posts(&q),
        )
        .await;
        let q = search(word, PostSort::Newest);
        measure(
            &format!("newest first, {label} ({hits} matches)"),
            runs,
            || store.posts(&q),
        )
        .await;
    }
    let two = format!("{} {}", words[30], words[300]);
    let hits = store
        .posts_count(&search(two.clone(), PostSort::Relevance))
        .await
        .unwrap();
    let q = search(two, PostSort::Relevance);
    measure(
        &format!("relevance, two words ({hits} matches)"),
        runs,
        || store.posts(&q),
    )
    .await;
    let q = PostQuery {
        text: Some(words[300].clone()),
        lang: Some("es".into()),
        min_likes: Some(10),
        limit: 50,
        ..Default::default()
    };
    measure("relevance, mid word + lang + min likes", runs, || {
        store.posts(&q)
    })
    .await;
    let q = PostQuery {
        text: Some(format!("{}*", &words[300][..4])),
        limit: 50,
        ..Default::default()
    };
    measure("relevance, prefix query", runs, || store.posts(&q)).await;
    let q = PostQuery {
        author: Some("user4242".into()),
        sort: PostSort::Newest,
        limit: 50,
        ..Default::default()
    };
    measure("browse by author, newest first (no text)", runs, || {
        store.posts(&q)
    })
    .await;
    let q = PostQuery {
        sort: PostSort::Newest,
        limit: 50,
        ..Default::default()
    };
    measure("browse everything, newest first (no text)", runs, || {
        store.posts(&q)
    })
    .await;

    let by_text = HistoryQuery {
        text: Some(words[300].clone()),
        ..Default::default()
    };
    measure("history, text in parameters, page of 100", runs, || {
        store.history(&by_text)
    })
    .await;

    println!("\n== batched archive inserts (one transaction per request, fsync on commit)");
    let fresh_dir = tempfile::tempdir_in(&dir).unwrap();
    let fresh_path = fresh_dir.path().join("fresh.db");
    let fresh = Store::open(&fresh_path).await.unwrap();
    let rate = insert_rate(&fresh, &words, 200, 100, 11).await;
    print_rate("fresh database, 200 requests x 100 posts", rate);
    let rate = insert_rate(&store, &words, 100, 100, 12).await;
    print_rate("full database, 100 requests x 100 posts", rate);
    let rate = insert_rate(&store, &words, 200, 20, 13).await;
    print_rate("full database, 200 requests x 20 posts", rate);

    println!("\n== batched archive inserts (one transaction per batch of 10,000 posts)");
    let rate = archive_rate(&fresh, &words, 5, 10_000, 15).await;
    print_rate("fresh database, 5 batches x 10,000 posts", rate);
    let rate = archive_rate(&store, &words, 3, 10_000, 16).await;
    print_rate("full database, 3 batches x 10,000 posts", rate);

    println!("\n== size");
    let size_dir = tempfile::tempdir_in(&dir).unwrap();
    let size_path = size_dir.path().join("size.db");
    let sized = Store::open(&size_path).await.unwrap();
    let empty = {
        sized.checkpoint().await.unwrap();
        file_size(&size_path)
    };
    insert_rate(&sized, &words, 1_000, 100, 14).await;
    sized.checkpoint().await.unwrap();
    let per_thousand = (file_size(&size_path) - empty) as f64 / 100.0;
    let sample = store
        .posts(&PostQuery {
            limit: 1000,
            ..Default::default()
        })
        .await
        .unwrap();
    let raw_avg =
        sample.iter().map(|p| p.raw_json.len()).sum::<usize>() as f64 / sample.len() as f64;
    println!("database size per 1,000 posts (100,000 posts, FTS included) {:>8.0} KB  (raw JSON averages {raw_avg:.0} bytes a post)", per_thousand / 1e3);
    println!(
        "whole benchmark database file                               {:>8.0} MB",
        file_size(&path) as f64 / 1e6
    );

    store.close().await;
    println!("\nbench total time {:.1} s", total.elapsed().as_secs_f64());
}
