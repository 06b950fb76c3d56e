//! `report.html`: the bundle for a reader who is not a programmer. One page that opens offline
//! in any browser: inline CSS only, no script, no font and no link to load, and no image but
//! the bundle's own media files, by their path inside it, in safe view (grey and blurred until
//! revealed one by one, `report/media.rs`), so it shows the same in ten years and cannot call
//! anywhere. Everything that came from the
//! service or the user is HTML-escaped (post text is written by strangers). Light and dark
//! follow the reader's system; printing drops the backgrounds and keeps cards whole.
//!
//! Near the top: who collected it, with which tool and version, on which system, and the
//! installation's fingerprint (the key that signed the manifest). Each post carries the
//! Berkeley Protocol's collection fields: what was asked (operation and parameters), of which
//! service, when by this computer's clock and by the timestamp authority (or why not stamped),
//! by whom, with which tool and version, and the hash of the response it came in. A post an
//! import brought carries instead the file it was read from (name, SHA-256, line) and says it
//! was not captured by Sightline: no collection fields, capture or timestamp it did not earn.

use std::collections::HashMap;
use std::io::Write;

use sightline_api::Operation;

use crate::markup::escape;

use sightline_store::zone_names::local_seconds;

use super::media::MediaWritten;
use super::seal::Seal;
use super::{utc_words, Bundle, BundlePost, BundleRequest, CostLine, StampState};
use sightline_store::MediaItemRecord;

mod media;

const STYLE: &str = r#"
:root { color-scheme: light dark; --fg: #1d1f23; --muted: #5a5f69; --bg: #ffffff;
  --card: #f6f7f9; --line: #d5d8de; --accent: #1f5fbf; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e7e9ee; --muted: #a9afbb; --bg: #16181c; --card: #1f2228; --line: #3a3f49;
    --accent: #8ab4f8; }
}
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 60rem; padding: 2rem 1.5rem; background: var(--bg);
  color: var(--fg); font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; }
h1 { font-size: 1.6rem; margin: 0 0 .25rem; }
h2 { font-size: 1.15rem; margin: 2rem 0 .5rem; border-bottom: 1px solid var(--line);
  padding-bottom: .25rem; }
.muted, .meta { color: var(--muted); }
.meta { font-size: 12px; }
table { border-collapse: collapse; width: 100%; margin: 0 0 1rem;
  font-variant-numeric: tabular-nums; }
caption { text-align: left; padding: 0 8px 2px; }
th, td { text-align: left; vertical-align: top; padding: 4px 8px;
  border-bottom: 1px solid var(--line); }
td.money, th.money { text-align: right; white-space: nowrap; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 8px;
  padding: 12px; margin: 0 0 12px; break-inside: avoid; }
.text, .notebook { white-space: pre-wrap; overflow-wrap: anywhere; }
.hash, code { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 12px;
  overflow-wrap: anywhere; }
.tag { display: inline-block; border: 1px solid var(--accent); color: var(--accent);
  border-radius: 999px; padding: 0 8px; margin: 2px 4px 0 0; font-size: 12px; }
dl.fields { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px;
  margin: 8px 0 0; font-size: 12px; }
