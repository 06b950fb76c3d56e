//! Validation tables mirroring the server's 422 rules, and the wire encoding.

use super::*;

/// The fields named by a failed validation, in order.
fn fields<R: ApiRequest>(req: &R) -> Vec<String> {
    match req.validate() {
        Ok(()) => Vec::new(),
        Err(errors) => {
            for e in &errors {
                assert!(e.message.ends_with('.'), "plain sentence: {}", e.message);
            }
            errors.into_iter().map(|e| e.field).collect()
        }
    }
}

#[test]
fn ai_search_rules() {
    let ok = AiSearchRequest::new("rust news", &[Tool::Web, Tool::Twitter]);
    assert_eq!(fields(&ok), Vec::<String>::new());

    let cases: Vec<(AiSearchRequest, Vec<&str>)> = vec![
        (AiSearchRequest::default(), vec!["prompt", "tools"]),
        (
            AiSearchRequest {
                prompt: "  ".into(),
                ..ok.clone()
            },
            vec!["prompt"],
        ),
        (
            AiSearchRequest {
                tools: vec![],
                ..ok.clone()
            },
            vec!["tools"],
        ),
        (
            AiSearchRequest {
                tools: vec!["myspace".into()],
                ..ok.clone()
            },
            vec!["tools"],
        ),
        (
            AiSearchRequest {
                count: 9,
                ..ok.clone()
            },
            vec!["count"],
        ),
        (
            AiSearchRequest {
                count: 201,
                ..ok.clone()
            },
            vec!["count"],
        ),
        (
            AiSearchRequest {
                count: 10,
                ..ok.clone()
            },
            vec![],
        ),
        (
            AiSearchRequest {
                count: 200,
                ..ok.clone()
            },
            vec![],
        ),
        (
            AiSearchRequest {
                start_date: Some("2026-01-01".into()),
                ..ok.clone()
            },
            vec!["start_date"],
        ),
        (
            AiSearchRequest {
                end_date: Some("2026-01-01T00:00:00".into()),
                ..ok.clone()
            },
            vec!["end_date"],
        ),
        (
            AiSearchRequest {
                start_date: Some("2026-02-01T00:00:00Z".into()),
                end_date: Some("2026-01-01T00:00:00Z".into()),
                ..ok.clone()
            },
            vec!["end_date"],
        ),
        (
            AiSearchRequest {
                start_date: Some("2026-01-01T00:00:00Z".into()),
                end_date: Some("2026-01-03T00:00:00Z".into()),
                ..ok.clone()
            },
            vec![],
        ),
        (
            AiSearchRequest {
                tools: vec!["Twitter Search".into(), "Web Search".into()],
                ..ok.clone()
            },
            vec![],
        ),
        (
            AiSearchRequest {
                prompt: "".into(),
                tools: vec!["x".into(), "zz".into()],
                count: 0,
                ..ok.clone()
            },
            vec!["prompt", "tools", "count"],
        ),
    ];
    for (req, want) in cases {
        assert_eq!(fields(&req), want, "{req:?}");
    }
}

#[test]
fn links_rules() {
    let ok = LinksWebRequest {
        prompt: "p".into(),
        tools: vec!["web".into()],
        count: 10,
    };
    assert!(ok.validate().is_ok());
    assert_eq!(
        fields(&LinksWebRequest {
            tools: vec!["twitter".into()],
            ..ok.clone()
        }),
        ["tools"]
    );
    assert_eq!(
        fields(&LinksWebRequest {
            count: 300,
            ..ok.clone()
        }),
        ["count"]
    );
    assert_eq!(fields(&LinksWebRequest::default()), ["prompt", "tools"]);
    let tw = LinksTwitterRequest {
        prompt: "p".into(),
        count: 10,
    };
    assert!(tw.validate().is_ok());
    assert_eq!(
        fields(&LinksTwitterRequest {
            count: 5,
            ..tw.clone()
        }),
        ["count"]
    );
    assert_eq!(fields(&LinksTwitterRequest::default()), ["prompt"]);
}

