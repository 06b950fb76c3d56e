//! The finder over a real scope: an X search run through the pipeline against the sandbox and
//! stored in a real SQLite file, read back a page at a time.

use std::collections::BTreeSet;

use sightline_api::CancelToken;
use sightline_core::coordination::{
    find, CoordinationOptions, CoordinationOutcome, CoordinationStage,
};
use sightline_core::pipeline;
use sightline_sandbox::Sandbox;
use sightline_store::{AnalysisScope, ScopeFilters, ScopeSource};

use crate::support::live::Live;
use crate::support::search::search;
use crate::support::send::send;

fn request_scope(history_id: i64) -> AnalysisScope {
    AnalysisScope {
        source: ScopeSource::Request { history_id },
        from: None,
        to: None,
        filters: ScopeFilters::default(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stored_search_is_read_whole_page_by_page_and_its_edges_name_its_posts() {
    let live = Live::start(Sandbox::builder().seed(17)).await;
    let session = live.state.session().await.unwrap();
    let store = &session.store;
    let found = pipeline::execute(
        &live.state,
        &session,
        search(&live.sandbox, 100),
        send("search"),
        None,
    )
    .await
    .unwrap();
    let ids: BTreeSet<String> = found.body.0.iter().map(|p| p.id.clone()).collect();
    let scope = request_scope(found.history_id);

    // Pages of 7: every post once, in row order, the same as the scope's count.
    let mut after = 0;
    let mut read = Vec::new();
    loop {
        let page = store
            .coordination_page(&scope, after, 7)
            .await
            .unwrap()
            .unwrap();
        let Some(last) = page.last() else { break };
        assert!(page.windows(2).all(|w| w[0].pk < w[1].pk));
        after = last.pk;
        read.extend(page);
    }
    let read_ids: BTreeSet<String> = read.iter().map(|r| r.id.clone()).collect();
    assert_eq!(read_ids, ids);
    assert_eq!(read.len(), ids.len());
    assert_eq!(
        store.coordination_post_count(&scope).await.unwrap(),
        Some(ids.len() as i64)
    );
    // Each post's text and author as the service gave them.
    for post in &found.body.0 {
        let row = read.iter().find(|r| r.id == post.id).unwrap();
        assert_eq!(row.text, post.text);
        let author = post.user.as_ref().unwrap().username.to_lowercase();
        assert_eq!(row.author, author);
        assert_eq!(row.reply_to_id, post.in_reply_to_status_id);
    }

    let mut steps = Vec::new();
    let outcome = find(
        store,
        &scope,
        &CoordinationOptions {
            min_events: 1,
            ..CoordinationOptions::default()
        },
        &mut |step| steps.push(step),
        &CancelToken::new(),
    )
    .await
    .unwrap();
    let CoordinationOutcome::Done { result } = outcome else {
        panic!("not cancelled")
    };
    assert_eq!(result.posts_read, ids.len() as u64);
    assert!(result.posts.iter().all(|p| ids.contains(&p.id)));
    let reading = steps
        .iter()
        .rfind(|s| s.stage == CoordinationStage::Reading)
        .unwrap();
    assert_eq!(
        (reading.done, reading.total),
        (ids.len() as u64, ids.len() as u64)
    );
    assert!(steps.iter().any(|s| s.stage == CoordinationStage::Signal));

    // Cancelled before it starts: nothing comes back.
    let cancel = CancelToken::new();
    cancel.cancel();
    let outcome = find(
        store,
        &scope,
        &CoordinationOptions::default(),
        &mut |_| {},
        &cancel,
    )
    .await
    .unwrap();
    assert_eq!(outcome, CoordinationOutcome::Cancelled);
}
