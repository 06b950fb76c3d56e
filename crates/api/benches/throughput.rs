//! Benchmarks with bounded iterations (run with `cargo bench -p sightline-api`):
//! 1. stream decoder throughput on a realistic stream pushed in network-sized reads;
//! 2. the client's own overhead per request against the sandbox, compared with a bare
//!    reqwest call to the same URL.
//!
//! Prints measured figures; asserts nothing about time.

use std::time::{Duration, Instant};

use serde_json::json;
use sightline_api::request::TwitterPostRequest;
use sightline_api::{ApiKey, Client, ClientConfig, StreamDecoder};

fn median(mut xs: Vec<Duration>) -> Duration {
    xs.sort_unstable();
    xs[xs.len() / 2]
}

fn frame(events: &[serde_json::Value]) -> Vec<u8> {
    let mut out = String::new();
    for e in events {
        out.push_str("data: ");
        out.push_str(&e.to_string());
        out.push_str("\n\n");
    }
    out.into_bytes()
}

/// Tool results: six link tools of 20 results each.
fn link_events() -> Vec<serde_json::Value> {
    let links: Vec<_> = (0..20)
        .map(|i| json!({"title": format!("Result number {i} about open source"), "snippet": "A fairly long snippet of text that describes the linked page in a sentence or two, as search engines do.", "link": format!("https://example.com/articles/{i}")}))
        .collect();
    [
        "search",
        "wikipedia_search",
        "reddit_search",
        "hacker_news_search",
        "youtube_search",
        "arxiv_search",
    ]
    .iter()
    .map(|tool| json!({"type": tool, "content": links}))
    .collect()
}

/// The X tool's result: 20 full posts.
fn post_events() -> Vec<serde_json::Value> {
    let tweets: Vec<_> = (0..20)
        .map(|i| json!({
            "id": format!("18912345678901{i:05}"), "text": "RT @x_data: data: an example post with some words, a #hashtag and a link https://t.co/abc",
            "reply_count": 3, "retweet_count": 10, "like_count": 120, "quote_count": 1, "bookmark_count": 4,
            "view_count": 4500, "lang": "en", "created_at": "2026-02-16T18:33:57.000Z",
            "url": format!("https://x.com/someone/status/18912345678901{i:05}"), "media": [],
            "is_retweet": false, "is_quote_tweet": false, "conversation_id": "1891234567890100000",
            "user": {"id": "42", "username": "someone", "name": "Some One", "followers_count": 1234, "verified": false, "is_blue_verified": true},
            "entities": {"hashtags": [{"text": "hashtag", "indices": [50, 58]}], "urls": [], "user_mentions": [], "symbols": []}
        }))
        .collect();
    vec![json!({"type": "tweets", "content": tweets})]
}

/// The summary: 400 small deltas, then the whole text.
fn text_events() -> Vec<serde_json::Value> {
    let mut events: Vec<_> = (0..400)
        .map(
            |i| json!({"type": "text", "role": "summary", "content": format!("word{i} and more ")}),
        )
        .collect();
    events.push(json!({"type": "completion", "content": "A summary ".repeat(200)}));
    events
}

/// Median MB/s decoding `stream` in reads of `read` bytes, and the event count.
fn throughput(stream: &[u8], read: usize, rounds: usize) -> (f64, usize) {
    let mut times = Vec::new();
    let mut events = 0;
    for _ in 0..rounds {
        let started = Instant::now();
        let mut d = StreamDecoder::new();
        events = 0;
        for chunk in stream.chunks(read) {
            events += d.push(chunk).len();
        }
        events += d.finish().expect("complete").len();
        times.push(started.elapsed());
    }
    (
        stream.len() as f64 / 1e6 / median(times).as_secs_f64(),
        events,
    )
}

fn bench_decoder() {
    let mut all = link_events();
    all.extend(post_events());
    all.push(json!({"type": "miner_link_scores", "content": {"https://example.com/articles/1": "HIGH", "1891234567890100001": "LOW"}}));
    all.extend(text_events());
    let parts = [
        ("whole stream", frame(&all)),
        ("link results only", frame(&link_events())),
        ("posts only", frame(&post_events())),
        ("text deltas only", frame(&text_events())),
    ];
    for (name, stream) in &parts {
        let (mbps, events) = throughput(stream, 16 * 1024, 50);
        println!(
            "decoder, {name}: {:.1} KB, {events} events, 16 KiB reads: median {mbps:.0} MB/s",
            stream.len() as f64 / 1e3
        );
    }
    let (mbps, _) = throughput(&parts[0].1, 1, 5);
    println!("decoder, whole stream, 1 byte per read (worst case framing): {mbps:.0} MB/s");
}

async fn bench_client_overhead() {
    let sb = sightline_sandbox::Sandbox::builder()
        .seed(42)
        .port(0)
        .pace_ms(0)
        .start()
        .await
        .expect("sandbox");
    let key = ApiKey::parse(sb.demo_key()).expect("key");
    let client = Client::new(ClientConfig::new(sb.base_url())).expect("client");
    let bare = reqwest::Client::builder().build().expect("bare client");
    let id = sb.world().posts[0].id.to_string();
    let req = TwitterPostRequest { id: id.clone() };
    let url = format!("{}/twitter/post?id={id}", sb.base_url());

    let rounds = 2000;
    let (mut ours, mut theirs) = (Vec::with_capacity(rounds), Vec::with_capacity(rounds));
    for i in 0..rounds + 200 {
        // Alternate so both see the same server and machine conditions.
        let t = Instant::now();
        let r = bare
            .get(&url)
            .header("Authorization", sb.demo_key())
            .send()
            .await
            .expect("bare send");
        let text = r.text().await.expect("bare body");
        let bare_time = t.elapsed();
        assert!(!text.is_empty());

        let t = Instant::now();
        let r = client.send(&req, &key).await.expect("client call");
        let our_time = t.elapsed();
        assert_eq!(r.body.id, id);
        if i >= 200 {
            theirs.push(bare_time);
            ours.push(our_time);
        }
    }
    let (m_ours, m_bare) = (median(ours), median(theirs));
    println!(
        "client overhead: {rounds} GET /twitter/post, median client {:.1} µs vs bare reqwest {:.1} µs: +{:.1} µs",
        m_ours.as_secs_f64() * 1e6,
        m_bare.as_secs_f64() * 1e6,
        (m_ours.as_secs_f64() - m_bare.as_secs_f64()) * 1e6
    );
    sb.shutdown().await;
}

fn main() {
    bench_decoder();
    // `cargo bench -p sightline-api -- decoder` skips the client part (for profiling).
    if std::env::args().any(|a| a == "decoder") {
        return;
    }
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime")
        .block_on(bench_client_overhead());
}