#[test]
fn twitter_search_rules() {
    let ok = TwitterSearchRequest::new("from:nasa moon");
    assert_eq!(ok.count, 20);
    assert_eq!(ok.sort, Sort::Top);
    assert!(ok.validate().is_ok());
    let cases: Vec<(TwitterSearchRequest, Vec<&str>)> = vec![
        (TwitterSearchRequest::default(), vec!["query"]),
        (
            TwitterSearchRequest {
                count: 0,
                ..ok.clone()
            },
            vec!["count"],
        ),
        (
            TwitterSearchRequest {
                count: 101,
                ..ok.clone()
            },
            vec!["count"],
        ),
        (
            TwitterSearchRequest {
                count: 1,
                ..ok.clone()
            },
            vec![],
        ),
        (
            TwitterSearchRequest {
                count: 100,
                ..ok.clone()
            },
            vec![],
        ),
        (
            TwitterSearchRequest {
                start_date: Some("2026/01/01".into()),
                ..ok.clone()
            },
            vec!["start_date"],
        ),
        (
            TwitterSearchRequest {
                end_date: Some("2026-02-30".into()),
                ..ok.clone()
            },
            vec!["end_date"],
        ),
        (
            TwitterSearchRequest {
                start_date: Some("2026-03-01".into()),
                end_date: Some("2026-02-01".into()),
                ..ok.clone()
            },
            vec!["end_date"],
        ),
        (
            TwitterSearchRequest {
                min_likes: Some("ten".into()),
                ..ok.clone()
            },
            vec!["min_likes"],
        ),
        (
            TwitterSearchRequest {
                min_retweets: Some("-1".into()),
                ..ok.clone()
            },
            vec!["min_retweets"],
        ),
        (
            TwitterSearchRequest {
                min_replies: Some("5".into()),
                ..ok.clone()
            },
            vec![],
        ),
        (
            TwitterSearchRequest {
                query: "".into(),
                count: 500,
                min_likes: Some("x".into()),
                ..ok.clone()
            },
            vec!["query", "count", "min_likes"],
        ),
    ];
    for (req, want) in cases {
        assert_eq!(fields(&req), want, "{req:?}");
    }
}

