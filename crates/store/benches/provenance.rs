//! What provenance adds to recording a search: `cargo bench -p sightline-store --bench provenance`.
//!
//! Records 100-post X searches (a ~100 KB body shaped like the service's, its posts archived,
//! billed) into a database on disk, alternately without provenance and with it (the body's
//! SHA-256 taken as the client does on receipt, the bytes kept zlib-compressed), in blocks so
//! both see the same database size and disk. Prints the median and mean time per recorded
//! search and the difference, and the difference block by block (each block records both ways
//! back to back, so a machine busy with other work slows both alike): its median and quartiles
//! are the figure to trust on a loaded machine. Then provenance's own time on its own: the same
//! body recorded without posts, with and without provenance, pair by pair, in milliseconds.
//! It asserts nothing about time.

use std::str::FromStr;
use std::time::{Duration, Instant};

use chrono::{DateTime, TimeZone, Utc};
use rust_decimal::Decimal;
use sha2::{Digest, Sha256};
use sightline_store::{Billing, NewPost, NewProvenance, RequestRecord, RequestStatus, Store};

const POSTS: usize = 100;
/// One recording each way per block, in the order ABBA...: neighbours see the same load.
const BLOCKS: usize = 400;
const PER_BLOCK: usize = 1;
const WARM_UP: usize = 10;

fn post(n: usize, run: u128, at: DateTime<Utc>) -> (NewPost, serde_json::Value) {
    let id = format!(
        "{}{n:03}",
        1_800_000_000_000_000_000u64 + (run % 1_000_000_000) as u64
    );
    let author = n * 7919 % 2500;
    let username = format!("reporter{author}");
    let text = format!(
        "Flood warnings extended along the coast tonight, post {n}: residents of low-lying \
         streets are asked to move cars and check on neighbours #floods #weather https://t.co/x{n}"
    );
    let raw = serde_json::json!({
        "id": id, "text": text, "created_at": at.to_rfc3339(),
        "reply_count": n, "retweet_count": n * 3, "like_count": n * 40, "quote_count": n / 2,
        "bookmark_count": n / 3, "view_count": n * 1200, "lang": "en",
        "url": format!("https://x.com/{username}/status/{id}"), "conversation_id": id,
        "is_retweet": false, "is_quote_tweet": false, "media": [],
        "entities": { "hashtags": [{"text": "floods"}, {"text": "weather"}],
                      "urls": [{"url": format!("https://t.co/x{n}"), "expanded_url": format!("https://news.example.org/floods/{n}")}] },
        "user": { "id": author.to_string(), "username": username, "name": format!("Reporter {author}"),
                  "verified": author % 10 == 0, "followers_count": author * 37,
                  "description": "Local news. Weather, roads and the council, as it happens.",
                  "location": "On the coast", "created_at": "2015-03-01T10:00:00Z",
                  "profile_image_url": format!("https://pbs.example.com/profile/{author}.jpg") }
    });
    let post = NewPost {
        id: id.clone(),
        conversation_id: Some(id.clone()),
        author_id: Some(author.to_string()),
        author_username: username,
        author_name: format!("Reporter {author}"),
        author_verified: author % 10 == 0,
        text,
        lang: Some("en".into()),
        created_at: at,
        like_count: n as i64 * 40,
        retweet_count: n as i64 * 3,
        reply_count: n as i64,
        quote_count: n as i64 / 2,
        view_count: Some(n as i64 * 1200),
        bookmark_count: n as i64 / 3,
        hashtags: vec!["floods".into(), "weather".into()],
        url: None,
        raw_json: raw.to_string(),
        nested: false,
    };
    (post, raw)
}

