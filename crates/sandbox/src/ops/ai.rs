//! AI search and the two link searches: pick results from the requested tools, score links,
//! and write a Markdown summary that cites its sources (streamed or whole).

mod relevance;

use super::{Ctx, Outcome, StreamEvent};
use crate::posts::Posts;
use crate::rng::fnv1a;
use crate::validate::{Body, MAX_PROMPT_CHARS};
use crate::world::corpus::TOPICS;
use crate::world::{Page, PageKind, World, DAY_MS};
use relevance::Relevance;
use serde_json::{json, Map, Value};
use std::time::Duration;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    Web,
    HackerNews,
    Reddit,
    Wikipedia,
    Youtube,
    Twitter,
    Arxiv,
}

const TOOL_NAMES: [&str; 7] = [
    "web",
    "hackernews",
    "reddit",
    "wikipedia",
    "youtube",
    "twitter",
    "arxiv",
];
/// The link search over the web has no X tool.
const WEB_TOOL_NAMES: [&str; 6] = [
    "web",
    "hackernews",
    "reddit",
    "wikipedia",
    "youtube",
    "arxiv",
];

impl Tool {
    /// Accepts the enum values and legacy spellings such as `Twitter Search` or `Web Search`.
    pub fn parse(raw: &str) -> Option<Tool> {
        let squashed: String = raw
            .chars()
            .filter(|c| c.is_alphanumeric())
            .collect::<String>()
            .to_lowercase();
        let name = squashed.strip_suffix("search").unwrap_or(&squashed);
        Some(match name {
            "web" | "google" => Tool::Web,
            "hackernews" | "hn" => Tool::HackerNews,
            "reddit" => Tool::Reddit,
            "wikipedia" | "wiki" => Tool::Wikipedia,
            "youtube" => Tool::Youtube,
            "twitter" | "x" => Tool::Twitter,
            "arxiv" => Tool::Arxiv,
            _ => return None,
        })
    }

    /// Key of the tool's results in the AI search answer and stream.
    fn result_key(self) -> &'static str {
        match self {
            Tool::Web => "search",
            Tool::HackerNews => "hacker_news_search",
            Tool::Reddit => "reddit_search",
            Tool::Wikipedia => "wikipedia_search",
            Tool::Youtube => "youtube_search",
            Tool::Twitter => "tweets",
            Tool::Arxiv => "arxiv_search",
        }
    }

    /// Key in the `/links/web` answer.
    fn links_key(self) -> &'static str {
        match self {
            Tool::Web => "search_results",
            Tool::HackerNews => "hacker_news_search_results",
            Tool::Reddit => "reddit_search_results",
            Tool::Wikipedia => "wikipedia_search_results",
            Tool::Youtube => "youtube_search_results",
            Tool::Arxiv => "arxiv_search_results",
            Tool::Twitter => "tweets",
        }
    }

    fn page_kind(self) -> Option<PageKind> {
        Some(match self {
            Tool::Web => PageKind::Web,
            Tool::HackerNews => PageKind::HackerNews,
            Tool::Reddit => PageKind::Reddit,
            Tool::Wikipedia => PageKind::Wikipedia,
            Tool::Youtube => PageKind::Youtube,
            Tool::Arxiv => PageKind::Arxiv,
            Tool::Twitter => return None,
        })
    }
}

const DATE_FILTERS: [&str; 8] = [
    "PAST_24_HOURS",
    "PAST_2_DAYS",
    "PAST_WEEK",
    "PAST_2_WEEKS",
    "PAST_MONTH",
    "PAST_2_MONTHS",
    "PAST_YEAR",
    "PAST_2_YEARS",
];

fn filter_days(filter: &str) -> i64 {
    match filter {
        "PAST_24_HOURS" => 1,
        "PAST_2_DAYS" => 2,
        "PAST_WEEK" => 7,
        "PAST_2_WEEKS" => 14,
        "PAST_MONTH" => 30,
        "PAST_2_MONTHS" => 60,
        "PAST_YEAR" => 365,
        _ => 730,
    }
}

