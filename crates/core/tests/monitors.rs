//! Monitors against the sandbox on loopback, with its clock in the test's hands, and real
//! SQLite files: a second run finds only what is new and is billed only for what the service
//! returned; a run cut between a page's send and its record goes on without a second charge
//! or a duplicate; the budget's block pauses it with nothing billed and its warning waits for
//! the user; a monitor paused by the budget goes on by itself once the budget allows a run,
//! one paused by the user never; a long gap is caught up with one run; a 429 puts the next
//! attempt after its wait; a quiet story never sends the same search twice.

use crate::support::live;

use live::Live;
use std::collections::BTreeSet;
use std::time::Duration;

use crate::support::announce::Recorded;
use crate::support::monitor_runs::run_now;
use chrono::Utc;
use rust_decimal::Decimal;
use sightline_api::request::{TwitterSearchRequest, TwitterUserPostsRequest};
use sightline_core::monitors::{
    self, Monitor, MonitorDraft, MonitorPostQuery, MonitorTarget, Scheduler,
};
use sightline_core::state::AppState;
use sightline_sandbox::world::live::posts_between;
use sightline_sandbox::{Fault, Sandbox};
use sightline_store::{BudgetLimits, HistoryQuery, LedgerEntry, Store};
use sightline_store::{MonitorState, RunOutcome};

const RATE: u32 = 60;

async fn live() -> Live {
    Live::start(
        Sandbox::builder()
            .seed(16)
            .faults(true)
            .now(
                chrono::DateTime::parse_from_rfc3339("2026-11-20T12:00:00Z")
                    .unwrap()
                    .to_utc(),
            )
            .manual_clock()
            .live_rate(RATE),
    )
    .await
}

fn hashtag(tag: &str, cap: i64) -> MonitorDraft {
    MonitorDraft {
        name: format!("#{tag}"),
        target: MonitorTarget::Search {
            request: TwitterSearchRequest::new(format!("#{tag}")),
        },
        interval_minutes: 15,
        cap,
        investigation_id: None,
    }
}

/// What most tests start from: the app against its sandbox, and a monitor on `#tag` that has
/// run once.
struct Watching {
    live: Live,
    store: Store,
    announce: Recorded,
    monitor: Monitor,
}

async fn watching(tag: &str, cap: i64) -> Watching {
    let live = live().await;
    let store = live.state.store().await.unwrap();
    let announce = Recorded::default();
    let monitor = monitors::create(&store, &hashtag(tag, cap)).await.unwrap();
    run_now(&live.state, &announce, monitor.id, false)
        .await
        .unwrap();
    Watching {
        live,
        store,
        announce,
        monitor,
    }
}

async fn ledger_total(state: &AppState) -> Decimal {
    let store = state.store().await.unwrap();
    let rows: Vec<LedgerEntry> = store.ledger(sightline_store::Tz::UTC, None).await.unwrap();
    rows.iter()
        .map(|row| row.cost.expect("a stated cost"))
        .sum()
}

