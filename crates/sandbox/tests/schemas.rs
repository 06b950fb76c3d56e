//! Every 200 body validates against the service's record shapes, kept in this repository in
//! `tests/fixtures/record-shapes.json`: the success schema of each operation checked here and
//! the component schemas they reach, taken from the service's published OpenAPI document (as of
//! 2026-11-23; the file's `source` and `refresh` fields say where from and how to regenerate it).

mod common;

use common::{get, post, sse_events, start};
use serde_json::{json, Value};

/// The record shapes, compiled into the test so that it never depends on files outside the
/// repository: `{"operations": {"GET /twitter": {"status", "schema"}}, "components": {...}}`.
const RECORD_SHAPES: &str = include_str!("fixtures/record-shapes.json");

fn record_shapes() -> Value {
    serde_json::from_str(RECORD_SHAPES).expect("record-shapes.json is JSON")
}

/// Validates `instance` against `schema`, resolving `#/components/schemas/...` in the shapes.
struct Checker {
    shapes: Value,
}

impl Checker {
    fn new() -> Checker {
        Checker {
            shapes: record_shapes(),
        }
    }

    fn check_with(&self, schema: &Value, instance: &Value, what: &str) {
        let errors = self.errors(schema, instance);
        assert!(
            errors.is_empty(),
            "{what} does not match its schema:\n{}",
            errors.join("\n")
        );
    }

    fn errors(&self, schema: &Value, instance: &Value) -> Vec<String> {
        // The components sit where an OpenAPI document has them, so `$ref`s resolve unchanged.
        let root = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "components": self.shapes["components"],
            "allOf": [schema],
        });
        let validator = jsonschema::options()
            .with_draft(jsonschema::Draft::Draft202012)
            .should_validate_formats(true)
            .build(&root)
            .expect("schema compiles");
        validator
            .iter_errors(instance)
            .take(5)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect()
    }

    fn check(&self, component: &str, instance: &Value, what: &str) {
        self.check_with(
            &json!({ "$ref": format!("#/components/schemas/{component}") }),
            instance,
            what,
        );
    }

    /// The success (200, or for `/web` 201) JSON schema of an operation.
    fn response_schema(&self, method: &str, path: &str) -> Value {
        let key = format!("{} {path}", method.to_uppercase());
        self.shapes["operations"][key]["schema"].clone()
    }

    fn check_op(&self, method: &str, path: &str, body: &Value) {
        let schema = self.response_schema(method, path);
        assert!(schema.is_object(), "no schema for {method} {path}");
        self.check_with(&schema, body, &format!("{method} {path}"));
    }
}

fn tweets(v: &Value) -> &Vec<Value> {
    v.as_array().expect("array of tweets")
}

#[test]
fn the_checker_rejects_broken_records() {
    let c = Checker::new();
    let tweet = |v: Value| {
        c.errors(
            &json!({ "$ref": "#/components/schemas/TwitterScraperTweet" }),
            &v,
        )
    };
    let good = json!({ "id": "1", "text": "t", "reply_count": 0, "retweet_count": 0, "like_count": 0, "quote_count": 0, "bookmark_count": 0, "created_at": "2026-01-01T00:00:00.000Z" });
    assert!(tweet(good.clone()).is_empty());
    let mut no_id = good.clone();
    no_id.as_object_mut().unwrap().remove("id");
    assert!(!tweet(no_id).is_empty());
    let mut bad_user = good;
    bad_user["user"] = json!({ "id": 5 });
    assert!(!tweet(bad_user).is_empty(), "nested $ref is resolved");
    let link = c.errors(
        &json!({ "$ref": "#/components/schemas/WebSearchResultItem" }),
        &json!({ "title": "t", "snippet": "s", "link": "" }),
    );
    assert!(!link.is_empty());
}

#[tokio::test]
async fn every_x_operation_matches_the_reference() {
    let c = Checker::new();
    let sb = start().await;
    let w = sb.world();
    let q = |path: &'static str, params: Vec<(&'static str, String)>| (path, params);

    // Pick posts that exercise every optional part of the record.
    let quoted = w
        .posts
        .iter()
        .position(|p| p.quote_of.is_some() && !p.media.is_empty())
        .unwrap();
    let linked = w
        .posts
        .iter()
        .position(|p| !p.links.is_empty() && !p.mentions.is_empty())
        .unwrap();
    let reply_root = (0..w.posts.len())
        .find(|&i| w.children[i].len() >= 3)
        .unwrap();
    let retweeted = (0..w.posts.len())
        .find(|&i| w.retweets_of[i].len() > 25)
        .unwrap();
    let (busy, _) = w
        .timelines
        .iter()
        .enumerate()
        .max_by_key(|(_, t)| t.len())
        .unwrap();
    let busy_name = w.users[busy].username.clone();
    let url = |i: usize| {
        format!(
            "https://x.com/{}/status/{}",
            w.users[w.posts[i].author as usize].username, w.posts[i].id
        )
    };

    let cases = vec![
        q(
            "/twitter",
            vec![("query", "bitcoin".into()), ("count", "100".into())],
        ),
        q(
            "/twitter",
            vec![
                ("query", "".into()),
                ("is_video", "true".into()),
                ("sort", "Latest".into()),
            ],
        ),
        q(
            "/twitter/urls",
            vec![("urls", url(quoted)), ("urls", url(linked))],
        ),
        q(
            "/twitter/post",
            vec![("id", w.posts[quoted].id.to_string())],
        ),
        q(
            "/twitter/post/user",
            vec![("user", busy_name.clone()), ("count", "100".into())],
        ),
        q(
            "/twitter/post/retweeters",
            vec![("id", w.posts[retweeted].id.to_string())],
        ),
        q("/twitter/user/posts", vec![("username", busy_name.clone())]),
        q(
            "/twitter/replies",
            vec![("user", busy_name.clone()), ("count", "100".into())],
        ),
        q(
            "/twitter/replies/post",
            vec![
                ("post_id", w.posts[reply_root].id.to_string()),
                ("count", "100".into()),
            ],
        ),
        q(
            "/twitter/trends",
            vec![("woeid", "1".into()), ("count", "100".into())],
        ),
    ];
    for (path, params) in cases {
        let p: Vec<(&str, &str)> = params.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let r = get(&sb, path, &p).await;
        assert_eq!(r.status, 200, "{path}: {}", r.text);
        let body = r.json();
        c.check_op("get", path, &body);
        // The operation schemas of searches allow any object; check each record strictly too.
        if body.is_array() {
            assert!(
                !tweets(&body).is_empty(),
                "{path} returned nothing to check"
            );
            for t in tweets(&body) {
                c.check("TwitterScraperTweet", t, path);
            }
        }
    }
    // The quoted post, the timeline's retweets and the users are complete records.
    let post = get(
        &sb,
        "/twitter/post",
        &[("id", &w.posts[quoted].id.to_string())],
    )
    .await
    .json();
    c.check("TwitterScraperTweet", &post["quote"], "nested quote");
    let timeline = get(&sb, "/twitter/user/posts", &[("username", &busy_name)])
        .await
        .json();
    c.check("XUserPostsResponse", &timeline, "timeline");
}

