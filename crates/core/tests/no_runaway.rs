//! Nothing in the background can run away with money. The database refuses a billed answer's
//! record (an SQLite trigger this test installs makes the ledger refuse every row, as a lasting
//! database error would): the monitor's run fails in words, on its card too, and the scheduler
//! sends exactly one request in a minute of its time, the next only after the backoff (the
//! interval, then twice it), and the interval again once a run succeeds. When even the run's
//! end cannot be written, the scheduler holds the monitor back, and the page that may have been
//! billed is never sent again. A collection stops on the first refusal, and pages on when the
//! user resumes it.
//!
//! The sandbox runs on loopback and the app on real SQLite files; the scheduler runs its real
//! loop on a clock this test moves (`SchedulerClock`): its naps add to the clock instead of
//! sleeping, up to a limit the test sets.

use crate::support::live;

use std::path::PathBuf;
use std::time::Duration;

use crate::support::announce::Recorded;
use crate::support::clock::SteppedClock;
use chrono::DateTime;
use live::Live;
use sightline_api::request::TwitterSearchRequest;
use sightline_core::collections::{
    self, CollectUntil, CollectionDraft, CollectionSource, Collector,
};
use sightline_core::monitors::{self, Monitor, MonitorDraft, MonitorTarget, Scheduler};
use sightline_sandbox::body_log::LoggedBody;
use sightline_sandbox::Sandbox;
use sightline_store::{CollectionState, MonitorState, RunOutcome};
use sightline_store::{HistoryQuery, RequestStatus};
use sqlx::{Connection, SqliteConnection};

const MINUTE: Duration = Duration::from_secs(60);

/// The app against its sandbox, whose body log counts every answer it sent (a billed one, or
/// a free 304 when the same search was answered before).
struct Watched {
    live: Live,
    log: PathBuf,
    _logs: tempfile::TempDir,
}

impl std::ops::Deref for Watched {
    type Target = Live;
    fn deref(&self) -> &Live {
        &self.live
    }
}

async fn live() -> Watched {
    let logs = tempfile::tempdir().unwrap();
    let log = logs.path().join("bodies.jsonl");
    let live = Live::start(
        Sandbox::builder()
            .seed(16)
            .faults(true)
            .now(
                DateTime::parse_from_rfc3339("2026-11-20T12:00:00Z")
                    .unwrap()
                    .to_utc(),
            )
            .manual_clock()
            .live_rate(60)
            .body_log(&log),
    )
    .await;
    Watched {
        live,
        log,
        _logs: logs,
    }
}

/// How many requests reached the service (each answer sent is a line of its body log).
fn requests(live: &Watched) -> usize {
    std::fs::read_to_string(&live.log)
        .unwrap_or_default()
        .lines()
        .filter_map(|line| serde_json::from_str::<LoggedBody>(line).ok())
        .filter(|line| line.target.starts_with("/twitter"))
        .count()
}

/// A connection of the test's own to the app's database file.
async fn database(live: &Live) -> SqliteConnection {
    let path = live._data.path().join("sightline.db");
    SqliteConnection::connect(&format!("sqlite://{}", path.display()))
        .await
        .unwrap()
}

/// The ledger refuses every row: the answer of a billed request cannot be recorded.
const REFUSE_LEDGER: &str = "CREATE TRIGGER test_refuses_ledger BEFORE INSERT ON ledger
    BEGIN SELECT RAISE(ABORT, 'the ledger refuses this row'); END";
/// No answer's ETag is kept either: the same search again is a full answer, billed, never a
/// free 304, as a search whose results keep changing would be.
const REFUSE_CACHE: &str = "CREATE TRIGGER test_refuses_cache BEFORE INSERT ON http_cache
    BEGIN SELECT RAISE(ABORT, 'the cache refuses this row'); END";
/// No run can be finished: not even the failure can be written.
const REFUSE_RUN_END: &str = "CREATE TRIGGER test_refuses_run_end BEFORE UPDATE OF finished_at
    ON runs WHEN NEW.finished_at IS NOT NULL
    BEGIN SELECT RAISE(ABORT, 'the runs refuse their end'); END";

