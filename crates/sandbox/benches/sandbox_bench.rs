//! Bench binary (`cargo bench -p sightline-sandbox`): world start-up time, and `/twitter`
//! requests per second from a local load generator on loopback. Bounded in time and count.
//!
//! Options via environment: `BENCH_SECONDS` (default 5), `BENCH_CONCURRENCY` (default 32),
//! `BENCH_MAX_REQUESTS` (default 200000).

use sightline_sandbox::world::live::Live;
use sightline_sandbox::{Sandbox, World};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn world_startup() {
    let now = chrono::Utc::now().timestamp_millis();
    let mut times: Vec<Duration> = (0..5)
        .map(|i| {
            let t = Instant::now();
            let w = World::generate(42 + i, now);
            let elapsed = t.elapsed();
            assert!(w.posts.len() >= 50_000 && w.users.len() >= 2_000);
            elapsed
        })
        .collect();
    times.sort();
    println!("world start-up (2,500 users, 60,000 posts, indexes), 5 runs: min {:?}, median {:?}, max {:?}", times[0], times[2], times[4]);
}

/// Query mixes a client would send: words, phrases, tags, `from:`, filters, both sorts.
fn queries(sb: &Sandbox) -> Vec<String> {
    let w = sb.world();
    let user = &w.users[w.posts[1000].author as usize].username;
    [
        "query=bitcoin&count=20".to_string(),
        "query=solar%20OR%20wind&sort=Latest&count=20".to_string(),
        "query=%22open-weight%20language%20models%22&count=20".to_string(),
        "query=%23ClimateAction&lang=en&count=20".to_string(),
        format!("query=from%3A{user}&sort=Latest"),
        "query=football&min_likes=50&is_image=true&count=20".to_string(),
        "query=inflation%20-bitcoin&verified=false&count=50".to_string(),
        "query=&sort=Latest&count=20".to_string(),
    ]
    .into_iter()
    .collect()
}

/// What the live trickle costs: making and indexing a day of it at the default rate, and
/// growing it by one minute past an hour (what a request pays once a minute).
fn trickle(world: &World) {
    let rate = sightline_sandbox::DEFAULT_LIVE_RATE;
    let t = Instant::now();
    let day = Live::new(world, rate).tail(world, world.now_ms + 86_400_000);
    let spent = t.elapsed();
    println!(
        "trickle: a day at {rate}/min = {} posts made and indexed in {spent:?} ({:?} each)",
        day.posts.len(),
        spent / day.posts.len().max(1) as u32
    );
    let live = Live::new(world, rate);
    live.tail(world, world.now_ms + 3_600_000);
    let t = Instant::now();
    let grown = live.tail(world, world.now_ms + 3_720_000);
    println!(
        "trickle: growing an hour's tail ({} posts) by its next minute: {:?}",
        grown.posts.len(),
        t.elapsed()
    );
}

/// The search itself, without HTTP: what one request costs the server's CPU.
fn operation_only(sb: &Sandbox) {
    let world = sb.world();
    let tweets = sightline_sandbox::render::TweetCache::new(world, "http://127.0.0.1:8787");
    // An hour of the default trickle, so searches also walk its index.
    let now_ms = world.now_ms + 3_600_000;
    let live = Live::new(world, sightline_sandbox::DEFAULT_LIVE_RATE);
    let tail = live.tail(world, now_ms);
    let ctx = sightline_sandbox::ops::Ctx {
        world,
        now_ms,
        pace: Duration::ZERO,
        posts: sightline_sandbox::posts::Posts::new(world, &tail, &tweets, now_ms),
        jobs: &sightline_sandbox::ops::forecast::Jobs::default(),
        path: "/twitter",
    };
    let queries = queries(sb);
    let deadline = Instant::now() + Duration::from_secs(2);
    let start = Instant::now();
    let mut n = 0u64;
    while Instant::now() < deadline {
        let q = &queries[n as usize % queries.len()];
        let out = sightline_sandbox::ops::Op::TwitterSearch.run(&ctx, Some(q), b"");
        assert!(matches!(out, sightline_sandbox::ops::Outcome::Json { .. }));
        n += 1;
    }
    let per = start.elapsed() / n as u32;
    println!("/twitter search without HTTP, one thread: {n} in 2 s = {:.0} per second ({per:?} each, rendered records cached after first use)", n as f64 / start.elapsed().as_secs_f64());
    for q in &queries {
        let t = Instant::now();
        for _ in 0..200 {
            sightline_sandbox::ops::Op::TwitterSearch.run(&ctx, Some(q), b"");
        }
        println!("  {:>10?}  {q}", t.elapsed() / 200);
    }
}