/// One 100-post search as the pipeline hands it to the store, without its provenance.
fn search(n: usize, run: u128) -> RequestRecord {
    let at = Utc.with_ymd_and_hms(2026, 11, 23, 18, 4, 12).unwrap();
    let (posts, raws): (Vec<NewPost>, Vec<serde_json::Value>) =
        (0..POSTS).map(|p| post(n * POSTS + p, run, at)).unzip();
    let body = serde_json::to_string(&raws).unwrap();
    RequestRecord {
        request_id: format!("bench-{run}-{n}"),
        started_at: at,
        operation: "twitter_search".into(),
        params_json: r#"{"query":"floods","count":100}"#.into(),
        key_label: Some("work".into()),
        mode: "live".into(),
        status: RequestStatus::Ok,
        error_class: None,
        error_message: None,
        duration_ms: 400,
        result_count: POSTS as i64,
        billing: Some(Billing {
            cost: Decimal::from_str("0.03").ok(),
            cost_text: None,
            usage_count: POSTS as i64,
            service: "x".into(),
            currency: "USD".into(),
        }),
        cursor: None,
        next_cursor: None,
        parent_id: None,
        result_json: Some(body),
        posts,
        users: vec![],
        links: vec![],
        provenance: None,
    }
}

/// The provenance of `body`, as the client and the pipeline make it on receipt.
fn provenance_of(body: &str) -> NewProvenance {
    NewProvenance {
        captured_at: Utc::now(),
        service_url: "https://api.example.com".into(),
        response_url: "https://api.example.com/twitter/search?query=floods&count=100".into(),
        http_status: 200,
        billing_headers: [("x-service-cost-usd".to_owned(), "0.03".to_owned())].into(),
        response_headers: None,
        app_version: "0.1.0".into(),
        sha256: Sha256::digest(body.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect(),
        body: body.as_bytes().to_vec(),
        from_cache: false,
        stamp_with: None,
    }
}

/// CPU seconds this process has used (user + system), from /proc on Linux; None elsewhere.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which is in parentheses and may hold spaces).
    let fields: Vec<&str> = stat[stat.rfind(')')? + 2..].split(' ').collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn summary(times: &mut [Duration]) -> (f64, f64) {
    times.sort();
    let median = ms(times[times.len() / 2]);
    let mean = times.iter().map(|d| ms(*d)).sum::<f64>() / times.len() as f64;
    (median, mean)
}

#[tokio::main]
async fn main() {
    let dir =
        tempfile::tempdir_in(std::env::var("SIGHTLINE_BENCH_DIR").unwrap_or_else(|_| ".".into()))
            .expect("a folder for the benchmark database");
    let store = Store::open(dir.path().join("provenance-bench.db"))
        .await
        .unwrap();
    let run = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let body_size = search(0, run).result_json.unwrap().len();
    // Warm up: the first writes grow the file and fill the caches.
    for n in 0..WARM_UP {
        store
            .record_request(&search(1_000_000 + n, run))
            .await
            .unwrap();
    }
    let (mut without, mut with) = (Vec::new(), Vec::new());
    let (mut cpu_without, mut cpu_with) = (0.0, 0.0);
    // Per block: (median without, median with) of its recordings.
    let mut paired: Vec<(Duration, Duration)> = Vec::with_capacity(BLOCKS);
    for block in 0..BLOCKS {
        let mut block_times: [Vec<Duration>; 2] = [Vec::new(), Vec::new()];
        for mode in [block % 2 == 0, block % 2 == 1] {
            let cpu_before = cpu_seconds().unwrap_or(0.0);
            for i in 0..PER_BLOCK {
                let n = (block * 2 + usize::from(mode)) * PER_BLOCK + i;
                let mut record = search(n, run);
                // Timed: what provenance asks of the app (the hash taken on receipt, the bytes
                // kept), and recording the search.
                let started = Instant::now();
                if mode {
                    record.provenance = Some(provenance_of(record.result_json.as_deref().unwrap()));
                }
                store.record_request(&record).await.unwrap();
                let took = started.elapsed();
                block_times[usize::from(mode)].push(took);
                if mode {
                    with.push(took)
                } else {
                    without.push(took)
                }
            }
            let cpu = cpu_seconds().unwrap_or(0.0) - cpu_before;
            if mode {
                cpu_with += cpu
            } else {
                cpu_without += cpu
            }
        }
        let [mut off, mut on] = block_times;
        off.sort();
        on.sort();
        paired.push((off[PER_BLOCK / 2], on[PER_BLOCK / 2]));
    }
    let (without_median, without_mean) = summary(&mut without);
    let (with_median, with_mean) = summary(&mut with);
    println!("100-post search, body {body_size} bytes, {} recordings each, file database (synchronous=FULL)", without.len());
    println!("  without provenance: median {without_median:.2} ms, mean {without_mean:.2} ms");
    println!("  with provenance:    median {with_median:.2} ms, mean {with_mean:.2} ms");
    let body = search(0, run).result_json.unwrap().into_bytes();
    let started = Instant::now();
    for _ in 0..50 {
        std::hint::black_box(Sha256::digest(&body));
    }
    let hash = started.elapsed() / 50;
    let started = Instant::now();
    for _ in 0..50 {
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
        std::io::Write::write_all(&mut z, &body).unwrap();
        std::hint::black_box(z.finish().unwrap());
    }
    let zlib = started.elapsed() / 50;
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut z, &body).unwrap();
    let stored = z.finish().unwrap().len();
    let per = |cpu: f64| cpu * 1000.0 / (BLOCKS * PER_BLOCK / 2) as f64;
    println!(
        "  CPU per search:     without {:.2} ms, with {:.2} ms ({:+.1}%)",
        per(cpu_without),
        per(cpu_with),
        (cpu_with / cpu_without - 1.0) * 100.0
    );
    println!(
        "  of which SHA-256 of the body {:.2} ms, zlib (fast) {:.2} ms; {stored} bytes stored ({:.1}x smaller)",
        ms(hash),
        ms(zlib),
        body.len() as f64 / stored as f64
    );
    let mut ratios: Vec<f64> = paired
        .iter()
        .map(|(off, on)| (on.as_secs_f64() / off.as_secs_f64() - 1.0) * 100.0)
        .collect();
    ratios.sort_by(f64::total_cmp);
    let quartile = |q: usize| ratios[(ratios.len() - 1) * q / 4];
    println!(
        "  block by block:     {:+.1}% (median of {} blocks), quartiles {:+.1}% .. {:+.1}%",
        quartile(2),
        ratios.len(),
        quartile(1),
        quartile(3)
    );
    println!(
        "  provenance adds:    {:+.1}% (median), {:+.1}% (mean)",
        (with_median / without_median - 1.0) * 100.0,
        (with_mean / without_mean - 1.0) * 100.0
    );
    // Provenance's own time (hash, zlib, its row and pages), against a record that does little
    // else: the same body, no posts.
    let mut added: Vec<f64> = Vec::with_capacity(BLOCKS);
    let mut bare: Vec<Duration> = Vec::with_capacity(BLOCKS);
    for block in 0..BLOCKS {
        let mut pair = [Duration::ZERO; 2];
        for mode in [block % 2 == 0, block % 2 == 1] {
            let mut record = search(2_000_000 + block * 2 + usize::from(mode), run);
            record.posts.clear();
            record.result_count = 0;
            let started = Instant::now();
            if mode {
                record.provenance = Some(provenance_of(record.result_json.as_deref().unwrap()));
            }
            store.record_request(&record).await.unwrap();
            pair[usize::from(mode)] = started.elapsed();
        }
        bare.push(pair[0]);
        added.push(ms(pair[1]) - ms(pair[0]));
    }
    added.sort_by(f64::total_cmp);
    let (bare_median, _) = summary(&mut bare);
    let at = |q: usize| added[(added.len() - 1) * q / 4];
    println!(
        "  its own time:       {:+.2} ms a request (median of {} pairs, quartiles {:+.2} .. {:+.2} ms; \
         the body alone recorded in {bare_median:.2} ms) = {:+.1}% of the 100-post search's median",
        at(2),
        added.len(),
        at(1),
        at(3),
        at(2) / without_median * 100.0
    );
    store.close().await;
}
