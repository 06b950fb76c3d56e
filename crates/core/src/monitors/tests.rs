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

#[test]
fn the_next_window_moves_past_a_second_asked_again_once_it_was_over() {
    use chrono::Duration;
    use rust_decimal::Decimal;
    use sightline_store::StoredRun;

    use super::run::next_window_start;

    let at = |second: u32| Utc.with_ymd_and_hms(2026, 11, 20, 12, 0, second).unwrap();
    let run = |window_start, started_at| StoredRun {
        id: 2,
        started_at,
        finished_at: None,
        outcome: sightline_store::RunOutcome::Running,
        new_items: 0,
        requests: 1,
        cost: Decimal::ZERO,
        error: None,
        window_start,
        window_end: None,
        cursor: None,
        pages: 1,
        attempt: 0,
    };
    let previous_end = Some(at(10));
    let later = at(10) + Duration::minutes(1);

    // A first run's window ends at the newest post it saw, or nowhere.
    assert_eq!(
        next_window_start(&run(None, later), Some(at(7)), None),
        Some(at(7))
    );
    assert_eq!(next_window_start(&run(None, later), None, None), None);
    // Newer posts came: the window ends at the newest, whose second may not be over.
    assert_eq!(
        next_window_start(&run(Some(at(5)), later), Some(at(7)), previous_end),
        Some(at(7))
    );
    // Nothing newer a minute later: that second is over and fully in hand.
    assert_eq!(
        next_window_start(&run(Some(at(5)), later), Some(at(5)), previous_end),
        Some(at(6))
    );
    assert_eq!(
        next_window_start(&run(Some(at(5)), later), None, previous_end),
        Some(at(6)),
        "an empty answer from an over second moves on too"
    );
    // Asked again within a second or two: the second may still be going on.
    let soon = at(10) + Duration::milliseconds(900);
    assert_eq!(
        next_window_start(&run(Some(at(5)), soon), Some(at(5)), previous_end),
        Some(at(5))
    );
    assert_eq!(
        next_window_start(&run(Some(at(5)), later), Some(at(5)), None),
        Some(at(5)),
        "no earlier run on record: nothing says the second is over"
    );
}
