//! The synthetic web behind the AI search, the link searches, `/web` and `/web/crawl`.

use super::corpus::{self, TOPICS};
use super::DAY_MS;
use crate::rng::{url_safe_chars, Rng};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PageKind {
    Web,
    Youtube,
    Wikipedia,
    Arxiv,
    Reddit,
    HackerNews,
}

impl PageKind {
    pub const ALL: [PageKind; 6] = [
        PageKind::Web,
        PageKind::Youtube,
        PageKind::Wikipedia,
        PageKind::Arxiv,
        PageKind::Reddit,
        PageKind::HackerNews,
    ];

    /// Source name used in summaries.
    pub fn label(self) -> &'static str {
        match self {
            PageKind::Web => "the web",
            PageKind::Youtube => "YouTube",
            PageKind::Wikipedia => "Wikipedia",
            PageKind::Arxiv => "arXiv",
            PageKind::Reddit => "Reddit",
            PageKind::HackerNews => "Hacker News",
        }
    }
}

#[derive(Debug, Clone)]
pub struct Page {
    pub kind: PageKind,
    pub topic: u8,
    pub subject: &'static str,
    pub title: String,
    pub snippet: String,
    pub link: String,
    pub published_ms: i64,
    /// Seed for the page body, rendered on demand by `/web/crawl`.
    pub body_seed: u64,
    /// Lower-cased title and snippet for matching.
    pub lower: String,
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

fn fill(template: &str, subject: &str) -> String {
    template
        .replace("{Subject}", &capitalise(subject))
        .replace("{subject}", subject)
}

fn slug(text: &str) -> String {
    let mut out = String::new();
    for w in super::text::tokens(text).take(8) {
        if !out.is_empty() {
            out.push('-');
        }
        out.push_str(&w);
    }
    out
}

fn english_sentence(rng: &mut Rng, topic: usize) -> String {
    let s = rng.pick(TOPICS[topic].sentences[0]);
    s.replace("{n}", &(2 + rng.below(60)).to_string())
}

/// A date in the two years before `now`, skewed towards the present (the web is fresher).
fn published(rng: &mut Rng, now_ms: i64) -> i64 {
    let u = rng.unit();
    now_ms - 60_000 - (u * u * u * (730 * DAY_MS) as f64) as i64
}

fn month_day_year(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .map(|d| d.format("%b %-d, %Y").to_string())
        .unwrap_or_default()
}

pub fn generate_pages(seed: u64, now_ms: i64) -> Vec<Page> {
    let mut rng = Rng::derive(seed, 0x00EB);
    let mut pages = Vec::new();
    let mut article = 100_000;
    for (t, topic) in TOPICS.iter().enumerate() {
        for subject in topic.subjects {
            let wiki_title = capitalise(subject);
            let mut add = |rng: &mut Rng, kind: PageKind, title: String, link: String| {
                let when = if kind == PageKind::Wikipedia {
                    now_ms - rng.below(20) as i64 * DAY_MS / 2 - 3_600_000
                } else {
                    published(rng, now_ms)
                };
                let sentence = english_sentence(rng, t);
                let snippet = match kind {
                    PageKind::Wikipedia => format!(
                        "{wiki_title}: an overview of {subject} in {}, its history, current developments and debates. {sentence}",
                        topic.name
                    ),
                    PageKind::Youtube => format!("In this video we look at {subject}. {sentence}"),
                    _ => format!("{} — On {subject}: {sentence}", month_day_year(when)),
                };
                let lower = format!("{title} {snippet}").to_lowercase();
                pages.push(Page {
                    kind,
                    topic: t as u8,
                    subject,
                    title,
                    snippet,
                    link,
                    published_ms: when,
                    body_seed: rng.next_u64(),
                    lower,
                });
            };
            for _ in 0..4 {
                let title = fill(rng.pick(corpus::WEB_TITLE_TEMPLATES), subject);
                let site = if rng.chance(0.6) {
                    corpus::NEWS_SITES[corpus::TOPIC_SITES[t]]
                } else {
                    corpus::NEWS_SITES[if rng.chance(0.5) { 0 } else { 9 }]
                };
                // News URLs carry an article number, which also keeps them unique.
                let link = format!(
                    "https://{site}/{}/{}-{}",
                    2024 + rng.below(2),
                    slug(&title),
                    article
                );
                article += 1;
                add(&mut rng, PageKind::Web, title, link);
            }
            for _ in 0..2 {
                let title = fill(rng.pick(corpus::YOUTUBE_TITLE_TEMPLATES), subject);
                let link = format!(
                    "https://www.youtube.com/watch?v={}",
                    url_safe_chars(&mut rng, 11)
                );
                add(&mut rng, PageKind::Youtube, title, link);
            }
            let link = format!(
                "https://en.wikipedia.org/wiki/{}",
                wiki_title.replace(' ', "_")
            );
            add(
                &mut rng,
                PageKind::Wikipedia,
                format!("{wiki_title} - Wikipedia"),
                link,
            );
            for _ in 0..2 {
                let title = fill(rng.pick(corpus::ARXIV_TITLE_TEMPLATES), subject);
                let link = format!(
                    "https://arxiv.org/abs/{}{:02}.{:05}",
                    23 + rng.below(3),
                    1 + rng.below(12),
                    rng.below(99_999)
                );
                add(&mut rng, PageKind::Arxiv, title, link);
            }
            for _ in 0..3 {
                let title = fill(rng.pick(corpus::REDDIT_TITLE_TEMPLATES), subject);
                let link = format!(
                    "https://www.reddit.com/r/{}/comments/{}/{}/",
                    topic.subreddit,
                    to_base36(rng.next_u64() % 2_000_000_000),
                    slug(&title).replace('-', "_")
                );
                add(
                    &mut rng,
                    PageKind::Reddit,
                    format!("{title} : r/{}", topic.subreddit),
                    link,
                );
            }
            for _ in 0..2 {
                let title = fill(rng.pick(corpus::HN_TITLE_TEMPLATES), subject);
                let link = format!(
                    "https://news.ycombinator.com/item?id={}",
                    38_000_000 + rng.below(4_000_000)
                );
                add(&mut rng, PageKind::HackerNews, title, link);
            }
        }
    }
    pages
}

fn to_base36(mut n: u64) -> String {
    const DIGITS: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut out = Vec::new();
    loop {
        out.push(DIGITS[(n % 36) as usize]);
        n /= 36;
        if n == 0 {
            break;
        }
    }
    out.reverse();
    String::from_utf8(out).expect("ascii")
}

/// Paragraphs of a page's body, derived from its seed: same page, same content.
pub fn body_paragraphs(page: &Page) -> Vec<String> {
    let mut rng = Rng::new(page.body_seed);
    let topic = &TOPICS[page.topic as usize];
    // Each sentence of the topic at most once per page, in a page-specific order.
    let mut order: Vec<usize> = (0..topic.sentences[0].len()).collect();
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i + 1));
    }
    let mut sentences = order
        .into_iter()
        .map(|i| topic.sentences[0][i].replace("{n}", &(2 + rng.below(60)).to_string()));
    let mut paragraphs = vec![page.snippet.clone()];
    paragraphs.push(format!(
        "This page looks at {} and what it means for {}.",
        page.subject, topic.name
    ));
    loop {
        let p: Vec<String> = sentences.by_ref().take(2).collect();
        if p.is_empty() {
            break;
        }
        paragraphs.push(p.join(" "));
    }
    let related: Vec<&str> = topic
        .subjects
        .iter()
        .copied()
        .filter(|s| *s != page.subject)
        .collect();
    paragraphs.push(format!(
        "Related: {} and {}.",
        related[page.body_seed as usize % related.len()],
        related[(page.body_seed / 7) as usize % related.len()]
    ));
    // Real pages sometimes quote markup; a crawler client must not execute it.
    if page.body_seed % 7 == 0 {
        paragraphs.push(corpus::HOSTILE_SNIPPETS[(page.body_seed % 5) as usize].to_string());
    }
    paragraphs
}

fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// The page as plain text: title, then paragraphs.
pub fn render_text(page: &Page) -> String {
    let mut out = format!("{}\n\n", page.title);
    for p in body_paragraphs(page) {
        out.push_str(&p);
        out.push_str("\n\n");
    }
    out.truncate(out.trim_end().len());
    out.push('\n');
    out
}

/// The page as an HTML document, with links to related pages of the same topic.
pub fn render_html(page: &Page, related: &[&Page]) -> String {
    let mut out = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n</head>\n<body>\n<article>\n<h1>{}</h1>\n",
        escape_html(&page.title),
        escape_html(&page.title)
    );
    for p in body_paragraphs(page) {
        out.push_str(&format!("<p>{}</p>\n", escape_html(&p)));
    }
    out.push_str("</article>\n<aside>\n<ul>\n");
    for r in related {
        out.push_str(&format!(
            "<li><a href=\"{}\">{}</a></li>\n",
            escape_html(&r.link),
            escape_html(&r.title)
        ));
    }
    out.push_str("</ul>\n</aside>\n</body>\n</html>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_cover_every_kind_and_are_deterministic() {
        let a = generate_pages(3, 1_800_000_000_000);
        let b = generate_pages(3, 1_800_000_000_000);
        assert_eq!(a.len(), b.len());
        assert_eq!(a[17].link, b[17].link);
        for kind in PageKind::ALL {
            assert!(
                a.iter().filter(|p| p.kind == kind).count() >= 40,
                "{kind:?}"
            );
        }
        assert!(a.iter().all(|p| p.link.starts_with("https://")));
        let unique: std::collections::HashSet<&str> = a.iter().map(|p| p.link.as_str()).collect();
        assert_eq!(unique.len(), a.len(), "every page has its own link");
    }

    #[test]
    fn html_escapes_body_text() {
        let pages = generate_pages(3, 1_800_000_000_000);
        let hostile = pages.iter().find(|p| p.body_seed % 7 == 0).unwrap();
        let html = render_html(hostile, &[]);
        assert!(!html.contains("<script>"));
        assert!(!html.contains("<img src=x"));
        assert!(render_text(hostile)
            .contains(corpus::HOSTILE_SNIPPETS[(hostile.body_seed % 5) as usize]));
    }
}