/// The time window searched, in ms.
#[derive(Clone, Copy)]
struct Window {
    start: i64,
    end: i64,
}

/// Pages of `kind` relevant to the prompt within the window, best first.
fn pick_pages<'w>(
    world: &'w World,
    rel: &Relevance,
    kind: PageKind,
    window: Window,
    count: usize,
) -> Vec<&'w Page> {
    let mut scored: Vec<(f64, &Page)> = world
        .pages
        .iter()
        .filter(|p| {
            p.kind == kind
                && rel.on_topic(p.topic as usize)
                && p.published_ms >= window.start
                && p.published_ms <= window.end
        })
        .filter_map(|p| {
            let (share, on_topic) = rel.score(&p.lower, p.topic as usize);
            let s = share * 10.0 + if on_topic { 1.0 } else { 0.0 };
            (s > 0.0).then_some((s, p))
        })
        .collect();
    scored.sort_by(|a, b| {
        b.0.total_cmp(&a.0)
            .then(b.1.published_ms.cmp(&a.1.published_ms))
    });
    scored.into_iter().take(count).map(|(_, p)| p).collect()
}

/// Posts of the prompt's topics within the window: word matches first, then the others, by
/// engagement.
fn pick_posts(world: &World, rel: &Relevance, window: Window, count: usize) -> Vec<u32> {
    let lo = world.first_post_at_or_after(window.start) as u32;
    let hi = world.first_post_at_or_after(window.end + 1) as u32;
    let mut hits: crate::fxhash::FxMap<u32, u64> = Default::default();
    for t in &rel.terms {
        let list = world.posts_with_token(t);
        let from = list.partition_point(|&i| i < lo);
        for &i in list[from..].iter().take_while(|&&i| i < hi) {
            if rel.on_topic(world.posts[i as usize].topic as usize) {
                *hits.entry(i).or_default() += 1;
            }
        }
    }
    let mut ranked: Vec<(u64, u64, u32)> = hits
        .into_iter()
        .map(|(i, h)| (h, world.posts[i as usize].engagement(), i))
        .collect();
    ranked.sort_unstable_by(|a, b| b.cmp(a));
    let mut out: Vec<u32> = ranked.into_iter().take(count).map(|r| r.2).collect();
    if out.len() < count && !rel.topics.is_empty() {
        let mut on_topic: Vec<(u64, u32)> = (lo..hi)
            .filter(|&i| {
                rel.topics
                    .contains(&(world.posts[i as usize].topic as usize))
                    && !out.contains(&i)
            })
            .map(|i| (world.posts[i as usize].engagement(), i))
            .collect();
        let need = count - out.len();
        if on_topic.len() > need {
            on_topic.select_nth_unstable_by(need, |a, b| b.cmp(a));
            on_topic.truncate(need);
        }
        on_topic.sort_unstable_by(|a, b| b.cmp(a));
        out.extend(on_topic.into_iter().map(|(_, i)| i));
    }
    out
}

fn link_json(p: &Page) -> Value {
    json!({ "title": p.title, "snippet": p.snippet, "link": p.link })
}

/// Results of every requested tool, in the order the tools "finish".
struct Gathered<'w> {
    per_tool: Vec<(Tool, Vec<&'w Page>, Vec<u32>)>,
    scores: Map<String, Value>,
}

