//! A narrower scope's network, tallied in Rust, against the whole archive's network of a store
//! holding the scope's posts alone (read by SQL, itself checked against a recount in
//! `analysis/tests.rs`), with reposts seen in timelines as well as in reposters lists.

use chrono::{DateTime, Duration, TimeZone, Utc};
use serde_json::{json, Value};

use crate::analysis::tests::archive_scope;
use crate::analysis::{AnalysisScope, EdgeKind, Network, NetworkQuery, ScopeSource};
use crate::test_support::{self, record, temp_store};
use crate::{InvestigationItem, NewPost, RecordOutcome, Store};

const HANDLES: [&str; 6] = ["Ann", "bob", "Cy", "dee", "eve", "ANN"];

fn id_of(n: usize) -> String {
    (70_000 + n).to_string()
}

fn handle_of(n: usize) -> &'static str {
    HANDLES[(n * 5 + n / 7) % HANDLES.len()]
}

/// Post `n`: mentions (some of its own author), replies and quotes (some to itself), and
/// reposts seen in a timeline: of an earlier post, of the same post again later by the same
/// account, of its own post, and of a post that is not stored.
fn post(n: usize, start: DateTime<Utc>) -> NewPost {
    let handle = handle_of(n);
    let at = start + Duration::minutes(41 * n as i64);
    let mentions: Vec<&str> = (0..n % 4).map(|i| HANDLES[(n + i * 2) % 6]).collect();
    let mut raw = json!({
        "id": id_of(n),
        "text": format!("post {n}"),
        "user": {"id": handle.to_lowercase(), "username": handle},
        "entities": {
            "user_mentions": mentions.iter()
                .map(|m| json!({"id_str": "1", "name": m, "screen_name": m, "indices": [0, 1]}))
                .collect::<Vec<Value>>(),
        },
    });
    if n % 3 == 1 && n > 3 {
        raw["in_reply_to_status_id"] = json!(id_of(n - 3));
        raw["in_reply_to_screen_name"] = json!(handle_of(n - 3));
    }
    if n % 5 == 2 && n > 5 {
        raw["quoted_status_id"] = json!(id_of(n - 5));
        raw["quote"] = json!({"id": id_of(n - 5), "user": {"username": handle_of(n - 5)}});
    }
    match n % 6 {
        // The same post reposted again and again, by whoever posts these.
        0 => raw["retweet"] = json!({"id": id_of(20), "user": {"username": handle_of(20)}}),
        3 => raw["retweet"] = json!({"id": id_of(n - 2), "user": {"username": handle_of(n - 2)}}),
        4 => raw["retweet"] = json!({"id": "1", "user": {"username": "Gone"}}),
        _ => {}
    }
    NewPost {
        conversation_id: None,
        author_id: Some(handle.to_lowercase()),
        author_username: handle.into(),
        author_name: handle.into(),
        author_verified: false,
        like_count: n as i64 % 7,
        retweet_count: 0,
        reply_count: 0,
        view_count: None,
        url: None,
        raw_json: raw.to_string(),
        ..test_support::post(&id_of(n), &format!("post {n}"), at)
    }
}

/// A reposters list of post `n` naming `users`.
async fn reposters_list(store: &Store, name: &str, n: usize, users: &[&str]) {
    let mut list = record(name, Utc::now());
    list.operation = "twitter_retweeters".into();
    list.params_json = json!({"id": id_of(n)}).to_string();
    let users: Vec<Value> = users
        .iter()
        .map(|u| json!({"id": u, "username": u}))
        .collect();
    list.result_json = Some(json!({ "users": users }).to_string());
    store.record_request(&list).await.unwrap();
}

async fn network(store: &Store, scope: &AnalysisScope, query: &NetworkQuery) -> Network {
    store.analysis_network(scope, query).await.unwrap().unwrap()
}