dl.fields dt { color: var(--muted); }
dl.fields dd { margin: 0; overflow-wrap: anywhere; }
.note { border-left: 3px solid var(--accent); padding-left: 8px; margin-top: 8px; }
.total { font-size: 1.3rem; font-weight: 600; font-variant-numeric: tabular-nums; }
@media print {
  :root { --bg: #fff; --card: #fff; --fg: #000; --muted: #333; }
  body { max-width: none; padding: 0; }
}
"#;

/// Writes the page.
pub fn write(
    bundle: &Bundle,
    seal: &Seal<'_>,
    body_files: &[Option<String>],
    written_media: &MediaWritten,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let e = escape;
    let zone = bundle.zone;
    writeln!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{} · evidence bundle</title>\n<style>{STYLE}{}</style>\n</head>\n<body>",
        e(&bundle.name),
        media::STYLE
    )?;
    writeln!(out, "<header>\n<h1>{}</h1>", e(&bundle.name))?;
    if !bundle.description.trim().is_empty() {
        writeln!(
            out,
            "<p class=\"text\">{}</p>",
            e(bundle.description.trim())
        )?;
    }
    writeln!(
        out,
        "<p class=\"meta\">Evidence bundle made by Sightline {} on {} ({}). Times are shown in \
         UTC and in {}. Each response's SHA-256 below is the hash of the exact bytes received; \
         the file SHA256SUMS beside this page lets anyone check that no file was changed.</p>\n\
         </header>",
        e(&bundle.app_version),
        e(&utc_words(bundle.created_at)),
        e(&local_seconds(bundle.created_at, zone)),
        e(zone.name()),
    )?;

    writeln!(
        out,
        "<section>\n<h2>Collection</h2>\n<dl class=\"fields\">\
         <dt>Collected by</dt><dd>{}</dd>\
         <dt>Tool</dt><dd>{} {}</dd>\
         <dt>System</dt><dd>{}</dd>\
         <dt>Installation fingerprint</dt><dd class=\"hash\" id=\"installation-fingerprint\">{}</dd>\
         <dt>Timestamp authority</dt><dd>{}</dd>\
         </dl>\n<p class=\"meta\">The fingerprint is that of the key that signed this \
         bundle's manifest (manifest.sig, checked with signing-key.pem: see VERIFY.txt). \
         Compare it with the one the collector shows in Sightline's Settings.</p>\n</section>",
        e(seal.collector.as_deref().unwrap_or("not named")),
        e(seal.tool.0),
        e(&seal.tool.1),
        e(&seal.os),
        e(&seal.signer.public_key().fingerprint()),
        e(seal.authority.as_deref().unwrap_or("none set")),
    )?;

    cost_section(bundle, out)?;

    let (own, bringing): (Vec<_>, Vec<_>) = bundle
        .requests
        .iter()
        .zip(body_files)
        .partition(|(request, _)| !request.only_brought_posts);
    writeln!(out, "<section>\n<h2>Queries ({})</h2>", own.len())?;
    if own.is_empty() {
        writeln!(out, "<p class=\"muted\">No queries.</p>")?;
    }
    for (request, file) in own {
        query_card(bundle, request, file.as_deref(), out)?;
    }
    writeln!(out, "</section>")?;
    if !bringing.is_empty() {
        writeln!(
            out,
            "<section>\n<h2>Responses that brought posts added on their own ({})</h2>\n\
             <p class=\"meta\">The posts added on their own came in these responses. They are \
             here so that every post carries its capture; their cost is not counted above.</p>",
            bringing.len()
        )?;
        for (request, file) in bringing {
            query_card(bundle, request, file.as_deref(), out)?;
        }
        writeln!(out, "</section>")?;
    }

    writeln!(out, "<section>\n<h2>Notebook</h2>")?;
    if bundle.notebook.trim().is_empty() {
        writeln!(out, "<p class=\"muted\">The notebook is empty.</p>")?;
    } else {
        writeln!(
            out,
            "<div class=\"card notebook\">{}</div>",
            e(bundle.notebook.trim_end())
        )?;
    }
    writeln!(out, "</section>")?;

    writeln!(out, "<section>\n<h2>Posts ({})</h2>", bundle.posts.len())?;
    if bundle.posts.is_empty() {
        writeln!(out, "<p class=\"muted\">No posts.</p>")?;
    }
    if !bundle.media.is_empty() {
        writeln!(out, "<p class=\"meta\">{}</p>", media::SAFE_VIEW_WORDS)?;
    }
    let requests: HashMap<i64, &BundleRequest> =
        bundle.requests.iter().map(|r| (r.entry.id, r)).collect();
    let mut media_of: HashMap<&str, Vec<&MediaItemRecord>> = HashMap::new();
    for item in &bundle.media {
        media_of.entry(&item.post_id).or_default().push(item);
    }
    for post in &bundle.posts {
        let items = media_of.get(post.post.id.as_str()).map(Vec::as_slice);
        post_card(bundle, seal, &requests, post, out)?;
        media::write(items.unwrap_or_default(), written_media, zone, out)?;
        writeln!(out, "</article>")?;
    }
    writeln!(out, "</section>\n</body>\n</html>")
}

fn money(amount: &rust_decimal::Decimal, currency: &str) -> String {
    let amount = amount.normalize();
    match currency {
        "" | "USD" => format!("${amount}"),
        other => format!("{amount} {other}"),
    }
}

