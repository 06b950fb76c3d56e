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

/// A stream shaped like the service's: tool results, posts, scores, many text deltas.
fn sample_stream() -> Vec<u8> {
    let mut out = String::new();
    let mut push = |v: serde_json::Value| {
        out.push_str("data: ");
        out.push_str(&v.to_string());
        out.push_str("\n\n");
    };
    let links: Vec<_> = (0..20)
        .map(|i| json!({"title": format!("Result number {i} about open source"), "snippet": "A fairly long snippet of text that describes the linked page in a sentence or two, as search engines do.", "link": format!("https://example.com/articles/{i}")}))
        .collect();
    for tool in [
        "search",
        "wikipedia_search",
        "reddit_search",
        "hacker_news_search",
        "youtube_search",
        "arxiv_search",
    ] {
        push(json!({"type": tool, "content": links}));
    }
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
    push(json!({"type": "tweets", "content": tweets}));
    push(
        json!({"type": "miner_link_scores", "content": {"https://example.com/articles/1": "HIGH", "1891234567890100001": "LOW"}}),
    );
    for i in 0..400 {
        push(json!({"type": "text", "role": "summary", "content": format!("word{i} and more ")}));
    }
    push(json!({"type": "completion", "content": "A summary ".repeat(200)}));
    out.into_bytes()
}

fn bench_decoder() {
    let stream = sample_stream();
    let read = 16 * 1024;
    let mut times = Vec::new();
    let mut events = 0;
    for _ in 0..30 {
        let started = Instant::now();
        let mut d = StreamDecoder::new();
        events = 0;
        for chunk in stream.chunks(read) {
            events += d.push(chunk).len();
        }
        events += d.finish().expect("complete").len();
        times.push(started.elapsed());
    }
    let t = median(times);
    let mb = stream.len() as f64 / 1e6;
    println!(
        "decoder: {:.2} MB stream, {events} events, 16 KiB reads: median {:.2} ms = {:.0} MB/s",
        mb,
        t.as_secs_f64() * 1e3,
        mb / t.as_secs_f64()
    );

    // Worst case for framing: one byte per read.
    let started = Instant::now();
    let mut d = StreamDecoder::new();
    for b in stream.chunks(1) {
        d.push(b);
    }
    d.finish().expect("complete");
    let t = started.elapsed();
    println!(
        "decoder: same stream 1 byte per read: {:.0} MB/s",
        mb / t.as_secs_f64()
    );
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
        let r = client.twitter_post(&req, &key).await.expect("client call");
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
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime")
        .block_on(bench_client_overhead());
}
