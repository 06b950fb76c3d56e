use super::*;
use reqwest::header::HeaderValue;
use serde_json::json;

const KEY: &str = "dt_$SecretSecretSecretSecret0123456789";

fn class(status: u16, body: &str) -> ApiError {
    classify(status, &HeaderMap::new(), body, Some(KEY))
}

#[test]
fn classifies_the_contract_error_table() {
    assert_eq!(
        classify(401, &HeaderMap::new(), r#"{"detail":"Unauthorized"}"#, None),
        ApiError::MissingKey
    );
    assert_eq!(
        class(401, r#"{"error":"Invalid API key"}"#),
        ApiError::KeyRefused
    );
    assert_eq!(
        class(401, r#"{"detail":"Invalid or missing API key"}"#),
        ApiError::KeyRefused
    );
    assert_eq!(
        class(
            401,
            r#"{"detail":{"error_code":401,"message":"Unauthorized","reason":"Invalid API key"}}"#
        ),
        ApiError::KeyRefused
    );
    assert_eq!(
        class(403, r#"{"detail":"Forbidden"}"#),
        ApiError::NotAnApiKey { problem: None }
    );
    assert_eq!(
        class(402, r#"{"detail":"Insufficient balance: top up"}"#),
        ApiError::OutOfCredit {
            detail: Some("Insufficient balance: top up".into())
        }
    );
    assert_eq!(
        class(
            500,
            r#"{"detail":{"description":"boom","error_code":500,"message":"Internal Server Error"}}"#
        ),
        ApiError::Server {
            status: 500,
            detail: Some("Internal Server Error".into())
        }
    );
    assert_eq!(
        class(503, "<html>bad gateway</html>"),
        ApiError::Server {
            status: 503,
            detail: None
        }
    );
    assert_eq!(
        class(
            301,
            r#"{"detail":{"error_code":301,"location":"https://new.example/twitter","message":"Moved Permanently"}}"#
        ),
        ApiError::Moved {
            location: Some("https://new.example/twitter".into())
        }
    );
    assert_eq!(
        class(404, r#"{"detail":"Not Found"}"#).kind(),
        ErrorKind::UnexpectedStatus
    );
}

#[test]
fn rate_limit_wait_from_header_or_body() {
    let body =
        r#"{"detail":{"error_code":429,"message":"Too Many Requests","retry_after":"60 seconds"}}"#;
    assert_eq!(
        class(429, body),
        ApiError::RateLimited {
            retry_after: Some(Duration::from_secs(60))
        }
    );
    let mut h = HeaderMap::new();
    h.insert("retry-after", HeaderValue::from_static("7"));
    assert_eq!(
        classify(429, &h, body, None),
        ApiError::RateLimited {
            retry_after: Some(Duration::from_secs(7))
        }
    );
    assert_eq!(
        class(429, r#"{"detail":"slow down"}"#),
        ApiError::RateLimited { retry_after: None }
    );
    // A header that is not a wait falls back to the body's; one past a day is a day.
    let mut h = HeaderMap::new();
    h.insert("retry-after", HeaderValue::from_static("nan"));
    assert_eq!(
        classify(429, &h, body, None),
        ApiError::RateLimited {
            retry_after: Some(Duration::from_secs(60))
        }
    );
    h.insert(
        "retry-after",
        HeaderValue::from_static("99999999999999999999"),
    );
    assert_eq!(
        classify(429, &h, body, None),
        ApiError::RateLimited {
            retry_after: Some(crate::wait::LONGEST_WAIT)
        }
    );
    for body in [
        r#"{"retry_after": -3}"#,
        r#"{"retry_after": 1e300}"#,
        r#"{"detail": {"retry_after": "inf"}}"#,
    ] {
        let ApiError::RateLimited { retry_after } = class(429, body) else {
            panic!("{body}")
        };
        assert!(
            retry_after.is_none_or(|wait| wait <= crate::wait::LONGEST_WAIT),
            "{body}: {retry_after:?}"
        );
    }
}

#[test]
fn validation_maps_loc_to_our_field_names() {
    let body = json!({"detail": [
        {"type": "less_than_equal", "loc": ["query", "count"], "msg": "Input should be less than or equal to 100", "input": "500", "ctx": {"le": 100}},
        {"type": "string_pattern_mismatch", "loc": ["query", "sort"], "msg": "String should match pattern '^(Top|Latest)$'", "ctx": {"pattern": "^(Top|Latest)$"}},
        {"type": "missing", "loc": ["body", "prompt"], "msg": "Field required", "input": null},
        {"type": "value_error", "loc": ["body", "tools", 0], "msg": "Value error, unknown tool"}
    ]});
    let ApiError::Validation { fields } = class(422, &body.to_string()) else {
        panic!()
    };
    let names: Vec<_> = fields.iter().map(|f| f.field.as_str()).collect();
    assert_eq!(names, ["count", "sort", "prompt", "tools"]);
    assert_eq!(fields[0].message, "Use a number no larger than 100.");
    assert_eq!(fields[1].message, "Choose Top or Latest.");
    assert_eq!(fields[2].message, "This field is required.");
    assert_eq!(fields[3].message, "Value error, unknown tool.");
    // detail as a string still yields one message.
    let ApiError::Validation { fields } = class(422, r#"{"detail":"bad input"}"#) else {
        panic!()
    };
    assert_eq!(fields[0].message, "bad input");
}

#[test]
fn key_is_scrubbed_from_echoed_text_and_never_printed() {
    let body = format!(r#"{{"detail":"Insufficient balance for key {KEY}"}}"#);
    let err = class(402, &body);
    for shown in [
        format!("{err:?}"),
        format!("{err}"),
        err.user_message(),
        serde_json::to_string(&err).unwrap(),
    ] {
        assert!(!shown.contains(KEY), "{shown}");
        assert!(!shown.contains("SecretSecret"), "{shown}");
    }
}

#[test]
fn kinds_keep_their_wire_names() {
    let names: Vec<String> = ErrorKind::ALL
        .iter()
        .map(|kind| {
            let json = serde_json::to_value(kind).unwrap();
            assert_eq!(json, kind.as_str(), "serde and as_str agree");
            assert_eq!(kind.to_string(), kind.as_str());
            assert_eq!(serde_json::from_value::<ErrorKind>(json).unwrap(), *kind);
            kind.as_str().to_owned()
        })
        .collect();
    assert_eq!(
        names,
        [
            "missing_key",
            "key_refused",
            "not_an_api_key",
            "validation",
            "out_of_credit",
            "rate_limited",
            "server_error",
            "moved",
            "network",
            "timeout",
            "answer_cut",
            "malformed_response",
            "unexpected_status",
            "stream_cut",
            "stream_failed",
        ]
    );
    let payload = serde_json::to_value(ApiError::Timeout.payload()).unwrap();
    assert_eq!(
        payload["kind"], "timeout",
        "the payload's kind is a plain string"
    );
}

#[test]
fn every_kind_has_a_plain_message_and_serialises_tagged() {
    let errors = [
        ApiError::MissingKey,
        ApiError::KeyRefused,
        ApiError::NotAnApiKey { problem: None },
        ApiError::from(KeyProblem::Placeholder),
        ApiError::Validation {
            fields: vec![FieldError::new("count", "Choose a number from 1 to 100.")],
        },
        ApiError::OutOfCredit { detail: None },
        ApiError::RateLimited {
            retry_after: Some(Duration::from_secs(90)),
        },
        ApiError::Server {
            status: 500,
            detail: None,
        },
        ApiError::Moved { location: None },
        ApiError::Network {
            cause: crate::transport::NetworkCause::Refused,
            detail: "connection refused".into(),
        },
        ApiError::Timeout,
        ApiError::AnswerCut {
            detail: "connection reset".into(),
        },
        ApiError::Malformed {
            status: 200,
            detail: "eof".into(),
            answer: None,
        },
        ApiError::UnexpectedStatus {
            status: 404,
            detail: None,
        },
    ];
    for e in errors {
        let msg = e.user_message();
        assert!(msg.len() > 20 && !msg.contains("HTTP"), "{msg}");
        let json = serde_json::to_value(&e).unwrap();
        assert_eq!(json["kind"], e.kind().as_str());
        assert_eq!(json["message"], msg);
    }
    let rl = serde_json::to_value(ApiError::RateLimited {
        retry_after: Some(Duration::from_secs(150)),
    })
    .unwrap();
    assert_eq!(rl["retry_after_secs"], 150);
    assert!(rl["message"].as_str().unwrap().contains("3 minutes"));
    assert_eq!(ApiError::from(KeyProblem::Empty), ApiError::MissingKey);
}

/// A request that went out and got no whole answer may have been billed: it is never sent
/// again by the client itself, and its message says so. What billed nothing may be.
#[test]
fn only_what_billed_nothing_is_repeated_unasked() {
    let cut = ApiError::AnswerCut {
        detail: "reset".into(),
    };
    for error in [ApiError::Timeout, cut] {
        assert!(error.kind().may_have_billed());
        assert!(!error.may_repeat_unasked());
        assert!(
            error.user_message().contains("may have billed"),
            "{error:?}"
        );
    }
    let unbilled = [
        ApiError::RateLimited { retry_after: None },
        ApiError::Server {
            status: 503,
            detail: None,
        },
        ApiError::Network {
            cause: crate::transport::NetworkCause::Refused,
            detail: "refused".into(),
        },
    ];
    for error in unbilled {
        assert!(!error.kind().may_have_billed());
        assert!(error.may_repeat_unasked(), "{error:?}");
    }
    for kind in ErrorKind::ALL {
        assert_eq!(ErrorKind::from_name(kind.as_str()), Some(kind));
    }
    assert_eq!(ErrorKind::from_name("storage"), None);
}
