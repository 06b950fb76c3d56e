//! Analysis with the real pipeline: a sandbox on loopback as the service and a real SQLite
//! file. The network of an X search plus the reposters fetched for one of its posts; its GEXF
//! read back as XML; a sandbox post's conversation tree against its replies, and the fetch of
//! missing replies, estimated first, budget-guarded, billed exactly what the service said, and
//! saying how many of the replies it brought were new and how many were stored already.

use crate::support::live;
use crate::support::search;
use crate::support::send;

use live::Live;
use search::search;
use send::send;
use std::collections::{BTreeMap, BTreeSet, HashMap};

use quick_xml::events::Event;
use rust_decimal::Decimal;
use sightline_api::model::{Post, Posts};
use sightline_api::request::{
    TwitterPostRequest, TwitterRepliesPostRequest, TwitterRetweetersRequest,
};
use sightline_core::analysis::{self, export};
use sightline_core::errors::CommandError;
use sightline_core::pipeline::{self, SendParams};
use sightline_core::session::Session;
use sightline_sandbox::Sandbox;
use sightline_store::{
    AnalysisScope, BudgetLimits, EdgeKind, NetworkQuery, PostQuery, ScopeFilters, ScopeSource,
    TreeRelation,
};

async fn live() -> Live {
    Live::start(Sandbox::builder().seed(17)).await
}

fn request_scope(history_id: i64) -> AnalysisScope {
    AnalysisScope {
        source: ScopeSource::Request { history_id },
        from: None,
        to: None,
        filters: ScopeFilters::default(),
    }
}

type Edges = BTreeMap<(String, String), i64>;

fn add(edges: &mut Edges, source: &str, target: &str) {
    let (source, target) = (source.to_lowercase(), target.to_lowercase());
    if source != target {
        *edges.entry((source, target)).or_default() += 1;
    }
}

#[tokio::test]
async fn the_network_of_a_search_and_its_fetched_reposters_has_the_expected_edges() {
    let live = live().await;
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
    // The scope is the search's results, each once; not the posts they quote or repost.
    let posts: HashMap<&str, &Post> = found
        .body
        .0
        .iter()
        .map(|post| (post.id.as_str(), post))
        .collect();

    // The reposters of the search's most reposted post, fetched as the user would.
    let reposted = found
        .body
        .0
        .iter()
        .max_by_key(|t| (t.retweet_count, t.id.clone()))
        .unwrap();
    assert!(
        reposted.retweet_count > 0,
        "the sandbox's posts are reposted"
    );
    let request = TwitterRetweetersRequest {
        id: reposted.id.clone(),
        cursor: None,
    };
    let reposters = pipeline::execute(&live.state, &session, request, send("reposters"), None)
        .await
        .unwrap();
    assert!(!reposters.body.users.is_empty());

    let (mut replies, mut quotes, mut mentions, mut reposts) =
        (Edges::new(), Edges::new(), Edges::new(), Edges::new());
    for post in posts.values() {
        let author = post.user.as_ref().unwrap().username.as_str();
        if let Some(to) = &post.in_reply_to_screen_name {
            add(&mut replies, author, to);
        }
        if let Some(quoted) = &post.quote {
            add(&mut quotes, author, &quoted.user.as_ref().unwrap().username);
        }
        if let Some(original) = &post.retweet {
            add(
                &mut reposts,
                author,
                &original.user.as_ref().unwrap().username,
            );
        }
        let named: BTreeSet<String> = post
            .entities
            .iter()
            .flat_map(|e| e.user_mentions.iter().flatten())
            .map(|m| m.screen_name.to_lowercase())
            .collect();
        for name in named {
            add(&mut mentions, author, &name);
        }
    }
    let reposted_author = reposted.user.as_ref().unwrap().username.as_str();
    let reposters_named: BTreeSet<String> = reposters
        .body
        .users
        .iter()
        .map(|u| u.username.to_lowercase())
        .collect();
    for reposter in &reposters_named {
        add(&mut reposts, reposter, reposted_author);
    }

    let network = analysis::network(
        store,
        &request_scope(found.history_id),
        &NetworkQuery::default(),
    )
    .await
    .unwrap();
    let of = |kind: EdgeKind| -> Edges {
        network
            .edges
            .iter()
            .filter(|e| e.kind == kind)
            .map(|e| ((e.source.clone(), e.target.clone()), e.weight))
            .collect()
    };
    assert_eq!(of(EdgeKind::Reply), replies);
    assert_eq!(of(EdgeKind::Quote), quotes);
    assert_eq!(of(EdgeKind::Mention), mentions);
    assert_eq!(of(EdgeKind::Repost), reposts);
    assert!(!of(EdgeKind::Repost).is_empty());
    assert_eq!(network.reposter_requests, 1);

    // As GEXF: valid XML with one node and one edge element each, and the counts carried.
    let mut gexf = Vec::new();
    export::network_gexf(&network, "X search <\"a&b\">", &mut gexf).unwrap();
    let mut reader = quick_xml::Reader::from_reader(gexf.as_slice());
    let (mut nodes, mut edges, mut buf) = (0, 0, Vec::new());
    let mut root = None;
    loop {
        match reader
            .read_event_into(&mut buf)
            .expect("the GEXF is well-formed XML")
        {
            Event::Eof => break,
            Event::Start(tag) | Event::Empty(tag) => {
                let name = tag.name().as_ref().to_owned();
                if root.is_none() {
                    root = Some(name.clone());
                }
                match name.as_str() {
                    "node" => nodes += 1,
                    "edge" => edges += 1,
                    _ => {}
                }
            }
            _ => {}
        }
        buf.clear();
    }
    assert_eq!(root.as_deref(), Some("gexf"));
    assert_eq!((nodes, edges), (network.nodes.len(), network.edges.len()));

    // The edge CSV: one line per edge after the header.
    let mut csv = Vec::new();
    export::edges_csv(&network, sightline_store::Tz::UTC, &mut csv).unwrap();
    let text = String::from_utf8(csv).unwrap();
    assert!(text.starts_with("source,target,type,weight,first_utc,last_utc"));
    assert_eq!(text.lines().count(), network.edges.len() + 1);

    // Narrowed to the reposted post's author in the Archive, only their posts' edges stay.
    let scope = AnalysisScope {
        source: ScopeSource::Archive {
            query: PostQuery::default(),
        },
        from: None,
        to: None,
        filters: ScopeFilters {
            account: Some(reposted_author.into()),
            ..ScopeFilters::default()
        },
    };
    let summary = analysis::summary(store, &scope).await.unwrap();
    let expected = posts
        .values()
        .filter(|t| {
            t.user
                .as_ref()
                .unwrap()
                .username
                .eq_ignore_ascii_case(reposted_author)
        })
        .count();
    assert_eq!(summary.post_count, expected as i64);
    live.sandbox.shutdown().await;
}

