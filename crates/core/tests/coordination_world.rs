//! The coordination finder on the sandbox's world, where a few groups of accounts act in
//! concert among news that many unrelated accounts post about at once
//! (`crates/sandbox/src/world/campaigns.rs`; which accounts they are is read from
//! `crates/sandbox/tests/fixtures/planted_campaigns.json`, nowhere else).
//!
//! The scope is collected as a user would, through the real pipeline against the sandbox on
//! loopback: four hashtag searches (newest first, 100 posts each), the reposters of each
//! search's two most reposted posts, and the first timeline page of up to 15 of those
//! reposters. Then the finder runs with its defaults over the scope read page by page as
//! `coordination::find` reads it, and the accounts in the groups it shows by default are held
//! against the planted ones: precision and recall of planted accounts at least 0.9, and no
//! group shown made only of organic accounts. The figures, per signal alone and fused, and
//! the fused figures at several co-repost-only bars, are printed for the note (`--nocapture`).

use crate::coordination::repost_bar;
use crate::support::live::Live;
use crate::support::send::send;

use std::collections::BTreeSet;

use sightline_api::model::Post;
use sightline_api::request::{
    Sort, TwitterRetweetersRequest, TwitterSearchRequest, TwitterUserPostsRequest,
};
use sightline_api::CancelToken;
use sightline_core::coordination::{
    self, Coordination, CoordinationOptions, ScopePosts, Signal, SIGNALS,
};
use sightline_core::pipeline;
use sightline_sandbox::Sandbox;
use sightline_store::{AnalysisScope, PostQuery, ScopeFilters, ScopeSource, Store};

const SEARCHES: [&str; 4] = ["#HarbourFire", "#PortDeal", "#CleanHarbour", "#CupFinal"];

/// Every planted account, group by group, from the file only tests read.
fn planted() -> Vec<(String, BTreeSet<String>)> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../sandbox/tests/fixtures/planted_campaigns.json"
    );
    let truth: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    truth["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            let accounts = g["accounts"].as_array().unwrap();
            let accounts = accounts
                .iter()
                .map(|a| a.as_str().unwrap().to_lowercase())
                .collect();
            (g["name"].as_str().unwrap().to_string(), accounts)
        })
        .collect()
}

/// Collects the scope as a user would; answers the handles of every account in it.
async fn collect(live: &Live) -> BTreeSet<String> {
    let session = live.state.session().await.unwrap();
    let mut seen = BTreeSet::new();
    let note = |posts: &[Post], seen: &mut BTreeSet<String>| {
        for post in posts {
            if let Some(user) = &post.user {
                seen.insert(user.username.to_lowercase());
            }
        }
    };
    let mut n = 0;
    let mut id = |what: &str| {
        n += 1;
        format!("{what}-{n}")
    };
    for query in SEARCHES {
        let request = TwitterSearchRequest {
            sort: Sort::Latest,
            count: 100,
            ..TwitterSearchRequest::new(query)
        };
        let found = pipeline::execute(&live.state, &session, request, send(&id("s")), None)
            .await
            .unwrap();
        note(&found.body.0, &mut seen);
        let mut reposted: Vec<&Post> = found.body.0.iter().collect();
        reposted.sort_by_key(|p| (std::cmp::Reverse(p.retweet_count), p.id.clone()));
        for post in reposted.iter().take(2).filter(|p| p.retweet_count > 0) {
            let mut reposters = Vec::new();
            let mut cursor = None;
            loop {
                let request = TwitterRetweetersRequest {
                    id: post.id.clone(),
                    cursor,
                };
                let page = pipeline::execute(&live.state, &session, request, send(&id("r")), None)
                    .await
                    .unwrap();
                reposters.extend(page.body.users.iter().map(|u| u.username.clone()));
                cursor = page.body.next_cursor.clone();
                if cursor.is_none() {
                    break;
                }
            }
            for username in reposters.iter().take(15) {
                seen.insert(username.to_lowercase());
                let request = TwitterUserPostsRequest {
                    username: username.clone(),
                    cursor: None,
                };
                let page = pipeline::execute(&live.state, &session, request, send(&id("t")), None)
                    .await
                    .unwrap();
                note(&page.body.tweets, &mut seen);
            }
        }
    }
    seen
}

/// The scope's posts read as `coordination::find` reads them, page by page.
async fn scope_posts(store: &Store) -> ScopePosts {
    let scope = AnalysisScope {
        source: ScopeSource::Archive {
            query: PostQuery::default(),
        },
        from: None,
        to: None,
        filters: ScopeFilters::default(),
    };
    let mut posts = ScopePosts::default();
    let mut after = 0;
    while let Some(last) = {
        let page = store
            .coordination_page(&scope, after, 1_000)
            .await
            .unwrap()
            .unwrap();
        let last = page.last().map(|row| row.pk);
        for row in page {
            posts.push(row);
        }
        last
    } {
        after = last;
    }
    for (post, reposter, at_ms) in store.coordination_reposters(&scope).await.unwrap().unwrap() {
        posts.push_reposter(&post, &reposter, at_ms);
    }
    posts
}

