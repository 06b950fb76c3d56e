//! One typed request per operation, with the contract's defaults and the server's 422
//! rules applied locally by `validate()`, so an invalid request is never sent or billed.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use ts_rs::TS;

use crate::lenient;
use crate::model::{
    AiSearchResult, RetweetersPage, Trends, Tweet, TweetList, TwitterLinksResult, UserPostsPage,
    WebLinksResult, WebSearchResults,
};
use crate::operation::Operation;
use crate::validation::{parse_day, parse_instant, Checks, FieldError};

/// How a request travels: query parameters (GET) or a JSON body (POST).
#[derive(Debug, Clone, PartialEq)]
pub enum Encoded {
    /// Pairs in order; an array parameter repeats its name.
    Query(Vec<(&'static str, String)>),
    Json(Value),
}

/// What every operation's request provides to the client.
pub trait ApiRequest {
    /// The typed 200 body.
    type Output: DeserializeOwned;
    const OPERATION: Operation;
    /// Every violation of the server's rules, or Ok.
    fn validate(&self) -> Result<(), Vec<FieldError>>;
    /// The request on the wire. Call only after `validate()` succeeded.
    fn encode(&self) -> Encoded;
    /// Reads the 200 body; JSON unless the operation answers text.
    fn decode(text: &str) -> Result<Self::Output, serde_json::Error> {
        serde_json::from_str(text)
    }
}

// ---------------------------------------------------------------------------------------
// Enumerations of the AI search.

/// A source the AI search can use. The contract also accepts legacy spellings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum Tool {
    Web,
    Hackernews,
    Reddit,
    Wikipedia,
    Youtube,
    Twitter,
    Arxiv,
}

impl Tool {
    pub const ALL: [Tool; 7] = [
        Tool::Web,
        Tool::Hackernews,
        Tool::Reddit,
        Tool::Wikipedia,
        Tool::Youtube,
        Tool::Twitter,
        Tool::Arxiv,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Tool::Web => "web",
            Tool::Hackernews => "hackernews",
            Tool::Reddit => "reddit",
            Tool::Wikipedia => "wikipedia",
            Tool::Youtube => "youtube",
            Tool::Twitter => "twitter",
            Tool::Arxiv => "arxiv",
        }
    }

    /// Reads a canonical name or a legacy spelling such as `Twitter Search`.
    pub fn parse(name: &str) -> Option<Tool> {
        let key: String = name
            .trim()
            .to_ascii_lowercase()
            .chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .collect();
        let key = key.strip_suffix("search").unwrap_or(&key);
        match key {
            "web" | "google" => Some(Tool::Web),
            "hackernews" => Some(Tool::Hackernews),
            "reddit" => Some(Tool::Reddit),
            "wikipedia" => Some(Tool::Wikipedia),
            "youtube" => Some(Tool::Youtube),
            "twitter" | "x" => Some(Tool::Twitter),
            "arxiv" => Some(Tool::Arxiv),
            _ => None,
        }
    }
}

