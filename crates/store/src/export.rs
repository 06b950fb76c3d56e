//! Export of history and archive selections: CSV, JSON Lines, and a Markdown citation list;
//! forecasts with their own fields and citation (`export/forecasts.rs`). Every function writes
//! to any `impl Write`; the app chooses the file. Times are UTC (a forecast's also local).
//!
//! CSV cells that a spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, tab
//! or carriage return) are prefixed with `'`: the files are opened by people in spreadsheet
//! apps, and post text is written by strangers.

use std::io::Write;

use chrono::{DateTime, SecondsFormat, Utc};
use serde::Serialize;

use crate::archive::{StoredLink, StoredPost};
use crate::error::Result;
use crate::history::HistoryEntry;
use crate::ledger::LedgerEntry;

mod forecasts;

pub use forecasts::{
    forecast_citations_markdown, forecasts_csv, forecasts_jsonl, local_time, percent,
    ForecastExport,
};

fn utc(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Secs, true)
}

/// A CSV cell a spreadsheet will not run as a formula (see the module's doc); shared with the
/// evidence bundle's `posts.csv`.
pub fn cell(text: &str) -> String {
    match text.chars().next() {
        Some('=' | '+' | '-' | '@' | '\t' | '\r') => format!("'{text}"),
        _ => text.to_owned(),
    }
}

fn opt<T: ToString>(v: &Option<T>) -> String {
    v.as_ref().map(ToString::to_string).unwrap_or_default()
}

/// History rows as CSV, one line per request.
pub fn history_csv<'a>(
    entries: impl IntoIterator<Item = &'a HistoryEntry>,
    out: impl Write,
) -> Result<()> {
    let mut w = csv::Writer::from_writer(out);
    w.write_record([
        "id",
        "request_id",
        "started_at_utc",
        "operation",
        "parameters",
        "key_label",
        "mode",
        "status",
        "error_class",
        "error_message",
        "duration_ms",
        "result_count",
        "cost",
        "usage_count",
        "service",
        "currency",
        "pinned",
    ])?;
    for e in entries {
        let billing = e.billing.as_ref();
        w.write_record([
            e.id.to_string(),
            cell(&e.request_id),
            utc(e.started_at),
            cell(&e.operation),
            cell(&e.params_json),
            cell(&opt(&e.key_label)),
            cell(&e.mode),
            e.status.as_str().to_owned(),
            cell(&opt(&e.error_class)),
            cell(&opt(&e.error_message)),
            e.duration_ms.to_string(),
            e.result_count.to_string(),
            billing.map(|b| b.cost.to_string()).unwrap_or_default(),
            billing
                .map(|b| b.usage_count.to_string())
                .unwrap_or_default(),
            cell(&billing.map(|b| b.service.clone()).unwrap_or_default()),
            cell(&billing.map(|b| b.currency.clone()).unwrap_or_default()),
            e.pinned.to_string(),
        ])?;
    }
    w.flush()?;
    Ok(())
}

fn json_lines<T: Serialize>(items: impl IntoIterator<Item = T>, mut out: impl Write) -> Result<()> {
    for item in items {
        serde_json::to_writer(&mut out, &item)?;
        out.write_all(b"\n")?;
    }
    out.flush()?;
    Ok(())
}

/// History rows as JSON Lines (the same fields as the app sees; money as strings).
pub fn history_jsonl<'a>(
    entries: impl IntoIterator<Item = &'a HistoryEntry>,
    out: impl Write,
) -> Result<()> {
    json_lines(entries, out)
}

/// Archived posts as CSV.
pub fn posts_csv<'a>(
    posts: impl IntoIterator<Item = &'a StoredPost>,
    out: impl Write,
) -> Result<()> {
    let mut w = csv::Writer::from_writer(out);
    w.write_record([
        "id",
        "created_at_utc",
        "author_username",
        "author_name",
        "author_verified",
        "text",
        "lang",
        "like_count",
        "retweet_count",
        "reply_count",
        "quote_count",
        "view_count",
        "bookmark_count",
        "hashtags",
        "url",
        "conversation_id",
        "first_seen_utc",
        "last_seen_utc",
    ])?;
    for p in posts {
        w.write_record([
            cell(&p.id),
            utc(p.created_at),
            cell(&p.author_username),
            cell(&p.author_name),
            p.author_verified.to_string(),
            cell(&p.text),
            cell(&opt(&p.lang)),
            p.like_count.to_string(),
            p.retweet_count.to_string(),
            p.reply_count.to_string(),
            p.quote_count.to_string(),
            opt(&p.view_count),
            p.bookmark_count.to_string(),
            cell(&p.hashtags.join(" ")),
            cell(&opt(&p.url)),
            cell(&opt(&p.conversation_id)),
            utc(p.first_seen),
            utc(p.last_seen),
        ])?;
    }
    w.flush()?;
    Ok(())
}

/// Archived posts as JSON Lines; `raw` is the record exactly as the service sent it.
pub fn posts_jsonl<'a>(
    posts: impl IntoIterator<Item = &'a StoredPost>,
    out: impl Write,
) -> Result<()> {
    #[derive(Serialize)]
    struct Line<'p> {
        #[serde(flatten)]
        post: &'p StoredPost,
        raw: serde_json::Value,
    }
    let mut lines = Vec::new();
    for post in posts {
        // A raw record that is not JSON (it always should be) is kept as a string.
        let raw = serde_json::from_str(&post.raw_json)
            .unwrap_or_else(|_| serde_json::Value::String(post.raw_json.clone()));
        lines.push(Line { post, raw });
    }
    json_lines(lines, out)
}

