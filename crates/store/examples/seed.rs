//! Fills a real database through the store's public API, for measuring the app's screens against
//! a large history and a year of spending:
//!
//! ```text
//! cargo run --release -p sightline-store --example seed -- <db path> --history 100000 --days 365
//! ```
//!
//! Writes `--history` finished requests of mixed operations spread over the last `--days` days
//! (ending now), every one billed at the sandbox's public prices with exact decimals (X $0.30,
//! web search and crawl $2.50, AI search and links $4.00 per 1,000 units), in batches through
//! [`Store::record_requests`], so history, the ledger and the learned rates are all filled as
//! the app would fill them. Rows carry `--mode` (default `demo`): the app with no key stored
//! opens `<SIGHTLINE_DATA_DIR>/demo.db` and shows them there. The data is deterministic apart
//! from the end date. The target file must not exist.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::str::FromStr;
use std::time::Instant;

use chrono::{DateTime, Duration, Utc};
use rust_decimal::Decimal;
use sightline_store::{Billing, RequestRecord, RequestStatus, Store};

const BATCH: usize = 2_000;

/// Deterministic xorshift generator.
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
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
}

/// How each operation is asked and billed, as the sandbox does it.
struct Operation {
    name: &'static str,
    /// The billing service name the sandbox reports (`X-Service-Service`).
    service: &'static str,
    /// USD per 1,000 units, exact.
    rate_per_1000: &'static str,
    /// Units per request: 1 for AI and web operations, posts (or users) returned for X.
    max_units: u64,
    /// Relative frequency in the generated history.
    weight: u64,
}

const OPERATIONS: [Operation; 14] = [
    op("twitter_search", "x", "0.30", 100, 30),
    op("twitter_urls", "x", "0.30", 10, 4),
    op("twitter_post", "x", "0.30", 1, 6),
    op("twitter_post_user", "x", "0.30", 20, 3),
    op("twitter_retweeters", "x", "0.30", 100, 3),
    op("twitter_user_posts", "x", "0.30", 20, 8),
    op("twitter_replies", "x", "0.30", 40, 3),
    op("twitter_replies_post", "x", "0.30", 40, 4),
    op("twitter_trends", "x", "0.30", 30, 5),
    op("ai_search", "ai_search", "4.00", 1, 12),
    op("links_web", "ai_links_web", "4.00", 1, 4),
    op("links_twitter", "ai_links_x", "4.00", 1, 4),
    op("web_search", "web_search", "2.50", 1, 10),
    op("web_crawl", "web_crawl", "2.50", 1, 4),
];

const fn op(
    name: &'static str,
    service: &'static str,
    rate_per_1000: &'static str,
    max_units: u64,
    weight: u64,
) -> Operation {
    Operation {
        name,
        service,
        rate_per_1000,
        max_units,
        weight,
    }
}

const TOPICS: [&str; 24] = [
    "climate policy",
    "flood defences",
    "rust async",
    "svelte 5 runes",
    "election night",
    "solar prices",
    "heat pumps",
    "rail strike",
    "open source funding",
    "sqlite wal",
    "chip exports",
    "wildfire smoke",
    "housing costs",
    "bird migration",
    "ai regulation",
    "transit ridership",
    "drought",
    "space launch",
    "vaccine uptake",
    "ocean temperatures",
    "football transfer",
    "tariffs",
    "battery recycling",
    "air quality",
];
const USERS: [&str; 8] = [
    "nasa",
    "metoffice",
    "ana_reports",
    "rustlang",
    "sveltejs",
    "who",
    "noaa",
    "bbcbreaking",
];

struct Args {
    path: PathBuf,
    history: usize,
    days: u32,
    mode: String,
}