async fn load(sb: &Sandbox, seconds: u64, concurrency: u64, max_requests: u64) {
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(concurrency as usize)
        .build()
        .unwrap();
    let urls: Arc<Vec<String>> = Arc::new(
        queries(sb)
            .into_iter()
            .map(|q| format!("{}/twitter?{q}", sb.base_url()))
            .collect(),
    );
    let sent = Arc::new(AtomicU64::new(0));
    let failed = Arc::new(AtomicU64::new(0));
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let start = Instant::now();
    let mut tasks = Vec::new();
    for worker in 0..concurrency {
        let (client, urls, sent, failed, key) = (
            client.clone(),
            urls.clone(),
            sent.clone(),
            failed.clone(),
            sb.demo_key().to_string(),
        );
        tasks.push(tokio::spawn(async move {
            let mut latencies = Vec::new();
            let mut i = worker as usize;
            while Instant::now() < deadline && sent.fetch_add(1, Ordering::Relaxed) < max_requests {
                let t = Instant::now();
                let ok = match client
                    .get(&urls[i % urls.len()])
                    .header("Authorization", &key)
                    .send()
                    .await
                {
                    Ok(r) => r.status().is_success() && r.bytes().await.is_ok(),
                    Err(_) => false,
                };
                if !ok {
                    failed.fetch_add(1, Ordering::Relaxed);
                }
                latencies.push(t.elapsed());
                i += 1;
            }
            latencies
        }));
    }
    let mut latencies = Vec::new();
    for t in tasks {
        latencies.extend(t.await.unwrap());
    }
    let elapsed = start.elapsed();
    latencies.sort();
    let n = latencies.len();
    println!(
        "/twitter searches: {n} requests in {:.2?} with {concurrency} connections = {:.0} req/s; latency p50 {:?}, p99 {:?}; failures {}",
        elapsed,
        n as f64 / elapsed.as_secs_f64(),
        latencies[n / 2],
        latencies[n * 99 / 100],
        failed.load(Ordering::Relaxed)
    );
}

fn main() {
    // `cargo bench` passes `--bench`; nothing else to parse.
    world_startup();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let t = Instant::now();
        let sb = Sandbox::builder()
            .seed(42)
            .port(0)
            .pace_ms(0)
            .start()
            .await
            .unwrap();
        println!("sandbox start (world + bind): {:?}", t.elapsed());
        trickle(sb.world());
        operation_only(&sb);
        // The same load without and with an hour of the default trickle, alternating, so the
        // trickle's cost is measured against the same machine's load.
        let live = Sandbox::builder()
            .seed(42)
            .port(0)
            .pace_ms(0)
            .live_rate(sightline_sandbox::DEFAULT_LIVE_RATE)
            .start()
            .await
            .unwrap();
        live.advance_clock(Duration::from_secs(3_600));
        for round in 0..2 {
            for (name, server) in [("no trickle", &sb), ("an hour of trickle", &live)] {
                print!("round {} {name}: ", round + 1);
                load(
                    server,
                    env_or("BENCH_SECONDS", 5),
                    env_or("BENCH_CONCURRENCY", 32),
                    env_or("BENCH_MAX_REQUESTS", 200_000),
                )
                .await;
            }
        }
        live.shutdown().await;
        sb.shutdown().await;
    });
}
