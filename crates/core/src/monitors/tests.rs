use chrono::{TimeZone, Utc};
use sightline_api::request::{Sort, TwitterSearchRequest};

use super::run::search_window;

#[test]
fn a_run_asks_newest_first_from_its_window_up_to_the_cap() {
    let request = TwitterSearchRequest {
        lang: Some("en".into()),
        ..TwitterSearchRequest::new("#flood ")
    };
    let first = search_window(&request, 40, None);
    assert_eq!(
        (first.query.as_str(), first.sort, first.count),
        ("#flood ", Sort::Latest, 40)
    );
    assert_eq!(first.start_date, None, "a first run has no window start");

    let since = Utc.with_ymd_and_hms(2026, 11, 20, 12, 0, 5).unwrap();
    let next = search_window(&request, 40, Some(since));
    assert_eq!(
        next.query,
        format!("#flood since_time:{}", since.timestamp())
    );
    assert_eq!(next.start_date.as_deref(), Some("2026-11-20"));
    assert_eq!(next.lang.as_deref(), Some("en"), "every filter kept");

    // A start date the user chose is theirs.
    let dated = TwitterSearchRequest {
        start_date: Some("2026-11-01".into()),
        ..request
    };
    let kept = search_window(&dated, 40, Some(since));
    assert_eq!(kept.start_date.as_deref(), Some("2026-11-01"));
}

/// The draft's rules word for word, from the table the UI's form runs too.
#[test]
fn a_draft_breaks_the_shared_tables_rules_in_the_same_words() {
    use std::collections::BTreeMap;

    use super::{check, MonitorDraft, MonitorTarget};
    use crate::errors::CommandError;

    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/monitor-draft-cases.json"
    );
    let table: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let cases = table["cases"].as_array().unwrap();
    assert!(cases.len() >= 5);
    for case in cases {
        let draft = MonitorDraft {
            name: case["draft"]["name"].as_str().unwrap().into(),
            interval_minutes: case["draft"]["intervalMinutes"].as_i64().unwrap(),
            cap: case["draft"]["cap"].as_i64().unwrap(),
            target: MonitorTarget::Search {
                request: TwitterSearchRequest::new("#flood"),
            },
            investigation_id: None,
        };
        let expected: BTreeMap<String, String> =
            serde_json::from_value(case["errors"].clone()).unwrap();
        let found: BTreeMap<String, String> = match check(&draft) {
            Ok(()) => BTreeMap::new(),
            Err(CommandError::Invalid { fields, .. }) => fields
                .into_iter()
                .map(|error| (error.field, error.message))
                .collect(),
            Err(other) => panic!("{other:?}"),
        };
        assert_eq!(found, expected, "{}", case["name"]);
    }
}
