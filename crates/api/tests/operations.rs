//! Every operation against the sandbox: happy path, billing, ETags and pagination.

mod common;

use std::sync::Arc;

use rust_decimal::Decimal;
use sightline_api::request::*;
use sightline_api::{ApiError, Charge, Operation};

use common::pages::Pages;
use common::*;

fn assert_billed(billing: &Option<Charge>, units: u64) {
    let b = billing.as_ref().expect("billing headers present");
    assert_eq!(b.usage_count, units, "{b:?}");
    assert_eq!(b.currency, "USD");
    assert!(!b.service.is_empty());
    if units > 0 {
        assert!(b.cost_usd > Some(Decimal::ZERO), "{b:?}");
    }
}

#[tokio::test]
async fn every_operation_answers_typed_and_billed() {
    let sb = sandbox().await;
    let c = client(&sb);
    let k = key(&sb);
    let (post_id, author) = post_with_reposts(&sb);

    let r = c
        .send(
            &AiSearchRequest::new(
                "rust programming",
                &[Tool::Web, Tool::Twitter, Tool::Reddit],
            ),
            &k,
        )
        .await
        .unwrap();
    assert_eq!(r.operation, Operation::AiSearch);
    assert!(r.body.completion.is_some(), "{:?}", r.raw);
    assert_billed(&r.billing, 1);
    assert_eq!(r.billing_issue, None, "body and header billing agree");

    let r = c
        .send(
            &LinksWebRequest {
                prompt: "climate".into(),
                tools: vec!["web".into(), "wikipedia".into()],
                count: 10,
            },
            &k,
        )
        .await
        .unwrap();
    assert!(r.body.search_results.is_some() || r.body.wikipedia_search_results.is_some());
    assert_billed(&r.billing, 1);
    assert_eq!(r.billing_issue, None);

    let r = c
        .send(
            &LinksTwitterRequest {
                prompt: "football".into(),
                count: 10,
            },
            &k,
        )
        .await
        .unwrap();
    assert_billed(&r.billing, 1);
    assert_eq!(r.billing_issue, None);

    let r = c
        .send(
            &TwitterPostRequest {
                id: post_id.clone(),
            },
            &k,
        )
        .await
        .unwrap();
    assert_eq!(r.body.id, post_id);
    assert!(
        r.body.created_at_utc().is_some(),
        "created_at parses: {}",
        r.body.created_at
    );
    assert_billed(&r.billing, 1);
    let url = r
        .body
        .url
        .clone()
        .unwrap_or_else(|| format!("https://x.com/{author}/status/{post_id}"));

    let word = r
        .body
        .text
        .split(|c: char| !c.is_alphanumeric())
        .find(|w| w.len() > 4)
        .unwrap_or("news")
        .to_owned();
    let r = c
        .send(
            &TwitterSearchRequest {
                count: 5,
                ..TwitterSearchRequest::new(word)
            },
            &k,
        )
        .await
        .unwrap();
    assert!(!r.body.0.is_empty() && r.body.0.len() <= 5);
    assert_billed(&r.billing, r.body.0.len() as u64);

    let r = c
        .send(&TwitterUrlsRequest { urls: vec![url] }, &k)
        .await
        .unwrap();
    assert_eq!(r.body.0.len(), 1);
    assert_eq!(r.body.0[0].id, post_id);

    let r = c
        .send(
            &TwitterPostUserRequest {
                user: format!("@{author}"),
                count: 3,
                ..Default::default()
            },
            &k,
        )
        .await
        .unwrap();
    assert!(r.body.0.len() <= 3);
    assert_billed(&r.billing, r.body.0.len() as u64);

    let r = c
        .send(
            &TwitterRetweetersRequest {
                id: post_id.clone(),
                cursor: None,
            },
            &k,
        )
        .await
        .unwrap();
    assert!(!r.body.users.is_empty());
    assert_billed(&r.billing, r.body.users.len() as u64);

    let r = c
        .send(
            &TwitterUserPostsRequest {
                username: busy_user(&sb),
                cursor: None,
            },
            &k,
        )
        .await
        .unwrap();
    assert!(r.body.user.is_some());
    assert!(!r.body.tweets.is_empty());

    let r = c
        .send(
            &TwitterRepliesRequest {
                user: author.clone(),
                ..Default::default()
            },
            &k,
        )
        .await
        .unwrap();
    assert!(r.body.0.len() <= 10);

    let r = c
        .send(
            &TwitterRepliesPostRequest {
                post_id: post_with_replies(&sb),
                count: 5,
                ..Default::default()
            },
            &k,
        )
        .await
        .unwrap();
    assert!(!r.body.0.is_empty());

    let r = c.send(&TwitterTrendsRequest::default(), &k).await.unwrap();
    assert_eq!(r.body.trends.len(), 30);
    assert_eq!(r.body.woeid.as_ref().map(|w| w.id), Some(1));

    let r = c
        .send(
            &WebSearchRequest {
                query: "energy".into(),
                start: 0,
            },
            &k,
        )
        .await
        .unwrap();
    assert!(matches!(r.status, 200 | 201));
    let results = r.body.data.clone().unwrap_or_default();
    assert!(!results.is_empty());
    assert_billed(&r.billing, 1);

    let r = c
        .send(
            &WebCrawlRequest {
                url: results[0].link.clone(),
                format: CrawlFormat::Text,
            },
            &k,
        )
        .await
        .unwrap();
    assert!(!r.body.is_empty());
    assert_eq!(r.body, r.raw);
    assert_billed(&r.billing, 1);
}

