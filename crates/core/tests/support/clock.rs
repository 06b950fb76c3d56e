//! A clock for a background loop under test (the monitors' scheduler, the stamper): its naps
//! add to the clock instead of sleeping, up to a limit the test sets, so hours of its time
//! pass in a moment.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use sightline_core::monitors::SchedulerClock;
use tokio::sync::watch;

/// The scheduler's time: the real time plus how far its naps have taken it. A nap adds its
/// length at once, but waits while the clock is at the test's limit.
pub struct SteppedClock {
    ahead: watch::Sender<Duration>,
    limit: watch::Sender<Duration>,
}

impl SteppedClock {
    pub fn new() -> Arc<Self> {
        Arc::new(Self {
            ahead: watch::Sender::new(Duration::ZERO),
            limit: watch::Sender::new(Duration::ZERO),
        })
    }

    /// Lets the scheduler's time run to `limit` (from when the test began), and returns once
    /// it is there and the pass after its last nap had time to finish.
    pub async fn run_to(&self, limit: Duration) {
        self.limit.send_replace(limit);
        let mut ahead = self.ahead.subscribe();
        ahead.wait_for(|ahead| *ahead >= limit).await.unwrap();
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
}

impl SchedulerClock for SteppedClock {
    fn now(&self) -> DateTime<Utc> {
        Utc::now() + chrono::Duration::from_std(*self.ahead.borrow()).unwrap()
    }

    fn nap(&self, duration: Duration) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
        Box::pin(async move {
            let mut limit = self.limit.subscribe();
            let _ = limit.wait_for(|limit| *self.ahead.borrow() < *limit).await;
            self.ahead.send_modify(|ahead| *ahead += duration);
        })
    }
}
