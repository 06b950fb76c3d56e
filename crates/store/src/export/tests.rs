//! The export formats, read back as a spreadsheet or a JSON reader would.

use super::*;
use crate::archive::PostQuery;
use crate::history::HistoryQuery;
use crate::test_support::{billing, post, record, temp_store};
use chrono::TimeZone;
use std::collections::HashMap;

const UTC: Tz = chrono_tz::UTC;
const LONDON: Tz = chrono_tz::Europe::London;

/// One row of an export, field name to text.
type Row = HashMap<String, String>;

/// What an export writes, in memory.
fn written(export: impl FnOnce(&mut Vec<u8>) -> Result<()>) -> Vec<u8> {
    let mut out = Vec::new();
    export(&mut out).unwrap();
    out
}

/// A CSV export's rows, read back by header name as a spreadsheet would.
fn csv_rows(export: impl FnOnce(&mut Vec<u8>) -> Result<()>) -> Vec<Row> {
    let bytes = written(export);
    let mut reader = csv::Reader::from_reader(bytes.as_slice());
    let headers = reader.headers().unwrap().clone();
    reader
        .records()
        .map(|row| {
            let row = row.unwrap();
            headers
                .iter()
                .map(str::to_owned)
                .zip(row.iter().map(str::to_owned))
                .collect()
        })
        .collect()
}

/// A JSON Lines export's lines, read back as a JSON reader would.
fn json_lines(export: impl FnOnce(&mut Vec<u8>) -> Result<()>) -> Vec<serde_json::Value> {
    String::from_utf8(written(export))
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// A JSON line's text fields, as a [`Row`] to compare with a CSV's.
fn text_fields(line: &serde_json::Value) -> Row {
    let fields = line.as_object().unwrap().iter();
    fields
        .filter_map(|(name, value)| Some((name.clone(), value.as_str()?.to_owned())))
        .collect()
}

fn markdown(export: impl FnOnce(&mut Vec<u8>) -> Result<()>) -> String {
    String::from_utf8(written(export)).unwrap()
}

fn t(d: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 2, d, 18, 33, 57).unwrap()
}

async fn seeded() -> (crate::Store, tempfile::TempDir) {
    let (store, dir) = temp_store().await;
    let mut a = post("100", "=SUM(A1) \"quoted\", with comma\nsecond line", t(1));
    a.hashtags = vec!["eclipse".into()];
    let mut b = post("200", "Plain *bold* <b>html</b> [x](y)", t(2));
    b.author_name = "Grace_Hopper".into();
    b.url = None;
    let mut r = record("req-1", t(3));
    r.billing = Some(billing("0.0006", 2, "x"));
    r.posts = vec![a, b];
    store.record_request(&r).await.unwrap();
    (store, dir)
}

async fn oldest_first(store: &crate::Store) -> Vec<StoredPost> {
    let query = PostQuery {
        sort: crate::archive::PostSort::Oldest,
        ..Default::default()
    };
    store.posts(&query).await.unwrap()
}

#[tokio::test]
async fn history_round_trips_through_csv_and_jsonl() {
    let (store, _dir) = seeded().await;
    let entries = store.history(&HistoryQuery::default()).await.unwrap();
    let rows = csv_rows(|out| history_csv(&entries, UTC, out));
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["request_id"], "req-1");
    assert_eq!(rows[0]["started_at_utc"], "2026-02-03T18:33:57Z");
    assert_eq!(rows[0]["cost"], "0.0006");
    assert_eq!(rows[0]["parameters"], r#"{"query":"rust lang","count":20}"#);

    let lines = json_lines(|out| history_jsonl(&entries, UTC, out));
    let back: HistoryEntry = serde_json::from_value(lines[0].clone()).unwrap();
    assert_eq!(back, entries[0]);
}

#[tokio::test]
async fn ledger_csv_keeps_the_billed_money_exactly() {
    let (store, _dir) = seeded().await;
    let entries = store.ledger(chrono_tz::UTC, None).await.unwrap();
    let rows = csv_rows(|out| ledger_csv(&entries, UTC, out));
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["time_utc"], "2026-02-03T18:33:57Z");
    assert_eq!(rows[0]["cost"], "0.0006");
    assert_eq!(rows[0]["service"], "x");
    assert_eq!(rows[0]["key_label"], "work");
}

#[tokio::test]
async fn posts_csv_is_quoted_and_formula_safe() {
    let (store, _dir) = seeded().await;
    let posts = oldest_first(&store).await;
    let rows = csv_rows(|out| posts_csv(&posts, UTC, out));
    assert_eq!(rows.len(), 2);
    assert_eq!(
        rows[0]["id"], "\t100",
        "an id of digits guarded as text (id_cell)"
    );
    assert_eq!(
        rows[0]["text"],
        "'=SUM(A1) \"quoted\", with comma\nsecond line"
    );
    assert_eq!(rows[0]["hashtags"], "eclipse");
    assert_eq!(rows[1]["url"], "", "a post without a URL has an empty cell");
}

