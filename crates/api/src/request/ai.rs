//! The AI family (POST, billed per request, never retried automatically): the AI search with
//! its enumerations, and the two link searches.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use ts_rs::TS;

use super::{ApiRequest, Encoded};
use crate::model::{AiSearchResult, TwitterLinksResult, WebLinksResult};
use crate::operation::Operation;
use crate::validation::{parse_instant, Checks, FieldError};

/// A source the AI search can use. The contract also accepts legacy spellings. Exported to
/// TypeScript so the UI can type its tool list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
#[ts(export)]
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
