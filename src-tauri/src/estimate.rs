//! What a request will probably cost, from the rates the service itself charged recently.
//! Never a hard-coded price: with no billed answer of the same kind yet, the estimate is unknown.

use rust_decimal::Decimal;
use serde::Serialize;
use sightline_api::request::*;
use sightline_api::Operation;
use sightline_store::{HistoryQuery, RequestStatus, Store};
use ts_rs::TS;

/// Units a request is expected to be billed for; `None` when only past answers can tell
/// (pages of retweeters or a timeline).
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
    WebCrawlRequest
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

/// The cost shown beside a Send button.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CostEstimate {
    /// `None`: no billed answer of this kind yet, so no rate to go by.
    #[ts(type = "string | null")]
    pub amount: Option<Decimal>,
    pub currency: String,
    pub units: Option<i64>,
}

/// The estimate and the budget's verdict on it: the cost chip shows it, and every send checks it.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct CostCheck {
    pub estimate: CostEstimate,
    pub budget: sightline_store::BudgetCheck,
}

pub async fn cost_check(
    store: &Store,
    operation: Operation,
    units: Option<i64>,
) -> sightline_store::Result<CostCheck> {
    let estimate = estimate(store, operation, units).await?;
    let budget = store
        .check_budget(
            crate::time_zone(),
            chrono::Utc::now(),
            estimate.amount.unwrap_or_default(),
        )
        .await?;
    Ok(CostCheck { estimate, budget })
}

/// Estimates from the latest billed answer of the same operation: its service's learned rate
/// times the expected units (or, for pages, the units that answer was billed for).
pub async fn estimate(
    store: &Store,
    operation: Operation,
    units: Option<i64>,
) -> sightline_store::Result<CostEstimate> {
    let latest = store
        .history(&HistoryQuery {
            operation: Some(operation.as_str().to_owned()),
            status: Some(RequestStatus::Ok),
            limit: 1,
            ..HistoryQuery::default()
        })
        .await?;
    let Some(billing) = latest.into_iter().next().and_then(|entry| entry.billing) else {
        return Ok(CostEstimate {
            amount: None,
            currency: "USD".into(),
            units,
        });
    };
    let units = units.unwrap_or(billing.usage_count);
    let amount = store.estimate(&billing.service, units).await?;
    Ok(CostEstimate {
        amount,
        currency: billing.currency,
        units: Some(units),
    })
}

/// Expected units of a request given as JSON (the form the UI holds), for the cost chip.
/// A request that does not parse yet has no estimate; validation will say why on send.
pub fn units_for(operation: Operation, request: serde_json::Value) -> Option<i64> {
    fn units<R: ExpectedUnits + serde::de::DeserializeOwned>(
        value: serde_json::Value,
    ) -> Option<i64> {
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
