//! A streamed answer is billed in its headers. If the app dies mid-answer, the money the
//! service billed must still be in Spend. This test runs the core in a child process (this
//! same test binary, running only `child_streams_until_killed`), lets it receive the headers
//! and some events of a slow stream from a sandbox in this process, SIGKILLs it, then opens
//! the same data folder as the next start of the app would and checks what it finds.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

use sightline_api::request::{AiSearchRequest, Tool};
use sightline_core::environment::Environment;
use sightline_core::keychain::{MemoryStore, SecretStore};
use sightline_core::pipeline::{Paging, SendOptions};
use sightline_core::state::AppState;
use sightline_core::streaming::{self, StreamMessage};
use sightline_sandbox::Sandbox;
use sightline_store::{HistoryQuery, RequestStatus};

const CHILD_DATA: &str = "SIGHTLINE_KILL_TEST_DATA";
const CHILD_URL: &str = "SIGHTLINE_KILL_TEST_URL";
const CHILD_KEY: &str = "SIGHTLINE_KILL_TEST_KEY";
/// Events the child must have relayed before it is killed: well past the headers.
const EVENTS_BEFORE_KILL: usize = 3;

fn live_state(data: &std::path::Path, base_url: &str) -> AppState {
    let secrets: Arc<dyn SecretStore> = Arc::new(MemoryStore::default());
    let environment = Environment {
        base_url: Some(base_url.to_owned()),
        ..Environment::default()
    };
    AppState::new(data.to_owned(), environment, secrets).unwrap()
}

/// The app's side, in the child: a live session with a key, one streamed AI search, every
/// message printed as it is relayed. It never ends by itself: the parent kills it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "run by a_stream_killed_mid_answer_keeps_its_cost as its child process"]
async fn child_streams_until_killed() {
    let (Ok(data), Ok(url), Ok(key)) = (
        std::env::var(CHILD_DATA),
        std::env::var(CHILD_URL),
        std::env::var(CHILD_KEY),
    ) else {
        panic!("only a_stream_killed_mid_answer_keeps_its_cost runs this, as its child");
    };
    let state = live_state(std::path::Path::new(&data), &url);
    sightline_core::keys::add(&state, "work", &key)
        .await
        .unwrap();
    let session = state.session().await.unwrap();
    let request = AiSearchRequest::new(
        "flood warnings in coastal towns",
        &[Tool::Web, Tool::Twitter, Tool::Wikipedia, Tool::Reddit],
    );
    let send = SendOptions {
        request_id: "killed-mid-stream".into(),
        confirm_budget: true,
        paging: Paging::default(),
    };
    let relay = |message: StreamMessage| match message {
        StreamMessage::Started { history_id } => println!("child: started {history_id}"),
        StreamMessage::Event { .. } => println!("child: event"),
    };
    let _ = streaming::ai_search(&state, &session, request, send, relay).await;
    println!("child: the stream ended before it was killed");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_killed_mid_answer_keeps_its_cost() {
    // Slow enough that the stream is still running long after the events we wait for.
    let sandbox = Sandbox::builder()
        .seed(5)
        .port(0)
        .pace_ms(250)
        .start()
        .await
        .unwrap();
    let data = tempfile::tempdir().unwrap();

    // The child's test by its full name in this binary (the module path without the crate's).
    let child_test = match module_path!().split_once("::") {
        Some((_, module)) => format!("{module}::child_streams_until_killed"),
        None => "child_streams_until_killed".to_owned(),
    };
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args([child_test.as_str(), "--exact", "--ignored", "--nocapture"])
        .env(CHILD_DATA, data.path())
        .env(CHILD_URL, sandbox.base_url())
        .env(CHILD_KEY, sandbox.demo_key())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let relayed = tokio::task::spawn_blocking(move || {
        let mut started = false;
        let mut events = 0;
        for line in BufReader::new(stdout).lines() {
            let line = line.unwrap();
            started |= line.starts_with("child: started");
            events += usize::from(line == "child: event");
            assert_ne!(line, "child: the stream ended before it was killed");
            if started && events >= EVENTS_BEFORE_KILL {
                return events;
            }
        }
        panic!("the child stopped before relaying {EVENTS_BEFORE_KILL} events");
    });
    let events = tokio::time::timeout(Duration::from_secs(120), relayed)
        .await
        .expect("the child relays events within two minutes")
        .unwrap();
    // SIGKILL: no destructor, no final record, exactly as a crash or a power cut.
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(events >= EVENTS_BEFORE_KILL);

    let billed = sandbox.billed().responses();
    assert_eq!(billed.len(), 1, "the sandbox billed one stream: {billed:?}");
    let header_cost: rust_decimal::Decimal = billed[0].cost_usd.parse().unwrap();

    // The next start of the app: the same data folder, the live mode's database.
    let state = live_state(data.path(), sandbox.base_url());
    let store = state
        .store_of(sightline_core::session::Mode::Live)
        .await
        .unwrap();
    assert_eq!(store.integrity_check().await.unwrap(), ["ok"]);

    let history = store.history(&HistoryQuery::default()).await.unwrap();
    assert_eq!(history.len(), 1);
    let entry = &history[0];
    assert_eq!(entry.request_id, "killed-mid-stream");
    assert_eq!(
        entry.status,
        RequestStatus::Interrupted,
        "the row left running by the crash is closed as interrupted"
    );
    assert_eq!(
        entry.billing.as_ref().and_then(|b| b.cost),
        Some(header_cost)
    );

    let ledger = store
        .ledger(sightline_core::zone::time_zone(), None)
        .await
        .unwrap();
    assert_eq!(ledger.len(), 1, "the header's cost is on the ledger once");
    assert_eq!(ledger[0].cost, Some(header_cost));
    assert_eq!(ledger[0].history_id, Some(entry.id));

    let spent = store
        .spend_totals(sightline_core::zone::time_zone(), chrono::Utc::now())
        .await
        .unwrap();
    assert_eq!(
        spent.all_time,
        sandbox.billed().total(),
        "Spend equals what the service billed"
    );
    sandbox.shutdown().await;
}
