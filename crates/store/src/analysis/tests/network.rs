//! The network's edges against a recount, reposters lists adding reposts; and a narrower
//! scope's counts (tallied in Rust) against an archive holding its posts alone (read off
//! indexes).

use super::*;

/// `(source, target) → (weight, first, last)` of one kind, recounted.
type Edges = BTreeMap<(String, String), (i64, DateTime<Utc>, DateTime<Utc>)>;

fn add_edge(edges: &mut Edges, source: &str, target: &str, at: DateTime<Utc>) {
    if source == target {
        return;
    }
    let edge = edges
        .entry((source.to_owned(), target.to_owned()))
        .or_insert((0, at, at));
    edge.0 += 1;
    edge.1 = edge.1.min(at);
    edge.2 = edge.2.max(at);
}

fn edges_of(network: &Network, kind: EdgeKind) -> Edges {
    network
        .edges
        .iter()
        .filter(|e| e.kind == kind)
        .map(|e| {
            (
                (e.source.clone(), e.target.clone()),
                (e.weight, e.first, e.last),
            )
        })
        .collect()
}

#[tokio::test]
async fn network_edges_equal_a_recount_and_reposters_lists_add_reposts() {
    let (store, _dir, facts) = dst_store().await;
    let (mut replies, mut quotes, mut mentions) = (Edges::new(), Edges::new(), Edges::new());
    for f in &facts {
        if let Some((_, to)) = &f.reply_to {
            add_edge(&mut replies, &f.author, to, f.at);
        }
        if let Some((_, to)) = &f.quoted {
            add_edge(&mut quotes, &f.author, to, f.at);
        }
        for m in &f.mentions {
            add_edge(&mut mentions, &f.author, m, f.at);
        }
    }

    // Two reposters lists for one post (its first page and the next), naming @Zed twice and
    // the author once (dropped: no self-edges); one list for another post.
    let (one, two) = (&facts[10], &facts[20]);
    let mut first = record("rt-1", Utc::now());
    first.operation = "twitter_retweeters".into();
    first.params_json = json!({"id": one.id, "cursor": null}).to_string();
    first.result_json = Some(json!({"users": [{"id": "9", "username": "Zed"}, {"id": "8", "username": one.handle}], "next_cursor": "c"}).to_string());
    let first_id = match store.record_request(&first).await.unwrap() {
        crate::RecordOutcome::Recorded { history_id } => history_id,
        other => panic!("{other:?}"),
    };
    let mut next = record("rt-2", Utc::now());
    next.operation = "twitter_retweeters".into();
    next.params_json = json!({"id": one.id, "cursor": "c"}).to_string();
    next.parent_id = Some(first_id);
    next.result_json = Some(
        json!({"users": [{"id": "9", "username": "zed"}, {"id": "7", "username": "Yan"}]})
            .to_string(),
    );
    store.record_request(&next).await.unwrap();
    let mut other = record("rt-3", Utc::now());
    other.operation = "twitter_retweeters".into();
    other.params_json = json!({"id": two.id}).to_string();
    other.result_json = Some(json!({"users": [{"id": "9", "username": "Zed"}]}).to_string());
    store.record_request(&other).await.unwrap();
    let mut reposts = Edges::new();
    add_edge(&mut reposts, "zed", &one.author, one.at);
    add_edge(&mut reposts, "yan", &one.author, one.at);
    add_edge(&mut reposts, "zed", &two.author, two.at);

    let network = store
        .analysis_network(&archive_scope(), &NetworkQuery::default())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(edges_of(&network, EdgeKind::Reply), replies);
    assert_eq!(edges_of(&network, EdgeKind::Quote), quotes);
    assert_eq!(edges_of(&network, EdgeKind::Mention), mentions);
    assert_eq!(edges_of(&network, EdgeKind::Repost), reposts);
    assert_eq!(network.reposter_requests, 3);
    assert_eq!(network.total_edges, network.edges.len() as i64);

    // Nodes: every endpoint once, with its posts in the scope; a reposter seen only in a list
    // keeps the list's spelling.
    let endpoints: BTreeSet<&str> = network
        .edges
        .iter()
        .flat_map(|e| [e.source.as_str(), e.target.as_str()])
        .collect();
    assert_eq!(
        network
            .nodes
            .iter()
            .map(|n| n.id.as_str())
            .collect::<BTreeSet<_>>(),
        endpoints
    );
    for node in &network.nodes {
        let posts = facts.iter().filter(|f| f.author == node.id).count() as i64;
        assert_eq!(node.posts, posts, "{}", node.id);
    }
    assert_eq!(
        network.nodes.iter().find(|n| n.id == "yan").unwrap().label,
        "@Yan"
    );

    // Filters: one kind, a minimum weight, the heaviest few.
    let query = NetworkQuery {
        kinds: vec![EdgeKind::Mention],
        min_weight: 3,
        max_edges: 4,
    };
    let filtered = store
        .analysis_network(&archive_scope(), &query)
        .await
        .unwrap()
        .unwrap();
    let heavy: Vec<i64> = {
        let mut w: Vec<i64> = mentions.values().map(|e| e.0).filter(|w| *w >= 3).collect();
        w.sort_by(|a, b| b.cmp(a));
        w
    };
    assert_eq!(filtered.total_edges, heavy.len() as i64);
    assert_eq!(
        filtered.edges.iter().map(|e| e.weight).collect::<Vec<_>>(),
        heavy.into_iter().take(4).collect::<Vec<_>>()
    );
    assert!(filtered.edges.iter().all(|e| e.kind == EdgeKind::Mention));
    assert_eq!(filtered.reposter_requests, 0);

    // A deleted reposters list takes its reposts with it.
    sqlx::query("DELETE FROM history WHERE id = ?")
        .bind(first_id)
        .execute(&store.pool)
        .await
        .unwrap();
    let after = store
        .analysis_network(&archive_scope(), &NetworkQuery::default())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(after.reposter_requests, 2);
}