fn parse_args() -> Result<Args, String> {
    let mut path = None;
    let mut history = 100_000usize;
    let mut days = 365u32;
    let mut mode = "demo".to_owned();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or_else(|| format!("{name} needs a value"));
        match arg.as_str() {
            "--history" => {
                history = value("--history")?
                    .parse()
                    .map_err(|e| format!("--history: {e}"))?
            }
            "--days" => {
                days = value("--days")?
                    .parse()
                    .map_err(|e| format!("--days: {e}"))?
            }
            "--mode" => mode = value("--mode")?,
            "-h" | "--help" => return Err(String::new()),
            other if other.starts_with("--") => return Err(format!("unknown option {other}")),
            other if path.is_none() => path = Some(PathBuf::from(other)),
            other => return Err(format!("unexpected argument {other}")),
        }
    }
    let path = path.ok_or("the database path is missing")?;
    if history == 0 || days == 0 {
        return Err("--history and --days must be above 0".into());
    }
    Ok(Args {
        path,
        history,
        days,
        mode,
    })
}

/// How many requests fall on each day: weekdays busier than weekends, and a random factor per
/// day, so the per-day chart has shape. Sums to `total` exactly.
fn per_day_counts(rng: &mut Rng, days: u32, total: usize, end: DateTime<Utc>) -> Vec<usize> {
    use chrono::Datelike;
    let weights: Vec<f64> = (0..days)
        .map(|d| {
            let day = end - Duration::days(i64::from(days - 1 - d));
            let weekend = day.weekday().number_from_monday() >= 6;
            (if weekend { 0.45 } else { 1.0 }) * (0.4 + 1.2 * rng.unit())
        })
        .collect();
    let sum: f64 = weights.iter().sum();
    let mut counts: Vec<usize> = weights
        .iter()
        .map(|w| (w / sum * total as f64).floor() as usize)
        .collect();
    let mut missing = total - counts.iter().sum::<usize>();
    while missing > 0 {
        let day = rng.below(u64::from(days)) as usize;
        counts[day] += 1;
        missing -= 1;
    }
    counts
}

fn params(rng: &mut Rng, op: &Operation, units: u64) -> String {
    let topic = *rng.pick(&TOPICS);
    let user = *rng.pick(&USERS);
    let id = 1_890_000_000_000_000_000u64 + rng.below(10_000_000_000);
    let value = match op.name {
        "twitter_search" => serde_json::json!({ "query": topic, "count": units, "sort": "Latest" }),
        "twitter_urls" => serde_json::json!({
            "urls": (0..units).map(|i| format!("https://x.com/{user}/status/{}", id + i)).collect::<Vec<_>>()
        }),
        "twitter_post" | "twitter_replies_post" | "twitter_retweeters" => {
            serde_json::json!({ "id": id.to_string() })
        }
        "twitter_post_user" | "twitter_user_posts" | "twitter_replies" => {
            serde_json::json!({ "user": user })
        }
        "twitter_trends" => serde_json::json!({ "woeid": 1, "count": units }),
        "ai_search" => {
            serde_json::json!({ "prompt": format!("What is new about {topic}?"), "tools": ["web", "twitter"] })
        }
        "links_web" | "links_twitter" => serde_json::json!({ "prompt": topic, "count": 10 }),
        "web_search" => serde_json::json!({ "query": topic, "num": 10 }),
        "web_crawl" => {
            serde_json::json!({ "url": format!("https://example.org/{}", topic.replace(' ', "-")) })
        }
        _ => serde_json::json!({ "query": topic }),
    };
    value.to_string()
}

