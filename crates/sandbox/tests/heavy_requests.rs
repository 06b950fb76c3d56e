//! Limits that protect the server: queries and prompts have a maximum length (422 in
//! pydantic's shape), URLs and bodies a maximum size (414, 413), and the search work runs off
//! the async workers, so that requests at the limit never hold up a cheap one.

mod common;

use common::{get, post, post_raw, start};
use serde_json::json;
use sightline_sandbox::validate::{MAX_PROMPT_CHARS, MAX_QUERY_CHARS};
use std::time::{Duration, Instant};

/// The most work a `/twitter` query of the maximum length can ask for: only negated words,
/// so no index narrows the search, ranked by engagement, so every post is checked against
/// every word (several seconds in a debug build).
fn heaviest_query() -> String {
    let mut seed: u64 = 0x2545_F491_4F6C_DD1D;
    let mut query = String::new();
    loop {
        let word: String = (0..6)
            .map(|_| {
                seed = seed
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                char::from(b'a' + (seed >> 33) as u8 % 26)
            })
            .collect();
        let term = format!(" -{word}");
        if query.len() + term.len() > MAX_QUERY_CHARS {
            return query.trim_start().to_string();
        }
        query.push_str(&term);
    }
}

fn runtime(workers: usize) -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(workers)
        .enable_all()
        .build()
        .expect("runtime")
}

/// Two requests at the limit are in flight and a cheap one still answers at once. The server
/// runs on a runtime of its own with two workers, as in the app's demo mode; the client on
/// another, so that what is measured is the server's answer, not the client's own wait.
#[test]
fn a_cheap_request_is_not_held_up_by_heavy_ones() {
    let server = runtime(2);
    let sb = std::sync::Arc::new(server.block_on(start()));
    runtime(2).block_on(async {
        let id = sb.world().posts[1_000].id.to_string();
        let cheap = [("id", id.as_str())];
        // The first request of a sandbox builds its caches: not what is measured.
        assert_eq!(get(&sb, "/twitter/post", &cheap).await.status, 200);

        let query = heaviest_query();
        assert!(query.chars().count() > MAX_QUERY_CHARS - 8);
        let heavy: Vec<_> = (0..2)
            .map(|_| {
                let (sb, query) = (sb.clone(), query.clone());
                tokio::spawn(async move {
                    let q = [("query", query.as_str()), ("sort", "Top"), ("count", "100")];
                    get(&sb, "/twitter", &q).await
                })
            })
            .collect();
        // Let both heavy requests reach the server and start.
        tokio::time::sleep(Duration::from_millis(100)).await;

        let started = Instant::now();
        let r = get(&sb, "/twitter/post", &cheap).await;
        let latency = started.elapsed();
        assert_eq!(r.status, 200);
        assert!(
            latency < Duration::from_millis(100),
            "a cheap request took {latency:?} behind two heavy ones"
        );
        assert!(
            heavy.iter().all(|h| !h.is_finished()),
            "the heavy requests ended before the cheap one was measured"
        );
        for h in heavy {
            let r = h.await.unwrap();
            assert_eq!(r.status, 200, "{}", r.text);
        }
    });
}

#[tokio::test]
async fn queries_and_prompts_have_a_maximum_length() {
    let sb = start().await;
    let at_limit = "a".repeat(MAX_QUERY_CHARS);
    let over = "a".repeat(MAX_QUERY_CHARS + 1);
    for path in ["/twitter", "/web"] {
        assert_eq!(get(&sb, path, &[("query", &at_limit)]).await.status, 200);
        let r = get(&sb, path, &[("query", &over)]).await;
        assert_eq!(r.status, 422, "{path}");
        assert_eq!(
            r.json()["detail"][0],
            json!({ "type": "string_too_long", "loc": ["query", "query"],
                "msg": format!("String should have at most {MAX_QUERY_CHARS} characters"),
                "input": over, "ctx": { "max_length": MAX_QUERY_CHARS } })
        );
    }
    let name = sb.world().users[0].username.clone();
    for (path, key, value) in [
        ("/twitter/post/user", "user", name.clone()),
        ("/twitter/replies", "user", name),
        (
            "/twitter/replies/post",
            "post_id",
            sb.world().posts[0].id.to_string(),
        ),
    ] {
        let r = get(&sb, path, &[(key, &value), ("query", &over)]).await;
        assert_eq!(r.status, 422, "{path}");
        assert_eq!(r.json()["detail"][0]["type"], "string_too_long");
    }
    // Characters, not bytes: a Japanese query at the limit is accepted.
    let japanese = "宇".repeat(MAX_QUERY_CHARS);
    assert_eq!(
        get(&sb, "/twitter", &[("query", &japanese)]).await.status,
        200
    );

    let prompt_over = "a ".repeat(MAX_PROMPT_CHARS / 2 + 1);
    for path in [
        "/service/ai/search",
        "/service/ai/search/links/web",
        "/service/ai/search/links/twitter",
    ] {
        let r = post(
            &sb,
            path,
            &json!({ "prompt": prompt_over, "tools": ["web"], "streaming": false }),
        )
        .await;
        assert_eq!(r.status, 422, "{path}");
        let d = &r.json()["detail"][0];
        assert_eq!(d["type"], "string_too_long");
        assert_eq!(d["loc"], json!(["body", "prompt"]));
        assert_eq!(d["ctx"], json!({ "max_length": MAX_PROMPT_CHARS }));
    }
    let r = post(
        &sb,
        "/service/ai/search",
        &json!({ "prompt": "solar", "tools": ["web"], "streaming": false,
            "system_message": prompt_over }),
    )
    .await;
    assert_eq!(r.status, 422);
    assert_eq!(
        r.json()["detail"][0]["loc"],
        json!(["body", "system_message"])
    );
    assert!(r.header("x-service-cost-usd").is_none());
}

#[tokio::test]
async fn urls_and_bodies_have_a_maximum_size() {
    let sb = start().await;
    // A URL longer than servers read: 414, before anything else.
    let long = "x".repeat(20_000);
    let r = get(&sb, "/twitter/post", &[("id", &long)]).await;
    assert_eq!(r.status, 414, "{}", r.text);
    assert_eq!(r.json(), json!({ "detail": "URI Too Long" }));
    // A body far beyond any valid request: 413.
    let body = json!({ "prompt": "solar", "tools": ["web"], "padding": "x".repeat(100_000) });
    let r = post_raw(
        &sb,
        "/service/ai/search",
        body.to_string(),
        Some(sb.demo_key()),
    )
    .await;
    assert_eq!(r.status, 413, "{}", r.text);
    assert_eq!(r.json(), json!({ "detail": "Request body too large" }));
}
