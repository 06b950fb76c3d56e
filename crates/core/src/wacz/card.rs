//! A post's evidence card as its own page in the web archive: the post as archived, the
//! investigation's note and tags, and the capture that brought it (when, the response's
//! address, its SHA-256, which is also that response record's payload digest), or the file an
//! import read it from (name, SHA-256, line: not captured by Sightline). Inert: a
//! Content-Security-Policy that allows no script, no frame and no load of any kind, inline CSS
//! only, every address written as text rather than a link, and everything a stranger or the
//! user wrote HTML-escaped.

use std::fmt::Write as _;

use sightline_store::zone_names::local_seconds;
use sightline_store::Tz;

use crate::evidence::{utc_words, BundlePost, CaptureRecord};
use crate::markup::escape as e;

/// Nothing may load or run; only the page's own `<style>` applies.
const POLICY: &str = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; \
                      form-action 'none'; frame-ancestors 'none'";

const STYLE: &str = ":root{color-scheme:light dark}\
body{margin:0 auto;max-width:40rem;padding:1.5rem;font:15px/1.45 system-ui,sans-serif}\
.meta{opacity:.75;font-size:13px}.text{white-space:pre-wrap;overflow-wrap:anywhere}\
code{font:12px ui-monospace,monospace;overflow-wrap:anywhere}\
.tag{border:1px solid;border-radius:999px;padding:0 8px;margin-right:4px;font-size:12px}\
.note{border-left:3px solid;padding-left:8px}";

/// The card's title: `@handle: ` and the post's first 80 characters on one line.
pub fn title(post: &BundlePost) -> String {
    let text: String = post
        .post
        .text
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let short: String = text.chars().take(80).collect();
    let more = if text.chars().count() > 80 { "…" } else { "" };
    format!("@{}: {short}{more}", post.post.author_username)
}

/// The card's page, UTF-8.
pub fn page(post: &BundlePost, capture: Option<&CaptureRecord>, zone: Tz) -> Vec<u8> {
    let p = &post.post;
    let mut html = String::with_capacity(2048);
    let count = |n: i64, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let _ = write!(
        html,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"{POLICY}\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<main>\n\
         <h1><span>{}</span> <span class=\"meta\">@{}</span>{}</h1>\n\
         <p class=\"meta\">posted {} · {}</p>\n<p class=\"text\">{}</p>\n\
         <p class=\"meta\">{} · {} · {} · {}{} · post <code>{}</code></p>\n",
        e(&title(post)),
        e(&p.author_name),
        e(&p.author_username),
        if p.author_verified { " ✓" } else { "" },
        e(&utc_words(p.created_at)),
        e(&local_seconds(p.created_at, zone)),
        e(&p.text),
        count(p.reply_count, "reply", "replies"),
        count(p.retweet_count, "repost", "reposts"),
        count(p.like_count, "like", "likes"),
        count(p.quote_count, "quote", "quotes"),
        p.view_count
            .map(|v| format!(" · {}", count(v, "view", "views")))
            .unwrap_or_default(),
        e(&p.id),
    );
    if let Some(url) = &p.url {
        let _ = writeln!(html, "<p class=\"meta\">on X: <code>{}</code></p>", e(url));
    }
    if !post.tags.is_empty() {
        html.push_str("<p>");
        for tag in &post.tags {
            let _ = write!(html, "<span class=\"tag\">{}</span>", e(tag));
        }
        html.push_str("</p>\n");
    }
    if !post.note.trim().is_empty() {
        let _ = writeln!(
            html,
            "<p class=\"note text\">{}</p>",
            e(post.note.trim_end())
        );
    }
    if let Some(mark) = &post.imported {
        let _ = writeln!(
            html,
            "<p class=\"meta\">{} {} (SHA-256 <code>{}</code>), line {}{}</p>",
            if mark.also_captured {
                "Also imported from"
            } else {
                "Imported from"
            },
            e(&mark.file_name),
            e(&mark.file_sha256),
            mark.line,
            if mark.also_captured {
                "."
            } else {
                ": not captured by Sightline, so no response of this archive holds it."
            },
        );
    }
    match capture {
        _ if post
            .imported
            .as_ref()
            .is_some_and(|mark| !mark.also_captured) => {}
        Some(c) => {
            let _ = writeln!(
                html,
                "<p class=\"meta\">Captured {} ({}) by Sightline {} from <code>{}</code>, \
                 HTTP {}. SHA-256 of the exact bytes received (the payload digest of that \
                 response's record in this archive): <code>{}</code></p>",
                e(&utc_words(c.captured_at)),
                e(&local_seconds(c.captured_at, zone)),
                e(&c.app_version),
                e(&c.response_url),
                c.http_status,
                e(&c.sha256),
            );
        }
        None => {
            let _ = writeln!(
                html,
                "<p class=\"meta\">First seen {}. The response that brought it was recorded \
                 before Sightline kept provenance: no hash exists for it.</p>",
                e(&utc_words(p.first_seen)),
            );
        }
    }
    html.push_str("</main>\n</body>\n</html>\n");
    html.into_bytes()
}
