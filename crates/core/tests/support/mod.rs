//! Set-up shared by the integration tests.

pub mod announce;
pub mod clock;
pub mod evidence_seed;
pub mod live;
pub mod media_host;
pub mod media_seed;
pub mod monitor_runs;
pub mod search;
pub mod send;
pub mod tamper;
pub mod tsa;