#[tokio::test]
async fn a_narrower_scope_counts_exactly_as_an_archive_of_its_posts_alone() {
    // A range's top lists are tallied in Rust and its network joins the table of its posts;
    // the whole archive's are read off indexes. Both must give the same answers.
    let (whole, _dir) = temp_store().await;
    let (posts, _) = corpus(13, utc(2026, 5, 1, 0), 240, 20_000);
    whole.archive_posts(Utc::now(), &posts).await.unwrap();
    let (alone, _alone_dir) = temp_store().await;
    alone
        .archive_posts(Utc::now(), &posts[60..180])
        .await
        .unwrap();
    // Reposters lists of a post inside the range and of one before it, in both stores.
    for store in [&whole, &alone] {
        for (n, post) in [&posts[100], &posts[10]].into_iter().enumerate() {
            let mut list = record(&format!("rt-{n}"), Utc::now());
            list.operation = "twitter_retweeters".into();
            list.params_json = json!({"id": post.id}).to_string();
            list.result_json = Some(
                json!({"users": [{"id": "9", "username": "Zed"}, {"id": "7", "username": "Yan"}]})
                    .to_string(),
            );
            store.record_request(&list).await.unwrap();
        }
    }
    let range = |from: usize, to: usize| AnalysisScope {
        from: Some(posts[from].created_at),
        to: Some(posts[to].created_at),
        ..archive_scope()
    };

    // Another range first: each call's table of posts holds its own scope only.
    let earlier = whole
        .analysis_network(&range(0, 60), &NetworkQuery::default())
        .await
        .unwrap()
        .unwrap();
    assert!(earlier.nodes.iter().all(|n| n.posts <= 60));
    let network = whole
        .analysis_network(&range(60, 180), &NetworkQuery::default())
        .await
        .unwrap()
        .unwrap();
    let expected = alone
        .analysis_network(&archive_scope(), &NetworkQuery::default())
        .await
        .unwrap()
        .unwrap();
    assert!(expected.edges.iter().any(|e| e.kind == EdgeKind::Repost));
    assert_eq!(expected.reposter_requests, 1);
    assert_eq!(network, expected);
    let heavy = NetworkQuery {
        min_weight: 2,
        max_edges: 3,
        ..NetworkQuery::default()
    };
    let expected = alone
        .analysis_network(&archive_scope(), &heavy)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(expected.edges.len(), 3);
    assert_eq!(
        whole
            .analysis_network(&range(60, 180), &heavy)
            .await
            .unwrap()
            .unwrap(),
        expected
    );

    let top = whole
        .analysis_top(&range(60, 180), 10)
        .await
        .unwrap()
        .unwrap();
    let expected = alone
        .analysis_top(&archive_scope(), 10)
        .await
        .unwrap()
        .unwrap();
    assert!(!expected.mentions.entries.is_empty());
    assert_eq!(top, expected);
    let domains = whole
        .analysis_top_list(&range(60, 180), TopKind::Domains, 1_000)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        domains,
        alone
            .analysis_top_list(&archive_scope(), TopKind::Domains, 1_000)
            .await
            .unwrap()
            .unwrap()
    );
}
