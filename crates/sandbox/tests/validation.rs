//! Every 422 rule, with FastAPI-shaped bodies naming `loc`, `msg` and `type`.

mod common;

use common::{get, post, post_raw, start};
use serde_json::{json, Value};

fn detail(v: &Value) -> Vec<(String, Value, String)> {
    v["detail"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            assert!(d["msg"].as_str().is_some_and(|m| !m.is_empty()));
            assert!(d.get("input").is_some());
            (
                d["type"].as_str().unwrap().to_string(),
                d["loc"].clone(),
                d["msg"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

async fn expect_422(
    sb: &sightline_sandbox::Sandbox,
    path: &str,
    q: &[(&str, &str)],
    kind: &str,
    field: &str,
) {
    let r = get(sb, path, q).await;
    assert_eq!(r.status, 422, "{path} {q:?}: {}", r.text);
    let d = detail(&r.json());
    assert!(
        d.iter()
            .any(|(t, loc, _)| t == kind && *loc == json!(["query", field])),
        "{path} {q:?}: {d:?}"
    );
    assert!(r.header("x-service-cost-usd").is_none());
}

#[tokio::test]
async fn query_rules() {
    let sb = start().await;
    let s = &sb;
    // Missing required fields.
    for (path, field) in [
        ("/twitter", "query"),
        ("/twitter/urls", "urls"),
        ("/twitter/post", "id"),
        ("/twitter/post/user", "user"),
        ("/twitter/post/retweeters", "id"),
        ("/twitter/user/posts", "username"),
        ("/twitter/replies", "user"),
        ("/twitter/replies/post", "post_id"),
        ("/twitter/trends", "woeid"),
        ("/web", "query"),
        ("/web/crawl", "url"),
    ] {
        expect_422(s, path, &[], "missing", field).await;
    }
    // count ranges.
    expect_422(
        s,
        "/twitter",
        &[("query", "a"), ("count", "0")],
        "greater_than_equal",
        "count",
    )
    .await;
    expect_422(
        s,
        "/twitter",
        &[("query", "a"), ("count", "101")],
        "less_than_equal",
        "count",
    )
    .await;
    expect_422(
        s,
        "/twitter",
        &[("query", "a"), ("count", "ten")],
        "int_parsing",
        "count",
    )
    .await;
    for path in ["/twitter/post/user", "/twitter/replies"] {
        expect_422(
            s,
            path,
            &[("user", "a"), ("count", "0")],
            "greater_than_equal",
            "count",
        )
        .await;
        expect_422(
            s,
            path,
            &[("user", "a"), ("count", "101")],
            "less_than_equal",
            "count",
        )
        .await;
    }
    expect_422(
        s,
        "/twitter/replies/post",
        &[("post_id", "1"), ("count", "101")],
        "less_than_equal",
        "count",
    )
    .await;
    expect_422(
        s,
        "/twitter/trends",
        &[("woeid", "1"), ("count", "29")],
        "greater_than_equal",
        "count",
    )
    .await;
    expect_422(
        s,
        "/twitter/trends",
        &[("woeid", "1"), ("count", "101")],
        "less_than_equal",
        "count",
    )
    .await;
    expect_422(
        s,
        "/web",
        &[("query", "a"), ("start", "101")],
        "less_than_equal",
        "start",
    )
    .await;
    // sort, types, enums.
    expect_422(
        s,
        "/twitter",
        &[("query", "a"), ("sort", "Best")],
        "string_pattern_mismatch",
        "sort",
    )
    .await;
    expect_422(
        s,
        "/twitter",
        &[("query", "a"), ("verified", "maybe")],
        "bool_parsing",
        "verified",
    )
    .await;
    expect_422(
        s,
        "/twitter",
        &[("query", "a"), ("min_likes", "lots")],
        "int_parsing",
        "min_likes",
    )
    .await;
    expect_422(
        s,
        "/twitter",
        &[("query", "a"), ("start_date", "01/02/2025")],
        "value_error",
        "start_date",
    )
    .await;
    expect_422(
        s,
        "/twitter/trends",
        &[("woeid", "world")],
        "int_parsing",
        "woeid",
    )
    .await;
    expect_422(
        s,
        "/twitter/trends",
        &[("woeid", "999")],
        "value_error",
        "woeid",
    )
    .await;
    expect_422(
        s,
        "/web/crawl",
        &[("url", "https://a.example/"), ("format", "pdf")],
        "enum",
        "format",
    )
    .await;
    expect_422(
        s,
        "/web/crawl",
        &[("url", "not a url")],
        "url_parsing",
        "url",
    )
    .await;
    expect_422(
        s,
        "/twitter/user/posts",
        &[("username", "a"), ("cursor", "forged")],
        "value_error",
        "cursor",
    )
    .await;

    // All problems at once, with pydantic's wording and ctx.
    let r = get(s, "/twitter", &[("count", "500"), ("sort", "latest")]).await;
    let v = r.json();
    assert_eq!(v["detail"].as_array().unwrap().len(), 3);
    let sort = v["detail"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["loc"] == json!(["query", "sort"]))
        .unwrap();
    assert_eq!(sort["msg"], "String should match pattern '^(Top|Latest)$'");
    assert_eq!(sort["ctx"], json!({ "pattern": "^(Top|Latest)$" }));
    let count = v["detail"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["loc"] == json!(["query", "count"]))
        .unwrap();
    assert_eq!(count["msg"], "Input should be less than or equal to 100");
    assert_eq!(count["ctx"], json!({ "le": 100 }));
    assert_eq!(count["input"], "500");
    let missing = v["detail"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["type"] == "missing")
        .unwrap();
    assert_eq!(missing["msg"], "Field required");
}

#[tokio::test]
async fn body_rules() {
    let sb = start().await;
    let s = &sb;
    let ai = "/service/ai/search";
    let cases: Vec<(&str, Value, &str, Value)> = vec![
        (
            ai,
            json!({ "tools": ["web"] }),
            "missing",
            json!(["body", "prompt"]),
        ),
        (
            ai,
            json!({ "prompt": "a" }),
            "missing",
            json!(["body", "tools"]),
        ),
        (
            ai,
            json!({ "prompt": 5, "tools": ["web"] }),
            "string_type",
            json!(["body", "prompt"]),
        ),
        (
            ai,
            json!({ "prompt": "a", "tools": "web" }),
            "list_type",
            json!(["body", "tools"]),
        ),
        (
            ai,
            json!({ "prompt": "a", "tools": ["web", 3] }),
            "string_type",
            json!(["body", "tools", 1]),
        ),
        (
            ai,
            json!({ "prompt": "a", "tools": ["tiktok"] }),
            "enum",
            json!(["body", "tools", 0]),
        ),
        (
            ai,
            json!({ "prompt": "a", "tools": [] }),
            "too_short",
            json!(["body", "tools"]),
        ),
        (
            ai,
            json!({ "prompt": "a", "tools": ["web"], "count": 9 }),
            "greater_than_equal",
            json!(["body", "count"]),
        ),
        (
            ai,
            json!({ "prompt": "a", "tools": ["web"], "count": 201 }),
            "less_than_equal",
            json!(["body", "count"]),
        ),
        (
            ai,
            json!({ "prompt": "a", "tools": ["web"], "count": 10.5 }),
            "int_from_float",
            json!(["body", "count"]),
        ),
        (
            ai,
            json!({ "prompt": "a", "tools": ["web"], "count": "many" }),
            "int_parsing",
            json!(["body", "count"]),
        ),
        (
            ai,
            json!({ "prompt": "a", "tools": ["web"], "streaming": "sometimes" }),
            "bool_parsing",
            json!(["body", "streaming"]),
        ),
        (
            ai,
            json!({ "prompt": "a", "tools": ["web"], "date_filter": "YESTERDAY" }),
            "enum",
            json!(["body", "date_filter"]),
        ),
        (
            ai,
            json!({ "prompt": "a", "tools": ["web"], "result_type": "ALL" }),
            "enum",
            json!(["body", "result_type"]),
        ),
        (
            ai,
            json!({ "prompt": "a", "tools": ["web"], "model": "GPT" }),
            "enum",
            json!(["body", "model"]),
        ),
        (
            ai,
            json!({ "prompt": "a", "tools": ["web"], "response_order": "RANDOM" }),
            "enum",
            json!(["body", "response_order"]),
        ),
        (
            ai,
            json!({ "prompt": "a", "tools": ["web"], "start_date": "2025-01-01" }),
            "value_error",
            json!(["body", "start_date"]),
        ),
        (
            "/service/ai/search/links/web",
            json!({ "prompt": "a", "tools": ["twitter"] }),
            "enum",
            json!(["body", "tools", 0]),
        ),
        (
            "/service/ai/search/links/web",
            json!({ "prompt": "a" }),
            "missing",
            json!(["body", "tools"]),
        ),
        (
            "/service/ai/search/links/twitter",
            json!({ "count": 10 }),
            "missing",
            json!(["body", "prompt"]),
        ),
        (
            "/service/ai/search/links/twitter",
            json!({ "prompt": "a", "count": 500 }),
            "less_than_equal",
            json!(["body", "count"]),
        ),
    ];
    for (path, body, kind, loc) in cases {
        let r = post(s, path, &body).await;
        assert_eq!(r.status, 422, "{path} {body}: {}", r.text);
        let d = detail(&r.json());
        assert!(
            d.iter().any(|(t, l, _)| t == kind && *l == loc),
            "{path} {body}: {d:?}"
        );
    }
    // Unreadable bodies.
    let r = post_raw(s, ai, "{\"prompt\": ".to_string(), Some(s.demo_key())).await;
    assert_eq!(r.status, 422);
    assert_eq!(r.json()["detail"][0]["type"], "json_invalid");
    let r = post_raw(s, ai, String::new(), Some(s.demo_key())).await;
    assert_eq!(
        r.json()["detail"][0],
        json!({ "type": "missing", "loc": ["body"], "msg": "Field required", "input": null })
    );
    let r = post_raw(s, ai, "[1, 2]".to_string(), Some(s.demo_key())).await;
    assert_eq!(r.json()["detail"][0]["type"], "model_attributes_type");
    // Lax values pydantic accepts.
    let r = post(
        s,
        ai,
        &json!({ "prompt": "a", "tools": ["Web Search"], "count": "20", "streaming": "false" }),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
}

/// Integers are read as laxly as pydantic reads them: `5.0`, surrounding whitespace and
/// `1_000` are numbers; a fraction that is not zero, or an exponent, is not.
#[tokio::test]
async fn integers_as_lax_as_pydantic() {
    let sb = start().await;
    let s = &sb;
    for count in ["5.0", " 5 ", "5.00", "+5", "05", "0_5"] {
        let r = get(s, "/twitter", &[("query", "bitcoin"), ("count", count)]).await;
        assert_eq!(r.status, 200, "count={count:?}: {}", r.text);
        assert_eq!(r.json().as_array().unwrap().len(), 5, "count={count:?}");
    }
    let r = get(
        s,
        "/twitter",
        &[("query", "bitcoin"), ("min_likes", "1_000")],
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert!(r
        .json()
        .as_array()
        .unwrap()
        .iter()
        .all(|t| t["like_count"].as_u64().unwrap() >= 1_000));

    let unparsable = |input: &str| {
        json!({ "type": "int_parsing", "loc": ["query", "count"], "input": input,
            "msg": "Input should be a valid integer, unable to parse string as an integer" })
    };
    for (count, expected) in [
        ("5.5", unparsable("5.5")),
        ("1e1", unparsable("1e1")),
        ("1__0", unparsable("1__0")),
        (
            "1_000",
            json!({ "type": "less_than_equal", "loc": ["query", "count"], "input": "1_000",
                "msg": "Input should be less than or equal to 100", "ctx": { "le": 100 } }),
        ),
    ] {
        let r = get(s, "/twitter", &[("query", "bitcoin"), ("count", count)]).await;
        assert_eq!(r.status, 422, "count={count:?}: {}", r.text);
        assert_eq!(r.json()["detail"][0], expected, "count={count:?}");
    }
    // The same reading for a number sent as text in a JSON body.
    let r = post(
        s,
        "/service/ai/search/links/twitter",
        &json!({ "prompt": "rockets", "count": " 1_0.0 " }),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
}
