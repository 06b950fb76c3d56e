//! Monitors: saved X searches and accounts' posts that fetch only what is new, on an interval,
//! within the budget, with their new posts kept unseen until the user marks them seen.
//!
//! * `monitors/types.rs`: what crosses IPC (the draft, the monitor, its estimate, posts, run log).

mod types;

pub use types::{
    Monitor, MonitorDraft, MonitorEstimate, MonitorPost, MonitorPostPage, MonitorPostQuery,
    MonitorState, MonitorTarget, MonitorUnseen, MonitorsChanged, RunLogEntry, RunOutcome,
    UnseenCounts,
};