/// Searches 100 posts and picks the one that starts a conversation (answers nothing) with the
/// most replies, at least `at_least`.
async fn most_replied_first_post(live: &Live, session: &Session, at_least: u64) -> Post {
    let found = pipeline::execute(
        &live.state,
        session,
        search(&live.sandbox, 100),
        send("search"),
        None,
    )
    .await
    .unwrap();
    found
        .body
        .0
        .into_iter()
        .filter(|t| t.in_reply_to_status_id.is_none() && t.reply_count >= at_least)
        .max_by_key(|t| (t.reply_count, t.id.clone()))
        .expect("the sandbox's first posts have replies")
}

#[tokio::test]
async fn a_posts_conversation_tree_matches_its_replies_and_missing_ones_are_fetched_at_their_cost()
{
    let live = live().await;
    let session = live.state.session().await.unwrap();
    let store = &session.store;
    let post = most_replied_first_post(&live, &session, 1).await;

    // Nothing but the post is held: every reply is missing, and the fetch says what it costs.
    let tree = analysis::conversation(store, &post.id).await.unwrap();
    assert_eq!(tree.root_id, post.id);
    assert_eq!(tree.missing[0].post_id, post.id);
    let estimate = analysis::conversation_estimate(store, &post.id)
        .await
        .unwrap();
    assert!(estimate.requests >= 1);
    assert_eq!(estimate.replies, (post.reply_count as i64).min(100));
    assert!(
        estimate.cost.estimate.amount.is_some(),
        "an X read was billed, so a rate is known"
    );

    // A budget the fetch would pass stops it before anything is sent.
    let billed_before = live.sandbox.billed().total();
    store
        .set_budget(&BudgetLimits {
            daily: Some(Decimal::new(1, 9)),
            monthly: None,
            warn_percent: 80,
        })
        .await
        .unwrap();
    let blocked = analysis::conversation_fetch(
        &live.state,
        &session,
        &post.id,
        SendParams {
            request_id: "tree".into(),
            confirm_budget: true,
        },
    )
    .await;
    assert!(
        matches!(blocked, Err(CommandError::BudgetBlocked { .. })),
        "{blocked:?}"
    );
    assert_eq!(live.sandbox.billed().total(), billed_before);
    store.set_budget(&BudgetLimits::default()).await.unwrap();

    let fetched = analysis::conversation_fetch(
        &live.state,
        &session,
        &post.id,
        SendParams {
            request_id: "tree".into(),
            confirm_budget: true,
        },
    )
    .await
    .unwrap();
    assert_eq!(fetched.requests, estimate.requests);
    let billed: Decimal = store
        .ledger(sightline_store::Tz::UTC, None)
        .await
        .unwrap()
        .iter()
        .filter(|entry| entry.operation == "twitter_replies_post")
        .map(|entry| entry.cost.expect("a stated cost"))
        .sum();
    assert_eq!(
        fetched.cost, billed,
        "the fetch's cost is what the service billed"
    );

    // The tree's replies are exactly the stored replies the service gave for the post.
    let replies = pipeline::execute(
        &live.state,
        &session,
        TwitterRepliesPostRequest {
            post_id: post.id.clone(),
            count: 100,
            query: String::new(),
        },
        send("tree-0"),
        None,
    )
    .await
    .unwrap();
    assert!(
        replies.replayed,
        "the fetch sent this very request: it is not paid twice"
    );
    let expected: BTreeSet<String> = replies
        .body
        .0
        .iter()
        .filter(|t| t.in_reply_to_status_id.as_deref() == Some(post.id.as_str()))
        .map(|t| t.id.clone())
        .collect();
    assert!(!expected.is_empty());
    let held: BTreeSet<String> = fetched
        .tree
        .nodes
        .iter()
        .filter(|n| {
            n.parent_id.as_deref() == Some(post.id.as_str()) && n.relation == TreeRelation::Reply
        })
        .map(|n| n.id.clone())
        .collect();
    assert_eq!(held, expected);
    // Held as the service counts them: the whole thread below the post.
    let thread: BTreeSet<String> = replies.body.0.iter().map(|t| t.id.clone()).collect();
    let root = &fetched.tree.nodes[0];
    assert_eq!(root.replies_held, thread.len() as i64);
    live.sandbox.shutdown().await;
}

