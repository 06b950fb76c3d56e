//! Investigations with the real pipeline: a sandbox on loopback as the service and a real
//! SQLite file. Active filing of a search and of a streamed answer; the still-there check
//! estimated, budget-guarded, re-fetched in batches through the pipeline and compared.

use crate::support::live;
use crate::support::search;
use crate::support::send;

use live::Live;
use search::search;
use send::send;

use chrono::Utc;
use rust_decimal::Decimal;
use sightline_api::request::{AiSearchRequest, Tool, TwitterUrlsRequest};
use sightline_core::errors::CommandError;
use sightline_core::investigations::{self, CHECK_BATCH};
use sightline_core::pipeline::{self, SendParams};
use sightline_core::session::Session;
use sightline_core::state::AppState;
use sightline_core::streaming;
use sightline_sandbox::{Fault, Sandbox};
use sightline_store::{
    BudgetLimits, CheckOutcome, HistoryQuery, InvestigationItem, InvestigationPostQuery, PostQuery,
    RequestRecord, RequestStatus, Store,
};

async fn live() -> Live {
    Live::start(Sandbox::builder().seed(9)).await
}

async fn filed_post_ids(store: &Store, id: i64) -> Vec<String> {
    let query = InvestigationPostQuery {
        limit: 1000,
        ..InvestigationPostQuery::default()
    };
    let mut ids: Vec<String> = store
        .investigation_posts(id, &query)
        .await
        .unwrap()
        .posts
        .into_iter()
        .map(|p| p.post.id)
        .collect();
    ids.sort();
    ids
}

