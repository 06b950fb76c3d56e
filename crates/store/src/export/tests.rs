//! The export formats, read back as a spreadsheet or a JSON reader would.

use super::*;
use crate::archive::PostQuery;
use crate::history::HistoryQuery;
use crate::test_support::{billing, link, post, record, temp_store};
use chrono::TimeZone;

const UTC: Tz = chrono_tz::UTC;
const LONDON: Tz = chrono_tz::Europe::London;

/// A CSV's rows, read back by header name.
fn table(bytes: &[u8]) -> Vec<std::collections::HashMap<String, String>> {
    let mut reader = csv::Reader::from_reader(bytes);
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

#[tokio::test]
async fn history_round_trips_through_csv_and_jsonl() {
    let (store, _dir) = seeded().await;
    let entries = store.history(&HistoryQuery::default()).await.unwrap();
    let mut buf = Vec::new();
    history_csv(&entries, UTC, &mut buf).unwrap();
    let mut reader = csv::Reader::from_reader(buf.as_slice());
    let rows: Vec<csv::StringRecord> = reader.records().map(|r| r.unwrap()).collect();
    assert_eq!(rows.len(), 1);
    let headers = reader.headers().unwrap().clone();
    let get = |name: &str| rows[0][headers.iter().position(|h| h == name).unwrap()].to_owned();
    assert_eq!(get("request_id"), "req-1");
    assert_eq!(get("started_at_utc"), "2026-02-03T18:33:57Z");
    assert_eq!(get("cost"), "0.0006");
    assert_eq!(get("parameters"), r#"{"query":"rust lang","count":20}"#);

    let mut buf = Vec::new();
    history_jsonl(&entries, UTC, &mut buf).unwrap();
    let text = String::from_utf8(buf).unwrap();
    let back: HistoryEntry = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(back, entries[0]);
}

#[tokio::test]
async fn ledger_csv_keeps_the_billed_money_exactly() {
    let (store, _dir) = seeded().await;
    let entries = store.ledger(chrono_tz::UTC, None).await.unwrap();
    let mut buf = Vec::new();
    ledger_csv(&entries, UTC, &mut buf).unwrap();
    let mut reader = csv::Reader::from_reader(buf.as_slice());
    let headers = reader.headers().unwrap().clone();
    let rows: Vec<csv::StringRecord> = reader.records().map(|r| r.unwrap()).collect();
    assert_eq!(rows.len(), 1);
    let get = |name: &str| rows[0][headers.iter().position(|h| h == name).unwrap()].to_owned();
    assert_eq!(get("time_utc"), "2026-02-03T18:33:57Z");
    assert_eq!(get("cost"), "0.0006");
    assert_eq!(get("service"), "x");
    assert_eq!(get("key_label"), "work");
}

#[tokio::test]
async fn posts_csv_is_quoted_and_formula_safe() {
    let (store, _dir) = seeded().await;
    let posts = store
        .posts(&PostQuery {
            sort: crate::archive::PostSort::Oldest,
            ..Default::default()
        })
        .await
        .unwrap();
    let mut buf = Vec::new();
    posts_csv(&posts, UTC, &mut buf).unwrap();
    let rows = table(&buf);
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["id"], "100");
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
    let mut buf = Vec::new();
    posts_jsonl(&posts, UTC, &mut buf).unwrap();
    let lines: Vec<serde_json::Value> = String::from_utf8(buf)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    for line in &lines {
        assert_eq!(line["raw"]["id"], line["id"]);
        assert_eq!(line["raw"]["text"], line["text"]);
    }
}

#[tokio::test]
async fn citations_list_author_handle_time_text_url_and_fetch_time() {
    let (store, _dir) = seeded().await;
    let posts = store
        .posts(&PostQuery {
            sort: crate::archive::PostSort::Oldest,
            ..Default::default()
        })
        .await
        .unwrap();
    let mut buf = Vec::new();
    citations_markdown(&posts, UTC, &mut buf).unwrap();
    let md = String::from_utf8(buf).unwrap();
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

#[tokio::test]
async fn links_export() {
    let (store, _dir) = temp_store().await;
    let mut r = record("l", t(1));
    r.links = vec![link("https://example.org/=x")];
    store.record_request(&r).await.unwrap();
    let links = store.links(&Default::default()).await.unwrap();
    let mut buf = Vec::new();
    links_csv(&links, UTC, &mut buf).unwrap();
    let text = String::from_utf8(buf).unwrap();
    assert!(text.starts_with("source,title,snippet,link,score"));
    assert!(text.contains("web,Example page,An example snippet,https://example.org/=x,"));
    let mut buf = Vec::new();
    links_jsonl(&links, UTC, &mut buf).unwrap();
    let v: serde_json::Value = serde_json::from_slice(&buf).unwrap();
    assert_eq!(v["source"], "web");
}

/// London changes from GMT to BST at 01:00 UTC on 29 March 2026: every export writes each time
/// in UTC and in the display zone with the offset of that moment, never one offset for all.
#[tokio::test]
async fn every_time_is_written_in_utc_and_in_the_display_zone_across_a_dst_change() {
    let (store, _dir) = temp_store().await;
    let winter = Utc.with_ymd_and_hms(2026, 3, 29, 0, 30, 0).unwrap();
    let summer = Utc.with_ymd_and_hms(2026, 3, 29, 12, 0, 0).unwrap();
    let mut r = record("dst", summer);
    r.billing = Some(billing("0.0002", 1, "x"));
    r.posts = vec![post("1", "before the change", winter)];
    store.record_request(&r).await.unwrap();

    let posts = store.posts(&PostQuery::default()).await.unwrap();
    let mut buf = Vec::new();
    posts_csv(&posts, LONDON, &mut buf).unwrap();
    let row = &table(&buf)[0];
    assert_eq!(row["created_at_utc"], "2026-03-29T00:30:00Z");
    assert_eq!(
        row["created_at_local"],
        "2026-03-29 00:30:00 +00:00 GMT (Europe/London)"
    );
    assert_eq!(row["last_seen_utc"], "2026-03-29T12:00:00Z");
    assert_eq!(
        row["last_seen_local"],
        "2026-03-29 13:00:00 +01:00 BST (Europe/London)"
    );

    let mut buf = Vec::new();
    posts_jsonl(&posts, LONDON, &mut buf).unwrap();
    let line: serde_json::Value = serde_json::from_slice(&buf).unwrap();
    assert_eq!(line["created_at"], "2026-03-29T00:30:00Z");
    assert_eq!(
        line["created_at_local"],
        "2026-03-29 00:30:00 +00:00 GMT (Europe/London)"
    );
    assert_eq!(
        line["first_seen_local"],
        "2026-03-29 13:00:00 +01:00 BST (Europe/London)"
    );

    let entries = store.history(&HistoryQuery::default()).await.unwrap();
    let mut buf = Vec::new();
    history_csv(&entries, LONDON, &mut buf).unwrap();
    let row = &table(&buf)[0];
    assert_eq!(row["started_at_utc"], "2026-03-29T12:00:00Z");
    assert_eq!(
        row["started_at_local"],
        "2026-03-29 13:00:00 +01:00 BST (Europe/London)"
    );
    let mut buf = Vec::new();
    history_jsonl(&entries, LONDON, &mut buf).unwrap();
    let line: serde_json::Value = serde_json::from_slice(&buf).unwrap();
    assert_eq!(line["started_at"], "2026-03-29T12:00:00Z");
    assert_eq!(
        line["started_at_local"],
        "2026-03-29 13:00:00 +01:00 BST (Europe/London)"
    );

    let ledger = store.ledger(LONDON, None).await.unwrap();
    let mut buf = Vec::new();
    ledger_csv(&ledger, LONDON, &mut buf).unwrap();
    let row = &table(&buf)[0];
    assert_eq!(row["time_utc"], "2026-03-29T12:00:00Z");
    assert_eq!(
        row["time_local"],
        "2026-03-29 13:00:00 +01:00 BST (Europe/London)"
    );
    assert_eq!(row["cost"], "0.0002");

    let mut buf = Vec::new();
    citations_markdown(&posts, LONDON, &mut buf).unwrap();
    let md = String::from_utf8(buf).unwrap();
    assert!(
        md.contains("2026-03-29 00:30 UTC = 2026-03-29 00:30 GMT (Europe/London)"),
        "{md}"
    );
    assert!(
        md.contains("(fetched 2026-03-29 12:00 UTC = 2026-03-29 13:00 BST (Europe/London))"),
        "{md}"
    );
}

#[tokio::test]
async fn links_carry_both_times_too() {
    let (store, _dir) = temp_store().await;
    let mut r = record("l", Utc.with_ymd_and_hms(2026, 11, 23, 18, 4, 12).unwrap());
    r.links = vec![link("https://example.org/")];
    store.record_request(&r).await.unwrap();
    let links = store.links(&Default::default()).await.unwrap();
    let kolkata: Tz = "Asia/Kolkata".parse().unwrap();
    let mut buf = Vec::new();
    links_csv(&links, kolkata, &mut buf).unwrap();
    let row = &table(&buf)[0];
    assert_eq!(row["first_seen_utc"], "2026-11-23T18:04:12Z");
    assert_eq!(
        row["first_seen_local"],
        "2026-11-23 23:34:12 +05:30 IST (Asia/Kolkata)"
    );
    let mut buf = Vec::new();
    links_jsonl(&links, kolkata, &mut buf).unwrap();
    let line: serde_json::Value = serde_json::from_slice(&buf).unwrap();
    assert_eq!(line["first_seen"], "2026-11-23T18:04:12Z");
    assert_eq!(
        line["last_seen_local"],
        "2026-11-23 23:34:12 +05:30 IST (Asia/Kolkata)"
    );
}