macro_rules! wire_enum {
    ($(#[$doc:meta])* $name:ident { $($variant:ident = $wire:literal),+ $(,)? } default $default:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
        pub enum $name {
            $(#[serde(rename = $wire)] $variant),+
        }
        impl $name {
            pub fn as_str(self) -> &'static str {
                match self { $($name::$variant => $wire),+ }
            }
        }
        impl Default for $name {
            fn default() -> Self { $name::$default }
        }
    };
}

wire_enum!(
    /// Predefined time window of the AI search.
    DateFilter {
        Past24Hours = "PAST_24_HOURS",
        Past2Days = "PAST_2_DAYS",
        PastWeek = "PAST_WEEK",
        Past2Weeks = "PAST_2_WEEKS",
        PastMonth = "PAST_MONTH",
        Past2Months = "PAST_2_MONTHS",
        PastYear = "PAST_YEAR",
        Past2Years = "PAST_2_YEARS",
    } default Past24Hours
);
wire_enum!(
    /// Links only, or links with a written summary.
    ResultType { OnlyLinks = "ONLY_LINKS", LinksWithFinalSummary = "LINKS_WITH_FINAL_SUMMARY" }
    default LinksWithFinalSummary
);
wire_enum!(
    /// The model behind the AI search.
    Model { Nova = "NOVA", Orbit = "ORBIT", Horizon = "HORIZON" } default Nova
);
wire_enum!(
    /// Whether links or the summary come first.
    ResponseOrder { LinksFirst = "LINKS_FIRST", SummaryFirst = "SUMMARY_FIRST" } default LinksFirst
);
wire_enum!(
    /// Ordering of the X search.
    Sort { Top = "Top", Latest = "Latest" } default Top
);
wire_enum!(
    /// What the crawl returns.
    CrawlFormat { Text = "text", Html = "html" } default Text
);

const TOOLS_HINT: &str = "web, hackernews, reddit, wikipedia, youtube, twitter, arxiv";

fn check_prompt(checks: &mut Checks, prompt: &str) {
    checks.required("prompt", prompt, "Type what you want to search for.");
}

/// Shared rule of both tool lists: at least one, each known, no repeats; `allow_twitter`
/// is false for the web links search.
fn check_tools(checks: &mut Checks, tools: &[String], allow_twitter: bool) {
    if tools.is_empty() {
        checks.add("tools", "Pick at least one source to search.");
        return;
    }
    for name in tools {
        match Tool::parse(name) {
            None => checks.add(
                "tools",
                format!("\"{name}\" is not a source the service knows. Choose from: {TOOLS_HINT}."),
            ),
            Some(Tool::Twitter) if !allow_twitter => checks.add(
                "tools",
                "X (twitter) cannot be used in the web links search; use the X links search for posts.",
            ),
            Some(_) => {}
        }
    }
}

fn normalized_tools(tools: &[String]) -> Vec<String> {
    tools
        .iter()
        .map(|t| Tool::parse(t).map_or_else(|| t.trim().to_owned(), |t| t.as_str().to_owned()))
        .collect()
}

fn check_ai_count(checks: &mut Checks, count: i64) {
    checks.range("count", count, 10, 200);
}

/// Adds `name=value` when the text is not blank.
fn push_text(pairs: &mut Vec<(&'static str, String)>, name: &'static str, value: &Option<String>) {
    if let Some(v) = value.as_deref().map(str::trim).filter(|v| !v.is_empty()) {
        pairs.push((name, v.to_owned()));
    }
}

fn push_bool(pairs: &mut Vec<(&'static str, String)>, name: &'static str, value: Option<bool>) {
    if let Some(v) = value {
        pairs.push((name, v.to_string()));
    }
}

/// X handles are typed with or without `@`; the service wants them without.
fn handle(value: &str) -> String {
    value.trim().trim_start_matches('@').to_owned()
}

// ---------------------------------------------------------------------------------------
// AI operations (POST, billed per request, never retried automatically).

/// `POST /service/ai/search`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(default)]
pub struct AiSearchRequest {
    pub prompt: String,
    pub tools: Vec<String>,
    pub count: i64,
    pub date_filter: Option<DateFilter>,
    pub start_date: Option<String>,
    pub end_date: Option<String>,
    pub result_type: ResultType,
    pub system_message: Option<String>,
    pub scoring_system_message: Option<String>,
    /// Always sent explicitly: the public deployment streams when it is omitted.
    pub streaming: bool,
    pub model: Option<Model>,
    pub response_order: Option<ResponseOrder>,
}

impl Default for AiSearchRequest {
    fn default() -> Self {
        AiSearchRequest {
            prompt: String::new(),
            tools: Vec::new(),
            count: 10,
            date_filter: Some(DateFilter::Past24Hours),
            start_date: None,
            end_date: None,
            result_type: ResultType::LinksWithFinalSummary,
            system_message: None,
            scoring_system_message: None,
            streaming: false,
            model: None,
            response_order: None,
        }
    }
}

impl AiSearchRequest {
    pub fn new(prompt: impl Into<String>, tools: &[Tool]) -> Self {
        AiSearchRequest {
            prompt: prompt.into(),
            tools: tools.iter().map(|t| t.as_str().to_owned()).collect(),
            ..Default::default()
        }
    }
}

impl ApiRequest for AiSearchRequest {
    type Output = AiSearchResult;
    const OPERATION: Operation = Operation::AiSearch;

    fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut checks = Checks::default();
        check_prompt(&mut checks, &self.prompt);
        check_tools(&mut checks, &self.tools, true);
        check_ai_count(&mut checks, self.count);
        checks.instant("start_date", self.start_date.as_deref());
        checks.instant("end_date", self.end_date.as_deref());
        if let (Some(start), Some(end)) = (
            self.start_date
                .as_deref()
                .and_then(|s| parse_instant(s.trim())),
            self.end_date
                .as_deref()
                .and_then(|s| parse_instant(s.trim())),
        ) {
            if start > end {
                checks.add("end_date", "The end date is before the start date.");
            }
        }
        checks.finish()
    }

    fn encode(&self) -> Encoded {
        let mut body = json!({
            "prompt": self.prompt.trim(),
            "tools": normalized_tools(&self.tools),
            "count": self.count,
            "result_type": self.result_type.as_str(),
            "streaming": self.streaming,
        });
        let obj = body.as_object_mut().expect("object literal");
        let mut put = |name: &str, value: Option<&str>| {
            if let Some(v) = value.map(str::trim).filter(|v| !v.is_empty()) {
                obj.insert(name.to_owned(), Value::String(v.to_owned()));
            }
        };
        put("date_filter", self.date_filter.map(DateFilter::as_str));
        put("start_date", self.start_date.as_deref());
        put("end_date", self.end_date.as_deref());
        put("system_message", self.system_message.as_deref());
        put(
            "scoring_system_message",
            self.scoring_system_message.as_deref(),
        );
        put("model", self.model.map(Model::as_str));
        put(
            "response_order",
            self.response_order.map(ResponseOrder::as_str),
        );
        Encoded::Json(body)
    }
}

/// `POST /service/ai/search/links/web`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(default)]
pub struct LinksWebRequest {
    pub prompt: String,
    pub tools: Vec<String>,
    pub count: i64,
}

impl Default for LinksWebRequest {
    fn default() -> Self {
        LinksWebRequest {
            prompt: String::new(),
            tools: Vec::new(),
            count: 10,
        }
    }
}

impl ApiRequest for LinksWebRequest {
    type Output = WebLinksResult;
    const OPERATION: Operation = Operation::LinksWeb;

    fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut checks = Checks::default();
        check_prompt(&mut checks, &self.prompt);
        check_tools(&mut checks, &self.tools, false);
        check_ai_count(&mut checks, self.count);
        checks.finish()
    }

    fn encode(&self) -> Encoded {
        Encoded::Json(json!({
            "prompt": self.prompt.trim(),
            "tools": normalized_tools(&self.tools),
            "count": self.count,
        }))
    }
}

/// `POST /service/ai/search/links/twitter`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(default)]
pub struct LinksTwitterRequest {
    pub prompt: String,
    pub count: i64,
}

impl Default for LinksTwitterRequest {
    fn default() -> Self {
        LinksTwitterRequest {
            prompt: String::new(),
            count: 10,
        }
    }
}

impl ApiRequest for LinksTwitterRequest {
    type Output = TwitterLinksResult;
    const OPERATION: Operation = Operation::LinksTwitter;

    fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut checks = Checks::default();
        check_prompt(&mut checks, &self.prompt);
        check_ai_count(&mut checks, self.count);
        checks.finish()
    }

    fn encode(&self) -> Encoded {
        Encoded::Json(json!({ "prompt": self.prompt.trim(), "count": self.count }))
    }
}