/// Archived link results as CSV.
pub fn links_csv<'a>(
    links: impl IntoIterator<Item = &'a StoredLink>,
    out: impl Write,
) -> Result<()> {
    let mut w = csv::Writer::from_writer(out);
    w.write_record([
        "source",
        "title",
        "snippet",
        "link",
        "score",
        "first_seen_utc",
        "last_seen_utc",
    ])?;
    for l in links {
        w.write_record([
            l.source.as_str().to_owned(),
            cell(&l.title),
            cell(&l.snippet),
            cell(&l.link),
            cell(&opt(&l.score)),
            utc(l.first_seen),
            utc(l.last_seen),
        ])?;
    }
    w.flush()?;
    Ok(())
}

/// Archived link results as JSON Lines.
pub fn links_jsonl<'a>(
    links: impl IntoIterator<Item = &'a StoredLink>,
    out: impl Write,
) -> Result<()> {
    json_lines(links, out)
}

/// Escapes the characters that would turn untrusted text into Markdown markup or HTML.
fn escape_markdown(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(
            c,
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '#' | '!'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// A numbered Markdown list citing each post: author, handle, time posted (UTC), text, link,
/// and when the stored copy was fetched.
pub fn citations_markdown<'a>(
    posts: impl IntoIterator<Item = &'a StoredPost>,
    mut out: impl Write,
) -> Result<()> {
    for (n, p) in posts.into_iter().enumerate() {
        let url = p
            .url
            .clone()
            .unwrap_or_else(|| format!("https://x.com/{}/status/{}", p.author_username, p.id));
        writeln!(
            out,
            "{}. **{}** (@{}), {}",
            n + 1,
            escape_markdown(&p.author_name),
            escape_markdown(&p.author_username),
            p.created_at.format("%Y-%m-%d %H:%M UTC"),
        )?;
        for line in p.text.lines() {
            writeln!(out, "   > {}", escape_markdown(line))?;
        }
        writeln!(
            out,
            "   <{}> (fetched {})",
            url.replace('>', "%3E"),
            p.last_seen.format("%Y-%m-%d %H:%M UTC")
        )?;
        writeln!(out)?;
    }
    out.flush()?;
    Ok(())
}

/// Ledger rows as CSV, oldest first: one line per billed answer, money exactly as billed.
pub fn ledger_csv<'a>(
    entries: impl IntoIterator<Item = &'a LedgerEntry>,
    out: impl Write,
) -> Result<()> {
    let mut w = csv::Writer::from_writer(out);
    w.write_record([
        "time_utc",
        "service",
        "operation",
        "key_label",
        "cost",
        "currency",
        "usage_count",
        "history_id",
    ])?;
    for e in entries {
        w.write_record([
            utc(e.at),
            cell(&e.service),
            cell(&e.operation),
            cell(&opt(&e.key_label)),
            e.cost.to_string(),
            cell(&e.currency),
            e.usage_count.to_string(),
            opt(&e.history_id),
        ])?;
    }
    w.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::archive::PostQuery;
    use crate::history::HistoryQuery;
    use crate::test_support::{billing, link, post, record, temp_store};
    use chrono::TimeZone;

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
        history_csv(&entries, &mut buf).unwrap();
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
        history_jsonl(&entries, &mut buf).unwrap();
        let text = String::from_utf8(buf).unwrap();
        let back: HistoryEntry = serde_json::from_str(text.lines().next().unwrap()).unwrap();
        assert_eq!(back, entries[0]);
    }

    #[tokio::test]
    async fn ledger_csv_keeps_the_billed_money_exactly() {
        let (store, _dir) = seeded().await;
        let entries = store.ledger(chrono_tz::UTC, None).await.unwrap();
        let mut buf = Vec::new();
        ledger_csv(&entries, &mut buf).unwrap();
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
        posts_csv(&posts, &mut buf).unwrap();
        let mut reader = csv::Reader::from_reader(buf.as_slice());
        let rows: Vec<csv::StringRecord> = reader.records().map(|r| r.unwrap()).collect();
        assert_eq!(rows.len(), 2);
        assert_eq!(&rows[0][0], "100");
        assert_eq!(&rows[0][5], "'=SUM(A1) \"quoted\", with comma\nsecond line");
        assert_eq!(&rows[0][13], "eclipse");
        assert_eq!(&rows[1][14], "", "a post without a URL has an empty cell");
    }

    #[tokio::test]
    async fn posts_jsonl_embeds_the_raw_record() {
        let (store, _dir) = seeded().await;
        let posts = store.posts(&PostQuery::default()).await.unwrap();
        let mut buf = Vec::new();
        posts_jsonl(&posts, &mut buf).unwrap();
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
        citations_markdown(&posts, &mut buf).unwrap();
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
        links_csv(&links, &mut buf).unwrap();
        let text = String::from_utf8(buf).unwrap();
        assert!(text.starts_with("source,title,snippet,link,score"));
        assert!(text.contains("web,Example page,An example snippet,https://example.org/=x,"));
        let mut buf = Vec::new();
        links_jsonl(&links, &mut buf).unwrap();
        let v: serde_json::Value = serde_json::from_slice(&buf).unwrap();
        assert_eq!(v["source"], "web");
    }
}