#[test]
fn sort_other_than_top_or_latest_is_refused_at_the_boundary() {
    let bad = serde_json::from_str::<TwitterSearchRequest>(r#"{"query":"a","sort":"Newest"}"#);
    assert!(bad.is_err());
    let good: TwitterSearchRequest =
        serde_json::from_str(r#"{"query":"a","sort":"Latest","min_likes":50}"#).unwrap();
    assert_eq!(good.sort, Sort::Latest);
    assert_eq!(good.min_likes.as_deref(), Some("50"));
    assert_eq!(
        good.count, 20,
        "missing fields take the contract's defaults"
    );
}

#[test]
fn other_x_rules() {
    assert_eq!(fields(&TwitterUrlsRequest::default()), ["urls"]);
    let urls = TwitterUrlsRequest {
        urls: vec![
            "https://x.com/nasa/status/1891234567890".into(),
            "https://twitter.com/nasa/status/12".into(),
            "https://example.com/nasa/status/12".into(),
            "https://x.com/nasa".into(),
            "not a url".into(),
        ],
    };
    assert_eq!(fields(&urls), ["urls", "urls", "urls"]);
    assert_eq!(fields(&TwitterPostRequest { id: " ".into() }), ["id"]);
    assert!(TwitterPostRequest { id: "123".into() }.validate().is_ok());
    assert_eq!(fields(&TwitterPostUserRequest::default()), ["user"]);
    assert_eq!(
        fields(&TwitterPostUserRequest {
            user: "a".into(),
            count: 101,
            ..Default::default()
        }),
        ["count"]
    );
    assert_eq!(fields(&TwitterRetweetersRequest::default()), ["id"]);
    assert_eq!(fields(&TwitterUserPostsRequest::default()), ["username"]);
    assert_eq!(
        fields(&TwitterRepliesRequest {
            count: 0,
            ..Default::default()
        }),
        ["user", "count"]
    );
    assert_eq!(
        fields(&TwitterRepliesPostRequest {
            post_id: "1".into(),
            count: 101,
            ..Default::default()
        }),
        ["count"]
    );
    assert!(TwitterTrendsRequest::default().validate().is_ok());
    assert_eq!(
        fields(&TwitterTrendsRequest {
            woeid: None,
            count: 29
        }),
        ["woeid", "count"]
    );
    assert_eq!(
        fields(&TwitterTrendsRequest {
            woeid: Some(1),
            count: 101
        }),
        ["count"]
    );
    assert!(TwitterTrendsRequest {
        woeid: Some(23424977),
        count: 100
    }
    .validate()
    .is_ok());
}

#[test]
fn web_rules() {
    assert_eq!(fields(&WebSearchRequest::default()), ["query"]);
    assert_eq!(
        fields(&WebSearchRequest {
            query: "a".into(),
            start: 101
        }),
        ["start"]
    );
    assert_eq!(
        fields(&WebSearchRequest {
            query: "a".into(),
            start: -1
        }),
        ["start"]
    );
    assert!(WebSearchRequest {
        query: "a".into(),
        start: 100
    }
    .validate()
    .is_ok());
    assert_eq!(fields(&WebCrawlRequest::default()), ["url"]);
    assert_eq!(
        fields(&WebCrawlRequest {
            url: "example.com".into(),
            ..Default::default()
        }),
        ["url"]
    );
    assert_eq!(
        fields(&WebCrawlRequest {
            url: "ftp://a.b/c".into(),
            ..Default::default()
        }),
        ["url"]
    );
    assert!(WebCrawlRequest {
        url: "https://example.com/a".into(),
        ..Default::default()
    }
    .validate()
    .is_ok());
    assert_eq!(WebCrawlRequest::default().format, CrawlFormat::Text);
}

#[test]
fn ai_search_body_sends_streaming_explicitly_and_normalises_tools() {
    let mut req = AiSearchRequest::new("q", &[Tool::Web]);
    req.tools.push("Twitter Search".into());
    req.model = Some(Model::Nova);
    req.system_message = Some("  ".into());
    let Encoded::Json(body) = req.encode() else {
        panic!("POST body")
    };
    assert_eq!(body["streaming"], false);
    assert_eq!(body["tools"], serde_json::json!(["web", "twitter"]));
    assert_eq!(body["count"], 10);
    assert_eq!(body["date_filter"], "PAST_24_HOURS");
    assert_eq!(body["result_type"], "LINKS_WITH_FINAL_SUMMARY");
    assert_eq!(body["model"], "NOVA");
    assert!(
        body.get("system_message").is_none(),
        "blank text is not sent"
    );
    assert!(body.get("start_date").is_none());
}

#[test]
fn query_encoding_repeats_arrays_and_drops_blanks() {
    let urls = TwitterUrlsRequest {
        urls: vec![
            "https://x.com/a/status/1".into(),
            " ".into(),
            "https://x.com/b/status/2".into(),
        ],
    };
    assert_eq!(
        urls.encode(),
        Encoded::Query(vec![
            ("urls", "https://x.com/a/status/1".into()),
            ("urls", "https://x.com/b/status/2".into())
        ])
    );
    let search = TwitterSearchRequest {
        user: Some("@nasa".into()),
        verified: Some(true),
        lang: Some("".into()),
        ..TwitterSearchRequest::new("moon")
    };
    let Encoded::Query(q) = search.encode() else {
        panic!()
    };
    assert!(q.contains(&("user", "nasa".into())));
    assert!(q.contains(&("verified", "true".into())));
    assert!(q.contains(&("count", "20".into())));
    assert!(q.contains(&("sort", "Top".into())));
    assert!(!q.iter().any(|(k, _)| *k == "lang"));
    let replies = TwitterRepliesRequest {
        user: "a".into(),
        ..Default::default()
    };
    assert_eq!(
        replies.encode(),
        Encoded::Query(vec![("user", "a".into()), ("count", "10".into())])
    );
}

#[test]
fn tool_names_accept_legacy_spellings() {
    assert_eq!(Tool::parse("Twitter Search"), Some(Tool::Twitter));
    assert_eq!(Tool::parse("Web Search"), Some(Tool::Web));
    assert_eq!(Tool::parse("Hacker News Search"), Some(Tool::Hackernews));
    assert_eq!(Tool::parse("ArXiv Search"), Some(Tool::Arxiv));
    assert_eq!(Tool::parse("youtube"), Some(Tool::Youtube));
    assert_eq!(Tool::parse("tiktok"), None);
    for t in Tool::ALL {
        assert_eq!(Tool::parse(t.as_str()), Some(t));
    }
}