// ---------------------------------------------------------------------------------------
// X operations (GET).

/// `GET /twitter`: the X search.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(default)]
pub struct TwitterSearchRequest {
    pub query: String,
    pub sort: Sort,
    pub user: Option<String>,
    pub start_date: Option<String>,
    pub end_date: Option<String>,
    pub lang: Option<String>,
    pub verified: Option<bool>,
    pub blue_verified: Option<bool>,
    pub is_quote: Option<bool>,
    pub is_video: Option<bool>,
    pub is_image: Option<bool>,
    /// An integer, as number or numeric text.
    #[serde(deserialize_with = "lenient::opt_text_number")]
    pub min_retweets: Option<String>,
    #[serde(deserialize_with = "lenient::opt_text_number")]
    pub min_replies: Option<String>,
    #[serde(deserialize_with = "lenient::opt_text_number")]
    pub min_likes: Option<String>,
    pub count: i64,
}

impl Default for TwitterSearchRequest {
    fn default() -> Self {
        TwitterSearchRequest {
            query: String::new(),
            sort: Sort::Top,
            user: None,
            start_date: None,
            end_date: None,
            lang: None,
            verified: None,
            blue_verified: None,
            is_quote: None,
            is_video: None,
            is_image: None,
            min_retweets: None,
            min_replies: None,
            min_likes: None,
            count: 20,
        }
    }
}

