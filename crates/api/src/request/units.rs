//! How many units the service bills each request for, the contract's billing rule (see its
//! "Billing metadata"): the AI search and both link searches are billed per request, as are
//! web search and crawl and asking for a forecast; the X reads are billed per post returned
//! (per user, for reposters). The cost is `units × rate / 1000`; rates are never hard-coded here, only
//! the units a request is expected to use, so the app can multiply them by a learned rate.

use serde::de::DeserializeOwned;
use serde_json::Value;

use super::*;
use crate::operation::Operation;

/// Units a request is expected to be billed for, under the contract's billing units: one per
/// request for the AI, link, web search and crawl operations; one per post asked for
/// (`count`, or one per link or id) for the X reads. `None` when only past answers can tell
/// (pages of reposters or of a timeline, whose size the service decides).
pub trait ExpectedUnits {
    fn expected_units(&self) -> Option<i64>;
}

macro_rules! one_unit {
    ($($request:ty),*) => {$(
        impl ExpectedUnits for $request {
            fn expected_units(&self) -> Option<i64> { Some(1) }
        }
    )*};
}

macro_rules! units_per_count {
    ($($request:ty),*) => {$(
        impl ExpectedUnits for $request {
            fn expected_units(&self) -> Option<i64> { Some(self.count.max(0)) }
        }
    )*};
}

// AI searches, link searches, web search and crawl are billed per request; X reads per post.
one_unit!(
    AiSearchRequest,
    LinksWebRequest,
    LinksTwitterRequest,
    TwitterPostRequest,
    WebSearchRequest,
    WebCrawlRequest,
    ForecastRequest
);
units_per_count!(
    TwitterSearchRequest,
    TwitterPostUserRequest,
    TwitterRepliesRequest,
    TwitterRepliesPostRequest,
    TwitterTrendsRequest
);

impl ExpectedUnits for TwitterUrlsRequest {
    fn expected_units(&self) -> Option<i64> {
        Some(i64::try_from(self.urls.len()).unwrap_or(i64::MAX))
    }
}

/// Following a forecast's job is not billed by the sandbox; the contract does not say either
/// way, and any charge a poll carries is recorded as it arrives.
impl ExpectedUnits for ForecastStatusRequest {
    fn expected_units(&self) -> Option<i64> {
        Some(0)
    }
}

impl ExpectedUnits for TwitterRetweetersRequest {
    fn expected_units(&self) -> Option<i64> {
        None
    }
}

impl ExpectedUnits for TwitterUserPostsRequest {
    fn expected_units(&self) -> Option<i64> {
        None
    }
}

/// Expected units of a request given as JSON (the form the UI holds), for the cost chip.
/// A request that does not parse yet has no estimate; validation will say why on send.
pub fn units_for(operation: Operation, request: Value) -> Option<i64> {
    fn units<R: ExpectedUnits + DeserializeOwned>(value: Value) -> Option<i64> {
        serde_json::from_value::<R>(value)
            .ok()
            .and_then(|request| request.expected_units())
    }
    match operation {
        Operation::AiSearch => units::<AiSearchRequest>(request),
        Operation::LinksWeb => units::<LinksWebRequest>(request),
        Operation::LinksTwitter => units::<LinksTwitterRequest>(request),
        Operation::TwitterSearch => units::<TwitterSearchRequest>(request),
        Operation::TwitterUrls => units::<TwitterUrlsRequest>(request),
        Operation::TwitterPost => units::<TwitterPostRequest>(request),
        Operation::TwitterPostUser => units::<TwitterPostUserRequest>(request),
        Operation::TwitterRetweeters => units::<TwitterRetweetersRequest>(request),
        Operation::TwitterUserPosts => units::<TwitterUserPostsRequest>(request),
        Operation::TwitterReplies => units::<TwitterRepliesRequest>(request),
        Operation::TwitterRepliesPost => units::<TwitterRepliesPostRequest>(request),
        Operation::TwitterTrends => units::<TwitterTrendsRequest>(request),
        Operation::WebSearch => units::<WebSearchRequest>(request),
        Operation::WebCrawl => units::<WebCrawlRequest>(request),
        Operation::Forecast => units::<ForecastRequest>(request),
        Operation::ForecastStatus => units::<ForecastStatusRequest>(request),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn units_follow_the_contract_billing_units() {
        assert_eq!(
            units_for(
                Operation::TwitterSearch,
                json!({"query": "rain", "count": 40})
            ),
            Some(40)
        );
        assert_eq!(
            units_for(Operation::TwitterSearch, json!({"query": "rain"})),
            Some(20),
            "the default count"
        );
        assert_eq!(
            units_for(
                Operation::AiSearch,
                json!({"prompt": "p", "tools": ["web"], "count": 50})
            ),
            Some(1)
        );
        assert_eq!(
            units_for(Operation::TwitterUrls, json!({"urls": ["a", "b", "c"]})),
            Some(3)
        );
        assert_eq!(
            units_for(Operation::TwitterRetweeters, json!({"id": "1"})),
            None
        );
    }
}