fn run(posts: &ScopePosts, options: &CoordinationOptions) -> Coordination {
    coordination::analyse(posts, options, &mut |_| {}, &CancelToken::new()).expect("not cancelled")
}

/// What the groups shown by default hold, against the planted accounts.
struct Figures {
    shown: usize,
    hidden: usize,
    found: usize,
    precision: f64,
    recall: f64,
    /// Groups shown with no planted account in them.
    organic_shown: Vec<Vec<String>>,
}

fn figures(result: &Coordination, planted: &BTreeSet<String>) -> Figures {
    let shown: Vec<_> = result.groups.iter().filter(|g| g.unusual).collect();
    let found: BTreeSet<&String> = shown.iter().flat_map(|g| g.members.iter()).collect();
    let right = found.iter().filter(|a| planted.contains(**a)).count();
    Figures {
        shown: shown.len(),
        hidden: result.groups.len() - shown.len(),
        found: found.len(),
        precision: if found.is_empty() {
            0.0
        } else {
            right as f64 / found.len() as f64
        },
        recall: right as f64 / planted.len() as f64,
        organic_shown: shown
            .iter()
            .filter(|g| !g.members.iter().any(|m| planted.contains(m)))
            .map(|g| g.members.clone())
            .collect(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn planted_groups_are_found_and_news_crowds_are_not_shown() {
    let live = Live::start(Sandbox::builder().seed(42)).await;
    let in_scope = collect(&live).await;
    let groups = planted();
    let planted: BTreeSet<String> = groups.iter().flat_map(|(_, a)| a.clone()).collect();
    let collected = planted.intersection(&in_scope).count();
    println!(
        "scope: {} accounts, {} of the {} planted",
        in_scope.len(),
        collected,
        planted.len()
    );
    let session = live.state.session().await.unwrap();
    let posts = scope_posts(&session.store).await;

    println!("signal          shown hidden found precision recall");
    for signal in SIGNALS {
        let options = CoordinationOptions {
            signals: vec![signal],
            ..CoordinationOptions::default()
        };
        let result = run(&posts, &options);
        let f = figures(&result, &planted);
        println!(
            "{:<15} {:>5} {:>6} {:>5} {:>9.3} {:>6.3}",
            signal.edge_type(),
            f.shown,
            f.hidden,
            f.found,
            f.precision,
            f.recall
        );
    }
    let options = CoordinationOptions::default();
    let result = run(&posts, &options);
    let f = figures(&result, &planted);
    println!(
        "{:<15} {:>5} {:>6} {:>5} {:>9.3} {:>6.3}",
        "fused", f.shown, f.hidden, f.found, f.precision, f.recall
    );
    for (name, accounts) in &groups {
        let found: BTreeSet<&String> = result
            .groups
            .iter()
            .filter(|g| g.unusual)
            .flat_map(|g| g.members.iter())
            .filter(|m| accounts.contains(*m))
            .collect();
        println!(
            "planted {name}: {} of {} found",
            found.len(),
            accounts.len()
        );
    }
    for group in &result.groups {
        let planted_members = group
            .members
            .iter()
            .filter(|m| planted.contains(*m))
            .count();
        let p = group.baseline.as_ref().map(|b| b.p);
        println!(
            "{} group {} ({} accounts, {} planted, baseline p {:?}): {}",
            if group.unusual { "shown" } else { "hidden" },
            group.id,
            group.size,
            planted_members,
            p,
            group.reason
        );
    }

    // The co-repost-only bar at several values (coordination/repost_bar.rs measures it on a
    // generated scope of organic co-reposting too).
    let at_bar = repost_bar::table("world", &posts, &result, &planted, options.min_share);
    assert_eq!(at_bar.precision, f.precision);
    assert_eq!(at_bar.recall, f.recall);

    assert!(
        f.organic_shown.is_empty(),
        "groups of organic accounts only are shown by default: {:?}",
        f.organic_shown
    );
    assert!(f.precision >= 0.9, "precision {:.3}", f.precision);
    assert!(f.recall >= 0.9, "recall {:.3}", f.recall);
    // Every planted group's signal is among the signals of the groups shown.
    let shown_signals: BTreeSet<Signal> = result
        .groups
        .iter()
        .filter(|g| g.unusual)
        .flat_map(|g| g.signals.iter().copied())
        .collect();
    for signal in [Signal::CoPost, Signal::CoLink, Signal::CoHashtag] {
        assert!(shown_signals.contains(&signal), "{signal:?} not shown");
    }
    assert!(
        shown_signals.contains(&Signal::CoRepost) || shown_signals.contains(&Signal::FastRepost),
        "no repost signal shown"
    );
}