/// The tree: a first post whose thread holds a reply to a reply. Once its thread is
/// fetched, every reply the service counts is held and nothing is said to be missing; a second
/// fetch is refused before anything is sent or paid, as it could not change the tree.
#[tokio::test]
async fn a_fetched_thread_with_replies_to_replies_is_whole_and_not_offered_again() {
    let live = live().await;
    let session = live.state.session().await.unwrap();
    let store = &session.store;
    let first = {
        let world = live.sandbox.world();
        let deep: BTreeSet<u32> = world
            .posts
            .iter()
            .filter_map(|p| world.posts[p.reply_to? as usize].reply_to)
            .collect();
        world
            .posts
            .iter()
            .enumerate()
            .find(|(i, p)| {
                p.reply_to.is_none()
                    && (3..=100).contains(&p.replies)
                    && deep.contains(&(*i as u32))
            })
            .expect("the sandbox has threads with replies to replies")
            .1
            .id
            .to_string()
    };
    pipeline::execute(
        &live.state,
        &session,
        TwitterPostRequest { id: first.clone() },
        send("first"),
        None,
    )
    .await
    .unwrap();
    let fetched = analysis::conversation_fetch(
        &live.state,
        &session,
        &first,
        SendParams {
            request_id: "thread".into(),
            confirm_budget: true,
        },
    )
    .await
    .unwrap();
    let root = &fetched.tree.nodes[0];
    assert!(
        fetched
            .tree
            .nodes
            .iter()
            .any(|n| n.depth >= 2 && n.relation == TreeRelation::Reply),
        "a reply to a reply is held"
    );
    assert_eq!(root.replies_held, root.reply_count, "{:?}", fetched.tree);
    assert_eq!(fetched.tree.missing, vec![]);

    let spent = live.sandbox.billed().responses().len();
    let estimate = analysis::conversation_estimate(store, &first)
        .await
        .unwrap();
    assert_eq!((estimate.requests, estimate.replies), (0, 0));
    let again = analysis::conversation_fetch(
        &live.state,
        &session,
        &first,
        SendParams {
            request_id: "again".into(),
            confirm_budget: true,
        },
    )
    .await;
    assert!(
        matches!(again, Err(CommandError::Invalid { .. })),
        "{again:?}"
    );
    assert_eq!(
        live.sandbox.billed().responses().len(),
        spent,
        "nothing paid"
    );
    live.sandbox.shutdown().await;
}

#[tokio::test]
async fn a_fetch_says_how_many_replies_were_new_and_how_many_were_held_already() {
    let live = live().await;
    let session = live.state.session().await.unwrap();
    let store = &session.store;
    let post = most_replied_first_post(&live, &session, 2).await;

    // One reply fetched on its own first: the tree's fetch then gets it again among the others.
    pipeline::execute(
        &live.state,
        &session,
        TwitterRepliesPostRequest {
            post_id: post.id.clone(),
            count: 1,
            query: String::new(),
        },
        send("one-reply"),
        None,
    )
    .await
    .unwrap();
    let before: BTreeSet<String> = store
        .posts(&PostQuery {
            limit: 10_000,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_iter()
        .map(|p| p.id)
        .collect();

    let fetched = analysis::conversation_fetch(
        &live.state,
        &session,
        &post.id,
        SendParams {
            request_id: "counts".into(),
            confirm_budget: true,
        },
    )
    .await
    .unwrap();

    // What the answers held, read back from the very requests sent (replayed, not paid again).
    let mut returned = BTreeSet::new();
    for n in 0..fetched.requests {
        let history = store
            .history_by_request_id(&format!("counts-{n}"))
            .await
            .unwrap()
            .expect("each request of the fetch is in History");
        let stored = store.result(history.id).await.unwrap().unwrap();
        let answer: Posts = serde_json::from_str(&stored.body).unwrap();
        returned.extend(answer.0.into_iter().map(|t| t.id));
    }
    let held = returned.intersection(&before).count() as i64;
    assert!(held >= 1, "the reply fetched first came back");
    assert!(returned.len() as i64 > held, "and new ones with it");
    assert_eq!(fetched.replies_already_held, held);
    assert_eq!(fetched.new_replies, returned.len() as i64 - held);
    live.sandbox.shutdown().await;
}
