//! Export of history and archive selections: CSV, JSON Lines, and a Markdown citation list;
//! forecasts with their own fields and citation (`export/forecasts.rs`). Every function writes
//! to any `impl Write`; the app chooses the file.
//!
//! Every time is written twice, so no reader has to guess a zone: the UTC ISO time
//! (`created_at_utc` in CSV; the field itself in JSON, ending in `Z`) and the time in the display
//! zone the caller passes, its zone named as the screens name it, then its IANA name
//! (`created_at_local`: `2026-11-23 19:04:12 CET (Europe/Paris)`, `… GMT+5:45 (Asia/Kathmandu)`;
//! [`crate::zone_names`]). Citations give UTC and the local time.
//!
//! Every CSV cell is one a spreadsheet reads as written ([`cell`], [`id_cell`]): a formula a stranger typed
//! is defused, and an id keeps every digit.

use std::io::Write;

use chrono::{DateTime, SecondsFormat, Utc};
use chrono_tz::Tz;
use serde::Serialize;

use crate::archive::StoredPost;
use crate::error::Result;
use crate::history::{Billing, HistoryEntry};
use crate::ledger::LedgerEntry;
use crate::zone_names::{local_minutes, local_seconds};

mod cells;
mod forecasts;

pub use cells::{cell, id_cell};
pub use forecasts::{
    forecast_citations_markdown, forecasts_csv, forecasts_jsonl, percent, ForecastExport,
};

/// A time as every file writes it in UTC: RFC 3339 to the second, ending in `Z`.
pub fn utc(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Secs, true)
}

/// A citation's time: `2026-11-23 18:04 UTC = 2026-11-23 19:04 CET (Europe/Paris)`.
fn cited(t: DateTime<Utc>, tz: Tz) -> String {
    let utc = t.format("%Y-%m-%d %H:%M UTC");
    if crate::zone_names::zone_abbreviation(t, tz) == "UTC" {
        utc.to_string()
    } else {
        format!("{utc} = {}", local_minutes(t, tz))
    }
}

fn opt<T: ToString>(v: &Option<T>) -> String {
    v.as_ref().map(ToString::to_string).unwrap_or_default()
}

/// History rows as CSV, one line per request; local times in `tz`.
pub fn history_csv<'a>(
    entries: impl IntoIterator<Item = &'a HistoryEntry>,
    tz: Tz,
    out: impl Write,
) -> Result<()> {
    let mut w = csv::Writer::from_writer(out);
    w.write_record([
        "id",
        "request_id",
        "started_at_utc",
        "started_at_local",
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
            id_cell(&e.request_id),
            utc(e.started_at),
            local_seconds(e.started_at, tz),
            cell(&e.operation),
            cell(&e.params_json),
            cell(&opt(&e.key_label)),
            cell(&e.mode),
            e.status.as_str().to_owned(),
            cell(&opt(&e.error_class)),
            cell(&opt(&e.error_message)),
            e.duration_ms.to_string(),
            e.result_count.to_string(),
            billing.map(Billing::cost_words).unwrap_or_default(),
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

/// History rows as JSON Lines: the same fields as the app sees (money as strings,
/// `started_at` in UTC) and `started_at_local` in `tz`.
pub fn history_jsonl<'a>(
    entries: impl IntoIterator<Item = &'a HistoryEntry>,
    tz: Tz,
    out: impl Write,
) -> Result<()> {
    #[derive(Serialize)]
    struct Line<'e> {
        #[serde(flatten)]
        entry: &'e HistoryEntry,
        started_at_local: String,
    }
    json_lines(
        entries.into_iter().map(|entry| Line {
            entry,
            started_at_local: local_seconds(entry.started_at, tz),
        }),
        out,
    )
}

/// Archived posts as CSV; local times in `tz`.
pub fn posts_csv<'a>(
    posts: impl IntoIterator<Item = &'a StoredPost>,
    tz: Tz,
    out: impl Write,
) -> Result<()> {
    let mut w = csv::Writer::from_writer(out);
    w.write_record([
        "id",
        "created_at_utc",
        "created_at_local",
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
        "first_seen_local",
        "last_seen_utc",
        "last_seen_local",
    ])?;
    for p in posts {
        w.write_record([
            id_cell(&p.id),
            utc(p.created_at),
            local_seconds(p.created_at, tz),
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
            id_cell(&opt(&p.conversation_id)),
            utc(p.first_seen),
            local_seconds(p.first_seen, tz),
            utc(p.last_seen),
            local_seconds(p.last_seen, tz),
        ])?;
    }
    w.flush()?;
    Ok(())
}

