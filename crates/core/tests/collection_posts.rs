//! A collection's posts and a draft's cost, against the sandbox on loopback and a real SQLite
//! file: a search collected to 130 posts through the real pipeline lists exactly the posts it
//! collected, newest first, 50 a page with the total beside each page; a reposters collection
//! (its items are accounts) lists none. Before it starts, a draft's cost follows the monitor
//! form's rule: unknown before any X search is billed, then the monitor's per-run figure for
//! as many posts; a date or the end is estimated per 100 posts.

use std::collections::BTreeSet;
use std::sync::Arc;

use crate::support::announce::Recorded;
use sightline_api::request::{TwitterRetweetersRequest, TwitterSearchRequest};
use sightline_core::collections::{
    self, CollectUntil, CollectionDraft, CollectionSource, Collector,
};
use sightline_core::environment::Environment;
use sightline_core::keychain::{MemoryStore, SecretStore};
use sightline_core::monitors::{self, MonitorDraft, MonitorTarget};
use sightline_core::state::AppState;
use sightline_sandbox::Sandbox;
use sightline_store::CollectionState;

fn search(until: CollectUntil) -> CollectionDraft {
    CollectionDraft {
        name: String::new(),
        source: CollectionSource::Search {
            request: TwitterSearchRequest::new("#AI"),
        },
        until,
        investigation_id: None,
    }
}

/// A search monitor asking up to `cap` posts a run: the monitor form's estimate.
fn monitor(cap: i64) -> MonitorDraft {
    MonitorDraft {
        name: String::new(),
        target: MonitorTarget::Search {
            request: TwitterSearchRequest::new("#AI"),
        },
        interval_minutes: 60,
        cap,
        investigation_id: None,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_collections_posts_are_what_it_collected_newest_first_a_page_at_a_time() {
    let sandbox = Sandbox::builder()
        .seed(16)
        .port(0)
        .pace_ms(0)
        .start()
        .await
        .unwrap();
    let data = tempfile::tempdir().unwrap();
    let secrets: Arc<dyn SecretStore> = Arc::new(MemoryStore::default());
    let environment = Environment {
        base_url: Some(sandbox.base_url().into()),
        ..Environment::default()
    };
    let state = AppState::new(data.path().to_owned(), environment, secrets).unwrap();
    sightline_core::keys::add(&state, "work", sandbox.demo_key())
        .await
        .unwrap();
    let store = state.store().await.unwrap();

    // Before any X search is billed there is no rate: the cost is unknown, not guessed.
    let before = collections::estimate_draft(&store, &search(CollectUntil::Count { items: 130 }))
        .await
        .unwrap();
    assert_eq!(before.estimate.amount, None);

    let collection = collections::create(&store, &search(CollectUntil::Count { items: 130 }))
        .await
        .unwrap();
    let done = collections::drive(
        &state,
        &Collector::default(),
        &Recorded::default(),
        collection.id,
        false,
    )
    .await
    .unwrap();
    assert_eq!(done.state, CollectionState::Done);
    assert_eq!(done.items, 130);

    // Paged 50 at a time from the last post shown (keyset), as the monitor's posts are: the
    // same pages as by offset.
    let mut listed: Vec<sightline_store::StoredPost> = Vec::new();
    loop {
        let after = listed.last().map(|post| post.id.clone());
        let offset = listed.len() as i64;
        let page = collections::posts(&store, collection.id, after.as_deref(), offset, 50)
            .await
            .unwrap();
        let by_offset = collections::posts(&store, collection.id, None, offset, 50)
            .await
            .unwrap();
        let page_ids = |posts: &[sightline_store::StoredPost]| {
            posts.iter().map(|post| post.id.clone()).collect::<Vec<_>>()
        };
        assert_eq!(page_ids(&page.posts), page_ids(&by_offset.posts));
        assert_eq!(page.total, 130, "each page says how many there are in all");
        if page.posts.is_empty() {
            break;
        }
        assert!(page.posts.len() <= 50);
        listed.extend(page.posts);
    }
    assert_eq!(listed.len(), 130);
    for pair in listed.windows(2) {
        assert!(pair[0].created_at >= pair[1].created_at, "newest first");
    }
    let ids: BTreeSet<String> = listed.iter().map(|post| post.id.clone()).collect();
    assert_eq!(ids.len(), 130, "each post once");
    let collected: BTreeSet<String> = store
        .collection_items(collection.id)
        .await
        .unwrap()
        .into_iter()
        .collect();
    assert_eq!(ids, collected, "exactly the posts it collected");

    // Another collection's posts are not this one's.
    let other = collections::create(&store, &search(CollectUntil::Count { items: 5 }))
        .await
        .unwrap();
    let empty = collections::posts(&store, other.id, None, 0, 50)
        .await
        .unwrap();
    assert_eq!((empty.posts.len(), empty.total), (0, 0));

    // A reposters collection holds accounts: it lists no posts.
    let reposters = collections::create(
        &store,
        &CollectionDraft {
            name: String::new(),
            source: CollectionSource::Reposters {
                request: TwitterRetweetersRequest {
                    id: listed[0].id.clone(),
                    cursor: None,
                },
            },
            until: CollectUntil::Count { items: 10 },
            investigation_id: None,
        },
    )
    .await
    .unwrap();
    let page = collections::posts(&store, reposters.id, None, 0, 50)
        .await
        .unwrap();
    assert_eq!(page.total, 0);

    // Once a search is billed, a number of posts costs what a monitor run asking for that
    // many costs: the one rule, from the learned rate.
    let draft = collections::estimate_draft(&store, &search(CollectUntil::Count { items: 90 }))
        .await
        .unwrap();
    let per_run = monitors::estimate(&store, &monitor(90))
        .await
        .unwrap()
        .per_run;
    assert!(draft.estimate.amount.is_some());
    assert_eq!(draft.estimate.amount, per_run);
    assert_eq!(draft.estimate.units, Some(90));
    // A date or the end: per 100 posts, since its length cannot be known before.
    let open_ended = collections::estimate_draft(&store, &search(CollectUntil::End))
        .await
        .unwrap();
    assert_eq!(open_ended.estimate.units, Some(collections::ESTIMATE_PER));
    assert_eq!(
        open_ended.estimate.amount,
        monitors::estimate(&store, &monitor(100))
            .await
            .unwrap()
            .per_run
    );
}
