//! The benches' 1,000,000-post archive as a store holds it (analysis, and core's
//! coordination_store): the posts of `posts.rs`, of which 100,000 are the results of one X
//! search paged 100 times (a request scope) and also filed in an investigation, plus reposters
//! lists for 200 of those posts. Included by each bench with `#[path]`, after `posts.rs` as
//! `mod posts` at the bench's root.

use std::time::Instant;

use chrono::{TimeZone, Utc};
use serde_json::json;
use sightline_store::{InvestigationItem, NewPost, RequestRecord, RequestStatus, Store};

use crate::posts::{post, ACCOUNTS, POSTS};

const PAGES: usize = 100;
const PER_PAGE: usize = 1_000;

pub fn record(
    id: String,
    operation: &str,
    params: String,
    body: Option<String>,
    parent: Option<i64>,
    posts: Vec<NewPost>,
) -> RequestRecord {
    RequestRecord {
        request_id: id,
        started_at: Utc::now(),
        operation: operation.into(),
        params_json: params,
        key_label: Some("bench".into()),
        mode: "live".into(),
        status: RequestStatus::Ok,
        error_class: None,
        error_message: None,
        duration_ms: 300,
        result_count: posts.len() as i64,
        billing: None,
        cursor: None,
        next_cursor: None,
        parent_id: parent,
        result_json: body,
        provenance: None,
        posts,
        users: Vec::new(),
        links: Vec::new(),
    }
}

/// Builds the archive into `store`; returns the search's first page and the investigation.
pub async fn build(store: &Store) -> (i64, i64) {
    let start = Utc.with_ymd_and_hms(2025, 11, 1, 0, 0, 0).unwrap();
    let build = Instant::now();
    // The search's 100 pages first (a paging chain), then the rest of the archive in batches.
    let mut parent = None;
    let mut first_page = 0;
    for page in 0..PAGES {
        let posts = (page * PER_PAGE..(page + 1) * PER_PAGE)
            .map(|n| post(n * 10, start))
            .collect();
        let rec = record(
            format!("page-{page}"),
            "twitter_search",
            r#"{"query":"bench"}"#.into(),
            None,
            parent,
            posts,
        );
        let outcome = store.record_request(&rec).await.unwrap();
        let history_id = match outcome {
            sightline_store::RecordOutcome::Recorded { history_id } => history_id,
            other => panic!("{other:?}"),
        };
        if page == 0 {
            first_page = history_id;
        }
        parent = Some(history_id);
    }
    let rest: Vec<usize> = (0..POSTS).filter(|n| n % 10 != 0).collect();
    for chunk in rest.chunks(20_000) {
        let posts: Vec<NewPost> = chunk.iter().map(|n| post(*n, start)).collect();
        store.archive_posts(Utc::now(), &posts).await.unwrap();
    }
    let imported = build.elapsed();
    for r in 0..200 {
        let target = post(r * 500 * 10, start);
        let users: Vec<_> = (0..50).map(|u| json!({"id": u.to_string(), "username": format!("user{}", (r * 53 + u * 7) % ACCOUNTS)})).collect();
        let rec = record(
            format!("rt-{r}"),
            "twitter_retweeters",
            json!({"id": target.id}).to_string(),
            Some(json!({"users": users}).to_string()),
            None,
            Vec::new(),
        );
        store.record_request(&rec).await.unwrap();
    }
    let case = store
        .create_investigation("Bench", "", Utc::now())
        .await
        .unwrap();
    let items: Vec<InvestigationItem> = (0..PAGES * PER_PAGE)
        .map(|n| InvestigationItem::Post {
            post_id: post(n * 10, start).id,
        })
        .collect();
    store
        .add_to_investigation(case, &items, Utc::now())
        .await
        .unwrap();
    println!(
        "built: {POSTS} posts (imported with their facts in {:.1} s), a 100-page search of 100,000, \
         200 reposters lists, an investigation of 100,000, in {:.1} s",
        imported.as_secs_f64(),
        build.elapsed().as_secs_f64()
    );
    (first_page, case)
}

/// The search's first page and the investigation of an archive `build` made before.
pub async fn built(store: &Store) -> (i64, i64) {
    let page = store.history_by_request_id("page-0").await.unwrap();
    let cases = store.investigations(true).await.unwrap();
    (page.expect("a bench archive").id, cases[0].id)
}