/// `1 repost`, `2 reposts`, `0 reposts`.
fn count(n: i64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn cost_section(bundle: &Bundle, out: &mut dyn Write) -> std::io::Result<()> {
    let cost = &bundle.cost;
    writeln!(
        out,
        "<section>\n<h2>What it cost</h2>\n<p class=\"total\">{}</p>\n\
         <p class=\"meta\">Exact, from the spend ledger: what the service billed for these \
         requests.</p>",
        escape(&money(&cost.total, &cost.currency))
    )?;
    let table = |out: &mut dyn Write,
                 title: &str,
                 column: &str,
                 lines: &[CostLine]|
     -> std::io::Result<()> {
        writeln!(
            out,
            "<table>\n<caption class=\"meta\">{}</caption>\n<thead><tr><th scope=\"col\">{}</th>\
             <th scope=\"col\" class=\"money\">Requests</th><th scope=\"col\" class=\"money\">\
             Cost</th></tr></thead>\n<tbody>",
            escape(title),
            escape(column),
        )?;
        for line in lines {
            writeln!(
                out,
                "<tr><td>{}</td><td class=\"money\">{}</td><td class=\"money\">{}</td></tr>",
                escape(&line.label),
                line.requests,
                escape(&money(&line.cost, &cost.currency))
            )?;
        }
        writeln!(out, "</tbody>\n</table>")
    };
    if !cost.by_day.is_empty() {
        table(
            out,
            &format!("By day ({})", bundle.zone.name()),
            "Day",
            &cost.by_day,
        )?;
    }
    if !cost.by_operation.is_empty() {
        // In words (“X search”); the bundle's data keeps the stored names.
        let named: Vec<CostLine> = cost
            .by_operation
            .iter()
            .map(|line| CostLine {
                label: Operation::label_of(&line.label).to_owned(),
                ..line.clone()
            })
            .collect();
        table(out, "By operation", "Operation", &named)?;
    }
    writeln!(out, "</section>")
}

fn query_card(
    bundle: &Bundle,
    request: &BundleRequest,
    body_file: Option<&str>,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let e = escape;
    let entry = &request.entry;
    let cost = entry
        .billing
        .as_ref()
        .map(|b| match &b.cost {
            Some(cost) => money(cost, &b.currency),
            None => format!(
                "cost unreadable (sent as \"{}\")",
                b.cost_text.as_deref().unwrap_or_default()
            ),
        })
        .unwrap_or_else(|| "not billed".into());
    writeln!(
        out,
        "<article class=\"card\">\n<strong>{}</strong> · {} · {} results · {}\n\
         <div class=\"meta\">sent {} · {}</div>\n<div class=\"hash\">{}</div>",
        e(Operation::label_of(&entry.operation)),
        e(entry.status.as_str()),
        entry.result_count,
        e(&cost),
        e(&utc_words(entry.started_at)),
        e(&local_seconds(entry.started_at, bundle.zone)),
        e(&entry.params_json),
    )?;
    match &request.capture {
        Some(capture) => {
            let at = capture.captured_at;
            writeln!(
                out,
                "<div class=\"meta\">captured {} · {} · from {} · HTTP {} · Sightline {}</div>\n\
                 <div class=\"meta\">sha256 <span class=\"hash\">{}</span>{}</div>",
                e(&utc_words(at)),
                e(&local_seconds(at, bundle.zone)),
                e(&capture.service_address),
                capture.http_status,
                e(&capture.app_version),
                e(&capture.sha256),
                body_file
                    .map(|f| format!(" · body in {}", e(f)))
                    .unwrap_or_default(),
            )?;
            if !capture.billing_headers.is_empty() {
                let headers: Vec<String> = capture
                    .billing_headers
                    .iter()
                    .map(|(k, v)| format!("{}: {}", e(k), e(v)))
                    .collect();
                writeln!(
                    out,
                    "<div class=\"meta\">billing headers: {}</div>",
                    headers.join(" · ")
                )?;
            }
        }
        None => writeln!(
            out,
            "<div class=\"meta\">captured before provenance was kept (no hash recorded)</div>"
        )?,
    }
    writeln!(out, "</article>")
}

/// A post's card, left open: the caller adds its media and closes it.
fn post_card(
    bundle: &Bundle,
    seal: &Seal<'_>,
    requests: &HashMap<i64, &BundleRequest>,
    p: &BundlePost,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let e = escape;
    let post = &p.post;
    writeln!(
        out,
        "<article class=\"card\">\n<div><strong>{}</strong> <span class=\"muted\">@{}</span>{}\
         </div>\n<div class=\"meta\">posted {} · {}</div>\n<p class=\"text\">{}</p>\n\
         <div class=\"meta\">{} · {} · {} · {}{} · post {}</div>",
        e(&post.author_name),
        e(&post.author_username),
        if post.author_verified { " ✓" } else { "" },
        e(&utc_words(post.created_at)),
        e(&local_seconds(post.created_at, bundle.zone)),
        e(&post.text),
        count(post.reply_count, "reply", "replies"),
        count(post.retweet_count, "repost", "reposts"),
        count(post.like_count, "like", "likes"),
        count(post.quote_count, "quote", "quotes"),
        post.view_count
            .map(|v| format!(" · {}", count(v, "view", "views")))
            .unwrap_or_default(),
        e(&post.id),
    )?;
    // The address as text, not a link: the page loads and opens nothing by itself.
    if let Some(url) = &post.url {
        writeln!(out, "<div class=\"meta hash\">{}</div>", e(url))?;
    }
    let only_imported = p.imported.as_ref().filter(|mark| !mark.also_captured);
    match (p.found_by.and_then(|id| requests.get(&id)), only_imported) {
        (Some(request), _) => collection_fields(bundle, seal, request, out)?,
        // Not collected by Sightline: no capture, receipt or collection fields it did not earn.
        (None, Some(mark)) => writeln!(
            out,
            "<div class=\"meta imported\">Imported from {} (sha256 <span class=\"hash\">{}\
             </span>), line {}, on {} · {}: not captured by Sightline, so it has no capture \
             record or timestamp of its own</div>",
            e(&mark.file_name),
            e(&mark.file_sha256),
            mark.line,
            e(&utc_words(mark.imported_at)),
            e(&local_seconds(mark.imported_at, bundle.zone)),
        )?,
        (None, None) => writeln!(
            out,
            "<div class=\"meta\">first seen {} · {} (the response that brought it is not \
             known)</div>",
            e(&utc_words(post.first_seen)),
            e(&local_seconds(post.first_seen, bundle.zone)),
        )?,
    }
    if let Some(mark) = p.imported.as_ref().filter(|mark| mark.also_captured) {
        writeln!(
            out,
            "<div class=\"meta imported\">Also imported from {} (sha256 <span class=\"hash\">{}\
             </span>), line {}</div>",
            e(&mark.file_name),
            e(&mark.file_sha256),
            mark.line,
        )?;
    }
    if !p.tags.is_empty() {
        let tags: String = p
            .tags
            .iter()
            .map(|t| format!("<span class=\"tag\">{}</span>", e(t)))
            .collect();
        writeln!(out, "<div>{tags}</div>")?;
    }
    if !p.note.trim().is_empty() {
        writeln!(
            out,
            "<div class=\"note text\">{}</div>",
            e(p.note.trim_end())
        )?;
    }
    Ok(())
}

/// The Berkeley Protocol's collection fields for a post: the request and response it came in.
fn collection_fields(
    bundle: &Bundle,
    seal: &Seal<'_>,
    request: &BundleRequest,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let e = escape;
    let entry = &request.entry;
    let zone = bundle.zone;
    let (service, captured, stamped, hash) = match &request.capture {
        Some(capture) => {
            let at = capture.captured_at;
            let stamped = match &request.stamp {
                StampState::Stamped(token) => format!(
                    "{} · {} (by {})",
                    e(&utc_words(token.stamped_at)),
                    e(&local_seconds(token.stamped_at, zone)),
                    e(&token.authority)
                ),
                StampState::Waiting => {
                    "not stamped: waiting for the timestamp authority".to_owned()
                }
                StampState::Failed(why) => format!("not stamped: {}", e(why.as_str())),
                StampState::NotAsked => "not stamped: no timestamp authority was set".to_owned(),
            };
            (
                e(&capture.service_address),
                format!("{} · {}", e(&utc_words(at)), e(&local_seconds(at, zone))),
                stamped,
                format!("<span class=\"hash\">{}</span>", e(&capture.sha256)),
            )
        }
        None => (
            "not recorded".to_owned(),
            "not recorded (captured before provenance was kept)".to_owned(),
            "not stamped: captured before provenance was kept".to_owned(),
            "none recorded".to_owned(),
        ),
    };
    let tool_version = request
        .capture
        .as_ref()
        .map_or(seal.tool.1.as_str(), |c| c.app_version.as_str());
    writeln!(
        out,
        "<dl class=\"fields\">\
         <dt>Asked</dt><dd>{} <span class=\"hash\">{}</span></dd>\
         <dt>Of</dt><dd>{service}</dd>\
         <dt>Captured (this computer)</dt><dd>{captured}</dd>\
         <dt>Stamped (authority)</dt><dd>{stamped}</dd>\
         <dt>Collected by</dt><dd>{}</dd>\
         <dt>Tool</dt><dd>{} {}</dd>\
         <dt>SHA-256</dt><dd>{hash}</dd>\
         </dl>",
        e(Operation::label_of(&entry.operation)),
        e(&entry.params_json),
        e(seal.collector.as_deref().unwrap_or("not named")),
        e(seal.tool.0),
        e(tool_version),
    )
}