async fn found_post_ids(store: &Store, history_id: i64) -> Vec<String> {
    let query = PostQuery {
        history_ids: vec![history_id],
        limit: 1000,
        ..PostQuery::default()
    };
    let mut ids: Vec<String> = store
        .posts(&query)
        .await
        .unwrap()
        .into_iter()
        .map(|p| p.id)
        .collect();
    ids.sort();
    ids
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_sent_while_active_are_filed_with_their_posts() {
    let Live {
        sandbox,
        state,
        _data,
    } = live().await;
    let session = state.session().await.unwrap();
    let store = &session.store;
    let case = investigations::create(store, "Storm", "").await.unwrap().id;
    investigations::set_active(store, Some(case)).await.unwrap();

    let searched = pipeline::execute(&state, &session, search(&sandbox, 5), send("s1"), None)
        .await
        .unwrap();
    let streamed = streaming::ai_search(
        &state,
        &session,
        AiSearchRequest::new("storm surge in harbour towns", &[Tool::Twitter, Tool::Web]),
        send("s2"),
        |_| {},
    )
    .await
    .unwrap();

    let filed = HistoryQuery {
        investigation_id: Some(case),
        ..HistoryQuery::default()
    };
    let ids: Vec<i64> = store
        .history(&filed)
        .await
        .unwrap()
        .iter()
        .map(|e| e.id)
        .collect();
    assert_eq!(ids, vec![streamed.history_id, searched.history_id]);
    let mut expected = found_post_ids(store, searched.history_id).await;
    expected.extend(found_post_ids(store, streamed.history_id).await);
    expected.sort();
    expected.dedup();
    assert!(expected.len() >= 5, "the search found five posts");
    assert_eq!(filed_post_ids(store, case).await, expected);

    // Each post carries the capture of the response that brought it.
    let page = store
        .investigation_posts(case, &InvestigationPostQuery::default())
        .await
        .unwrap();
    for filed in &page.posts {
        let capture = filed
            .capture
            .as_ref()
            .expect("recorded with its provenance");
        assert_eq!(Some(capture.history_id), filed.found_by);
        assert_eq!(capture.sha256.len(), 64);
    }

    // Its cost is exactly what the service billed for those two requests.
    let detail = investigations::detail(store, case).await.unwrap();
    assert_eq!(detail.cost.total, sandbox.billed().total());
    assert_eq!(detail.summary.request_count, 2);
}

/// A new investigation named `name` with a hundred-post search filed under it (sent while it
/// was active): its id and the ids of the posts the search found.
async fn case_with_a_search(
    sandbox: &Sandbox,
    state: &AppState,
    session: &Session,
    name: &str,
) -> (i64, Vec<String>) {
    let store = &session.store;
    let case = investigations::create(store, name, "").await.unwrap().id;
    investigations::set_active(store, Some(case)).await.unwrap();
    let searched = pipeline::execute(state, session, search(sandbox, 100), send("s1"), None)
        .await
        .unwrap();
    investigations::set_active(store, None).await.unwrap();
    (case, found_post_ids(store, searched.history_id).await)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn still_there_estimates_then_refetches_and_compares() {
    let Live {
        sandbox,
        state,
        _data,
    } = live().await;
    let session = state.session().await.unwrap();
    let store = &session.store;
    let (case, found) = case_with_a_search(&sandbox, &state, &session, "Check").await;
    assert!(
        found.len() > 50,
        "a hundred-post search found {}",
        found.len()
    );

    // The sandbox's world is fixed, so the service never edits or deletes a post. To see the
    // comparison tell "changed" and "gone" apart from "unchanged", the stored copy is altered
    // instead: one post recorded again with other text and counts (the archive keeps the
    // latest copy), and one post with an id the sandbox does not know, filed by hand.
    let mut altered = store.post(&found[0]).await.unwrap().unwrap();
    altered.text = format!("{} (edited)", altered.text);
    altered.like_count += 7;
    let mut unknown = altered.clone();
    unknown.id = "1999999999999999999".into();
    let copies = [&altered, &unknown].into_iter().map(as_new_post).collect();
    store
        .record_request(&doctored("doctored", copies))
        .await
        .unwrap();
    investigations::add(
        store,
        case,
        &[InvestigationItem::Post {
            post_id: unknown.id.clone(),
        }],
    )
    .await
    .unwrap();
    let total = found.len() + 1;

    // The estimate covers every post (X reads are billed per post).
    let estimate = investigations::check_estimate(store, case).await.unwrap();
    assert_eq!(estimate.estimate.units, Some(total as i64));
    assert!(estimate.estimate.amount.is_some_and(|a| a > Decimal::ZERO));

    // A budget the check would pass is a warning the user must confirm; nothing is sent.
    let spent = sandbox.billed().responses().len();
    let limits = BudgetLimits {
        daily: Some(sandbox.billed().total() + estimate.estimate.amount.unwrap() / Decimal::TWO),
        monthly: None,
        warn_percent: 80,
    };
    store.set_budget(&limits).await.unwrap();
    let refused = investigations::check(&state, &session, case, params("c1", false)).await;
    assert!(
        matches!(
            refused,
            Err(CommandError::BudgetBlocked { .. } | CommandError::BudgetWarning { .. })
        ),
        "{refused:?}"
    );
    assert_eq!(sandbox.billed().responses().len(), spent);
    store
        .set_budget(&BudgetLimits {
            daily: None,
            monthly: None,
            warn_percent: 80,
        })
        .await
        .unwrap();

    let report = investigations::check(&state, &session, case, params("c2", false))
        .await
        .unwrap();
    let batches = total.div_ceil(CHECK_BATCH);
    assert_eq!(report.summary.history_ids.len(), batches);
    assert_eq!(sandbox.billed().responses().len(), spent + batches);
    let outcome = |id: &str| report.items.iter().find(|i| i.post_id == id).unwrap();
    assert_eq!(outcome(&unknown.id).outcome, CheckOutcome::Gone);
    let changed = outcome(&altered.id);
    assert_eq!(changed.outcome, CheckOutcome::Changed);
    let fields: Vec<&str> = changed.changes.iter().map(|c| c.field.as_str()).collect();
    assert_eq!(fields, vec!["text", "like_count"]);
    assert_eq!(changed.changes[1].before, altered.like_count.to_string());
    assert_eq!(
        changed.changes[1].after,
        (altered.like_count - 7).to_string()
    );
    assert_eq!(report.summary.unchanged as usize, total - 2);
    assert_eq!((report.summary.changed, report.summary.gone), (1, 1));
    // Its cost is what the service billed for the re-fetch, recorded like any request.
    let billed: Decimal = sandbox.billed().responses()[spent..]
        .iter()
        .map(|r| r.cost_usd.parse::<Decimal>().unwrap())
        .sum();
    assert_eq!(report.summary.cost, billed);
    for history_id in &report.summary.history_ids {
        let entry = store.history_entry(*history_id).await.unwrap().unwrap();
        assert_eq!(entry.operation, "twitter_urls");
    }
    // The re-fetch is filed under the investigation, so its cost counts there.
    let filed = HistoryQuery {
        investigation_id: Some(case),
        operation: Some("twitter_urls".into()),
        ..HistoryQuery::default()
    };
    assert_eq!(store.history_count(&filed).await.unwrap(), batches as i64);
    // Stored and listed, newest first.
    let listed = investigations::checks(store, case).await.unwrap();
    assert_eq!(listed, vec![report.summary.clone()]);
    // The same request id again is the same check: nothing is sent, paid or stored again.
    let again = investigations::check(&state, &session, case, params("c2", false))
        .await
        .unwrap();
    assert_eq!(sandbox.billed().responses().len(), spent + batches);
    assert_eq!(again, report);
    assert_eq!(investigations::checks(store, case).await.unwrap().len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_check_cut_short_and_run_again_pays_only_for_the_batches_it_lacked() {
    let Live {
        sandbox,
        state,
        _data,
    } = live().await;
    let session = state.session().await.unwrap();
    let store = &session.store;
    let (case, found) = case_with_a_search(&sandbox, &state, &session, "Recheck").await;
    // A hundred more, with ids the service does not know (they will read as gone): two batches.
    let template = store.post(&found[0]).await.unwrap().unwrap();
    let extra: Vec<InvestigationItem> = (0..CHECK_BATCH)
        .map(|n| InvestigationItem::Post {
            post_id: format!("19999999999{n:08}"),
        })
        .collect();
    let copies = extra
        .iter()
        .map(|item| {
            let InvestigationItem::Post { post_id } = item else {
                unreachable!()
            };
            sightline_store::NewPost {
                id: post_id.clone(),
                ..as_new_post(&template)
            }
        })
        .collect();
    store
        .record_request(&doctored("extra", copies))
        .await
        .unwrap();
    investigations::add(store, case, &extra).await.unwrap();
    let total = found.len() + CHECK_BATCH;
    let batches = total.div_ceil(CHECK_BATCH);
    assert!(batches >= 2);

    // The first batch is answered, the second meets a rate limit too long to wait for.
    sandbox
        .faults()
        .push("/twitter/urls", Fault::Stall { ms: 0 });
    sandbox.faults().push(
        "/twitter/urls",
        Fault::Status {
            status: 429,
            body: None,
            headers: [("Retry-After".to_owned(), "120".to_owned())].into(),
        },
    );
    let spent = sandbox.billed().responses().len();
    let cut = investigations::check(&state, &session, case, params("r1", false)).await;
    assert!(matches!(cut, Err(CommandError::Service { .. })), "{cut:?}");
    assert_eq!(
        sandbox.billed().responses().len(),
        spent + 1,
        "one batch paid"
    );
    assert!(investigations::checks(store, case)
        .await
        .unwrap()
        .is_empty());

    // Run again as the same check: the fetched batch is re-used, the rest sent and paid once.
    let report = investigations::check(&state, &session, case, params("r1", false))
        .await
        .unwrap();
    assert_eq!(sandbox.billed().responses().len(), spent + batches);
    assert_eq!(report.summary.history_ids.len(), batches);
    assert_eq!(report.items.len(), total);
    assert_eq!(report.summary.gone as usize, CHECK_BATCH);
    // Its cost is what the service billed for the whole check, once.
    let billed: Decimal = sandbox.billed().responses()[spent..]
        .iter()
        .map(|r| r.cost_usd.parse::<Decimal>().unwrap())
        .sum();
    assert_eq!(report.summary.cost, billed);
}

/// A checked post that quotes another brings the quoted post in the re-fetch; the check files
/// neither it nor anything else, under its own investigation (active or not) or under another
/// active one: the case holds what it held, and the next check costs what this one did.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_check_never_changes_what_the_case_holds() {
    let Live {
        sandbox,
        state,
        _data,
    } = live().await;
    let session = state.session().await.unwrap();
    let store = &session.store;
    let quoting = sandbox
        .world()
        .posts
        .iter()
        .find(|p| p.quote_of.is_some())
        .expect("the sandbox world has quotes")
        .id
        .to_string();
    let request = TwitterUrlsRequest {
        urls: vec![format!("https://x.com/i/web/status/{quoting}")],
    };
    let fetched = pipeline::execute(&state, &session, request, send("q1"), None)
        .await
        .unwrap();
    assert_eq!(
        found_post_ids(store, fetched.history_id).await.len(),
        2,
        "the post and the one it quotes"
    );
    let case = investigations::create(store, "Quotes", "")
        .await
        .unwrap()
        .id;
    let item = InvestigationItem::Post {
        post_id: quoting.clone(),
    };
    investigations::add(store, case, &[item]).await.unwrap();
    let other = investigations::create(store, "Other", "").await.unwrap().id;

    // Checked while the case is active, then while another one is.
    for (n, active) in [case, other].into_iter().enumerate() {
        investigations::set_active(store, Some(active))
            .await
            .unwrap();
        let report = investigations::check(&state, &session, case, params(&format!("k{n}"), false))
            .await
            .unwrap();
        assert_eq!(report.items.len(), 1);
        assert_eq!(report.items[0].post_id, quoting);
        assert_eq!(filed_post_ids(store, case).await, vec![quoting.clone()]);
        let summary = investigations::summary(store, case).await.unwrap();
        assert_eq!(summary.post_count, 1);
        assert_eq!(
            summary.request_count,
            n as i64 + 1,
            "each check's re-fetch, for its cost"
        );
        let estimate = investigations::check_estimate(store, case).await.unwrap();
        assert_eq!(
            estimate.estimate.units,
            Some(1),
            "the next check fetches one post"
        );
    }
    let elsewhere = investigations::summary(store, other).await.unwrap();
    assert_eq!(
        (elsewhere.post_count, elsewhere.request_count),
        (0, 0),
        "another case's check is not this one's"
    );
}

/// A re-fetch recorded by hand, unbilled, holding `posts`: how a test puts copies of posts the
/// service would answer differently (or not at all) into the archive.
fn doctored(request_id: &str, posts: Vec<sightline_store::NewPost>) -> RequestRecord {
    RequestRecord {
        request_id: request_id.into(),
        started_at: Utc::now(),
        operation: "twitter_urls".into(),
        params_json: "{}".into(),
        key_label: None,
        mode: "test".into(),
        status: RequestStatus::Ok,
        error_class: None,
        error_message: None,
        duration_ms: 0,
        result_count: i64::try_from(posts.len()).unwrap(),
        billing: None,
        cursor: None,
        next_cursor: None,
        parent_id: None,
        result_json: None,
        provenance: None,
        posts,
        users: Vec::new(),
        links: Vec::new(),
    }
}

fn params(request_id: &str, confirm_budget: bool) -> SendParams {
    serde_json::from_value(serde_json::json!({
        "requestId": request_id,
        "confirmBudget": confirm_budget,
    }))
    .unwrap()
}

fn as_new_post(p: &sightline_store::StoredPost) -> sightline_store::NewPost {
    sightline_store::NewPost {
        id: p.id.clone(),
        conversation_id: p.conversation_id.clone(),
        author_id: p.author_id.clone(),
        author_username: p.author_username.clone(),
        author_name: p.author_name.clone(),
        author_verified: p.author_verified,
        text: p.text.clone(),
        lang: p.lang.clone(),
        created_at: p.created_at,
        like_count: p.like_count,
        retweet_count: p.retweet_count,
        reply_count: p.reply_count,
        quote_count: p.quote_count,
        view_count: p.view_count,
        bookmark_count: p.bookmark_count,
        hashtags: p.hashtags.clone(),
        url: p.url.clone(),
        raw_json: p.raw_json.clone(),
        nested: false,
    }
}