impl TwitterSearchRequest {
    pub fn new(query: impl Into<String>) -> Self {
        TwitterSearchRequest {
            query: query.into(),
            ..Default::default()
        }
    }
}

impl ApiRequest for TwitterSearchRequest {
    type Output = TweetList;
    const OPERATION: Operation = Operation::TwitterSearch;

    fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut checks = Checks::default();
        checks.required("query", &self.query, "Type what to search for on X.");
        checks.range("count", self.count, 1, 100);
        checks.day("start_date", self.start_date.as_deref());
        checks.day("end_date", self.end_date.as_deref());
        if let (Some(start), Some(end)) = (
            self.start_date.as_deref().and_then(|s| parse_day(s.trim())),
            self.end_date.as_deref().and_then(|s| parse_day(s.trim())),
        ) {
            if start > end {
                checks.add("end_date", "The end date is before the start date.");
            }
        }
        checks.whole_number("min_retweets", self.min_retweets.as_deref());
        checks.whole_number("min_replies", self.min_replies.as_deref());
        checks.whole_number("min_likes", self.min_likes.as_deref());
        checks.finish()
    }

    fn encode(&self) -> Encoded {
        let mut q = vec![
            ("query", self.query.trim().to_owned()),
            ("sort", self.sort.as_str().to_owned()),
        ];
        push_text(&mut q, "user", &self.user.as_deref().map(handle));
        push_text(&mut q, "start_date", &self.start_date);
        push_text(&mut q, "end_date", &self.end_date);
        push_text(&mut q, "lang", &self.lang);
        push_bool(&mut q, "verified", self.verified);
        push_bool(&mut q, "blue_verified", self.blue_verified);
        push_bool(&mut q, "is_quote", self.is_quote);
        push_bool(&mut q, "is_video", self.is_video);
        push_bool(&mut q, "is_image", self.is_image);
        push_text(&mut q, "min_retweets", &self.min_retweets);
        push_text(&mut q, "min_replies", &self.min_replies);
        push_text(&mut q, "min_likes", &self.min_likes);
        q.push(("count", self.count.to_string()));
        Encoded::Query(q)
    }
}

/// `GET /twitter/urls`: posts by their links.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[serde(default)]
pub struct TwitterUrlsRequest {
    pub urls: Vec<String>,
}

/// True for `https://x.com/{user}/status/{digits}` and its twitter.com/mobile forms.
pub fn is_post_url(value: &str) -> bool {
    let Ok(url) = reqwest::Url::parse(value.trim()) else {
        return false;
    };
    let host_ok = matches!(
        url.host_str(),
        Some(
            "x.com"
                | "www.x.com"
                | "mobile.x.com"
                | "twitter.com"
                | "www.twitter.com"
                | "mobile.twitter.com"
        )
    );
    let segments: Vec<&str> = url.path_segments().map(|s| s.collect()).unwrap_or_default();
    let path_ok = segments.len() >= 3
        && !segments[0].is_empty()
        && segments[1] == "status"
        && !segments[2].is_empty()
        && segments[2].chars().all(|c| c.is_ascii_digit());
    matches!(url.scheme(), "http" | "https") && host_ok && path_ok
}

impl ApiRequest for TwitterUrlsRequest {
    type Output = TweetList;
    const OPERATION: Operation = Operation::TwitterUrls;

    fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut checks = Checks::default();
        let urls: Vec<&str> = self
            .urls
            .iter()
            .map(|u| u.trim())
            .filter(|u| !u.is_empty())
            .collect();
        if urls.is_empty() {
            checks.add("urls", "Add at least one link to a post on X.");
        }
        for url in urls {
            if !is_post_url(url) {
                checks.add(
                    "urls",
                    format!(
                        "\"{url}\" is not a link to a post on X. It should look like \
                         https://x.com/name/status/1234567890."
                    ),
                );
            }
        }
        checks.finish()
    }

    fn encode(&self) -> Encoded {
        Encoded::Query(
            self.urls
                .iter()
                .map(|u| u.trim())
                .filter(|u| !u.is_empty())
                .map(|u| ("urls", u.to_owned()))
                .collect(),
        )
    }
}