async fn found(state: &AppState, id: i64) -> Vec<String> {
    let store = state.store().await.unwrap();
    let query = MonitorPostQuery {
        limit: 500,
        ..MonitorPostQuery::default()
    };
    let page = monitors::posts(&store, id, &query).await.unwrap();
    page.posts.into_iter().map(|found| found.post.id).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_run_finds_only_new_posts_and_is_billed_for_what_came_back() {
    let Watching {
        live: Live {
            sandbox,
            state,
            _data,
        },
        store,
        announce,
        monitor,
    } = watching("AI", 30).await;
    let first: BTreeSet<String> = found(&state, monitor.id).await.into_iter().collect();
    assert_eq!(
        first.len(),
        30,
        "the newest 30 #AI posts, all new the first time"
    );
    assert_eq!(store.unseen_counts().await.unwrap(), vec![(monitor.id, 30)]);
    assert_eq!(
        announce.notifications.lock().unwrap().clone(),
        vec![("#AI".to_owned(), "30 posts to start with".to_owned())],
        "a first run's posts are its starting set, not posts new since a run"
    );

    // Five minutes of the service's clock: exactly the #AI posts made meanwhile are new.
    let t0 = sandbox.now_ms();
    sandbox.advance_clock(Duration::from_secs(300));
    let expected: BTreeSet<String> = posts_between(sandbox.world(), RATE, t0, sandbox.now_ms())
        .iter()
        .filter(|post| {
            post.hashtags
                .iter()
                .any(|tag| tag.eq_ignore_ascii_case("AI"))
        })
        .map(|post| post.id.to_string())
        .collect();
    assert!(expected.len() >= 30, "{} new #AI posts", expected.len());
    let monitor = monitors::update(&store, monitor.id, &hashtag("AI", 100))
        .await
        .unwrap();
    run_now(&state, &announce, monitor.id, false).await.unwrap();
    let all: BTreeSet<String> = found(&state, monitor.id).await.into_iter().collect();
    let new: BTreeSet<String> = all.difference(&first).cloned().collect();
    assert_eq!(new, expected);
    let runs = monitors::runs(&store, monitor.id, 10).await.unwrap();
    assert_eq!(runs[0].outcome, RunOutcome::Done);
    assert_eq!(runs[0].new_items, expected.len() as i64);
    // The second run asked from the newest post it had seen: it paid for the new posts and
    // that one post of the same second, not for the 30 again.
    let second = &store.history(&HistoryQuery::default()).await.unwrap()[0];
    assert!(
        second.result_count <= expected.len() as i64 + 2,
        "{}",
        second.result_count
    );
    assert_eq!(Some(runs[0].cost), second.billing.as_ref().unwrap().cost);

    // Every cent on the ledger is one the service billed, and the reverse.
    assert_eq!(ledger_total(&state).await, sandbox.billed().total());
    assert_eq!(sandbox.billed().responses().len(), 2);
    let notified = announce.notifications.lock().unwrap().clone();
    assert_eq!(
        notified[1],
        ("#AI".into(), format!("{} new posts", expected.len()))
    );

    // Seen only when marked: the count survives until then.
    let counts = monitors::mark_seen(
        &store,
        monitor.id,
        Some(&[new.iter().next().unwrap().clone()]),
    )
    .await
    .unwrap();
    assert_eq!(counts.total, 30 + expected.len() as i64 - 1);
    assert_eq!(monitors::mark_all_seen(&store).await.unwrap().total, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_cut_between_a_page_and_its_record_goes_on_without_paying_twice() {
    let Live {
        sandbox,
        state,
        _data,
    } = live().await;
    let store = state.store().await.unwrap();
    let session = state.session().await.unwrap();
    let announce = Recorded::default();
    let account = sandbox.world().users[1].username.clone();
    let draft = MonitorDraft {
        name: "Account".into(),
        target: MonitorTarget::Account {
            request: TwitterUserPostsRequest {
                username: account,
                cursor: None,
            },
        },
        interval_minutes: 60,
        cap: 50,
        investigation_id: None,
    };
    let monitor = monitors::create(&store, &draft).await.unwrap();

    // A crash: the run began, its first page's request was sent and recorded, and the app
    // died before the page was written to the monitor.
    let run = store
        .start_run(
            sightline_store::RunOwner::Monitor(monitor.id),
            (None, None),
            Utc::now(),
        )
        .await
        .unwrap();
    let first_page = format!("monitor-{}-run-{run}-page-0-try-0", monitor.id);
    let options = sightline_core::pipeline::SendOptions {
        request_id: first_page,
        confirm_budget: false,
        paging: Default::default(),
    };
    let request = TwitterUserPostsRequest {
        username: sandbox.world().users[1].username.clone(),
        cursor: None,
    };
    sightline_core::pipeline::execute(&state, &session, request, options, None)
        .await
        .unwrap();
    assert_eq!(sandbox.billed().responses().len(), 1);

    // The run goes on: that page is replayed from History, not sent again.
    run_now(&state, &announce, monitor.id, false).await.unwrap();
    let posts = found(&state, monitor.id).await;
    let distinct: BTreeSet<&String> = posts.iter().collect();
    assert_eq!(distinct.len(), posts.len(), "no post twice");
    assert!(posts.len() >= 20, "{}", posts.len());
    let runs = monitors::runs(&store, monitor.id, 10).await.unwrap();
    assert_eq!(runs.len(), 1, "one run, cut and finished");
    assert_eq!(runs[0].outcome, RunOutcome::Done);
    assert_eq!(runs[0].new_items, posts.len() as i64);
    assert_eq!(ledger_total(&state).await, sandbox.billed().total());
    assert_eq!(
        sandbox.billed().responses().len() as i64,
        runs[0].requests,
        "each page billed once"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_budget_blocks_with_nothing_billed_and_a_warning_waits_for_the_user() {
    let Watching {
        live: Live {
            sandbox,
            state,
            _data,
        },
        store,
        announce,
        monitor,
    } = watching("Space", 20).await;
    let billed = sandbox.billed().responses().len();
    let spent = ledger_total(&state).await;

    // A monthly limit already spent: the run is blocked, the monitor paused, saying why.
    store
        .set_budget(&BudgetLimits {
            daily: None,
            monthly: Some(spent),
            warn_percent: 80,
        })
        .await
        .unwrap();
    run_now(&state, &announce, monitor.id, false).await.unwrap();
    let paused = monitors::list(&store).await.unwrap().remove(0);
    assert_eq!(paused.state, MonitorState::BudgetPaused);
    assert!(
        paused
            .state_reason
            .as_deref()
            .unwrap()
            .contains("over your monthly limit"),
        "{paused:?}"
    );
    assert_eq!(sandbox.billed().responses().len(), billed, "nothing billed");
    let runs = monitors::runs(&store, monitor.id, 10).await.unwrap();
    assert_eq!(runs[0].outcome, RunOutcome::BudgetBlocked);
    assert_eq!(runs[0].cost, Decimal::ZERO);
    assert!(
        store.due_monitors(Utc::now()).await.unwrap().is_empty(),
        "paused is never due"
    );

    // Room enough but past the warning: the run waits, never going on by itself.
    store
        .set_budget(&BudgetLimits {
            daily: None,
            monthly: Some(spent * Decimal::from(3)),
            warn_percent: 1,
        })
        .await
        .unwrap();
    monitors::resume(&store, monitor.id).await.unwrap();
    run_now(&state, &announce, monitor.id, false).await.unwrap();
    let waiting = monitors::list(&store).await.unwrap().remove(0);
    assert_eq!(waiting.state, MonitorState::NeedsConfirmation);
    assert!(waiting
        .state_reason
        .as_deref()
        .unwrap()
        .contains("Send anyway"));
    assert_eq!(sandbox.billed().responses().len(), billed);
    assert!(store.due_monitors(Utc::now()).await.unwrap().is_empty());
    // Skipping logs it and waits for the next interval; confirming runs it.
    let skipped = monitors::skip(&store, monitor.id).await.unwrap();
    assert_eq!(skipped.state, MonitorState::Active);
    assert!(skipped.next_run_at.unwrap() > Utc::now() + chrono::Duration::minutes(14));
    assert_eq!(
        monitors::runs(&store, monitor.id, 10).await.unwrap()[0].outcome,
        RunOutcome::Skipped
    );
    run_now(&state, &announce, monitor.id, false).await.unwrap();
    run_now(&state, &announce, monitor.id, true).await.unwrap();
    assert_eq!(
        monitors::runs(&store, monitor.id, 10).await.unwrap()[0].outcome,
        RunOutcome::Done
    );
    assert_eq!(sandbox.billed().responses().len(), billed + 1);
    assert_eq!(ledger_total(&state).await, sandbox.billed().total());
}

/// Makes an active monitor due now.
async fn due_now(store: &Store, id: i64) {
    store
        .set_monitor_state(id, MonitorState::Active, None, Some(Utc::now()), Utc::now())
        .await
        .unwrap();
}

fn monthly(limit: Option<Decimal>) -> BudgetLimits {
    BudgetLimits {
        daily: None,
        monthly: limit,
        warn_percent: 100,
    }
}

/// The budget's block pauses a monitor for the budget: the scheduler weighs it again at each
/// look, sending nothing while the budget still blocks, and runs it once the limit is raised.
/// One the user paused is never resumed by the budget, not even with the limit removed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_monitor_paused_by_the_budget_goes_on_once_it_allows_and_one_paused_by_you_never() {
    let Watching {
        live: Live {
            sandbox,
            state,
            _data,
        },
        store,
        announce,
        monitor,
        ..
    } = watching("Space", 20).await;
    let scheduler = Scheduler::default();
    let card = |store: Store| async move { monitors::list(&store).await.unwrap().remove(0) };
    let log_length =
        |store: Store| async move { monitors::runs(&store, monitor.id, 100).await.unwrap().len() };
    let billed = sandbox.billed().responses().len();
    let last_run = card(store.clone()).await.last_run_at;
    assert!(last_run.is_some());

    // Blocked: paused for the budget, naming the limit, with nothing sent; the blocked
    // attempt is in the log but is not the monitor's last run.
    store
        .set_budget(&monthly(Some(ledger_total(&state).await)))
        .await
        .unwrap();
    due_now(&store, monitor.id).await;
    assert_eq!(scheduler.run_due(&state, &announce).await.unwrap(), 1);
    let paused = card(store.clone()).await;
    assert_eq!(paused.state, MonitorState::BudgetPaused, "{paused:?}");
    let reason = paused.state_reason.clone().unwrap();
    assert!(reason.contains("over your monthly limit"), "{reason}");
    assert!(reason.contains("goes on by itself"), "{reason}");
    assert_eq!(paused.last_run_at, last_run, "nothing ran");
    assert_eq!(sandbox.billed().responses().len(), billed);
    let logged = log_length(store.clone()).await;

    // Still over: look after look, it stays paused, sends nothing and logs nothing more.
    for _ in 0..5 {
        assert_eq!(scheduler.run_due(&state, &announce).await.unwrap(), 0);
    }
    assert_eq!(card(store.clone()).await.state, MonitorState::BudgetPaused);
    assert_eq!(sandbox.billed().responses().len(), billed);
    assert_eq!(log_length(store.clone()).await, logged);

    // The limit raised: the next look resumes it and it runs, once.
    store
        .set_budget(&monthly(Some(
            ledger_total(&state).await * Decimal::from(10),
        )))
        .await
        .unwrap();
    assert_eq!(scheduler.run_due(&state, &announce).await.unwrap(), 1);
    let resumed = card(store.clone()).await;
    assert_eq!(resumed.state, MonitorState::Active, "{resumed:?}");
    assert_eq!(resumed.state_reason, None);
    assert!(resumed.next_run_at.unwrap() > Utc::now() + chrono::Duration::minutes(14));
    assert_eq!(
        monitors::runs(&store, monitor.id, 1).await.unwrap()[0].outcome,
        RunOutcome::Done
    );
    assert_eq!(sandbox.billed().responses().len(), billed + 1);
    assert_eq!(scheduler.run_due(&state, &announce).await.unwrap(), 0);

    // Blocked again, then paused by you: the budget's room never resumes it, not even with no
    // limit at all; only Resume does.
    store
        .set_budget(&monthly(Some(ledger_total(&state).await)))
        .await
        .unwrap();
    due_now(&store, monitor.id).await;
    assert_eq!(scheduler.run_due(&state, &announce).await.unwrap(), 1);
    assert_eq!(card(store.clone()).await.state, MonitorState::BudgetPaused);
    monitors::pause(&store, monitor.id).await.unwrap();
    store.set_budget(&monthly(None)).await.unwrap();
    for _ in 0..3 {
        assert_eq!(scheduler.run_due(&state, &announce).await.unwrap(), 0);
    }
    let yours = card(store.clone()).await;
    assert_eq!(yours.state, MonitorState::Paused);
    assert_eq!(yours.state_reason.as_deref(), Some("Paused by you."));
    assert_eq!(sandbox.billed().responses().len(), billed + 1);
    monitors::resume(&store, monitor.id).await.unwrap();
    assert_eq!(scheduler.run_due(&state, &announce).await.unwrap(), 1);
    assert_eq!(
        monitors::runs(&store, monitor.id, 1).await.unwrap()[0].outcome,
        RunOutcome::Done
    );
    assert_eq!(ledger_total(&state).await, sandbox.billed().total());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_gap_is_caught_up_with_one_run_and_a_429_waits_its_time() {
    let Live {
        sandbox,
        state,
        _data,
    } = live().await;
    let store = state.store().await.unwrap();
    let scheduler = Scheduler::default();
    let announce = Recorded::default();
    let monitor = monitors::create(&store, &hashtag("Bitcoin", 10))
        .await
        .unwrap();
    assert_eq!(scheduler.run_due(&state, &announce).await.unwrap(), 1);
    assert_eq!(
        scheduler.run_due(&state, &announce).await.unwrap(),
        0,
        "not due again yet"
    );

    // The app was closed for three days: the monitor is due once, not 288 times.
    let three_days_ago = Utc::now() - chrono::Duration::days(3);
    store
        .set_monitor_state(
            monitor.id,
            MonitorState::Active,
            None,
            Some(three_days_ago),
            Utc::now(),
        )
        .await
        .unwrap();
    sandbox.advance_clock(Duration::from_secs(3 * 24 * 3600));
    assert_eq!(scheduler.run_due(&state, &announce).await.unwrap(), 1);
    assert_eq!(scheduler.run_due(&state, &announce).await.unwrap(), 0);
    assert_eq!(
        monitors::runs(&store, monitor.id, 10).await.unwrap().len(),
        2
    );

    // A 429 asking for two minutes: logged in words, the next try after the wait.
    store
        .set_monitor_state(
            monitor.id,
            MonitorState::Active,
            None,
            Some(Utc::now()),
            Utc::now(),
        )
        .await
        .unwrap();
    sandbox.faults().push(
        "/twitter",
        Fault::Status {
            status: 429,
            body: None,
            headers: [("Retry-After".to_owned(), "120".to_owned())].into(),
        },
    );
    let before = Utc::now();
    assert_eq!(scheduler.run_due(&state, &announce).await.unwrap(), 1);
    let limited = monitors::list(&store).await.unwrap().remove(0);
    assert_eq!(limited.state, MonitorState::Active);
    let next = limited.next_run_at.unwrap();
    assert!(
        next >= before + chrono::Duration::seconds(119),
        "{next} vs {before}"
    );
    assert!(next <= Utc::now() + chrono::Duration::seconds(121));
    let runs = monitors::runs(&store, monitor.id, 10).await.unwrap();
    assert_eq!(runs[0].outcome, RunOutcome::RateLimited);
    assert!(
        runs[0]
            .error
            .as_deref()
            .unwrap()
            .contains("next try is in 2 minutes"),
        "{:?}",
        runs[0].error
    );
    assert_eq!(
        scheduler.run_due(&state, &announce).await.unwrap(),
        0,
        "not retried in a loop"
    );
}

/// A quiet story: runs a couple of seconds apart (the service's clock keeping pace) find
/// nothing new most of the time, yet each asks from a later point than the one before, so no
/// search is sent twice, and every post made meanwhile is found once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_quiet_story_never_sends_the_same_search_twice_and_loses_no_post() {
    let Watching {
        live: Live {
            sandbox,
            state,
            _data,
        },
        store,
        announce,
        monitor,
    } = watching("Bitcoin", 10).await;
    let first: BTreeSet<String> = found(&state, monitor.id).await.into_iter().collect();

    let t0 = sandbox.now_ms();
    for _ in 0..3 {
        tokio::time::sleep(Duration::from_millis(2_100)).await;
        sandbox.advance_clock(Duration::from_secs(2));
        run_now(&state, &announce, monitor.id, false).await.unwrap();
    }
    let runs = monitors::runs(&store, monitor.id, 10).await.unwrap();
    assert!(
        runs.iter().any(|run| run.new_items == 0),
        "the test needs a quiet run: {:?}",
        runs.iter().map(|run| run.new_items).collect::<Vec<_>>()
    );
    let expected: BTreeSet<String> = posts_between(sandbox.world(), RATE, t0, sandbox.now_ms())
        .iter()
        .filter(|post| {
            post.hashtags
                .iter()
                .any(|tag| tag.eq_ignore_ascii_case("Bitcoin"))
        })
        .map(|post| post.id.to_string())
        .collect();
    let all: BTreeSet<String> = found(&state, monitor.id).await.into_iter().collect();
    assert_eq!(
        all.difference(&first).cloned().collect::<BTreeSet<_>>(),
        expected
    );

    let searches: Vec<String> = store
        .history(&HistoryQuery::default())
        .await
        .unwrap()
        .into_iter()
        .map(|entry| entry.params_json)
        .collect();
    assert_eq!(searches.len(), 4);
    let distinct: BTreeSet<&String> = searches.iter().collect();
    assert_eq!(distinct.len(), 4, "a search was sent twice: {searches:#?}");
    assert_eq!(ledger_total(&state).await, sandbox.billed().total());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_draft_is_checked_by_field_and_estimated_from_learned_rates() {
    let Live {
        sandbox: _sandbox,
        state,
        _data,
    } = live().await;
    let store = state.store().await.unwrap();
    let bad = MonitorDraft {
        name: " ".into(),
        interval_minutes: 5,
        cap: 0,
        target: MonitorTarget::Search {
            request: TwitterSearchRequest::new(" "),
        },
        investigation_id: None,
    };
    let error = monitors::create(&store, &bad).await.unwrap_err();
    let sightline_core::errors::CommandError::Invalid { fields, .. } = error else {
        panic!("{error:?}")
    };
    let named: Vec<&str> = fields.iter().map(|field| field.field.as_str()).collect();
    assert_eq!(named, ["name", "intervalMinutes", "cap", "query"]);

    // Unknown until a rate is learned; then per run, per month and the budget's share.
    let draft = hashtag("Gaming", 100);
    let unknown = monitors::estimate(&store, &draft).await.unwrap();
    assert_eq!((unknown.per_run, unknown.per_month), (None, None));
    assert_eq!(unknown.runs_per_month, 2880);
    let monitor = monitors::create(&store, &draft).await.unwrap();
    run_now(&state, &Recorded::default(), monitor.id, false)
        .await
        .unwrap();
    store
        .set_budget(&BudgetLimits {
            daily: None,
            monthly: Some(Decimal::from(100)),
            warn_percent: 80,
        })
        .await
        .unwrap();
    let known = monitors::estimate(&store, &draft).await.unwrap();
    // 100 posts at 0.30 per 1,000: 0.03 a run, 2,880 runs in 30 days.
    assert_eq!(known.per_run, Some("0.03".parse().unwrap()));
    assert_eq!(known.per_month, Some("86.4".parse().unwrap()));
    assert_eq!(known.share_of_monthly_budget, Some("86.4".parse().unwrap()));
}
