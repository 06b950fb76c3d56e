//! The web family (GET, billed per request): a plain web search and a page crawl.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::{ApiRequest, Encoded};
use crate::model::WebSearchResults;
use crate::operation::Operation;
use crate::validation::{Checks, FieldError};

wire_enum!(
    /// What the crawl returns.
    CrawlFormat { Text = "text", Html = "html" } default Text
);

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
