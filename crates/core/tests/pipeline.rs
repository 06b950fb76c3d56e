//! The request pipeline without a window: against a sandbox on loopback and real SQLite files.
//! Each step is seen from outside: what the service billed, what the store recorded.

use crate::support::live;
use crate::support::search;
use crate::support::send;

use live::Live;
use search::search;
use send::send;

use sightline_api::request::TwitterUserPostsRequest;
use sightline_core::pipeline;
use sightline_core::{errors::CommandError, paging};
use sightline_sandbox::Sandbox;
use sightline_store::{BudgetLimits, HistoryQuery, RequestStatus};

async fn live() -> Live {
    Live::start(Sandbox::builder().seed(9)).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_is_checked_billed_recorded_and_never_sent_twice() {
    let Live {
        sandbox,
        state,
        _data,
    } = live().await;
    let session = state.session().await.unwrap();

    // Bad input stops before anything is sent or recorded.
    let refused = pipeline::execute(&state, &session, search(&sandbox, 0), send("bad"), None)
        .await
        .unwrap_err();
    assert!(
        matches!(refused, CommandError::Invalid { .. }),
        "{refused:?}"
    );
    assert!(sandbox.billed().responses().is_empty());
    let history = session
        .store
        .history(&HistoryQuery::default())
        .await
        .unwrap();
    assert!(history.is_empty(), "nothing sent, nothing recorded");

    let outcome = pipeline::execute(&state, &session, search(&sandbox, 5), send("s1"), None)
        .await
        .unwrap();
    assert!(!outcome.replayed);
    let billed = sandbox.billed().total();
    assert!(
        billed > rust_decimal::Decimal::ZERO,
        "five posts are billed"
    );
    assert_eq!(outcome.billing.as_ref().and_then(|b| b.cost), Some(billed));
    let entry = session
        .store
        .history_entry(outcome.history_id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(entry.status, RequestStatus::Ok);
    assert_eq!(entry.key_label.as_deref(), Some("work"));
    assert_eq!(entry.result_count, outcome.body.0.len() as i64);

    // The same request id again: the stored answer, nothing sent, nothing paid.
    let again = pipeline::execute(&state, &session, search(&sandbox, 5), send("s1"), None)
        .await
        .unwrap();
    assert!(again.replayed);
    assert_eq!(again.history_id, outcome.history_id);
    assert_eq!(again.body.0.len(), outcome.body.0.len());
    assert_eq!(sandbox.billed().responses().len(), 1);
    assert_eq!(
        session
            .store
            .ledger(sightline_core::zone::time_zone(), None)
            .await
            .unwrap()
            .len(),
        1
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_budget_stops_a_request_before_it_is_sent() {
    let Live {
        sandbox,
        state,
        _data,
    } = live().await;
    let session = state.session().await.unwrap();
    // A first billed answer teaches the rate; a limit below it blocks the next one.
    pipeline::execute(&state, &session, search(&sandbox, 20), send("first"), None)
        .await
        .unwrap();
    session
        .store
        .set_budget(&BudgetLimits {
            daily: Some(sandbox.billed().total()),
            ..BudgetLimits::default()
        })
        .await
        .unwrap();
    let blocked = pipeline::execute(&state, &session, search(&sandbox, 20), send("second"), None)
        .await
        .unwrap_err();
    assert!(
        matches!(blocked, CommandError::BudgetBlocked { .. }),
        "{blocked:?}"
    );
    assert_eq!(sandbox.billed().responses().len(), 1, "nothing more sent");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_timeline_pages_through_history_with_no_cursor_in_sight() {
    let Live {
        sandbox,
        state,
        _data,
    } = live().await;
    let session = state.session().await.unwrap();
    // A user whose timeline spans more than one page (20 posts each).
    let world = sandbox.world();
    let busy = world
        .timelines
        .iter()
        .position(|timeline| timeline.len() > 40)
        .expect("some user posts more than two pages");
    let handle = world.users[busy].username.clone();
    let first = pipeline::execute(
        &state,
        &session,
        TwitterUserPostsRequest {
            username: handle,
            cursor: None,
        },
        send("page-1"),
        None,
    )
    .await
    .unwrap();
    assert!(first.has_more, "the first page has a next");
    let second = paging::next_page::<TwitterUserPostsRequest>(
        &state,
        &session,
        first.history_id,
        "page-2".into(),
        false,
    )
    .await
    .unwrap();
    let entry = session
        .store
        .history_entry(second.history_id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(entry.parent_id, Some(first.history_id));
    assert!(entry.cursor.is_some(), "the cursor was taken from history");
    let first_ids: Vec<&str> = first.body.tweets.iter().map(|t| t.id.as_str()).collect();
    assert!(second
        .body
        .tweets
        .iter()
        .all(|t| !first_ids.contains(&t.id.as_str())));
    assert_eq!(sandbox.billed().responses().len(), 2);
}
