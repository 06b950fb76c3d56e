//! What monitors take in and give back across IPC (camelCase, exported to TypeScript).

use chrono::{DateTime, Utc};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use sightline_api::request::{TwitterSearchRequest, TwitterUserPostsRequest};
use sightline_store::{BudgetCheck, StoredPost};
use ts_rs::TS;

/// What a monitor watches: an X search with all its filters, or an account's posts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(
    tag = "kind",
    rename_all = "snake_case",
    rename_all_fields = "camelCase"
)]
#[ts(export)]
pub enum MonitorTarget {
    /// Each run asks for posts from the last run's window end on, newest first, up to the cap.
    Search { request: TwitterSearchRequest },
    /// Each run pages the account's posts newest first until a post older than the last run.
    Account { request: TwitterUserPostsRequest },
}

/// A monitor as the form sends it, to create or to change one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct MonitorDraft {
    pub name: String,
    pub target: MonitorTarget,
    /// Minutes between runs: 15 to 1,440 (a day).
    pub interval_minutes: i64,
    /// Most new posts a run asks for (1 to 100).
    pub cap: i64,
    /// The investigation its runs' requests and posts are filed under, if any.
    pub investigation_id: Option<i64>,
}

pub use sightline_store::MonitorState;

/// One monitor as the list shows it.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct Monitor {
    pub id: i64,
    pub name: String,
    pub target: MonitorTarget,
    pub interval_minutes: i64,
    pub cap: i64,
    pub investigation_id: Option<i64>,
    pub state: MonitorState,
    /// Why it is paused or waiting, in plain words (a budget block, a budget warning).
    pub state_reason: Option<String>,
    /// When it runs next (while active); after a 429, not before the service's wait.
    pub next_run_at: Option<DateTime<Utc>>,
    pub last_run_at: Option<DateTime<Utc>>,
    /// A run is going on now.
    pub running: bool,
    /// New posts not yet marked seen.
    pub unseen: i64,
    pub created_at: DateTime<Utc>,
}

/// Unseen posts, per monitor and in all: the badge counts.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct UnseenCounts {
    pub total: i64,
    pub by_monitor: Vec<MonitorUnseen>,
}

#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct MonitorUnseen {
    pub monitor_id: i64,
    pub unseen: i64,
}

/// What a draft monitor would cost, before it is saved.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct MonitorEstimate {
    /// `None`: no rate learned yet for this kind of request ("unknown").
    #[ts(type = "string | null")]
    pub per_run: Option<Decimal>,
    #[ts(type = "string | null")]
    pub per_month: Option<Decimal>,
    pub currency: String,
    /// Runs in 30 days at its interval.
    pub runs_per_month: i64,
    /// Per-month cost as a percentage of the monthly budget (`None` without a monthly limit or
    /// without a rate), e.g. `"12.5"`.
    #[ts(type = "string | null")]
    pub share_of_monthly_budget: Option<Decimal>,
    #[ts(type = "string | null")]
    pub monthly_limit: Option<Decimal>,
    /// The budget's verdict on one run now.
    pub budget: BudgetCheck,
}

/// A monitor's posts, newest first.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct MonitorPostPage {
    pub posts: Vec<MonitorPost>,
    /// Posts matching the query in all (for the list's length).
    pub total: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct MonitorPost {
    pub post: StoredPost,
    pub seen: bool,
    pub found_at: DateTime<Utc>,
}

/// Which of a monitor's posts to list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(default, rename_all = "camelCase")]
#[ts(export)]
pub struct MonitorPostQuery {
    pub only_unseen: bool,
    pub offset: i64,
    pub limit: i64,
}

impl Default for MonitorPostQuery {
    fn default() -> Self {
        Self {
            only_unseen: false,
            offset: 0,
            limit: 50,
        }
    }
}

/// Sent to the window as the `monitors-changed` event whenever a monitor's state, unseen count
/// or run log changes.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct MonitorsChanged {
    /// The monitor that changed (`None`: several, e.g. "mark all seen").
    pub monitor_id: Option<i64>,
    pub unseen: UnseenCounts,
}