fn gather<'w>(
    world: &'w World,
    prompt: &str,
    tools: &[Tool],
    window: Window,
    count: usize,
) -> Gathered<'w> {
    let rel = Relevance::of(world, prompt);
    let mut per_tool = Vec::new();
    let mut scores = Map::new();
    for &tool in tools {
        match tool.page_kind() {
            Some(kind) => {
                let pages = pick_pages(world, &rel, kind, window, count);
                for p in &pages {
                    scores.insert(
                        p.link.clone(),
                        Value::from(rel.grade(&p.lower, p.topic as usize)),
                    );
                }
                per_tool.push((tool, pages, Vec::new()));
            }
            None => {
                let posts = pick_posts(world, &rel, window, count);
                for &i in &posts {
                    let p = &world.posts[i as usize];
                    scores.insert(
                        p.id.to_string(),
                        Value::from(rel.grade(&p.lower, p.topic as usize)),
                    );
                }
                per_tool.push((tool, Vec::new(), posts));
            }
        }
    }
    // Tools finish in an order that depends on the question, like real searches do.
    let h = fnv1a(prompt.as_bytes());
    per_tool.sort_by_key(|(t, _, _)| (fnv1a(&[*t as u8, (h & 0xFF) as u8]), *t as u8));
    Gathered { per_tool, scores }
}

fn tool_results_json(seen: &Posts<'_>, pages: &[&Page], posts: &[u32]) -> Value {
    if pages.is_empty() && !posts.is_empty() {
        Value::Array(
            posts
                .iter()
                .map(|&i| serde_json::to_value(seen.record(i)).expect("tweet"))
                .collect(),
        )
    } else {
        Value::Array(pages.iter().map(|p| link_json(p)).collect())
    }
}

fn truncate_chars(s: &str, n: usize) -> String {
    let flat = s.replace('\n', " ");
    if flat.chars().count() <= n {
        flat
    } else {
        format!("{}…", flat.chars().take(n).collect::<String>().trim_end())
    }
}

/// The Markdown summary, citing the sources it draws on.
fn summarise(
    world: &World,
    prompt: &str,
    gathered: &Gathered<'_>,
    model: &str,
    window_label: &str,
) -> String {
    let bullets = match model {
        "HORIZON" => 8,
        "ORBIT" => 6,
        _ => 4,
    };
    let rel = Relevance::of(world, prompt);
    // Points per tool, best first; the summary then takes them in turn from each tool.
    let per_tool: Vec<Vec<String>> = gathered
        .per_tool
        .iter()
        .map(|(_, pages, posts)| {
            let from_pages = pages.iter().take(bullets).map(|p| {
                format!(
                    "- **{}**: {} ([{}]({}))",
                    truncate_chars(&p.title, 90),
                    truncate_chars(&p.snippet, 160),
                    p.kind.label(),
                    p.link
                )
            });
            let from_posts = posts.iter().take(bullets).map(|&i| {
                let post = &world.posts[i as usize];
                let author = &world.users[post.author as usize];
                format!(
                    "- On X, @{} wrote: \"{}\" ({} likes, [post](https://x.com/{}/status/{}))",
                    author.username,
                    truncate_chars(&post.text, 140),
                    post.likes,
                    author.username,
                    post.id
                )
            });
            from_pages.chain(from_posts).collect()
        })
        .collect();
    let mut cited = Vec::new();
    for round in 0..bullets {
        for points in &per_tool {
            if let Some(p) = points.get(round) {
                cited.push(p.clone());
            }
        }
    }
    let total: usize = gathered
        .per_tool
        .iter()
        .map(|(_, p, t)| p.len() + t.len())
        .sum();
    if total == 0 {
        return format!("## {}\n\nNo sources matched this question in the {window_label}. Try a broader question or a longer time range.\n", truncate_chars(prompt, 80));
    }
    let topics: Vec<&str> = rel.topics.iter().take(2).map(|&t| TOPICS[t].name).collect();
    let about = if topics.is_empty() {
        String::from("the question")
    } else {
        topics.join(" and ")
    };
    let sources: Vec<&str> = gathered
        .per_tool
        .iter()
        .filter(|(_, p, t)| !p.is_empty() || !t.is_empty())
        .map(|(tool, _, _)| match tool {
            Tool::Twitter => "X",
            other => other.page_kind().map_or("the web", PageKind::label),
        })
        .collect();
    let high = gathered.scores.values().filter(|v| v == &"HIGH").count();
    let medium = gathered.scores.values().filter(|v| v == &"MEDIUM").count();
    let mut out = format!(
        "## {}\n\nI found {total} results about {about} in the {window_label}, from {}: {high} match the question closely, {medium} partly.\n\n### Key points\n\n",
        truncate_chars(prompt, 80),
        sources.join(", ")
    );
    for line in cited.iter().take(bullets) {
        out.push_str(line);
        out.push('\n');
    }
    out.push_str("\n### Bottom line\n\nCoverage is ");
    out.push_str(if high * 2 >= gathered.scores.len() {
        "consistent across sources"
    } else {
        "mixed; several results are only loosely related"
    });
    out.push_str(", so check the linked sources before relying on any single claim.\n");
    out
}