#[tokio::test]
async fn ai_and_web_operations_match_the_reference() {
    let c = Checker::new();
    let sb = start().await;
    let all_tools = json!([
        "web",
        "hackernews",
        "reddit",
        "wikipedia",
        "youtube",
        "twitter",
        "arxiv"
    ]);

    let r = post(&sb, "/service/ai/search", &json!({ "prompt": "solar power and battery storage", "tools": all_tools, "streaming": false, "date_filter": "PAST_YEAR" })).await;
    let body = r.json();
    c.check_op("post", "/service/ai/search", &body);
    for key in [
        "search",
        "hacker_news_search",
        "reddit_search",
        "youtube_search",
        "wikipedia_search",
        "arxiv_search",
    ] {
        let items = body[key].as_array().unwrap_or_else(|| panic!("{key}"));
        assert!(!items.is_empty(), "{key} empty");
        for item in items {
            c.check("WebSearchResultItem", item, key);
        }
    }
    for t in tweets(&body["tweets"]) {
        c.check("TwitterScraperTweet", t, "ai tweets");
    }
    for v in body["miner_link_scores"].as_object().unwrap().values() {
        assert!(["HIGH", "MEDIUM", "LOW"].contains(&v.as_str().unwrap()));
    }

    // Streamed results carry the same records.
    let r = post(&sb, "/service/ai/search", &json!({ "prompt": "solar power", "tools": ["web", "twitter"], "streaming": true, "date_filter": "PAST_YEAR" })).await;
    for e in sse_events(&r.text) {
        match e["type"].as_str().unwrap() {
            "search" => e["content"]
                .as_array()
                .unwrap()
                .iter()
                .for_each(|i| c.check("WebSearchResultItem", i, "stream search")),
            "tweets" => e["content"]
                .as_array()
                .unwrap()
                .iter()
                .for_each(|t| c.check("TwitterScraperTweet", t, "stream tweets")),
            _ => {}
        }
    }

    let r = post(&sb, "/service/ai/search/links/web", &json!({ "prompt": "space telescope", "tools": ["web", "hackernews", "reddit", "wikipedia", "youtube", "arxiv"], "count": 20 })).await;
    c.check_op("post", "/service/ai/search/links/web", &r.json());
    let r = post(
        &sb,
        "/service/ai/search/links/twitter",
        &json!({ "prompt": "space telescope", "count": 20 }),
    )
    .await;
    c.check_op("post", "/service/ai/search/links/twitter", &r.json());
    let r = get(&sb, "/web", &[("query", "space telescope")]).await;
    c.check_op("get", "/web", &r.json());
    assert!(!r.json()["data"].as_array().unwrap().is_empty());
}

#[tokio::test]
async fn error_bodies_match_the_reference() {
    let c = Checker::new();
    let sb = start().await;
    let r = get(&sb, "/twitter", &[("count", "0")]).await;
    c.check("HTTPValidationError", &r.json(), "422");
    sb.faults().push(
        "/twitter",
        sightline_sandbox::Fault::Status {
            status: 500,
            body: None,
            headers: Default::default(),
        },
    );
    c.check(
        "InternalServerErrorResponse",
        &get(&sb, "/twitter", &[("query", "a")]).await.json(),
        "500",
    );
    sb.faults().push(
        "/twitter",
        sightline_sandbox::Fault::Status {
            status: 301,
            body: None,
            headers: Default::default(),
        },
    );
    let r = common::client()
        .get(format!("{}/twitter?query=a", sb.base_url()))
        .header("Authorization", sb.demo_key())
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 301);
    c.check(
        "MovedPermanentlyResponse",
        &r.json::<Value>().await.unwrap(),
        "301",
    );
    let limited = sightline_sandbox::Sandbox::builder()
        .pace_ms(0)
        .now(common::fixed_now())
        .rate_limit(Some(1))
        .start()
        .await
        .unwrap();
    get(&limited, "/twitter", &[("query", "a")]).await;
    c.check(
        "TooManyRequestsResponse",
        &get(&limited, "/twitter", &[("query", "a")]).await.json(),
        "429",
    );
}
