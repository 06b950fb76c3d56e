//! What monitors take in and give back across IPC (camelCase, exported to TypeScript).

use chrono::{DateTime, Utc};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use sightline_api::request::{TwitterSearchRequest, TwitterUserPostsRequest};
use sightline_store::{BudgetCheck, MonitorState, StoredPost};
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
    Search {
        /// The search as the form made it; each run narrows its window.
        request: TwitterSearchRequest,
    },
    /// Each run pages the account's posts newest first until a post older than the last run.
    Account {
        /// The account (and the paging size) whose posts are watched.
        request: TwitterUserPostsRequest,
    },
}

/// A monitor as the form sends it, to create or to change one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct MonitorDraft {
    /// What the list calls it (1 to 100 characters).
    pub name: String,
    /// What it watches.
    pub target: MonitorTarget,
    /// Minutes between runs: 15 to 1,440 (a day).
    pub interval_minutes: i64,
    /// Most new posts a run asks for (1 to 100).
    pub cap: i64,
    /// The investigation its runs' requests and posts are filed under, if any.
    pub investigation_id: Option<i64>,
}

/// One monitor as the list shows it.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct Monitor {
    /// Its id in the database, for every command about it.
    pub id: i64,
    /// What the list calls it.
    pub name: String,
    /// What it watches.
    pub target: MonitorTarget,
    /// Minutes between runs.
    pub interval_minutes: i64,
    /// Most new posts a run asks for.
    pub cap: i64,
    /// The investigation its runs' requests and posts are filed under, if any.
    pub investigation_id: Option<i64>,
    /// Active, paused by the user or by the budget, or waiting for the user to confirm a run
    /// the budget warned about.
    pub state: MonitorState,
    /// Why it is paused or waiting, in plain words (a budget block, a budget warning).
    pub state_reason: Option<String>,
    /// When it runs next (while active); after a 429, not before the service's wait.
    pub next_run_at: Option<DateTime<Utc>>,
    /// When its last run started (`None`: never run).
    pub last_run_at: Option<DateTime<Utc>>,
    /// A run is going on now.
    pub running: bool,
    /// New posts not yet marked seen.
    pub unseen: i64,
    /// When it was saved.
    pub created_at: DateTime<Utc>,
}

/// Unseen posts, per monitor and in all: the badge counts.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct UnseenCounts {
    /// Unseen posts over every monitor: the sidebar's badge.
    pub total: i64,
    /// Each monitor's count, for the list's badges.
    pub by_monitor: Vec<MonitorUnseen>,
}

#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
/// One monitor's unseen posts.
pub struct MonitorUnseen {
    /// The monitor.
    pub monitor_id: i64,
    /// Its posts not yet marked seen.
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
    /// A run's cost times the runs in 30 days (`None` without a rate).
    pub per_month: Option<Decimal>,
    /// The currency of the learned rate (the service's, e.g. `USD`).
    pub currency: String,
    /// Runs in 30 days at its interval.
    pub runs_per_month: i64,
    /// Per-month cost as a percentage of the monthly budget (`None` without a monthly limit or
    /// without a rate), e.g. `"12.5"`.
    #[ts(type = "string | null")]
    pub share_of_monthly_budget: Option<Decimal>,
    #[ts(type = "string | null")]
    /// The monthly budget, if one is set.
    pub monthly_limit: Option<Decimal>,
    /// The budget's verdict on one run now.
    pub budget: BudgetCheck,
}

/// A monitor's posts, newest first.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct MonitorPostPage {
    /// This page of posts.
    pub posts: Vec<MonitorPost>,
    /// Posts matching the query in all (for the list's length).
    pub total: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
/// A post a monitor found, with whether the user has seen it.
pub struct MonitorPost {
    /// The post as stored in the archive.
    pub post: StoredPost,
    /// The user marked it seen (it no longer counts as new).
    pub seen: bool,
    /// When the monitor's run found it.
    pub found_at: DateTime<Utc>,
}

/// Which of a monitor's posts to list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(default, rename_all = "camelCase")]
#[ts(export)]
pub struct MonitorPostQuery {
    /// Only posts not yet marked seen.
    pub only_unseen: bool,
    /// How many to skip (the page's start), when there is no `after` post to page from.
    pub offset: i64,
    /// Most posts on the page (50 unless asked).
    pub limit: i64,
    /// The last post of the page before (its id): the page is the posts after it (keyset
    /// paging: posts marked seen meanwhile shift nothing); `offset` counts only when the
    /// monitor no longer holds it.
    pub after: Option<String>,
}

impl Default for MonitorPostQuery {
    fn default() -> Self {
        Self {
            only_unseen: false,
            offset: 0,
            limit: 50,
            after: None,
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
    /// The unseen counts after the change, for the badges.
    pub unseen: UnseenCounts,
}
