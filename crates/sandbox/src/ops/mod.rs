//! The operations of the contract. Each takes the parsed request and returns an `Outcome`;
//! auth, limits, billing, ETags and faults are the server's business.

pub mod ai;
pub mod forecast;
pub mod web;
pub mod x;

use crate::billing::Service;
use crate::world::World;
use serde::Serialize;
use serde_json::{json, Value};
use std::time::Duration;

/// Everything an operation may read.
pub struct Ctx<'a> {
    pub world: &'a World,
    /// The service clock (ms): the world's "now" plus the time the server has been running.
    pub now_ms: i64,
    /// Pause between streamed text deltas.
    pub pace: Duration,
    /// The posts that exist at `now_ms`: the world's and the live trickle's so far.
    pub posts: crate::posts::Posts<'a>,
    /// The forecast jobs this sandbox issued.
    pub jobs: &'a forecast::Jobs,
    /// The request's path (the forecast id is in it).
    pub path: &'a str,
}

/// One event of a streamed answer: its JSON (one line) and the pause before it.
#[derive(Debug, Clone)]
pub struct StreamEvent {
    pub json: String,
    pub delay: Duration,
}

#[derive(Debug)]
pub enum Outcome {
    /// A JSON body; `usage` billing units.
    Json { body: Vec<u8>, usage: u64 },
    Text {
        body: String,
        content_type: &'static str,
        usage: u64,
    },
    Stream {
        events: Vec<StreamEvent>,
        usage: u64,
    },
    /// A non-billed error answer.
    Error { status: u16, body: Value },
    /// A job accepted (202), billed `usage` units.
    Accepted { body: Vec<u8>, usage: u64 },
    /// A free 200 answer (a job's status): no billing headers, no ETag.
    Unbilled { body: Value },
}

impl Outcome {
    pub fn json<T: Serialize>(value: &T, usage: u64) -> Outcome {
        Outcome::Json {
            body: serde_json::to_vec(value).expect("records serialise"),
            usage,
        }
    }

    pub fn invalid(problems: &crate::validate::Problems) -> Outcome {
        Outcome::Error {
            status: 422,
            body: problems.body(),
        }
    }

    pub fn not_found(what: &str) -> Outcome {
        Outcome::Error {
            status: 404,
            body: json!({ "detail": format!("{what} not found") }),
        }
    }
}

/// Every operation of the contract.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    AiSearch,
    LinksWeb,
    LinksTwitter,
    TwitterSearch,
    TwitterUrls,
    TwitterPost,
    TwitterPostUser,
    Retweeters,
    UserPosts,
    Replies,
    RepliesPost,
    Trends,
    Web,
    Crawl,
    Forecast,
    ForecastStatus,
}

impl Op {
    pub const ALL: [Op; 16] = [
        Op::AiSearch,
        Op::LinksWeb,
        Op::LinksTwitter,
        Op::TwitterSearch,
        Op::TwitterUrls,
        Op::TwitterPost,
        Op::TwitterPostUser,
        Op::Retweeters,
        Op::UserPosts,
        Op::Replies,
        Op::RepliesPost,
        Op::Trends,
        Op::Web,
        Op::Crawl,
        Op::Forecast,
        Op::ForecastStatus,
    ];

    pub fn path(self) -> &'static str {
        match self {
            Op::AiSearch => "/service/ai/search",
            Op::LinksWeb => "/service/ai/search/links/web",
            Op::LinksTwitter => "/service/ai/search/links/twitter",
            Op::TwitterSearch => "/twitter",
            Op::TwitterUrls => "/twitter/urls",
            Op::TwitterPost => "/twitter/post",
            Op::TwitterPostUser => "/twitter/post/user",
            Op::Retweeters => "/twitter/post/retweeters",
            Op::UserPosts => "/twitter/user/posts",
            Op::Replies => "/twitter/replies",
            Op::RepliesPost => "/twitter/replies/post",
            Op::Trends => "/twitter/trends",
            Op::Web => "/web",
            Op::Crawl => "/web/crawl",
            Op::Forecast => "/numinous/forecasts",
            Op::ForecastStatus => "/numinous/forecasts/{prediction_id}",
        }
    }

    pub fn is_post(self) -> bool {
        matches!(
            self,
            Op::AiSearch | Op::LinksWeb | Op::LinksTwitter | Op::Forecast
        )
    }

    pub fn service(self) -> Service {
        match self {
            Op::AiSearch => Service::AiSearch,
            Op::LinksWeb => Service::AiLinksWeb,
            Op::LinksTwitter => Service::AiLinksX,
            Op::Web => Service::WebSearch,
            Op::Crawl => Service::WebCrawl,
            Op::Forecast | Op::ForecastStatus => Service::Forecast,
            _ => Service::X,
        }
    }

    /// Runs the operation on a request's query string (GET) or body (POST).
    pub fn run(self, ctx: &Ctx<'_>, query: Option<&str>, body: &[u8]) -> Outcome {
        match self {
            Op::AiSearch => ai::search(ctx, body),
            Op::LinksWeb => ai::links_web(ctx, body),
            Op::LinksTwitter => ai::links_twitter(ctx, body),
            Op::TwitterSearch => x::search(ctx, query),
            Op::TwitterUrls => x::by_urls(ctx, query),
            Op::TwitterPost => x::post(ctx, query),
            Op::TwitterPostUser => x::posts_by_user(ctx, query),
            Op::Retweeters => x::retweeters(ctx, query),
            Op::UserPosts => x::user_posts(ctx, query),
            Op::Replies => x::replies_by_user(ctx, query),
            Op::RepliesPost => x::replies_to_post(ctx, query),
            Op::Trends => x::trends(ctx, query),
            Op::Web => web::search(ctx, query),
            Op::Crawl => web::crawl(ctx, query),
            Op::Forecast => forecast::create(ctx, body),
            Op::ForecastStatus => forecast::status(ctx),
        }
    }
}