/// `GET /twitter/post`: one post by id.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[serde(default)]
pub struct TwitterPostRequest {
    pub id: String,
}

impl ApiRequest for TwitterPostRequest {
    type Output = Tweet;
    const OPERATION: Operation = Operation::TwitterPost;

    fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut checks = Checks::default();
        checks.required(
            "id",
            &self.id,
            "Enter the post's id (the number at the end of its link).",
        );
        checks.finish()
    }

    fn encode(&self) -> Encoded {
        Encoded::Query(vec![("id", self.id.trim().to_owned())])
    }
}

/// `GET /twitter/post/user`: a user's posts matching a query.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(default)]
pub struct TwitterPostUserRequest {
    pub user: String,
    pub query: String,
    pub count: i64,
}

impl Default for TwitterPostUserRequest {
    fn default() -> Self {
        TwitterPostUserRequest {
            user: String::new(),
            query: String::new(),
            count: 10,
        }
    }
}

impl ApiRequest for TwitterPostUserRequest {
    type Output = TweetList;
    const OPERATION: Operation = Operation::TwitterPostUser;

    fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut checks = Checks::default();
        checks.required(
            "user",
            &self.user,
            "Enter the X username, for example nasa.",
        );
        checks.range("count", self.count, 1, 100);
        checks.finish()
    }

    fn encode(&self) -> Encoded {
        let mut q = vec![("user", handle(&self.user))];
        push_text(&mut q, "query", &Some(self.query.clone()));
        q.push(("count", self.count.to_string()));
        Encoded::Query(q)
    }
}

/// `GET /twitter/post/retweeters`: one page of the users who reposted a post.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[serde(default)]
pub struct TwitterRetweetersRequest {
    pub id: String,
    pub cursor: Option<String>,
}

impl ApiRequest for TwitterRetweetersRequest {
    type Output = RetweetersPage;
    const OPERATION: Operation = Operation::TwitterRetweeters;

    fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut checks = Checks::default();
        checks.required(
            "id",
            &self.id,
            "Enter the post's id (the number at the end of its link).",
        );
        checks.finish()
    }

    fn encode(&self) -> Encoded {
        let mut q = vec![("id", self.id.trim().to_owned())];
        push_text(&mut q, "cursor", &self.cursor);
        Encoded::Query(q)
    }
}

/// `GET /twitter/user/posts`: one page of a user's timeline.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[serde(default)]
pub struct TwitterUserPostsRequest {
    pub username: String,
    pub cursor: Option<String>,
}

impl ApiRequest for TwitterUserPostsRequest {
    type Output = UserPostsPage;
    const OPERATION: Operation = Operation::TwitterUserPosts;

    fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut checks = Checks::default();
        checks.required(
            "username",
            &self.username,
            "Enter the X username, for example nasa.",
        );
        checks.finish()
    }

    fn encode(&self) -> Encoded {
        let mut q = vec![("username", handle(&self.username))];
        push_text(&mut q, "cursor", &self.cursor);
        Encoded::Query(q)
    }
}

/// `GET /twitter/replies`: replies written by a user.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(default)]
pub struct TwitterRepliesRequest {
    pub user: String,
    pub count: i64,
    pub query: String,
}

impl Default for TwitterRepliesRequest {
    fn default() -> Self {
        TwitterRepliesRequest {
            user: String::new(),
            count: 10,
            query: String::new(),
        }
    }
}

impl ApiRequest for TwitterRepliesRequest {
    type Output = TweetList;
    const OPERATION: Operation = Operation::TwitterReplies;

    fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut checks = Checks::default();
        checks.required(
            "user",
            &self.user,
            "Enter the X username, for example nasa.",
        );
        checks.range("count", self.count, 1, 100);
        checks.finish()
    }

    fn encode(&self) -> Encoded {
        let mut q = vec![
            ("user", handle(&self.user)),
            ("count", self.count.to_string()),
        ];
        push_text(&mut q, "query", &Some(self.query.clone()));
        Encoded::Query(q)
    }
}

