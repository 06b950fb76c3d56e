//! An investigation made through the store's own API, for the evidence bundle's test and
//! benchmark: `requests` billed X searches, each with its exact body and provenance, finding
//! `posts_per_request` new posts with 19-digit ids, all filed under one active investigation.

use std::collections::BTreeMap;
use std::str::FromStr;

use chrono::{DateTime, Duration, TimeZone, Utc};
use rust_decimal::Decimal;
use sha2::{Digest, Sha256};
use sightline_store::NewProvenance;
use sightline_store::{Billing, NewPost, RequestRecord, RequestStatus, Store};

/// The first post id: 19 digits, past what a spreadsheet keeps of a number.
pub const FIRST_ID: u64 = 1_864_029_172_638_449_665;

pub fn post(id: u64, n: usize) -> NewPost {
    let id = id.to_string();
    let text = format!("Post {n} about the flood,\nsecond line with \"quotes\"");
    NewPost {
        raw_json: serde_json::json!({ "id": id, "text": text }).to_string(),
        id: id.clone(),
        conversation_id: Some(id.clone()),
        author_id: Some("1234567890123456789".into()),
        author_username: "hydro".into(),
        author_name: "Hydro Desk".into(),
        author_verified: false,
        text,
        lang: Some("en".into()),
        created_at: Utc.with_ymd_and_hms(2026, 11, 20, 8, 0, 0).unwrap()
            + Duration::minutes(n as i64),
        like_count: 3,
        retweet_count: 1,
        reply_count: 0,
        quote_count: 0,
        view_count: Some(100),
        bookmark_count: 0,
        hashtags: vec!["flood".into()],
        url: Some(format!("https://x.com/hydro/status/{id}")),
        nested: false,
    }
}

/// Seeds the store; the investigation's id.
pub async fn seed(store: &Store, requests: usize, posts_per_request: usize) -> i64 {
    let now = Utc.with_ymd_and_hms(2026, 11, 23, 17, 0, 0).unwrap();
    let id = store
        .create_investigation("Floods", "Who said what about the flood, and when", now)
        .await
        .unwrap();
    store.set_active_investigation(Some(id)).await.unwrap();
    let mut records = Vec::with_capacity(requests);
    for r in 0..requests {
        let posts: Vec<NewPost> = (0..posts_per_request)
            .map(|p| {
                let n = r * posts_per_request + p;
                post(FIRST_ID + n as u64, n)
            })
            .collect();
        records.push(request(r, posts, now + Duration::seconds(r as i64)));
    }
    for chunk in records.chunks(100) {
        store.record_requests(chunk).await.unwrap();
    }
    store.set_active_investigation(None).await.unwrap();
    id
}

/// A billed X search `req-{r}` sent at `at` that found `posts`, with its exact body and
/// provenance.
pub fn request(r: usize, posts: Vec<NewPost>, at: DateTime<Utc>) -> RequestRecord {
    let body = serde_json::to_vec(
        &posts
            .iter()
            .map(|p| serde_json::from_str::<serde_json::Value>(&p.raw_json).unwrap())
            .collect::<Vec<_>>(),
    )
    .unwrap();
    let cost = Decimal::from_str("0.00015").unwrap() * Decimal::from(posts.len());
    RequestRecord {
        request_id: format!("req-{r}"),
        started_at: at,
        operation: "twitter_search".into(),
        params_json: format!(r#"{{"query":"flood {r}","count":{}}}"#, posts.len()),
        key_label: Some("work".into()),
        mode: "live".into(),
        status: RequestStatus::Ok,
        error_class: None,
        error_message: None,
        duration_ms: 300,
        result_count: posts.len() as i64,
        billing: Some(Billing {
            cost: Some(cost),
            cost_text: None,
            usage_count: posts.len() as i64,
            service: "twitter".into(),
            currency: "USD".into(),
        }),
        cursor: None,
        next_cursor: None,
        parent_id: None,
        result_json: Some(String::from_utf8(body.clone()).unwrap()),
        posts,
        users: vec![],
        links: vec![],
        provenance: Some(NewProvenance {
            captured_at: at + Duration::milliseconds(345),
            service_url: "http://127.0.0.1:8787".into(),
            response_url: format!("http://127.0.0.1:8787/twitter?query=flood+{r}"),
            http_status: 200,
            billing_headers: BTreeMap::from([("x-billing-cost".to_owned(), cost.to_string())]),
            response_headers: None,
            app_version: "0.1.0".into(),
            sha256: Sha256::digest(&body)
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect(),
            body,
            from_cache: false,
            stamp_with: None,
        }),
    }
}