#[tokio::test]
async fn invalid_requests_are_never_sent() {
    let sb = sandbox().await;
    let c = client(&sb);
    let k = key(&sb);
    // A 500 queued on the route would surface if the request were sent.
    sb.faults().push(
        "/twitter",
        sightline_sandbox::Fault::Status {
            status: 500,
            body: None,
            headers: Default::default(),
        },
    );
    let err = c
        .send(
            &TwitterSearchRequest {
                count: 0,
                ..TwitterSearchRequest::new("")
            },
            &k,
        )
        .await
        .unwrap_err();
    let ApiError::Validation { fields } = err else {
        panic!("{err:?}")
    };
    let names: Vec<_> = fields.iter().map(|f| f.field.as_str()).collect();
    assert_eq!(names, ["query", "count"]);
    assert_eq!(
        sb.faults().pending().get("/twitter").map(Vec::len),
        Some(1),
        "nothing reached the server"
    );
}

#[tokio::test]
async fn etag_revalidation_serves_the_cached_copy_unbilled() {
    let sb = sandbox().await;
    let cache = Arc::new(MemoryCache::default());
    let c = client(&sb).with_etag_cache(cache.clone());
    let k = key(&sb);
    let req = TwitterTrendsRequest::default();
    let first = c.send(&req, &k).await.unwrap();
    assert!(!first.from_cache);
    assert!(first.etag.is_some());
    assert!(first.billing.is_some());
    let stored = cache
        .entries
        .lock()
        .unwrap()
        .keys()
        .cloned()
        .collect::<Vec<_>>();
    assert_eq!(stored, vec![first.url.clone()]);
    assert!(!first.url.contains(sb.demo_key()), "cache key holds no key");

    let second = c.send(&req, &k).await.unwrap();
    assert!(second.from_cache);
    assert_eq!(second.status, 304);
    assert_eq!(second.billing, None, "a 304 costs nothing");
    assert_eq!(second.body, first.body);
    assert_eq!(second.raw, first.raw);
}

#[tokio::test]
async fn reposters_pages_follow_the_cursor_to_the_end() {
    let sb = sandbox().await;
    let c = client(&sb);
    let k = key(&sb);
    let (post_id, _) = post_with_reposts(&sb);
    let expected = {
        let w = sb.world();
        let index = w.post_with_id(&post_id).unwrap() as usize;
        w.retweets_of[index].len()
    };
    let mut pages = Pages::new(
        &c,
        TwitterRetweetersRequest {
            id: post_id.clone(),
            cursor: None,
        },
        &k,
        100,
    );
    let mut users = Vec::new();
    let mut billed = 0;
    while let Some(page) = pages.next_page().await {
        let page = page.unwrap();
        billed += page.billing.as_ref().unwrap().usage_count;
        users.extend(page.body.users.into_iter().map(|u| u.id));
    }
    assert!(!pages.stopped_at_cap());
    assert_eq!(users.len(), expected);
    assert_eq!(billed as usize, expected, "each page bills its own users");
    users.sort();
    users.dedup();
    assert_eq!(users.len(), expected, "no user twice");

    // With a cap of one page, we stop early and know there is more.
    let mut capped = Pages::new(
        &c,
        TwitterRetweetersRequest {
            id: post_id,
            cursor: None,
        },
        &k,
        1,
    );
    let first = capped.next_page().await.unwrap().unwrap();
    assert!(capped.next_page().await.is_none());
    if first.body.next_cursor.is_some() {
        assert!(capped.stopped_at_cap());
        assert_eq!(capped.next_cursor(), first.body.next_cursor.as_deref());
    }
}

#[tokio::test]
async fn user_posts_pages_follow_the_cursor() {
    let sb = sandbox().await;
    let c = client(&sb);
    let k = key(&sb);
    let username = busy_user(&sb);
    let mut pages = Pages::new(
        &c,
        TwitterUserPostsRequest {
            username,
            cursor: None,
        },
        &k,
        3,
    );
    let mut count = 0;
    let mut ids = Vec::new();
    while let Some(page) = pages.next_page().await {
        let page = page.unwrap();
        assert!(page.billing.is_some());
        ids.extend(page.body.tweets.iter().map(|t| t.id.clone()));
        count += 1;
    }
    assert!(count >= 2, "a busy timeline spans several pages");
    assert!(count <= 3);
    let before = ids.len();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), before, "pages do not overlap");
}
