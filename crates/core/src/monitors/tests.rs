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