async fn sql(db: &mut SqliteConnection, statement: &str) {
    sqlx::query(statement).execute(&mut *db).await.unwrap();
}

fn search(tag: &str) -> MonitorDraft {
    MonitorDraft {
        name: format!("#{tag}"),
        target: MonitorTarget::Search {
            request: TwitterSearchRequest::new(format!("#{tag}")),
        },
        interval_minutes: 15,
        cap: 20,
        investigation_id: None,
    }
}

async fn monitor(live: &Live, id: i64) -> Monitor {
    let store = live.state.store().await.unwrap();
    monitors::list(&store)
        .await
        .unwrap()
        .into_iter()
        .find(|monitor| monitor.id == id)
        .unwrap()
}

/// The monitor's next run is `minutes` after its latest run ended (both on the scheduler's
/// clock).
async fn next_in(live: &Live, id: i64, minutes: i64) {
    let store = live.state.store().await.unwrap();
    let ended = monitors::runs(&store, id, 1).await.unwrap()[0]
        .finished_at
        .expect("the run ended");
    let next = monitor(live, id).await.next_run_at.expect("a next run");
    assert_eq!(next - ended, chrono::Duration::minutes(minutes));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_record_is_one_request_then_a_backoff_not_a_loop() {
    let live = live().await;
    let store = live.state.store().await.unwrap();
    let mut db = database(&live).await;
    sql(&mut db, REFUSE_LEDGER).await;
    sql(&mut db, REFUSE_CACHE).await;
    let id = monitors::create(&store, &search("AI")).await.unwrap().id;
    let clock = SteppedClock::new();
    let scheduler = Scheduler::with_clock(clock.clone());
    let announce = Recorded::default();

    let test = async {
        // A minute of the scheduler's time: one request, billed by the service, not recorded.
        clock.run_to(MINUTE).await;
        assert_eq!(requests(&live), 1, "one request in a minute");
        assert_eq!(live.sandbox.billed().responses().len(), 1, "billed once");
        let runs = monitors::runs(&store, id, 10).await.unwrap();
        assert_eq!(runs.len(), 1);
        assert_eq!(runs[0].outcome, RunOutcome::Failed);
        let words = runs[0].error.clone().unwrap();
        assert!(
            words.contains("could not use its local database"),
            "{words}"
        );
        assert!(words.contains("The next run is in 15 minutes."), "{words}");
        // On the monitor's card: still active, the failure in words, the next run later.
        let card = monitor(&live, id).await;
        assert_eq!(card.state, MonitorState::Active);
        assert_eq!(card.state_reason.as_deref(), Some(words.as_str()));
        next_in(&live, id, 15).await;
        let history = store.history(&HistoryQuery::default()).await.unwrap();
        assert_eq!(history.len(), 1);
        assert_eq!(history[0].status, RequestStatus::Running, "never recorded");

        // Past the interval (due at 15 minutes): the second run fails too, and the next waits
        // twice as long (due at 45).
        clock.run_to(17 * MINUTE).await;
        assert_eq!(requests(&live), 2);
        assert_eq!(
            live.sandbox.billed().responses().len(),
            2,
            "each one billed"
        );
        let runs = monitors::runs(&store, id, 10).await.unwrap();
        let words = runs[0].error.clone().unwrap();
        assert!(
            words.contains("The next run is in 30 minutes (2 failed runs in a row"),
            "{words}"
        );
        next_in(&live, id, 30).await;

        // The database takes records again: the next run is a good one, and the interval is
        // the interval again.
        let unrecorded = live.sandbox.billed().total();
        sql(&mut db, "DROP TRIGGER test_refuses_ledger").await;
        clock.run_to(47 * MINUTE).await;
        assert_eq!(requests(&live), 3);
        let runs = monitors::runs(&store, id, 10).await.unwrap();
        assert_eq!(runs[0].outcome, RunOutcome::Done);
        // Two answers billed and never recorded, one billed and recorded.
        assert_eq!(live.sandbox.billed().responses().len(), 3);
        assert_eq!(runs[0].cost, live.sandbox.billed().total() - unrecorded);
        let card = monitor(&live, id).await;
        assert_eq!(card.state_reason, None);
        next_in(&live, id, 15).await;
    };
    tokio::select! {
        _ = scheduler.serve(&live.state, &announce) => unreachable!("the scheduler serves for ever"),
        _ = test => {}
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_that_cannot_even_be_ended_is_held_back_and_its_page_never_sent_again() {
    let live = live().await;
    let store = live.state.store().await.unwrap();
    let mut db = database(&live).await;
    sql(&mut db, REFUSE_LEDGER).await;
    sql(&mut db, REFUSE_RUN_END).await;
    let id = monitors::create(&store, &search("Space")).await.unwrap().id;
    let clock = SteppedClock::new();
    let scheduler = Scheduler::with_clock(clock.clone());
    let announce = Recorded::default();

    let test = async {
        clock.run_to(MINUTE).await;
        assert_eq!(requests(&live), 1, "one request in a minute");
        // Nothing could be written: the monitor is still due, and held back in memory.
        assert!(monitor(&live, id).await.running);

        // After the hold (15 minutes), the run goes on, but its page may have been billed: it
        // is not sent again, and the hold doubles (to 45 minutes).
        clock.run_to(16 * MINUTE).await;
        assert_eq!(requests(&live), 1, "the page is never sent again");

        // Writable again: the run ends in words saying why, and only the next run (due 15
        // minutes later, at 60) sends.
        sql(&mut db, "DROP TRIGGER test_refuses_run_end").await;
        sql(&mut db, "DROP TRIGGER test_refuses_ledger").await;
        clock.run_to(47 * MINUTE).await;
        assert_eq!(requests(&live), 1);
        let runs = monitors::runs(&store, id, 10).await.unwrap();
        assert_eq!(runs[0].outcome, RunOutcome::Failed);
        let words = runs[0].error.clone().unwrap();
        assert!(words.contains("may have billed it"), "{words}");
        assert!(words.contains("does not send it again"), "{words}");
        next_in(&live, id, 15).await;

        clock.run_to(63 * MINUTE).await;
        assert_eq!(requests(&live), 2);
        let runs = monitors::runs(&store, id, 10).await.unwrap();
        assert_eq!(runs[0].outcome, RunOutcome::Done);
    };
    tokio::select! {
        _ = scheduler.serve(&live.state, &announce) => unreachable!("the scheduler serves for ever"),
        _ = test => {}
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_collection_stops_on_a_refused_record_and_goes_on_when_resumed() {
    let live = live().await;
    let store = live.state.store().await.unwrap();
    let mut db = database(&live).await;
    sql(&mut db, REFUSE_LEDGER).await;
    let draft = CollectionDraft {
        name: String::new(),
        source: CollectionSource::Search {
            request: TwitterSearchRequest::new("#AI"),
        },
        until: CollectUntil::Count { items: 150 },
        investigation_id: None,
    };
    let id = collections::create(&store, &draft).await.unwrap().id;
    let collector = Collector::default();
    let announce = Recorded::default();

    let stopped = collections::drive(&live.state, &collector, &announce, id, false)
        .await
        .unwrap();
    assert_eq!(stopped.state, CollectionState::Failed);
    let reason = stopped.stop_reason.unwrap();
    assert!(
        reason.contains("could not use its local database"),
        "{reason}"
    );
    assert!(reason.contains("Resume to go on"), "{reason}");
    assert_eq!(requests(&live), 1, "one request, then it stopped");
    let runs = collections::runs(&store, id, 10).await.unwrap();
    assert_eq!(runs[0].outcome, RunOutcome::Failed);

    // The user resumes: the page that may have been billed is asked again, once, as a new
    // request, and the collection pages on to its number.
    sql(&mut db, "DROP TRIGGER test_refuses_ledger").await;
    let done = collections::drive(&live.state, &collector, &announce, id, false)
        .await
        .unwrap();
    assert_eq!(done.state, CollectionState::Done, "{:?}", done.stop_reason);
    assert!(done.items >= 150);
    let history = store.history(&HistoryQuery::default()).await.unwrap();
    assert_eq!(requests(&live), history.len());
    assert_eq!(
        history
            .iter()
            .filter(|entry| entry.status == RequestStatus::Running)
            .count(),
        1,
        "the refused one stays as it was"
    );
}
