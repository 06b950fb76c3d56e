//! `/web` (search over the synthetic web) and `/web/crawl` (a page as text or HTML).

use super::{Ctx, Outcome};
use crate::validate::{Query, MAX_QUERY_CHARS};
use crate::world::text::{contains_words, is_stopword, tokens};
use crate::world::web::{render_html, render_text};
use crate::world::Page;
use serde_json::{json, Value};

/// Results per page of `/web`.
const PAGE: usize = 10;

/// `GET /web`
pub fn search(ctx: &Ctx<'_>, raw: Option<&str>) -> Outcome {
    let mut q = Query::parse(raw);
    let text = q.required_str("query");
    q.limit_chars("query", &text, MAX_QUERY_CHARS);
    let start = q.int_in("start", 0, 0, 100) as usize;
    if !q.problems.is_empty() {
        return Outcome::invalid(&q.problems);
    }
    let terms: Vec<String> = tokens(&text).filter(|t| !is_stopword(t)).collect();
    let mut scored: Vec<(usize, &Page)> = ctx
        .world
        .pages
        .iter()
        .filter(|p| p.published_ms <= ctx.now_ms)
        .map(|p| {
            (
                terms.iter().filter(|t| contains_words(&p.lower, t)).count(),
                p,
            )
        })
        .filter(|(hits, _)| *hits > 0)
        .collect();
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.published_ms.cmp(&a.1.published_ms)));
    let data: Vec<Value> = scored
        .iter()
        .skip(start)
        .take(PAGE)
        .map(|(_, p)| json!({ "title": p.title, "snippet": p.snippet, "link": p.link }))
        .collect();
    Outcome::json(&json!({ "data": data }), 1)
}

/// The page behind a URL, forgiving `http`, a trailing slash and fragments.
fn find_page<'w>(ctx: &Ctx<'w>, url: &str) -> Option<&'w Page> {
    let url = url.trim().split('#').next().unwrap_or("");
    let https = match url.strip_prefix("http://") {
        Some(rest) => format!("https://{rest}"),
        None => url.to_string(),
    };
    let candidates = [
        https.clone(),
        format!("{}/", https.trim_end_matches('/')),
        https.trim_end_matches('/').to_string(),
    ];
    candidates
        .iter()
        .find_map(|c| ctx.world.page_by_link.get(c))
        .map(|&i| &ctx.world.pages[i as usize])
}

/// `GET /web/crawl`
pub fn crawl(ctx: &Ctx<'_>, raw: Option<&str>) -> Outcome {
    let mut q = Query::parse(raw);
    let url = q.required_str("url");
    let format = q.enumeration("format", &["html", "text"], "text");
    if q.get("url").is_some() && !(url.starts_with("http://") || url.starts_with("https://")) {
        q.problems.push(
            "url_parsing",
            vec![Value::from("query"), Value::from("url")],
            "Input should be a valid URL, relative URL without a base",
            Value::from(url.as_str()),
            Some(json!({ "error": "relative URL without a base" })),
        );
    }
    if !q.problems.is_empty() {
        return Outcome::invalid(&q.problems);
    }
    if let Some(post) = super::x::status_id(&url).and_then(|id| ctx.posts.with_id(id)) {
        // A post link crawls to the post's text.
        let p = ctx.posts.get(post);
        let author = &ctx.world.users[p.author as usize];
        let body = format!(
            "{} (@{}) on X\n\n{}\n",
            author.name, author.username, p.text
        );
        return Outcome::Text {
            body,
            content_type: "text/plain; charset=utf-8",
            usage: 1,
        };
    }
    let Some(page) = find_page(ctx, &url) else {
        return Outcome::Error {
            status: 404,
            body: json!({ "detail": "Page not found: the sandbox web has no page at this URL" }),
        };
    };
    let body = if format == "html" {
        let related: Vec<&Page> = ctx
            .world
            .pages
            .iter()
            .filter(|p| p.topic == page.topic && p.subject == page.subject && p.link != page.link)
            .take(5)
            .collect();
        render_html(page, &related)
    } else {
        render_text(page)
    };
    // The contract gives `text/plain` for both formats.
    Outcome::Text {
        body,
        content_type: "text/plain; charset=utf-8",
        usage: 1,
    }
}
