//! What a request will probably cost, from the rates the service itself charged recently.
//! Never a hard-coded price: with no billed answer of the same kind yet, the estimate is unknown.
//! How many units each request is billed for is the service's rule, kept beside the request
//! types (`sightline_api::ExpectedUnits`).

use rust_decimal::Decimal;
use serde::Serialize;
use sightline_api::Operation;
use sightline_store::{HistoryQuery, RequestStatus, Store};
use ts_rs::TS;

/// The cost shown beside a Send button.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CostEstimate {
    /// `None`: no billed answer of this kind yet, so no rate to go by.
    #[ts(type = "string | null")]
    pub amount: Option<Decimal>,
    /// The learned rate's currency (the service's, e.g. `USD`).
    pub currency: String,
    /// The units the service would bill the request for, when they can be known before it is sent.
    pub units: Option<i64>,
}

/// The estimate and the budget's verdict on it: the cost chip shows it, and every send checks it.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct CostCheck {
    /// What the request would cost, from learned rates.
    pub estimate: CostEstimate,
    /// The budget's verdict on that cost: fine, a warning, or blocked.
    pub budget: sightline_store::BudgetCheck,
}

/// The cost chip's check for a request as the form holds it (`request`, its JSON): the units
/// the service would bill it for, then their estimate and the budget's verdict.
pub async fn for_request(
    store: &Store,
    operation: Operation,
    request: serde_json::Value,
) -> Result<CostCheck, crate::errors::CommandError> {
    let units = sightline_api::units_for(operation, request);
    Ok(cost_check(store, operation, units).await?)
}

/// The estimate of `units` of `operation` and the budget's verdict on it, in the display zone's
/// day and month.
pub(crate) async fn cost_check(
    store: &Store,
    operation: Operation,
    units: Option<i64>,
) -> sightline_store::Result<CostCheck> {
    let estimate = estimate(store, operation, units).await?;
    let budget = store
        .check_budget(
            crate::zone::time_zone(),
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

/// X reads are billed per post by one service, so until `preferred` has been billed, the
/// learned rate of the latest other X read per post stands in for it.
const PER_POST_READS: [Operation; 6] = [
    Operation::TwitterUrls,
    Operation::TwitterSearch,
    Operation::TwitterPostUser,
    Operation::TwitterReplies,
    Operation::TwitterRepliesPost,
    Operation::TwitterUserPosts,
];

/// The cost of reading `posts` X posts with `preferred` (from its own rate, else another X
/// read's), and the budget's verdict. Unknown, and judged as zero, before any X read is billed.
pub async fn per_post_read_check(
    store: &Store,
    preferred: Operation,
    posts: i64,
) -> sightline_store::Result<CostCheck> {
    let others = PER_POST_READS.into_iter().filter(|op| *op != preferred);
    for operation in std::iter::once(preferred).chain(others) {
        let guess = estimate(store, operation, Some(posts)).await?;
        if let Some(amount) = guess.amount {
            let budget = store
                .check_budget(crate::zone::time_zone(), chrono::Utc::now(), amount)
                .await?;
            return Ok(CostCheck {
                estimate: guess,
                budget,
            });
        }
    }
    cost_check(store, preferred, Some(posts)).await
}
