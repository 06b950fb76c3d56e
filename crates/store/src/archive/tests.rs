//! Archiving posts, users and links, and searching them.

use chrono::{DateTime, TimeZone, Utc};
use sqlx::{QueryBuilder, Sqlite};

use super::read::{fts_match_expression, post_from_row, push_post_filters, Plan, POST_COLUMNS};
use super::write::POST_CHUNK;
use super::*;
use crate::test_support::{link, post, record, temp_store};
use crate::Store;

fn day(d: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, d, 12, 0, 0).unwrap()
}

fn ids(posts: Vec<StoredPost>) -> Vec<String> {
    posts.into_iter().map(|p| p.id).collect()
}

#[test]
fn match_expressions_are_safe() {
    assert_eq!(
        fts_match_expression("solar eclipse").unwrap(),
        r#""solar" "eclipse""#
    );
    assert_eq!(fts_match_expression("ecl*").unwrap(), r#""ecl"*"#);
    assert_eq!(
        fts_match_expression(r#"say "hi" OR -x"#).unwrap(),
        r#""say" """hi""" "OR" "-x""#
    );
    assert_eq!(fts_match_expression("  - * "), None);
    assert_eq!(fts_match_expression(""), None);
}

async fn seeded() -> (Store, tempfile::TempDir, i64, i64) {
    let (store, dir) = temp_store().await;
    let mut a = post("1", "Total solar eclipse over the Andes", day(1));
    a.hashtags = vec!["#eclipse".into(), "astro".into()];
    a.like_count = 500;
    let mut b = post("2", "Lunar eclipse tonight, clear skies", day(2));
    b.author_username = "grace".into();
    b.author_name = "Grace Hopper".into();
    b.lang = Some("es".into());
    b.like_count = 5;
    let mut c = post("3", "Café opening in Zürich", day(3));
    c.like_count = 50;
    let mut d = post("4", "Nothing to see; the eclipse is tomorrow", day(4));
    d.author_username = "Eclipse_Fan".into();
    d.author_name = "Eclipse Fan".into();

    let mut r1 = record("r1", day(5));
    r1.posts = vec![a.clone(), b.clone()];
    let h1 = store.record_request(&r1).await.unwrap().history_id();
    let mut r2 = record("r2", day(6));
    r2.posts = vec![b, c, d];
    let h2 = store.record_request(&r2).await.unwrap().history_id();
    (store, dir, h1, h2)
}

#[tokio::test]
async fn posts_are_deduplicated_with_latest_metrics_and_sightings() {
    let (store, _dir, h1, h2) = seeded().await;
    assert_eq!(store.posts_count(&PostQuery::default()).await.unwrap(), 4);
    let b = store.post("2").await.unwrap().unwrap();
    assert_eq!(b.first_seen, day(5));
    assert_eq!(b.last_seen, day(6));
    let found: Vec<i64> = store
        .post_found_by("2")
        .await
        .unwrap()
        .into_iter()
        .map(|e| e.id)
        .collect();
    assert_eq!(found, [h2, h1]);

    // Seen again later with new metrics: the latest are kept, first_seen stays.
    let mut again = post("2", "Lunar eclipse tonight, clear skies", day(2));
    again.like_count = 99;
    again.view_count = None;
    let mut r3 = record("r3", day(7));
    r3.posts = vec![again];
    store.record_request(&r3).await.unwrap();
    let b = store.post("2").await.unwrap().unwrap();
    assert_eq!(b.like_count, 99);
    assert_eq!(
        b.view_count,
        Some(1000),
        "a missing view count keeps the known one"
    );
    assert_eq!((b.first_seen, b.last_seen), (day(5), day(7)));
    assert_eq!(store.post_found_by("2").await.unwrap().len(), 3);
}

#[tokio::test]
async fn large_pages_with_repeated_posts_are_archived_across_chunks() {
    // A page, and batches big enough to be staged through the temporary table.
    for n in [250, POST_CHUNK + 1, 2 * POST_CHUNK + 7] {
        for via_request in [true, false] {
            let (store, _dir) = temp_store().await;
            let mut posts: Vec<NewPost> = (0..n)
                .map(|i| post(&format!("p{i}"), &format!("page post {i}"), day(1)))
                .collect();
            // The same post again later in the batch (across a chunk boundary), with new
            // text and metrics and without a view count or address: the later copy wins,
            // the known view count and address stay.
            let mut repeat = post("p5", "edited words", day(1));
            repeat.like_count = 77;
            repeat.view_count = None;
            repeat.url = None;
            posts.insert(n - 3, repeat);
            let h = if via_request {
                let mut r = record("big", day(2));
                r.posts = posts;
                Some(store.record_request(&r).await.unwrap().history_id())
            } else {
                store.archive_posts(day(2), &posts).await.unwrap();
                None
            };
            let all = store.posts_count(&PostQuery::default()).await.unwrap();
            assert_eq!(all, n as i64);
            if let Some(h) = h {
                let found = PostQuery {
                    history_ids: vec![h],
                    ..Default::default()
                };
                assert_eq!(store.posts_count(&found).await.unwrap(), n as i64);
            }
            let p5 = store.post("p5").await.unwrap().unwrap();
            assert_eq!((p5.like_count, p5.text.as_str()), (77, "edited words"));
            assert_eq!(p5.view_count, Some(1000));
            assert_eq!(p5.url.as_deref(), Some("https://x.com/ada/status/p5"));
            let search = |text: &str| PostQuery {
                text: Some(text.into()),
                ..Default::default()
            };
            assert_eq!(
                store.posts_count(&search("page")).await.unwrap(),
                n as i64 - 1
            );
            assert_eq!(ids(store.posts(&search("edited")).await.unwrap()), ["p5"]);
            sqlx::query("INSERT INTO posts_fts (posts_fts) VALUES ('integrity-check')")
                .execute(&store.pool)
                .await
                .unwrap();
            // The staging table is left empty for the next batch.
            store
                .archive_posts(day(3), &[post("later", "later", day(3))])
                .await
                .unwrap();
            assert_eq!(
                store.posts_count(&PostQuery::default()).await.unwrap(),
                all + 1
            );
        }
    }
}

#[tokio::test]
async fn full_text_search_covers_text_author_handle_and_hashtags() {
    let (store, _dir, _, _) = seeded().await;
    let search = |text: &str| PostQuery {
        text: Some(text.into()),
        ..Default::default()
    };
    let mut found = ids(store.posts(&search("eclipse")).await.unwrap());
    found.sort();
    assert_eq!(found, ["1", "2", "4"]);
    assert_eq!(ids(store.posts(&search("grace")).await.unwrap()), ["2"]);
    assert_eq!(ids(store.posts(&search("astro")).await.unwrap()), ["1"]);
    assert_eq!(ids(store.posts(&search("#astro")).await.unwrap()), ["1"]);
    // Diacritics are folded; prefixes work; all words must match.
    assert_eq!(
        ids(store.posts(&search("cafe zurich")).await.unwrap()),
        ["3"]
    );
    assert_eq!(ids(store.posts(&search("zür*")).await.unwrap()), ["3"]);
    assert!(store
        .posts(&search("eclipse zurich"))
        .await
        .unwrap()
        .is_empty());
    // Operator words are plain words, not syntax errors.
    assert!(store.posts(&search("NOT AND OR")).await.unwrap().is_empty());
    assert_eq!(store.posts_count(&search("eclipse")).await.unwrap(), 3);
}

#[tokio::test]
async fn relevance_prefers_author_and_hashtag_hits() {
    let (store, _dir, _, _) = seeded().await;
    let q = PostQuery {
        text: Some("eclipse".into()),
        sort: PostSort::Relevance,
        ..Default::default()
    };
    let ranked = ids(store.posts(&q).await.unwrap());
    // Post 4 has it in text, name and handle; post 1 in text and hashtag; post 2 in text only.
    assert_eq!(ranked, ["4", "1", "2"]);
}

#[tokio::test]
async fn relevance_pages_equal_fts5_rank_order_with_ties_by_age() {
    let (store, _dir) = temp_store().await;
    // Few words, short texts: many equal scores, repeats, hashtag and author hits.
    let words = [
        "comet", "comets", "comet", "orbit", "night", "sky", "comical", "or",
    ];
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move |n: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % n
    };
    let posts: Vec<NewPost> = (0..600)
        .map(|i| {
            let len = 2 + next(6) as usize;
            let text: Vec<&str> = (0..len).map(|_| words[next(8) as usize]).collect();
            let mut p = post(&format!("p{i}"), &text.join(" "), day(1 + (i % 20) as u32));
            if next(5) == 0 {
                p.hashtags = vec![words[next(8) as usize].into()];
            }
            if next(7) == 0 {
                p.author_name = "Comet Watcher".into();
            }
            p.lang = Some(["en", "es"][next(2) as usize].into());
            p
        })
        .collect();
    store.archive_posts(day(25), &posts).await.unwrap();

    let reference = |expr: String, lang: Option<&str>, limit: i64, offset: i64| {
        // The previous query: FTS5 sorts by its configured rank itself.
        let store = store.clone();
        let lang = lang.map(str::to_owned);
        async move {
            let mut sql = QueryBuilder::<Sqlite>::new(
                "SELECT p.id FROM posts_fts JOIN posts p ON p.pk = posts_fts.rowid
                 WHERE posts_fts MATCH ",
            );
            sql.push_bind(expr);
            if let Some(lang) = lang {
                sql.push(" AND p.lang = ").push_bind(lang);
            }
            sql.push(" ORDER BY posts_fts.rank LIMIT ")
                .push_bind(limit)
                .push(" OFFSET ")
                .push_bind(offset);
            let ids: Vec<String> = sql
                .build_query_scalar()
                .fetch_all(&store.pool)
                .await
                .unwrap();
            ids
        }
    };
    let mut checked_ties = false;
    for text in [
        "comet",
        "comet sky",
        "com*",
        "or*",
        "orbit night",
        "#comet",
        "watcher",
    ] {
        for lang in [None, Some("es")] {
            for (limit, offset) in [(50, 0), (7, 3), (500, 0)] {
                let q = PostQuery {
                    text: Some(text.into()),
                    lang: lang.map(str::to_owned),
                    sort: PostSort::Relevance,
                    limit,
                    offset,
                    ..Default::default()
                };
                let got = ids(store.posts(&q).await.unwrap());
                let expr = fts_match_expression(text).unwrap();
                let expected = reference(expr.clone(), lang, limit.into(), offset.into()).await;
                assert_eq!(got, expected, "{text} {lang:?} {limit}/{offset}");
                assert_eq!(
                    store
                        .posts_count(&PostQuery {
                            limit: 0,
                            offset: 0,
                            ..q.clone()
                        })
                        .await
                        .unwrap(),
                    reference(expr.clone(), lang, 10_000, 0).await.len() as i64
                );
                // Equal scores come oldest row first.
                let scores: Vec<(f64, i64)> = sqlx::query_as(
                    "SELECT rank, rowid FROM posts_fts WHERE posts_fts MATCH ? ORDER BY rank, rowid",
                )
                .bind(&expr)
                .fetch_all(&store.pool)
                .await
                .unwrap();
                checked_ties |= scores.windows(2).any(|w| w[0].0 == w[1].0);
            }
        }
    }
    assert!(checked_ties, "the corpus has equal scores");
}

#[tokio::test]
async fn relevance_ranks_the_most_recently_saved_window_of_a_common_word() {
    let (store, _dir) = temp_store().await;
    // The first 100 saved are the best hits (word in the hashtag, short text); then enough
    // ordinary hits to push them out of the window.
    let best: Vec<NewPost> = (0..100)
        .map(|i| {
            let mut p = post(&format!("best{i}"), "comet", day(1));
            p.hashtags = vec!["comet".into()];
            p
        })
        .collect();
    store.archive_posts(day(2), &best).await.unwrap();
    let window = RELEVANCE_WINDOW as usize;
    let ordinary: Vec<NewPost> = (0..window)
        .map(|i| {
            let filler = ["seen", "tonight", "over", "the", "hills"][..1 + i % 5].join(" ");
            post(&format!("o{i}"), &format!("comet {filler}"), day(3))
        })
        .collect();
    store.archive_posts(day(4), &ordinary).await.unwrap();

    let q = PostQuery {
        text: Some("comet".into()),
        sort: PostSort::Relevance,
        ..Default::default()
    };
    let total = store.posts_count(&q).await.unwrap();
    assert_eq!(total, (window + 100) as i64);
    assert_eq!(ranked_matches(&q, total), Some(i64::from(RELEVANCE_WINDOW)));
    // Ranked within the window: its best are the shortest ordinary posts, in FTS5's order.
    let page = ids(store.posts(&q).await.unwrap());
    assert!(page.iter().all(|id| id.starts_with('o')), "{page:?}");
    let window_order: Vec<String> = sqlx::query_scalar(
        "SELECT p.id FROM posts_fts JOIN posts p ON p.pk = posts_fts.rowid
         WHERE posts_fts MATCH 'comet' AND posts_fts.rowid > 100
         ORDER BY posts_fts.rank, posts_fts.rowid LIMIT 50",
    )
    .fetch_all(&store.pool)
    .await
    .unwrap();
    assert_eq!(page, window_order);
    // The last page of the window ends at its size; nothing past it is ranked.
    let beyond = PostQuery {
        offset: RELEVANCE_WINDOW - 10,
        ..q.clone()
    };
    assert_eq!(store.posts(&beyond).await.unwrap().len(), 10);

    // A filter narrows the matches before the window is taken: the older best hits rank.
    let older = PostQuery {
        to: Some(day(2)),
        ..q.clone()
    };
    let total = store.posts_count(&older).await.unwrap();
    assert_eq!((total, ranked_matches(&older, total)), (100, None));
    assert_eq!(store.posts(&older).await.unwrap().len(), 50);
    // Sorting by time still reaches every match.
    let oldest = PostQuery {
        sort: PostSort::Oldest,
        ..q.clone()
    };
    assert!(ids(store.posts(&oldest).await.unwrap())[0].starts_with("best"));
    assert_eq!(ranked_matches(&oldest, total), None);
}

#[tokio::test]
async fn prefix_search_ranks_by_where_the_word_is() {
    let (store, _dir) = temp_store().await;
    let mut tagged = post("tagged", "tail of light", day(1));
    tagged.hashtags = vec!["comical".into()];
    let in_text = post("in_text", "comical tail of", day(2));
    let mut by_name = post("by_name", "tail of light", day(3));
    by_name.author_name = "Comics Daily".into();
    let other = post("other", "nothing common here", day(4));
    store
        .archive_posts(day(5), &[in_text, other, by_name, tagged])
        .await
        .unwrap();
    let q = PostQuery {
        text: Some("comi*".into()),
        ..Default::default()
    };
    // Hashtag (weight 3) before author name (2) before text (1), lengths alike.
    assert_eq!(
        ids(store.posts(&q).await.unwrap()),
        ["tagged", "by_name", "in_text"]
    );
    assert_eq!(store.posts_count(&q).await.unwrap(), 3);
}

#[tokio::test]
async fn filters_sorting_and_paging() {
    let (store, _dir, h1, h2) = seeded().await;
    let q = |f: fn(&mut PostQuery)| {
        let mut q = PostQuery::default();
        f(&mut q);
        q
    };
    assert_eq!(
        ids(store
            .posts(&q(|q| q.sort = PostSort::Newest))
            .await
            .unwrap()),
        ["4", "3", "2", "1"]
    );
    assert_eq!(
        ids(store
            .posts(&q(|q| q.sort = PostSort::Oldest))
            .await
            .unwrap()),
        ["1", "2", "3", "4"]
    );
    assert_eq!(
        ids(store
            .posts(&q(|q| q.author = Some("@ADA".into())))
            .await
            .unwrap()),
        ["3", "1"]
    );
    assert_eq!(
        ids(store
            .posts(&q(|q| q.lang = Some("es".into())))
            .await
            .unwrap()),
        ["2"]
    );
    assert_eq!(
        ids(store.posts(&q(|q| q.min_likes = Some(50))).await.unwrap()),
        ["3", "1"]
    );
    let range = PostQuery {
        from: Some(day(2)),
        to: Some(day(4)),
        ..Default::default()
    };
    assert_eq!(ids(store.posts(&range).await.unwrap()), ["3", "2"]);
    let by_request = PostQuery {
        history_ids: vec![h1],
        text: Some("eclipse".into()),
        sort: PostSort::Newest,
        ..Default::default()
    };
    assert_eq!(ids(store.posts(&by_request).await.unwrap()), ["2", "1"]);
    // Two requests (a post and its replies): each post once, though both found post 2.
    let both = PostQuery {
        history_ids: vec![h1, h2],
        sort: PostSort::Oldest,
        ..Default::default()
    };
    assert_eq!(ids(store.posts(&both).await.unwrap()), ["1", "2", "3", "4"]);
    assert_eq!(store.posts_count(&both).await.unwrap(), 4);
    let both_matching = PostQuery {
        text: Some("eclipse".into()),
        sort: PostSort::Relevance,
        ..both.clone()
    };
    assert_eq!(store.posts_count(&both_matching).await.unwrap(), 3);
    assert_eq!(store.posts(&both_matching).await.unwrap().len(), 3);
    let page = PostQuery {
        limit: 2,
        offset: 1,
        sort: PostSort::Newest,
        ..Default::default()
    };
    assert_eq!(ids(store.posts(&page).await.unwrap()), ["3", "2"]);
    let combined = PostQuery {
        text: Some("eclipse".into()),
        author: Some("ada".into()),
        min_likes: Some(100),
        ..Default::default()
    };
    assert_eq!(ids(store.posts(&combined).await.unwrap()), ["1"]);
}

/// Every page of `q` read by keyset, each from the last post of the page before.
async fn pages_by_key(store: &Store, q: &PostQuery) -> Vec<Vec<String>> {
    let mut pages = Vec::new();
    let mut after = None;
    loop {
        let page = ids(store
            .posts(&PostQuery {
                after: after.clone(),
                ..q.clone()
            })
            .await
            .unwrap());
        if page.is_empty() {
            return pages;
        }
        after = page.last().cloned();
        pages.push(page);
    }
}

#[tokio::test]
async fn keyset_pages_are_the_offset_pages_through_ties_and_plans() {
    let (store, _dir) = temp_store().await;
    // 90 posts on 20 distinct times, so most pages cut through a tie; every third has a word.
    let posts: Vec<NewPost> = (0..90)
        .map(|i| {
            let text = if i % 3 == 0 {
                "comet sighting"
            } else {
                "quiet night"
            };
            post(
                &format!("k{i:02}"),
                text,
                day(1) + chrono::Duration::minutes(i * 7 % 20),
            )
        })
        .collect();
    store.archive_posts(day(9), &posts).await.unwrap();
    let browse = PostQuery {
        limit: 7,
        ..Default::default()
    };
    let queries = [
        browse.clone(),
        PostQuery {
            sort: PostSort::Newest,
            ..browse.clone()
        },
        PostQuery {
            sort: PostSort::Oldest,
            ..browse.clone()
        },
        PostQuery {
            text: Some("comet".into()),
            sort: PostSort::Newest,
            ..browse.clone()
        },
        PostQuery {
            text: Some("comet".into()),
            sort: PostSort::Oldest,
            ..browse.clone()
        },
        PostQuery {
            author: Some("ada".into()),
            sort: PostSort::Oldest,
            ..browse.clone()
        },
        // With an author, the words' matches are found from the full-text index.
        PostQuery {
            text: Some("comet".into()),
            author: Some("ada".into()),
            sort: PostSort::Newest,
            ..browse.clone()
        },
    ];
    for q in queries {
        let total = store.posts_count(&q).await.unwrap();
        let mut by_offset = Vec::new();
        for offset in (0..total).step_by(7) {
            let page = PostQuery {
                offset: offset as u32,
                ..q.clone()
            };
            by_offset.push(ids(store.posts(&page).await.unwrap()));
        }
        assert_eq!(pages_by_key(&store, &q).await, by_offset, "{q:?}");
        assert_eq!(by_offset.concat().len() as i64, total, "{q:?}");
    }
    // A post no longer stored: its page is found by the offset instead.
    let gone = PostQuery {
        after: Some("deleted".into()),
        offset: 7,
        ..browse.clone()
    };
    let second = PostQuery {
        offset: 7,
        ..browse
    };
    assert_eq!(
        ids(store.posts(&gone).await.unwrap()),
        ids(store.posts(&second).await.unwrap())
    );
}

#[tokio::test]
async fn time_sorted_search_gives_the_same_pages_by_either_plan() {
    let (store, _dir) = temp_store().await;
    // 300 posts, every third mentions "comet": dense enough to walk by time.
    let posts: Vec<NewPost> = (0..300)
        .map(|i| {
            let text = if i % 3 == 0 {
                "comet sighting"
            } else {
                "quiet night"
            };
            let mut p = post(
                &format!("p{i:03}"),
                text,
                day(1) + chrono::Duration::minutes((i * 7 % 300) as i64),
            );
            p.like_count = i64::from(i % 2 == 0);
            p
        })
        .collect();
    store.archive_posts(day(9), &posts).await.unwrap();
    for sort in [PostSort::Newest, PostSort::Oldest] {
        let q = PostQuery {
            text: Some("comet".into()),
            sort,
            min_likes: Some(1),
            limit: 7,
            offset: 3,
            ..Default::default()
        };
        assert_eq!(store.plan(&q).await.unwrap(), Plan::WalkByTime);
        let walked = ids(store.posts(&q).await.unwrap());
        let mut sql = QueryBuilder::<Sqlite>::new(format!("SELECT {POST_COLUMNS}"));
        push_post_filters(&mut sql, &q, Plan::FromIndex, true);
        sql.push(if sort == PostSort::Newest {
            " ORDER BY p.created_at DESC, p.pk ASC LIMIT 7 OFFSET 3"
        } else {
            " ORDER BY p.created_at ASC, p.pk DESC LIMIT 7 OFFSET 3"
        });
        let rows = sql.build().fetch_all(&store.pool).await.unwrap();
        let from_index: Vec<String> = rows.iter().map(|r| post_from_row(r).unwrap().id).collect();
        assert_eq!(walked, from_index);
        assert_eq!(walked.len(), 7);
    }
    // A rare word starts from the index.
    let rare = PostQuery {
        text: Some("p123".into()),
        sort: PostSort::Newest,
        ..Default::default()
    };
    assert_eq!(store.plan(&rare).await.unwrap(), Plan::FromIndex);
}

#[tokio::test]
async fn the_index_follows_edits_and_deletes() {
    let (store, _dir, _, _) = seeded().await;
    let mut edited = post("3", "Bakery opening in Basel", day(3));
    edited.like_count = 1;
    store.archive_posts(day(8), &[edited]).await.unwrap();
    let search = |text: &str| PostQuery {
        text: Some(text.into()),
        ..Default::default()
    };
    assert!(store.posts(&search("zurich")).await.unwrap().is_empty());
    assert_eq!(ids(store.posts(&search("basel")).await.unwrap()), ["3"]);
    sqlx::query("DELETE FROM posts WHERE id = '3'")
        .execute(&store.pool)
        .await
        .unwrap();
    assert!(store.posts(&search("basel")).await.unwrap().is_empty());
    // FTS5's own integrity check fails loudly if the index and the table disagree.
    sqlx::query("INSERT INTO posts_fts (posts_fts) VALUES ('integrity-check')")
        .execute(&store.pool)
        .await
        .unwrap();
}

#[tokio::test]
async fn users_and_links_are_archived_and_searchable() {
    let (store, _dir) = temp_store().await;
    let user = NewUser {
        id: "u9".into(),
        username: "mary_s".into(),
        name: "Mary Somerville".into(),
        verified: false,
        followers_count: Some(42),
        description: Some("science writer".into()),
        raw_json: r#"{"id":"u9"}"#.into(),
    };
    let mut r = record("r", day(1));
    r.users = vec![user.clone()];
    r.links = vec![
        link("https://example.org/a"),
        NewLink {
            source: LinkSource::Arxiv,
            title: "On the connexion of the physical sciences".into(),
            snippet: "A treatise".into(),
            link: "https://arxiv.org/abs/1".into(),
            score: Some("HIGH".into()),
        },
    ];
    let h = store.record_request(&r).await.unwrap().history_id();
    let mut again = record("r2", day(2));
    let mut renamed = user.clone();
    renamed.name = "Mary F. Somerville".into();
    renamed.followers_count = None;
    again.users = vec![renamed];
    again.links = vec![link("https://example.org/a")];
    store.record_request(&again).await.unwrap();

    let u = store.user("u9").await.unwrap().unwrap();
    assert_eq!(u.name, "Mary F. Somerville");
    assert_eq!(u.followers_count, Some(42));
    assert_eq!((u.first_seen, u.last_seen), (day(1), day(2)));
    let found = store
        .users(&UserQuery {
            text: Some("@MARY".into()),
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(found.len(), 1);
    assert!(store
        .users(&UserQuery {
            text: Some("nobody".into()),
            ..Default::default()
        })
        .await
        .unwrap()
        .is_empty());

    let all = store.links(&LinkQuery::default()).await.unwrap();
    assert_eq!(all.len(), 2, "the repeated link is stored once");
    assert_eq!(
        all[0].link, "https://example.org/a",
        "most recently seen first"
    );
    let arxiv = store
        .links(&LinkQuery {
            source: Some(LinkSource::Arxiv),
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(arxiv[0].score.as_deref(), Some("HIGH"));
    let by_text = store
        .links(&LinkQuery {
            text: Some("connexion".into()),
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(by_text.len(), 1);
    let by_request = store
        .links(&LinkQuery {
            history_id: Some(h),
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(by_request.len(), 2);
}

#[tokio::test]
async fn a_mark_counts_exactly_the_posts_first_stored_after_it() {
    let (store, _dir) = temp_store().await;
    let empty = store.archive_mark().await.unwrap();
    store
        .archive_posts(
            day(1),
            &[post("1", "one", day(1)), post("2", "two", day(1))],
        )
        .await
        .unwrap();
    let mark = store.archive_mark().await.unwrap();
    // "2" again (its newer copy replaces the row, which keeps its place) and "3", new.
    store
        .archive_posts(
            day(2),
            &[post("2", "two, edited", day(1)), post("3", "three", day(2))],
        )
        .await
        .unwrap();
    let asked: Vec<String> = ["2", "3", "3", "absent"].map(String::from).to_vec();
    assert_eq!(store.posts_new_since(mark, &asked).await.unwrap(), 1);
    let all: Vec<String> = ["1", "2", "3"].map(String::from).to_vec();
    assert_eq!(store.posts_new_since(empty, &all).await.unwrap(), 3);
    assert_eq!(store.posts_new_since(mark, &[]).await.unwrap(), 0);
    assert_eq!(
        store
            .posts_new_since(store.archive_mark().await.unwrap(), &all)
            .await
            .unwrap(),
        0
    );
}
