//! The scope's posts equal a plain filter of the same fixture, in the same order: a request's
//! two pages (each post once, an unrelated request's left out), an investigation, click
//! filters and a range; pages in a row add up to the whole list; a gone scope answers `None`.

use chrono::{DateTime, Duration, TimeZone, Utc};
use serde_json::json;

use super::super::types::{AnalysisScope, ScopeFilters, ScopeSource};
use super::{ScopePostQuery, SCOPE_POSTS_PAGE};
use crate::test_support::{post, record, temp_store};
use crate::{InvestigationItem, NewPost, RecordOutcome, Store};

const HANDLES: [&str; 4] = ["Ana", "ana", "bo", "cy"];
const TAGS: [&str; 3] = ["Flood", "storm", "ferry"];

/// What the test knows of each post: its index is also its storage order.
struct Fact {
    id: String,
    author: String,
    tag: String,
    at: DateTime<Utc>,
}

/// `count` posts, three a quarter hour apart then a pair at the same second (ties), by @Ana
/// (spelt two ways), @bo and @cy, each with one hashtag.
fn fixture(count: usize) -> (Vec<NewPost>, Vec<Fact>) {
    let start = Utc.with_ymd_and_hms(2026, 4, 1, 8, 0, 0).unwrap();
    let mut posts = Vec::new();
    let mut facts = Vec::new();
    for n in 0..count {
        let handle = HANDLES[(n * 7 + n / 3) % HANDLES.len()];
        let tag = TAGS[(n * 5 + 1) % TAGS.len()];
        let at = start + Duration::minutes(15 * (n - n % 4 / 3) as i64);
        let id = (70_000 + n).to_string();
        let mut stored = post(&id, &format!("post {n} #{tag}"), at);
        stored.author_username = handle.to_owned();
        stored.raw_json = json!({
            "id": id,
            "text": stored.text,
            "user": {"username": handle},
            "entities": {"hashtags": [{"text": tag, "indices": [0, 1]}]},
        })
        .to_string();
        posts.push(stored);
        facts.push(Fact {
            id,
            author: handle.to_lowercase(),
            tag: tag.to_lowercase(),
            at,
        });
    }
    (posts, facts)
}

/// The ids of the facts kept, newest first, the later stored first at the same time.
fn newest_first<'a>(facts: impl Iterator<Item = (usize, &'a Fact)>) -> Vec<String> {
    let mut kept: Vec<(usize, &Fact)> = facts.collect();
    kept.sort_by(|(a, fa), (b, fb)| fb.at.cmp(&fa.at).then(b.cmp(a)));
    kept.into_iter().map(|(_, f)| f.id.clone()).collect()
}

/// Every post of the scope, read in pages of `size`; also checks each page's total.
async fn read_all(store: &Store, scope: &AnalysisScope, size: u32) -> Vec<String> {
    let mut ids: Vec<String> = Vec::new();
    loop {
        // From the last post read (keyset), and the same page by offset alone.
        let by_offset = ScopePostQuery {
            offset: ids.len() as u32,
            limit: size,
            after: None,
        };
        let by_key = ScopePostQuery {
            after: ids.last().cloned(),
            ..by_offset.clone()
        };
        let page = store.analysis_posts(scope, &by_key).await.unwrap().unwrap();
        let skipped = store
            .analysis_posts(scope, &by_offset)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(page, skipped, "the same page by key and by offset");
        let got = page.posts.len();
        ids.extend(page.posts.into_iter().map(|p| p.id));
        assert!(got <= size as usize);
        if got == 0 {
            assert_eq!(
                ids.len() as i64,
                page.total,
                "the pages add up to the total"
            );
            return ids;
        }
    }
}

async fn recorded(store: &Store, name: &str, posts: &[NewPost], parent: Option<i64>) -> i64 {
    let mut request = record(name, Utc::now());
    request.posts = posts.to_vec();
    request.parent_id = parent;
    match store.record_request(&request).await.unwrap() {
        RecordOutcome::Recorded { history_id } => history_id,
        other => panic!("{other:?}"),
    }
}

fn scope_of(source: ScopeSource) -> AnalysisScope {
    AnalysisScope {
        source,
        from: None,
        to: None,
        filters: ScopeFilters::default(),
    }
}

#[tokio::test]
async fn a_scopes_posts_equal_a_plain_filter_newest_first_in_pages() {
    let (store, _dir) = temp_store().await;
    let (posts, facts) = fixture(90);
    let first = recorded(&store, "p1", &posts[..40], None).await;
    recorded(&store, "p2", &posts[30..70], Some(first)).await;
    recorded(&store, "other", &posts[70..], None).await;

    // The request and its later page: each post once, the unrelated request's left out.
    let mut scope = scope_of(ScopeSource::Request { history_id: first });
    let expected = newest_first(facts[..70].iter().enumerate());
    assert_eq!(read_all(&store, &scope, 7).await, expected);
    let page = store
        .analysis_posts(&scope, &ScopePostQuery::default())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(page.total, 70);
    assert_eq!(page.posts.len(), SCOPE_POSTS_PAGE as usize);
    assert_eq!(page.posts[0].author_username, posts[69].author_username);

    // An account clicked (either spelling), a tag and a range: the same filter by hand.
    let from = facts[10].at;
    let to = facts[60].at;
    scope.filters = ScopeFilters {
        account: Some("@ANA".into()),
        hashtag: Some("#flood".into()),
        ..ScopeFilters::default()
    };
    scope.from = Some(from);
    scope.to = Some(to);
    let expected = newest_first(
        facts[..70]
            .iter()
            .enumerate()
            .filter(|(_, f)| f.author == "ana" && f.tag == "flood" && f.at >= from && f.at < to),
    );
    assert!(expected.len() > 3, "the fixture leaves a few posts");
    assert_eq!(read_all(&store, &scope, 2).await, expected);

    // The account alone, over the whole archive: as many posts as are @ana's.
    let mut everything = scope_of(ScopeSource::Archive {
        query: Default::default(),
    });
    everything.filters.account = Some("ana".into());
    let expected = newest_first(facts.iter().enumerate().filter(|(_, f)| f.author == "ana"));
    assert_eq!(read_all(&store, &everything, 1000).await, expected);
}

#[tokio::test]
async fn an_investigations_posts_and_a_gone_scope() {
    let (store, _dir) = temp_store().await;
    let (posts, facts) = fixture(20);
    store.archive_posts(Utc::now(), &posts).await.unwrap();
    let id = store
        .create_investigation("Harbour", "", Utc::now())
        .await
        .unwrap();
    let filed: Vec<InvestigationItem> = [3, 8, 9, 15]
        .iter()
        .map(|&n| InvestigationItem::Post {
            post_id: facts[n].id.clone(),
        })
        .collect();
    store
        .add_to_investigation(id, &filed, Utc::now())
        .await
        .unwrap();
    let scope = scope_of(ScopeSource::Investigation { id });
    let expected = newest_first(
        facts
            .iter()
            .enumerate()
            .filter(|(n, _)| [3, 8, 9, 15].contains(n)),
    );
    assert_eq!(read_all(&store, &scope, 3).await, expected);

    let gone = scope_of(ScopeSource::Investigation { id: id + 1 });
    assert!(store
        .analysis_posts(&gone, &ScopePostQuery::default())
        .await
        .unwrap()
        .is_none());
}