#[tokio::test]
async fn a_request_or_investigations_network_equals_that_of_an_archive_of_its_posts_alone() {
    let start = Utc.with_ymd_and_hms(2026, 3, 1, 0, 0, 0).unwrap();
    let posts: Vec<NewPost> = (0..72).map(|n| post(n, start)).collect();
    let inside = 12..60;

    // The scope's posts alone, with a reposters list of a post inside it.
    let (alone, _alone_dir) = temp_store().await;
    alone
        .archive_posts(Utc::now(), &posts[inside.clone()])
        .await
        .unwrap();
    reposters_list(&alone, "rt-in", 20, &["Zed", "bob", "eve"]).await;

    // The whole archive: posts before and after, a search of two overlapping pages holding the
    // scope's posts, the same list and one of a post outside the scope.
    let (whole, _whole_dir) = temp_store().await;
    whole.archive_posts(Utc::now(), &posts[..12]).await.unwrap();
    let mut page1 = record("p1", Utc::now());
    page1.posts = posts[12..40].to_vec();
    let RecordOutcome::Recorded { history_id } = whole.record_request(&page1).await.unwrap() else {
        panic!("the first page is recorded");
    };
    let mut page2 = record("p2", Utc::now());
    page2.parent_id = Some(history_id);
    page2.posts = posts[34..60].to_vec();
    whole.record_request(&page2).await.unwrap();
    whole.archive_posts(Utc::now(), &posts[60..]).await.unwrap();
    reposters_list(&whole, "rt-in", 20, &["Zed", "bob", "eve"]).await;
    reposters_list(&whole, "rt-out", 3, &["Yan"]).await;
    let case = whole
        .create_investigation("Reposts", "", Utc::now())
        .await
        .unwrap();
    let items: Vec<InvestigationItem> = inside
        .clone()
        .map(|n| InvestigationItem::Post { post_id: id_of(n) })
        .collect();
    whole
        .add_to_investigation(case, &items, Utc::now())
        .await
        .unwrap();

    let request = AnalysisScope {
        source: ScopeSource::Request { history_id },
        ..archive_scope()
    };
    let investigation = AnalysisScope {
        source: ScopeSource::Investigation { id: case },
        ..archive_scope()
    };
    let queries = [
        NetworkQuery::default(),
        NetworkQuery {
            min_weight: 2,
            max_edges: 4,
            ..NetworkQuery::default()
        },
        NetworkQuery {
            kinds: vec![EdgeKind::Repost, EdgeKind::Mention],
            ..NetworkQuery::default()
        },
        NetworkQuery {
            kinds: vec![EdgeKind::Reply],
            ..NetworkQuery::default()
        },
    ];
    for query in &queries {
        let expected = network(&alone, &archive_scope(), query).await;
        assert_eq!(
            network(&whole, &request, query).await,
            expected,
            "{query:?}"
        );
        assert_eq!(
            network(&whole, &investigation, query).await,
            expected,
            "{query:?}"
        );
    }

    // What the reference holds: each kind of edge, reposts from timelines and from the list
    // (each reposter once a post), no edge to an account itself, the list inside the scope only.
    let all = network(&alone, &archive_scope(), &NetworkQuery::default()).await;
    for kind in [
        EdgeKind::Reply,
        EdgeKind::Quote,
        EdgeKind::Mention,
        EdgeKind::Repost,
    ] {
        assert!(all.edges.iter().any(|e| e.kind == kind), "{kind:?}");
    }
    assert!(all.edges.iter().all(|e| e.source != e.target));
    assert_eq!(all.reposter_requests, 1);
    let target = handle_of(20).to_lowercase();
    let zed = all
        .edges
        .iter()
        .find(|e| e.kind == EdgeKind::Repost && e.source == "zed")
        .expect("a reposter seen only in the list");
    assert_eq!((zed.target.as_str(), zed.weight), (target.as_str(), 1));
    // Posts 24, 30, …, 54 repost post 20; their authors each count it once.
    let timeline: std::collections::BTreeSet<String> = (24..60)
        .step_by(6)
        .map(|n| handle_of(n).to_lowercase())
        .filter(|h| *h != target)
        .collect();
    for reposter in &timeline {
        let weight: i64 = all
            .edges
            .iter()
            .filter(|e| e.kind == EdgeKind::Repost && &e.source == reposter && e.target == target)
            .map(|e| e.weight)
            .sum();
        assert!(weight >= 1, "{reposter}");
    }
    assert!(all
        .edges
        .iter()
        .any(|e| e.kind == EdgeKind::Repost && e.target == "gone"));
    assert!(!all.nodes.iter().any(|n| n.id == "yan"));
}