/// `GET /twitter/replies/post`: replies to one post.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(default)]
pub struct TwitterRepliesPostRequest {
    pub post_id: String,
    pub count: i64,
    pub query: String,
}

impl Default for TwitterRepliesPostRequest {
    fn default() -> Self {
        TwitterRepliesPostRequest {
            post_id: String::new(),
            count: 10,
            query: String::new(),
        }
    }
}

impl ApiRequest for TwitterRepliesPostRequest {
    type Output = TweetList;
    const OPERATION: Operation = Operation::TwitterRepliesPost;

    fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut checks = Checks::default();
        checks.required(
            "post_id",
            &self.post_id,
            "Enter the post's id (the number at the end of its link).",
        );
        checks.range("count", self.count, 1, 100);
        checks.finish()
    }

    fn encode(&self) -> Encoded {
        let mut q = vec![
            ("post_id", self.post_id.trim().to_owned()),
            ("count", self.count.to_string()),
        ];
        push_text(&mut q, "query", &Some(self.query.clone()));
        Encoded::Query(q)
    }
}

/// `GET /twitter/trends`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(default)]
pub struct TwitterTrendsRequest {
    /// Where On Earth ID; 1 is worldwide. Required.
    pub woeid: Option<i64>,
    pub count: i64,
}

impl Default for TwitterTrendsRequest {
    fn default() -> Self {
        TwitterTrendsRequest {
            woeid: Some(1),
            count: 30,
        }
    }
}

impl ApiRequest for TwitterTrendsRequest {
    type Output = Trends;
    const OPERATION: Operation = Operation::TwitterTrends;

    fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut checks = Checks::default();
        match self.woeid {
            None => checks.add("woeid", "Enter a place number (WOEID); 1 means worldwide."),
            Some(w) if w < 1 => checks.add(
                "woeid",
                format!(
                    "A place number (WOEID) is 1 or more; 1 means worldwide (you entered {w})."
                ),
            ),
            Some(_) => {}
        }
        checks.range("count", self.count, 30, 100);
        checks.finish()
    }

    fn encode(&self) -> Encoded {
        Encoded::Query(vec![
            ("woeid", self.woeid.unwrap_or(1).to_string()),
            ("count", self.count.to_string()),
        ])
    }
}

// ---------------------------------------------------------------------------------------
// Web operations (GET).

/// `GET /web`: a plain web search.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[serde(default)]
pub struct WebSearchRequest {
    pub query: String,
    /// Results to skip: 0 is page 1, 10 is page 2.
    pub start: i64,
}

impl ApiRequest for WebSearchRequest {
    type Output = WebSearchResults;
    const OPERATION: Operation = Operation::WebSearch;

    fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut checks = Checks::default();
        checks.required("query", &self.query, "Type what to search the web for.");
        checks.range("start", self.start, 0, 100);
        checks.finish()
    }

    fn encode(&self) -> Encoded {
        Encoded::Query(vec![
            ("query", self.query.trim().to_owned()),
            ("start", self.start.to_string()),
        ])
    }
}

/// `GET /web/crawl`: one page's content.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[serde(default)]
pub struct WebCrawlRequest {
    pub url: String,
    pub format: CrawlFormat,
}

impl ApiRequest for WebCrawlRequest {
    type Output = String;
    const OPERATION: Operation = Operation::WebCrawl;

    fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut checks = Checks::default();
        if checks.required("url", &self.url, "Enter the address of the page to read.") {
            let ok = reqwest::Url::parse(self.url.trim())
                .map(|u| matches!(u.scheme(), "http" | "https") && u.host_str().is_some())
                .unwrap_or(false);
            if !ok {
                checks.add(
                    "url",
                    "Enter a full web address starting with https://, for example https://example.com/page.",
                );
            }
        }
        checks.finish()
    }

    fn encode(&self) -> Encoded {
        Encoded::Query(vec![
            ("url", self.url.trim().to_owned()),
            ("format", self.format.as_str().to_owned()),
        ])
    }

    fn decode(text: &str) -> Result<String, serde_json::Error> {
        Ok(text.to_owned())
    }
}

#[cfg(test)]
mod tests;
