//! What the command layer adds on top of a direct client call, and what relaying a stream event
//! costs. Run: `cargo bench -p sightline-core --bench pipeline` (release). Loopback sandbox, real
//! SQLite in a temp folder; bounded iterations; prints medians and 95th percentiles.

// The app against a sandbox, set up as the integration tests set it up.
#[path = "../tests/support/live.rs"]
mod live;

use live::Live;
use std::sync::Arc;
use std::time::{Duration, Instant};

use sightline_api::request::{AiSearchRequest, Tool, TwitterPostRequest};
use sightline_api::{ApiKey, Client, ClientConfig};
use sightline_core::pipeline::{self, Paging, SendOptions};
use sightline_core::streaming::{self, StreamMessage};
use sightline_sandbox::Sandbox;

const ROUNDS: usize = 400;

fn percentile(samples: &mut [Duration], p: f64) -> Duration {
    samples.sort();
    samples[((samples.len() - 1) as f64 * p).round() as usize]
}

fn report(name: &str, samples: &mut [Duration]) -> Duration {
    let median = percentile(samples, 0.5);
    println!(
        "{name:<44} median {:>9.1} µs   p95 {:>9.1} µs   (n={})",
        median.as_secs_f64() * 1e6,
        percentile(samples, 0.95).as_secs_f64() * 1e6,
        samples.len()
    );
    median
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let Live {
        sandbox,
        state,
        _data,
    } = Live::start(Sandbox::builder().seed(11)).await;
    let world = sandbox.world();
    let post_id = world.posts[world.posts.len() / 2].id.to_string();
    let key = ApiKey::parse(sandbox.demo_key()).unwrap();

    // Direct: the client alone, the same request.
    let client = Client::new(ClientConfig::new(sandbox.base_url())).unwrap();
    let request = TwitterPostRequest {
        id: post_id.clone(),
    };
    for _ in 0..50 {
        client.send(&request, &key).await.unwrap();
    }
    let mut direct: Vec<Duration> = Vec::with_capacity(ROUNDS);
    for _ in 0..ROUNDS {
        let started = Instant::now();
        client.send(&request, &key).await.unwrap();
        direct.push(started.elapsed());
    }

    // Through the command layer: validate, estimate, budget, claim, send, one transaction.
    let session = state.session().await.unwrap();
    let mut layered: Vec<Duration> = Vec::with_capacity(ROUNDS);
    for round in 0..ROUNDS + 50 {
        let send = SendOptions {
            request_id: format!("bench-{round}"),
            confirm_budget: true,
            paging: Paging::default(),
        };
        let started = Instant::now();
        pipeline::execute(&state, &session, request.clone(), send, None)
            .await
            .unwrap();
        if round >= 50 {
            layered.push(started.elapsed());
        }
    }

    println!("command overhead ({ROUNDS} GET /twitter/post against the sandbox on loopback)");
    let direct_median = report("direct client call", &mut direct);
    let layered_median = report("command flow (incl. SQLite transaction)", &mut layered);
    println!(
        "{:<44} {:>9.1} µs  (target ≤ 2,000 µs)",
        "added at the median",
        (layered_median.as_secs_f64() - direct_median.as_secs_f64()) * 1e6
    );

    // Stream relay: from the client handing an event to the command layer until the message is
    // serialised for the window (what Channel::send does before the IPC write).
    let request = AiSearchRequest::new("flood warnings", &[Tool::Web, Tool::Twitter]);
    let relay: Arc<std::sync::Mutex<Vec<Duration>>> = Arc::default();
    for round in 0..5 {
        let samples = relay.clone();
        let send = SendOptions {
            request_id: format!("stream-{round}"),
            confirm_budget: true,
            paging: Paging::default(),
        };
        streaming::ai_search(
            &state,
            &session,
            request.clone(),
            send,
            move |message: StreamMessage| {
                let started = Instant::now();
                let json = serde_json::to_string(&message).unwrap();
                std::hint::black_box(json);
                samples.lock().unwrap().push(started.elapsed());
            },
        )
        .await
        .unwrap();
    }
    let mut relay = relay.lock().unwrap().clone();
    println!(
        "stream relay per event (serialise for the channel; {} events)",
        relay.len()
    );
    report("per event", &mut relay);
    sandbox.shutdown().await;
}