fn record(
    rng: &mut Rng,
    n: usize,
    started_at: DateTime<Utc>,
    mode: &str,
    rates: &[Decimal],
) -> RequestRecord {
    let total_weight: u64 = OPERATIONS.iter().map(|op| op.weight).sum();
    let mut draw = rng.below(total_weight);
    let index = OPERATIONS
        .iter()
        .position(|op| {
            if draw < op.weight {
                true
            } else {
                draw -= op.weight;
                false
            }
        })
        .expect("a weight is drawn");
    let op = &OPERATIONS[index];
    let units = 1 + rng.below(op.max_units);
    // Streams stopped by the user are billed in their headers like the rest (every row is billed).
    let status = if op.service.starts_with("ai_") && rng.below(40) == 0 {
        RequestStatus::Cancelled
    } else {
        RequestStatus::Ok
    };
    // units × rate / 1000, exact, as the sandbox computes it.
    let cost = (Decimal::from(units) * rates[index] / Decimal::from(1000)).normalize();
    let params_json = params(rng, op, units);
    RequestRecord {
        provenance: None,
        request_id: format!("seed-{n:07}"),
        started_at,
        operation: op.name.into(),
        result_json: Some(format!(
            r#"{{"operation":"{}","result_count":{units},"seeded":true}}"#,
            op.name
        )),
        params_json,
        key_label: None,
        mode: mode.into(),
        status,
        error_class: None,
        error_message: None,
        duration_ms: 150 + rng.below(if op.max_units > 1 { 2_500 } else { 9_000 }) as i64,
        result_count: units as i64,
        billing: Some(Billing {
            cost: Some(cost),
            cost_text: None,
            usage_count: units as i64,
            service: op.service.into(),
            currency: "USD".into(),
        }),
        cursor: None,
        next_cursor: None,
        parent_id: None,
        posts: vec![],
        users: vec![],
        links: vec![],
    }
}

fn file_size(path: &Path) -> u64 {
    std::fs::metadata(path).map(|m| m.len()).unwrap_or(0)
}

#[tokio::main]
async fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(args) => args,
        Err(problem) => {
            if !problem.is_empty() {
                eprintln!("seed: {problem}");
            }
            eprintln!(
                "usage: seed <db path> [--history 100000] [--days 365] [--mode demo|live]\n\
                 The file must not exist yet; the app in demo mode reads <data dir>/demo.db."
            );
            return ExitCode::from(2);
        }
    };
    if args.path.exists() {
        eprintln!(
            "seed: {} exists; remove it (and its -wal/-shm) first",
            args.path.display()
        );
        return ExitCode::from(1);
    }
    if let Some(parent) = args.path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).expect("create the database folder");
    }

    let started = Instant::now();
    let store = Store::open(&args.path).await.expect("open the database");
    let rates: Vec<Decimal> = OPERATIONS
        .iter()
        .map(|op| Decimal::from_str(op.rate_per_1000).expect("valid rate"))
        .collect();
    let mut rng = Rng(0x5eed_5167_47f1_0e01);
    let end = Utc::now();
    let window_start = end - Duration::days(i64::from(args.days));
    let counts = per_day_counts(&mut rng, args.days, args.history, end);

    let mut batch = Vec::with_capacity(BATCH);
    let mut n = 0usize;
    let mut spent = Decimal::ZERO;
    let day_ms = Duration::days(1).num_milliseconds() as u64;
    for (day, &count) in counts.iter().enumerate() {
        let day_start = window_start + Duration::days(day as i64);
        let mut offsets: Vec<u64> = (0..count).map(|_| rng.below(day_ms)).collect();
        offsets.sort_unstable();
        for offset in offsets {
            let at = day_start + Duration::milliseconds(offset as i64);
            let record = record(&mut rng, n, at, &args.mode, &rates);
            spent += record
                .billing
                .as_ref()
                .and_then(|b| b.cost)
                .unwrap_or(Decimal::ZERO);
            batch.push(record);
            n += 1;
            if batch.len() == BATCH {
                store.record_requests(&batch).await.expect("record a batch");
                batch.clear();
            }
        }
    }
    if !batch.is_empty() {
        store.record_requests(&batch).await.expect("record a batch");
    }
    store.checkpoint().await.expect("checkpoint");
    store.close().await;

    let busiest = counts.iter().max().copied().unwrap_or(0);
    let quietest = counts.iter().min().copied().unwrap_or(0);
    println!(
        "seeded {} with {n} requests (mode {}) over {} days ({quietest}–{busiest} a day), \
         {spent} USD in total, {:.1} MB, in {:.1} s",
        args.path.display(),
        args.mode,
        args.days,
        file_size(&args.path) as f64 / 1e6,
        started.elapsed().as_secs_f64()
    );
    ExitCode::SUCCESS
}
