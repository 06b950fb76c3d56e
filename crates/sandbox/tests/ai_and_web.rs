//! AI search, link searches, `/web` and `/web/crawl` over real HTTP.

mod common;

use common::{get, post, sse_events, start};
use serde_json::{json, Value};

#[tokio::test]
async fn ai_search_whole_answer() {
    let sb = start().await;
    let r = post(
        &sb,
        "/service/ai/search",
        &json!({
            "prompt": "What are people saying about bitcoin and inflation?",
            "tools": ["web", "Twitter Search", "reddit", "youtube"],
            "streaming": false,
            "date_filter": "PAST_WEEK",
            "count": 12
        }),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let v = r.json();
    for key in [
        "search",
        "tweets",
        "reddit_search",
        "youtube_search",
        "miner_link_scores",
        "completion",
        "text",
    ] {
        assert!(!v[key].is_null(), "{key} missing");
    }
    for key in ["arxiv_search", "wikipedia_search", "hacker_news_search"] {
        assert!(v.get(key).is_none(), "{key} was not requested");
    }
    assert!(v["tweets"].as_array().unwrap().len() <= 12);
    assert!(!v["tweets"].as_array().unwrap().is_empty());
    let week_ago = (common::fixed_now() - chrono::Duration::days(7)).to_rfc3339();
    for t in v["tweets"].as_array().unwrap() {
        assert!(
            t["created_at"].as_str().unwrap() >= &week_ago[..19],
            "date filter honoured"
        );
    }
    let scores = v["miner_link_scores"].as_object().unwrap();
    for item in v["search"].as_array().unwrap() {
        let grade = &scores[item["link"].as_str().unwrap()];
        assert!(["HIGH", "MEDIUM", "LOW"].contains(&grade.as_str().unwrap()));
    }
    for t in v["tweets"].as_array().unwrap() {
        assert!(
            scores.contains_key(t["id"].as_str().unwrap()),
            "posts scored by bare id"
        );
    }
    // The summary cites its sources.
    let summary = v["completion"].as_str().unwrap();
    // The best result of every tool that found something is cited.
    for key in ["search", "reddit_search", "youtube_search"] {
        if let Some(best) = v[key][0]["link"].as_str() {
            assert!(summary.contains(best), "{key} not cited: {summary}");
        }
    }
    let best_post = v["tweets"][0]["id"].as_str().unwrap();
    assert!(
        summary.contains(&format!("/status/{best_post})")),
        "{summary}"
    );
    assert_eq!(r.header("x-service-service"), Some("ai_search"));
    assert_eq!(r.header("x-service-cost-usd"), Some("0.004"));
    assert_eq!(v["cost_usd"], json!(0.004));
}

#[tokio::test]
async fn ai_search_only_links_and_explicit_dates() {
    let sb = start().await;
    let v = post(
        &sb,
        "/service/ai/search",
        &json!({
            "prompt": "solar power",
            "tools": ["twitter"],
            "streaming": false,
            "result_type": "ONLY_LINKS",
            "start_date": "2025-06-01T00:00:00Z",
            "end_date": "2025-06-30T23:59:59Z"
        }),
    )
    .await
    .json();
    assert!(v.get("completion").is_none());
    let tweets = v["tweets"].as_array().unwrap();
    assert!(!tweets.is_empty());
    for t in tweets {
        let d = t["created_at"].as_str().unwrap();
        assert!(("2025-06-01".."2025-07-01").contains(&d), "{d}");
    }
}

#[tokio::test]
async fn ai_search_stream_events() {
    let sb = start().await;
    let r = post(
        &sb,
        "/service/ai/search",
        &json!({
            "prompt": "open-weight language models",
            "tools": ["web", "twitter", "arxiv"],
            "streaming": true,
            "date_filter": "PAST_MONTH"
        }),
    )
    .await;
    assert_eq!(r.status, 200);
    assert!(r
        .header("content-type")
        .unwrap()
        .starts_with("text/event-stream"));
    assert_eq!(r.header("x-service-cost-usd"), Some("0.004"));
    let events = sse_events(&r.text);
    let types: Vec<&str> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
    let mut tools: Vec<&str> = types
        .iter()
        .copied()
        .filter(|t| ["search", "tweets", "arxiv_search"].contains(t))
        .collect();
    tools.sort();
    assert_eq!(
        tools,
        ["arxiv_search", "search", "tweets"],
        "each tool once"
    );
    let scores_at = types
        .iter()
        .position(|t| *t == "miner_link_scores")
        .unwrap();
    let first_text = types.iter().position(|t| *t == "text").unwrap();
    assert!(scores_at < first_text);
    assert_eq!(*types.last().unwrap(), "completion");
    assert!(
        types.iter().filter(|t| **t == "text").count() > 10,
        "many small deltas"
    );
    let joined: String = events
        .iter()
        .filter(|e| e["type"] == "text")
        .map(|e| {
            assert_eq!(e["role"], "summary");
            e["content"].as_str().unwrap()
        })
        .collect();
    assert_eq!(
        joined,
        events.last().unwrap()["content"].as_str().unwrap(),
        "deltas add up to the completion"
    );
    // No billing in stream bodies.
    assert!(!r.text.contains("cost_usd"));

    let summary_first = post(&sb, "/service/ai/search", &json!({
        "prompt": "open-weight language models", "tools": ["web"], "streaming": true, "response_order": "SUMMARY_FIRST"
    })).await;
    let types: Vec<String> = sse_events(&summary_first.text)
        .iter()
        .map(|e| e["type"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(types[0], "text");
    assert_eq!(types.last().unwrap(), "completion");
}

#[tokio::test]
async fn streaming_is_the_default() {
    let sb = start().await;
    let r = post(
        &sb,
        "/service/ai/search",
        &json!({ "prompt": "football transfer", "tools": ["reddit"] }),
    )
    .await;
    assert!(r
        .header("content-type")
        .unwrap()
        .starts_with("text/event-stream"));
    assert!(!sse_events(&r.text).is_empty());
}

#[tokio::test]
async fn link_searches() {
    let sb = start().await;
    let r = post(
        &sb,
        "/service/ai/search/links/web",
        &json!({ "prompt": "heat pumps and solar", "tools": ["web", "wikipedia"], "count": 10 }),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let v = r.json();
    for key in [
        "search_results",
        "youtube_search_results",
        "hacker_news_search_results",
        "reddit_search_results",
        "arxiv_search_results",
        "wikipedia_search_results",
    ] {
        assert!(v.get(key).is_some(), "{key}");
    }
    assert!(!v["search_results"].as_array().unwrap().is_empty());
    assert!(v["youtube_search_results"].is_null());
    assert_eq!(r.header("x-service-service"), Some("ai_links_web"));
    assert_eq!(v["usage_count"], 1);

    let r = post(
        &sb,
        "/service/ai/search/links/twitter",
        &json!({ "prompt": "Champions League", "count": 15 }),
    )
    .await;
    let v = r.json();
    let tweets = v["miner_tweets"].as_array().unwrap();
    assert_eq!(tweets.len(), 15);
    assert_eq!(r.header("x-service-service"), Some("ai_links_x"));
}

#[tokio::test]
async fn web_search_pages_and_crawl() {
    let sb = start().await;
    let r = get(&sb, "/web", &[("query", "battery storage")]).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("x-service-service"), Some("web_search"));
    assert_eq!(r.header("x-service-cost-usd"), Some("0.0025"));
    let page1 = r.json();
    let data = page1["data"].as_array().unwrap();
    assert_eq!(data.len(), 10);
    assert!(data
        .iter()
        .all(|d| d["link"].as_str().unwrap().starts_with("https://")));
    let page2 = get(
        &sb,
        "/web",
        &[("query", "battery storage"), ("start", "10")],
    )
    .await
    .json();
    assert_ne!(page1["data"][0], page2["data"][0]);

    let link = data[0]["link"].as_str().unwrap().to_string();
    let text = get(&sb, "/web/crawl", &[("url", &link)]).await;
    assert_eq!(text.status, 200);
    assert!(text
        .header("content-type")
        .unwrap()
        .starts_with("text/plain"));
    assert!(text.text.starts_with(data[0]["title"].as_str().unwrap()));
    assert_eq!(text.header("x-service-service"), Some("web_crawl"));
    let html = get(&sb, "/web/crawl", &[("url", &link), ("format", "html")]).await;
    assert!(html.text.contains("<h1>") && html.text.contains("</html>"));
    assert_eq!(
        get(
            &sb,
            "/web/crawl",
            &[("url", "https://nowhere.example/page")]
        )
        .await
        .status,
        404
    );
    // Every result kind points into the same web.
    let yt: Value = post(
        &sb,
        "/service/ai/search/links/web",
        &json!({ "prompt": "space telescope", "tools": ["youtube"] }),
    )
    .await
    .json();
    let yt_link = yt["youtube_search_results"][0]["link"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(yt_link.starts_with("https://www.youtube.com/watch?v="));
    assert_eq!(
        get(&sb, "/web/crawl", &[("url", &yt_link)]).await.status,
        200
    );
}

#[tokio::test]
async fn ai_search_honours_count_per_tool() {
    let sb = start().await;
    for count in [10, 25] {
        let v = post(&sb, "/service/ai/search", &json!({
            "prompt": "bitcoin inflation markets", "tools": ["web", "twitter"], "streaming": false,
            "date_filter": "PAST_2_YEARS", "count": count, "result_type": "ONLY_LINKS"
        })).await.json();
        assert_eq!(v["search"].as_array().unwrap().len(), count);
        assert_eq!(v["tweets"].as_array().unwrap().len(), count);
        assert_eq!(v["miner_link_scores"].as_object().unwrap().len(), 2 * count);
    }
}

/// The answer is about what was asked: its summary names, and its sources come from, only the
/// topics the question touches ("the energy market" is not football's transfer market).
#[tokio::test]
async fn ai_answers_stay_on_the_question() {
    let sb = start().await;
    let w = sb.world();
    let topic_key = |t: u8| sightline_sandbox::world::corpus::TOPICS[t as usize].key;
    let r = post(
        &sb,
        "/service/ai/search",
        &json!({
            "prompt": "How are wind farms changing the energy market?",
            "tools": ["web", "twitter", "reddit", "youtube", "wikipedia"],
            "streaming": false,
            "date_filter": "PAST_MONTH",
        }),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let v = r.json();
    let summary = v["completion"].as_str().unwrap();
    assert!(
        summary.contains("results about climate and energy in the past month"),
        "{summary}"
    );
    assert!(!summary.contains("football"), "{summary}");
    let mut sources = 0;
    for key in [
        "search",
        "reddit_search",
        "youtube_search",
        "wikipedia_search",
    ] {
        for item in v[key].as_array().unwrap() {
            let link = item["link"].as_str().unwrap();
            let page = &w.pages[w.page_by_link[link] as usize];
            assert_eq!(topic_key(page.topic), "climate", "{link}");
            sources += 1;
        }
    }
    for t in v["tweets"].as_array().unwrap() {
        let post = &w.posts[w.post_with_id(t["id"].as_str().unwrap()).unwrap() as usize];
        assert_eq!(topic_key(post.topic), "climate", "{}", t["text"]);
        sources += 1;
    }
    assert!(sources >= 20, "{sources} sources");

    // A question naming no topic falls back to the closest one, never to unrelated ones.
    let r = post(
        &sb,
        "/service/ai/search",
        &json!({ "prompt": "Ariane", "tools": ["twitter"], "streaming": false, "date_filter": "PAST_YEAR" }),
    )
    .await;
    let v = r.json();
    let tweets = v["tweets"].as_array().unwrap();
    assert!(!tweets.is_empty(), "{}", r.text);
    for t in tweets {
        let post = &w.posts[w.post_with_id(t["id"].as_str().unwrap()).unwrap() as usize];
        assert_eq!(topic_key(post.topic), "space", "{}", t["text"]);
    }
    assert!(v["completion"]
        .as_str()
        .unwrap()
        .contains("about space exploration"));
}