#[tokio::test]
async fn posts_jsonl_embeds_the_raw_record() {
    let (store, _dir) = seeded().await;
    let posts = store.posts(&PostQuery::default()).await.unwrap();
    let lines = json_lines(|out| posts_jsonl(&posts, UTC, out));
    assert_eq!(lines.len(), 2);
    for line in &lines {
        assert_eq!(line["raw"]["id"], line["id"]);
        assert_eq!(line["raw"]["text"], line["text"]);
    }
}

#[tokio::test]
async fn citations_list_author_handle_time_text_url_and_fetch_time() {
    let (store, _dir) = seeded().await;
    let posts = oldest_first(&store).await;
    let md = markdown(|out| citations_markdown(&posts, UTC, out));
    let expected = "\
1. **Ada Lovelace** (@ada), 2026-02-01 18:33 UTC
   > =SUM(A1) \"quoted\", with comma
   > second line
   <https://x.com/ada/status/100> (fetched 2026-02-03 18:33 UTC)

2. **Grace\\_Hopper** (@ada), 2026-02-02 18:33 UTC
   > Plain \\*bold\\* \\<b\\>html\\</b\\> \\[x\\](y)
   <https://x.com/ada/status/200> (fetched 2026-02-03 18:33 UTC)
";
    assert_eq!(md, expected);
}

/// London changes from GMT to BST at 01:00 UTC on 29 March 2026: every export writes each time
/// in UTC and in the display zone with the zone's name at that moment, never one for all.
#[tokio::test]
async fn every_time_is_written_in_utc_and_in_the_display_zone_across_a_dst_change() {
    const WINTER_UTC: &str = "2026-03-29T00:30:00Z";
    const WINTER_LOCAL: &str = "2026-03-29 00:30:00 GMT (Europe/London)";
    const SUMMER_UTC: &str = "2026-03-29T12:00:00Z";
    const SUMMER_LOCAL: &str = "2026-03-29 13:00:00 BST (Europe/London)";
    let (store, _dir) = temp_store().await;
    let winter = Utc.with_ymd_and_hms(2026, 3, 29, 0, 30, 0).unwrap();
    let summer = Utc.with_ymd_and_hms(2026, 3, 29, 12, 0, 0).unwrap();
    let mut r = record("dst", summer);
    r.billing = Some(billing("0.0002", 1, "x"));
    r.posts = vec![post("1", "before the change", winter)];
    store.record_request(&r).await.unwrap();

    let posts = store.posts(&PostQuery::default()).await.unwrap();
    let entries = store.history(&HistoryQuery::default()).await.unwrap();
    let ledger = store.ledger(LONDON, None).await.unwrap();
    let posts_row = &csv_rows(|out| posts_csv(&posts, LONDON, out))[0];
    let posts_line = text_fields(&json_lines(|out| posts_jsonl(&posts, LONDON, out))[0]);
    let history_row = &csv_rows(|out| history_csv(&entries, LONDON, out))[0];
    let history_line = text_fields(&json_lines(|out| history_jsonl(&entries, LONDON, out))[0]);
    let ledger_row = &csv_rows(|out| ledger_csv(&ledger, LONDON, out))[0];
    let written_times = [
        ("posts CSV", posts_row, "created_at_utc", WINTER_UTC),
        ("posts CSV", posts_row, "created_at_local", WINTER_LOCAL),
        ("posts CSV", posts_row, "last_seen_utc", SUMMER_UTC),
        ("posts CSV", posts_row, "last_seen_local", SUMMER_LOCAL),
        ("posts JSONL", &posts_line, "created_at", WINTER_UTC),
        ("posts JSONL", &posts_line, "created_at_local", WINTER_LOCAL),
        ("posts JSONL", &posts_line, "first_seen_local", SUMMER_LOCAL),
        ("history CSV", history_row, "started_at_utc", SUMMER_UTC),
        ("history CSV", history_row, "started_at_local", SUMMER_LOCAL),
        ("history JSONL", &history_line, "started_at", SUMMER_UTC),
        (
            "history JSONL",
            &history_line,
            "started_at_local",
            SUMMER_LOCAL,
        ),
        ("ledger CSV", ledger_row, "time_utc", SUMMER_UTC),
        ("ledger CSV", ledger_row, "time_local", SUMMER_LOCAL),
    ];
    for (export, row, field, expected) in written_times {
        assert_eq!(
            row.get(field).map(String::as_str),
            Some(expected),
            "{export}: {field}"
        );
    }
    assert_eq!(ledger_row["cost"], "0.0002");

    let md = markdown(|out| citations_markdown(&posts, LONDON, out));
    assert!(
        md.contains("2026-03-29 00:30 UTC = 2026-03-29 00:30 GMT (Europe/London)"),
        "{md}"
    );
    assert!(
        md.contains("(fetched 2026-03-29 12:00 UTC = 2026-03-29 13:00 BST (Europe/London))"),
        "{md}"
    );
}