/// Splits the summary into small deltas, as a model streams them.
fn deltas(summary: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut words = 0;
    for piece in summary.split_inclusive(' ') {
        cur.push_str(piece);
        words += 1;
        if words == 3 || piece.ends_with('\n') {
            out.push(std::mem::take(&mut cur));
            words = 0;
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

struct AiRequest {
    prompt: String,
    tools: Vec<Tool>,
    count: usize,
    window: Window,
    window_label: String,
    streaming: bool,
    summary: bool,
    model: &'static str,
    summary_first: bool,
}

fn read_tools(b: &mut Body, allow_twitter: bool) -> Vec<Tool> {
    let raw = b.required_str_list("tools");
    let names: &[&str] = if allow_twitter {
        &TOOL_NAMES
    } else {
        &WEB_TOOL_NAMES
    };
    let expected = crate::validate::expected_list(names);
    let mut tools = Vec::new();
    for (i, name) in raw.iter().enumerate() {
        match Tool::parse(name) {
            Some(Tool::Twitter) if !allow_twitter => {}
            Some(t) => {
                if !tools.contains(&t) {
                    tools.push(t);
                }
                continue;
            }
            None => {}
        }
        b.reject(
            &[Value::from("tools"), Value::from(i)],
            "enum",
            format!("Input should be {expected}"),
            Value::from(name.as_str()),
            Some(json!({ "expected": expected })),
        );
    }
    if raw.is_empty()
        && !b.unreadable()
        && b.problems
            .0
            .iter()
            .all(|p| p.loc.get(1) != Some(&Value::from("tools")))
    {
        b.reject(
            &[Value::from("tools")],
            "too_short",
            "List should have at least 1 item after validation, not 0",
            json!([]),
            Some(json!({ "field_type": "List", "min_length": 1, "actual_length": 0 })),
        );
    }
    tools
}

fn read_ai_request(ctx: &Ctx<'_>, body: &[u8]) -> Result<AiRequest, Outcome> {
    let mut b = Body::parse(body);
    if b.unreadable() {
        return Err(Outcome::invalid(&b.problems));
    }
    let prompt = b.required_str("prompt");
    b.limit_chars("prompt", &prompt, MAX_PROMPT_CHARS);
    let tools = read_tools(&mut b, true);
    let count = b.int_in("count", 10, 10, 200) as usize;
    let date_filter = b.enumeration("date_filter", &DATE_FILTERS, "PAST_24_HOURS");
    let start = b.opt_timestamp("start_date");
    let end = b.opt_timestamp("end_date");
    let result_type = b.enumeration(
        "result_type",
        &["ONLY_LINKS", "LINKS_WITH_FINAL_SUMMARY"],
        "LINKS_WITH_FINAL_SUMMARY",
    );
    for name in ["system_message", "scoring_system_message"] {
        if let Some(message) = b.opt_str(name) {
            b.limit_chars(name, &message, MAX_PROMPT_CHARS);
        }
    }
    let streaming = b.bool_or("streaming", true);
    let model = b.enumeration("model", &["NOVA", "ORBIT", "HORIZON"], "NOVA");
    let order = b.enumeration(
        "response_order",
        &["LINKS_FIRST", "SUMMARY_FIRST"],
        "LINKS_FIRST",
    );
    if !b.problems.is_empty() {
        return Err(Outcome::invalid(&b.problems));
    }
    let (window, window_label) = if start.is_some() || end.is_some() {
        let w = Window {
            start: start.unwrap_or(i64::MIN),
            end: end.unwrap_or(ctx.now_ms),
        };
        (w, "requested date range".to_string())
    } else {
        let days = filter_days(date_filter);
        let label = match days {
            1 => "past 24 hours".to_string(),
            7 => "past week".to_string(),
            14 => "past 2 weeks".to_string(),
            30 => "past month".to_string(),
            60 => "past 2 months".to_string(),
            365 => "past year".to_string(),
            730 => "past 2 years".to_string(),
            d => format!("past {d} days"),
        };
        (
            Window {
                start: ctx.now_ms - days * DAY_MS,
                end: ctx.now_ms,
            },
            label,
        )
    };
    Ok(AiRequest {
        prompt,
        tools,
        count,
        window,
        window_label,
        streaming,
        summary: result_type == "LINKS_WITH_FINAL_SUMMARY",
        model,
        summary_first: order == "SUMMARY_FIRST",
    })
}

fn event(value: Value, delay: Duration) -> StreamEvent {
    StreamEvent {
        json: value.to_string(),
        delay,
    }
}

/// `POST /service/ai/search`
pub fn search(ctx: &Ctx<'_>, body: &[u8]) -> Outcome {
    let req = match read_ai_request(ctx, body) {
        Ok(r) => r,
        Err(e) => return e,
    };
    let world = ctx.world;
    let gathered = gather(world, &req.prompt, &req.tools, req.window, req.count);
    let summary = req
        .summary
        .then(|| summarise(world, &req.prompt, &gathered, req.model, &req.window_label));

    if !req.streaming {
        let mut out = Map::new();
        if req.summary_first {
            if let Some(s) = &summary {
                out.insert("completion".into(), Value::from(s.clone()));
                out.insert("text".into(), Value::from(s.clone()));
            }
        }
        for (tool, pages, posts) in &gathered.per_tool {
            out.insert(
                tool.result_key().into(),
                tool_results_json(&ctx.posts, pages, posts),
            );
        }
        out.insert(
            "miner_link_scores".into(),
            Value::Object(gathered.scores.clone()),
        );
        if !req.summary_first {
            if let Some(s) = &summary {
                out.insert("text".into(), Value::from(s.clone()));
                out.insert("completion".into(), Value::from(s.clone()));
            }
        }
        return Outcome::json(&Value::Object(out), 1);
    }

    let tool_delay = ctx.pace * 4;
    let mut links: Vec<StreamEvent> = gathered
        .per_tool
        .iter()
        .map(|(tool, pages, posts)| event(json!({ "type": tool.result_key(), "content": tool_results_json(&ctx.posts, pages, posts) }), tool_delay))
        .collect();
    links.push(event(
        json!({ "type": "miner_link_scores", "content": gathered.scores }),
        ctx.pace,
    ));
    let text: Vec<StreamEvent> = summary
        .as_deref()
        .map(deltas)
        .unwrap_or_default()
        .into_iter()
        .map(|d| {
            event(
                json!({ "type": "text", "role": "summary", "content": d }),
                ctx.pace,
            )
        })
        .collect();
    let mut events = Vec::with_capacity(links.len() + text.len() + 1);
    if req.summary_first {
        events.extend(text);
        events.extend(links);
    } else {
        events.extend(links);
        events.extend(text);
    }
    if let Some(s) = summary {
        events.push(event(
            json!({ "type": "completion", "content": s }),
            ctx.pace,
        ));
    }
    Outcome::Stream { events, usage: 1 }
}

/// `POST /service/ai/search/links/web`
pub fn links_web(ctx: &Ctx<'_>, body: &[u8]) -> Outcome {
    let mut b = Body::parse(body);
    if b.unreadable() {
        return Outcome::invalid(&b.problems);
    }
    let prompt = b.required_str("prompt");
    b.limit_chars("prompt", &prompt, MAX_PROMPT_CHARS);
    let tools = read_tools(&mut b, false);
    let count = b.int_in("count", 10, 10, 200) as usize;
    if !b.problems.is_empty() {
        return Outcome::invalid(&b.problems);
    }
    let window = Window {
        start: i64::MIN,
        end: ctx.now_ms,
    };
    let gathered = gather(ctx.world, &prompt, &tools, window, count);
    let mut out = Map::new();
    for tool in [
        Tool::Web,
        Tool::Youtube,
        Tool::HackerNews,
        Tool::Reddit,
        Tool::Arxiv,
        Tool::Wikipedia,
    ] {
        let value = gathered
            .per_tool
            .iter()
            .find(|(t, _, _)| *t == tool)
            .map_or(Value::Null, |(_, pages, _)| {
                Value::Array(pages.iter().map(|p| link_json(p)).collect())
            });
        out.insert(tool.links_key().into(), value);
    }
    Outcome::json(&Value::Object(out), 1)
}

/// `POST /service/ai/search/links/twitter`
pub fn links_twitter(ctx: &Ctx<'_>, body: &[u8]) -> Outcome {
    let mut b = Body::parse(body);
    if b.unreadable() {
        return Outcome::invalid(&b.problems);
    }
    let prompt = b.required_str("prompt");
    b.limit_chars("prompt", &prompt, MAX_PROMPT_CHARS);
    let count = b.int_in("count", 10, 10, 200) as usize;
    if !b.problems.is_empty() {
        return Outcome::invalid(&b.problems);
    }
    let rel = Relevance::of(ctx.world, &prompt);
    let posts = pick_posts(
        ctx.world,
        &rel,
        Window {
            start: i64::MIN,
            end: ctx.now_ms,
        },
        count,
    );
    let tweets: Vec<_> = posts.iter().map(|&i| ctx.posts.record(i)).collect();
    Outcome::json(&json!({ "miner_tweets": tweets }), 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tool_spellings() {
        assert_eq!(Tool::parse("web"), Some(Tool::Web));
        assert_eq!(Tool::parse("Web Search"), Some(Tool::Web));
        assert_eq!(Tool::parse("Twitter Search"), Some(Tool::Twitter));
        assert_eq!(Tool::parse("Hacker News Search"), Some(Tool::HackerNews));
        assert_eq!(Tool::parse("ArXiv Search"), Some(Tool::Arxiv));
        assert_eq!(Tool::parse("tiktok"), None);
    }

    #[test]
    fn deltas_rebuild_the_summary() {
        let s = "## Title\n\nSome words here that go on and on.\n- a bullet\n";
        let d = deltas(s);
        assert!(d.len() > 3);
        assert_eq!(d.concat(), s);
    }

    #[test]
    fn relevance_finds_topics() {
        let world = World::shared(42, Some(1_790_000_000_000));
        let r = Relevance::of(
            &world,
            "What are people saying about bitcoin ETFs and inflation?",
        );
        assert_eq!(TOPICS[r.topics[0]].key, "markets");
        assert!(r.terms.contains(&"bitcoin".to_string()));
        assert!(!r.terms.contains(&"what".to_string()));
        let r = Relevance::of(&world, "How are wind farms changing the energy market?");
        let keys: Vec<&str> = r.topics.iter().map(|&t| TOPICS[t].key).collect();
        assert_eq!(keys, ["climate"]);
    }
}