/// Archived posts as JSON Lines; times in UTC and (`*_local`) in `tz`; `raw` is the record
/// exactly as the service sent it.
pub fn posts_jsonl<'a>(
    posts: impl IntoIterator<Item = &'a StoredPost>,
    tz: Tz,
    out: impl Write,
) -> Result<()> {
    #[derive(Serialize)]
    struct Line<'p> {
        #[serde(flatten)]
        post: &'p StoredPost,
        created_at_local: String,
        first_seen_local: String,
        last_seen_local: String,
        raw: serde_json::Value,
    }
    let mut lines = Vec::new();
    for post in posts {
        // A raw record that is not JSON (it always should be) is kept as a string.
        let raw = serde_json::from_str(&post.raw_json)
            .unwrap_or_else(|_| serde_json::Value::String(post.raw_json.clone()));
        lines.push(Line {
            post,
            created_at_local: local_seconds(post.created_at, tz),
            first_seen_local: local_seconds(post.first_seen, tz),
            last_seen_local: local_seconds(post.last_seen, tz),
            raw,
        });
    }
    json_lines(lines, out)
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

/// A numbered Markdown list citing each post: author, handle, time posted (UTC, and in `tz`),
/// text, link, and when the stored copy was fetched; a blank line between posts. The UI's
/// "Copy citation" writes the same (`ui/src/features/post/citation.ts`): both run the case
/// table `tests/fixtures/citation-cases.json`.
pub fn citations_markdown<'a>(
    posts: impl IntoIterator<Item = &'a StoredPost>,
    tz: Tz,
    mut out: impl Write,
) -> Result<()> {
    for (n, p) in posts.into_iter().enumerate() {
        if n > 0 {
            writeln!(out)?;
        }
        let name = [&p.author_name, &p.author_username]
            .into_iter()
            .find(|name| !name.is_empty())
            .map_or("Unknown author", |name| name.as_str());
        let handle = if p.author_username.is_empty() {
            String::new()
        } else {
            format!(" (@{})", escape_markdown(&p.author_username))
        };
        writeln!(
            out,
            "{}. **{}**{handle}, {}",
            n + 1,
            escape_markdown(name),
            cited(p.created_at, tz),
        )?;
        for line in p.text.lines() {
            writeln!(out, "   > {}", escape_markdown(line))?;
        }
        writeln!(
            out,
            "   <{}> (fetched {})",
            post_link(p).replace('>', "%3E"),
            cited(p.last_seen, tz)
        )?;
    }
    out.flush()?;
    Ok(())
}

/// A citation's link: the post's own when it is a web address (never a `javascript:` one a
/// Markdown reader would make clickable), else its address on X.
fn post_link(p: &StoredPost) -> String {
    let web = |url: &&str| {
        ["http://", "https://"].iter().any(|scheme| {
            url.get(..scheme.len())
                .is_some_and(|start| start.eq_ignore_ascii_case(scheme))
        })
    };
    match p.url.as_deref().filter(web) {
        Some(url) => url.to_owned(),
        None => {
            let handle = if p.author_username.is_empty() {
                "i"
            } else {
                &p.author_username
            };
            format!(
                "https://x.com/{}/status/{}",
                url_part(handle),
                url_part(&p.id)
            )
        }
    }
}

/// `text` as one part of a URL's path, escaped as a browser's `encodeURIComponent` escapes it.
fn url_part(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || b"-_.!~*'()".contains(&byte) {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// Ledger rows as CSV, oldest first: one line per billed answer, its cost as the ledger counts
/// it (rounded half-even to the nano-dollar, or `unreadable`) and as the service wrote it;
/// local times in `tz` (the zone Spend counts its days in).
pub fn ledger_csv<'a>(
    entries: impl IntoIterator<Item = &'a LedgerEntry>,
    tz: Tz,
    out: impl Write,
) -> Result<()> {
    let mut w = csv::Writer::from_writer(out);
    w.write_record([
        "time_utc",
        "time_local",
        "service",
        "operation",
        "key_label",
        "cost",
        "currency",
        "usage_count",
        "history_id",
        "cost_as_sent",
    ])?;
    for e in entries {
        w.write_record([
            utc(e.at),
            local_seconds(e.at, tz),
            cell(&e.service),
            cell(&e.operation),
            cell(&opt(&e.key_label)),
            e.cost_words(),
            cell(&e.currency),
            e.usage_count.to_string(),
            opt(&e.history_id),
            cell(&opt(&e.cost_text)),
        ])?;
    }
    w.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests;