/// India's zone is named by its offset, as on screen (not the tz database's `IST`, which is
/// also Ireland's and Israel's).
#[tokio::test]
async fn a_zone_without_letters_is_named_by_its_offset() {
    let (store, _dir) = temp_store().await;
    let posted = Utc.with_ymd_and_hms(2026, 11, 23, 18, 4, 12).unwrap();
    let mut r = record("kolkata", posted);
    r.posts = vec![post("1", "namaste", posted)];
    store.record_request(&r).await.unwrap();
    let posts = store.posts(&PostQuery::default()).await.unwrap();
    let kolkata: Tz = "Asia/Kolkata".parse().unwrap();
    let row = &csv_rows(|out| posts_csv(&posts, kolkata, out))[0];
    assert_eq!(row["created_at_utc"], "2026-11-23T18:04:12Z");
    assert_eq!(
        row["created_at_local"],
        "2026-11-23 23:34:12 GMT+5:30 (Asia/Kolkata)"
    );
    let line = &json_lines(|out| posts_jsonl(&posts, kolkata, out))[0];
    assert_eq!(line["created_at"], "2026-11-23T18:04:12Z");
    assert_eq!(
        line["last_seen_local"],
        "2026-11-23 23:34:12 GMT+5:30 (Asia/Kolkata)"
    );
}

#[test]
fn an_id_is_guarded_only_when_a_spreadsheet_would_read_it_as_a_number() {
    assert_eq!(id_cell("1864029172638449665"), "\t1864029172638449665");
    assert_eq!(id_cell("007"), "\t007", "leading zeros kept too");
    assert_eq!(id_cell("req-7"), "req-7");
    assert_eq!(
        id_cell("-12"),
        "'-12",
        "not digits: an ordinary, formula-safe cell"
    );
    assert_eq!(id_cell(""), "");
}

/// The shared table of citations (`tests/fixtures/citation-cases.json`), which the UI's "Copy
/// citation" runs too.
fn citation_cases() -> serde_json::Value {
    serde_json::from_str(include_str!("../../tests/fixtures/citation-cases.json")).unwrap()
}

fn utc_time(text: &serde_json::Value) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(text.as_str().unwrap())
        .unwrap()
        .with_timezone(&Utc)
}

fn zone_named(case: &serde_json::Value) -> Tz {
    case["zone"].as_str().unwrap().parse().unwrap()
}

#[test]
fn markdown_is_escaped_as_the_shared_table_says() {
    let table = citation_cases();
    let cases = table["escape"].as_array().unwrap();
    assert!(cases.len() >= 5);
    for case in cases {
        let input = case["input"].as_str().unwrap();
        assert_eq!(
            escape_markdown(input),
            case["expected"].as_str().unwrap(),
            "{}",
            case["name"]
        );
    }
}

#[test]
fn a_cited_time_is_written_as_the_shared_table_says() {
    let table = citation_cases();
    let cases = table["times"].as_array().unwrap();
    assert!(cases.len() >= 5);
    for case in cases {
        assert_eq!(
            cited(utc_time(&case["utc"]), zone_named(case)),
            case["expected"].as_str().unwrap(),
            "{}",
            case["name"]
        );
    }
}

#[test]
fn posts_are_cited_as_the_shared_table_says() {
    let table = citation_cases();
    let cases = table["citations"].as_array().unwrap();
    assert!(cases.len() >= 5);
    for case in cases {
        let fetched = utc_time(&case["fetched_at"]);
        let posts: Vec<StoredPost> = case["posts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                let text = |field: &str| p[field].as_str().unwrap().to_owned();
                StoredPost {
                    id: text("id"),
                    conversation_id: None,
                    author_id: None,
                    author_username: text("author_username"),
                    author_name: text("author_name"),
                    author_verified: false,
                    text: text("text"),
                    lang: None,
                    created_at: utc_time(&p["created_at"]),
                    like_count: 0,
                    retweet_count: 0,
                    reply_count: 0,
                    quote_count: 0,
                    view_count: None,
                    bookmark_count: 0,
                    hashtags: vec![],
                    url: p["url"].as_str().map(str::to_owned),
                    raw_json: "{}".into(),
                    first_seen: fetched,
                    last_seen: fetched,
                }
            })
            .collect();
        let expected: String = case["markdown"]
            .as_array()
            .unwrap()
            .iter()
            .map(|line| format!("{}\n", line.as_str().unwrap()))
            .collect();
        let md = markdown(|out| citations_markdown(&posts, zone_named(case), out));
        assert_eq!(md, expected, "{}", case["name"]);
    }
}
