//! One case-folding rule for every entity, beyond ASCII: tags, mentions, cashtags, handles
//! and hosts spelt with accented or other capitals are one value each, in the whole archive's
//! tallies and in a narrower scope's pass, and a filter spelt any way finds them. An archive
//! stored before migration 0011 (which 0008 folded in ASCII only) is refolded by it.

use super::*;

/// A post by `handle` naming `tag`, `mention`, `cashtag` and `link`, replying to `to`.
fn spelt(id: &str, handle: &str, tag: &str, mention: &str, cashtag: &str, link: &str) -> NewPost {
    let raw = json!({
        "id": id,
        "text": format!("#{tag} @{mention} ${cashtag} {link}"),
        "user": {"username": handle},
        "in_reply_to_status_id": "1",
        "in_reply_to_screen_name": mention,
        "entities": {
            "hashtags": [{"text": tag}],
            "user_mentions": [{"screen_name": mention}],
            "symbols": [{"text": cashtag}],
            "urls": [{"url": "https://t.co/x", "expanded_url": link}],
        },
    });
    NewPost {
        id: id.into(),
        conversation_id: None,
        author_id: None,
        author_username: handle.into(),
        author_name: handle.into(),
        author_verified: false,
        text: format!("post {id}"),
        lang: Some("fr".into()),
        created_at: utc(2026, 5, 1, 0) + Duration::minutes(id.parse().unwrap()),
        like_count: 1,
        retweet_count: 0,
        reply_count: 0,
        quote_count: 0,
        view_count: None,
        bookmark_count: 0,
        hashtags: vec![tag.into()],
        url: None,
        raw_json: raw.to_string(),
        nested: false,
    }
}

/// Three spellings of each: capital, small and all capitals.
fn posts() -> Vec<NewPost> {
    vec![
        spelt(
            "10",
            "Ünal",
            "Élections",
            "Ömer",
            "ÄBC",
            "https://MÜNCHEN.example/a",
        ),
        spelt(
            "11",
            "ünal",
            "élections",
            "ömer",
            "äbc",
            "https://münchen.example/b",
        ),
        spelt(
            "12",
            "ÜNAL",
            "ÉLECTIONS",
            "ÖMER",
            "ÄBC",
            "https://www.MÜNCHEN.EXAMPLE/c",
        ),
        spelt(
            "13",
            "zoë",
            "ΑΘΗΝΑ",
            "ΖΩΗ",
            "ΑΒΓ",
            "https://ΑΘΗΝΑ.example/d",
        ),
    ]
}

fn hashtag(tag: &str) -> ScopeFilters {
    ScopeFilters {
        hashtag: Some(tag.into()),
        ..ScopeFilters::default()
    }
}

async fn count(store: &Store, scope: &AnalysisScope, filters: ScopeFilters) -> i64 {
    let scope = AnalysisScope {
        filters,
        ..scope.clone()
    };
    store
        .analysis_summary(&scope)
        .await
        .unwrap()
        .unwrap()
        .post_count
}

/// Every list and filter sees one value per entity, however it was spelt.
async fn assert_folded(store: &Store) {
    for scope in [archive_scope(), from_1970()] {
        let top = store.analysis_top(&scope, 10).await.unwrap().unwrap();
        assert_eq!(
            keys(&top.hashtags),
            (vec![("élections".into(), 3), ("αθηνα".into(), 1)], 2),
            "{scope:?}"
        );
        assert_eq!(
            keys(&top.mentions),
            (vec![("ömer".into(), 3), ("ζωη".into(), 1)], 2)
        );
        assert_eq!(
            keys(&top.cashtags),
            (vec![("äbc".into(), 3), ("αβγ".into(), 1)], 2)
        );
        assert_eq!(
            keys(&top.domains),
            (
                vec![("münchen.example".into(), 3), ("αθηνα.example".into(), 1)],
                2
            )
        );
        assert_eq!(
            keys(&top.accounts_by_posts),
            (vec![("ünal".into(), 3), ("zoë".into(), 1)], 2)
        );

        // A filter spelt any way, as a click on a list or typed, finds the three.
        for tag in ["#Élections", "élections", "#ÉLECTIONS"] {
            assert_eq!(count(store, &scope, hashtag(tag)).await, 3, "{tag}");
        }
        assert_eq!(count(store, &scope, hashtag("#αθηνα")).await, 1);
        let filters = |f: fn(&mut ScopeFilters)| {
            let mut filters = ScopeFilters::default();
            f(&mut filters);
            filters
        };
        let by = [
            filters(|f| f.account = Some("@ÜNAL".into())),
            filters(|f| f.mention = Some("@Ömer".into())),
            filters(|f| f.cashtag = Some("$äbc".into())),
            filters(|f| f.domain = Some("München.Example".into())),
        ];
        for filter in by {
            assert_eq!(count(store, &scope, filter.clone()).await, 3, "{filter:?}");
        }
    }
    // The network's nodes and edges: each account once, its replies and mentions added up.
    let network = store
        .analysis_network(&archive_scope(), &NetworkQuery::default())
        .await
        .unwrap()
        .unwrap();
    let mut edges: Vec<(String, String, i64)> = network
        .edges
        .iter()
        .map(|e| (e.source.clone(), e.target.clone(), e.weight))
        .collect();
    edges.sort();
    let ids: BTreeSet<&str> = network.nodes.iter().map(|n| n.id.as_str()).collect();
    assert_eq!(
        ids,
        BTreeSet::from(["zoë", "ünal", "ζωη", "ömer"]),
        "{edges:?}"
    );
    assert!(
        edges.iter().any(|(s, t, _)| s == "ünal" && t == "ömer"),
        "{edges:?}"
    );
}

#[tokio::test]
async fn tags_mentions_cashtags_handles_and_hosts_fold_beyond_ascii() {
    let (store, _dir) = temp_store().await;
    store.archive_posts(Utc::now(), &posts()).await.unwrap();
    assert_folded(&store).await;
}

#[tokio::test]
async fn an_archive_folded_in_ascii_only_is_refolded_by_the_migration() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("before.db");
    let store = Store::open_at_version(&path, 10).await.unwrap();
    store.archive_posts(Utc::now(), &posts()).await.unwrap();
    // As 0008 stored them: `Élections` and `élections` apart, `ÉLECTIONS` with the first.
    let (tags,): (i64,) = sqlx::query_as(
        "SELECT count(*) FROM entity_tally WHERE kind = 1 AND value LIKE '%lections'",
    )
    .fetch_one(&store.pool)
    .await
    .unwrap();
    assert_eq!(tags, 2);
    store.close().await;

    let store = Store::open(&path).await.unwrap();
    assert_folded(&store).await;
    // The tallies followed: one row a value, counting every post.
    let tallies: Vec<(i64, String, i64)> =
        sqlx::query_as("SELECT kind, value, posts FROM entity_tally ORDER BY kind, value")
            .fetch_all(&store.pool)
            .await
            .unwrap();
    assert_eq!(
        tallies,
        vec![
            (1, "élections".into(), 3),
            (1, "αθηνα".into(), 1),
            (2, "ömer".into(), 3),
            (2, "ζωη".into(), 1),
            (3, "äbc".into(), 3),
            (3, "αβγ".into(), 1),
            (4, "münchen.example".into(), 3),
            (4, "αθηνα.example".into(), 1),
        ]
    );
    let authors: Vec<(String, i64)> =
        sqlx::query_as("SELECT author, posts FROM author_tally ORDER BY author")
            .fetch_all(&store.pool)
            .await
            .unwrap();
    assert_eq!(authors, vec![("zoë".into(), 1), ("ünal".into(), 3)]);
    // A post written after the migration folds the same way.
    store
        .archive_posts(
            Utc::now(),
            &[spelt(
                "14",
                "ÜnAl",
                "ÉlEcTiOnS",
                "öMER",
                "Äbc",
                "https://München.example/e",
            )],
        )
        .await
        .unwrap();
    let top = store
        .analysis_top(&archive_scope(), 10)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(keys(&top.hashtags).0[0], ("élections".into(), 4));
    assert_eq!(keys(&top.accounts_by_posts).0[0], ("ünal".into(), 4));
}

#[tokio::test]
async fn one_post_naming_a_tag_in_two_spellings_keeps_one_after_the_migration() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("before.db");
    let store = Store::open_at_version(&path, 10).await.unwrap();
    let mut post = spelt("20", "ana", "Über", "ana", "X", "https://a.example/");
    let mut raw: serde_json::Value = serde_json::from_str(&post.raw_json).unwrap();
    raw["entities"]["hashtags"] = json!([{"text": "Über"}, {"text": "über"}, {"text": "ÜBER"}]);
    post.raw_json = raw.to_string();
    store.archive_posts(Utc::now(), &[post]).await.unwrap();
    let tags = |store: &Store| {
        let pool = store.pool.clone();
        async move {
            let rows: Vec<(String,)> =
                sqlx::query_as("SELECT value FROM post_entities WHERE kind = 1 ORDER BY value")
                    .fetch_all(&pool)
                    .await
                    .unwrap();
            let tally: Vec<(String, i64)> = sqlx::query_as(
                "SELECT value, posts FROM entity_tally WHERE kind = 1 ORDER BY value",
            )
            .fetch_all(&pool)
            .await
            .unwrap();
            let (lines,): (String,) = sqlx::query_as("SELECT entities FROM post_facts")
                .fetch_one(&pool)
                .await
                .unwrap();
            (rows, tally, lines)
        }
    };
    let (rows, _, _) = tags(&store).await;
    assert_eq!(rows.len(), 2, "0008 kept `Über` and `über` apart: {rows:?}");
    store.close().await;

    let store = Store::open(&path).await.unwrap();
    let (rows, tally, lines) = tags(&store).await;
    assert_eq!(rows, vec![("über".to_owned(),)]);
    assert_eq!(tally, vec![("über".to_owned(), 1)]);
    assert_eq!(
        lines
            .lines()
            .filter(|l| l.starts_with('1'))
            .collect::<Vec<_>>(),
        vec!["1über"]
    );
}
