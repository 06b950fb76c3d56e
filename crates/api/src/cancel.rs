//! A cancellation signal for streams: cheap to clone, race-free to await.

use std::sync::Arc;

use tokio::sync::watch;

/// Cancels a running stream. Clone it, hand one copy to the stream and call
/// [`cancel`](Self::cancel) on another.
#[derive(Debug, Clone)]
pub struct CancelToken {
    tx: Arc<watch::Sender<bool>>,
}

impl Default for CancelToken {
    fn default() -> Self {
        CancelToken {
            tx: Arc::new(watch::channel(false).0),
        }
    }
}

impl CancelToken {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn cancel(&self) {
        self.tx.send_replace(true);
    }

    pub fn is_cancelled(&self) -> bool {
        *self.tx.borrow()
    }

    /// Resolves once `cancel` has been called (at once if it already was).
    pub async fn cancelled(&self) {
        let mut rx = self.tx.subscribe();
        // wait_for checks the current value first, so a cancel before this call is seen.
        let _ = rx.wait_for(|c| *c).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn cancel_before_or_after_waiting_is_seen() {
        let t = CancelToken::new();
        assert!(!t.is_cancelled());
        let waiter = tokio::spawn({
            let t = t.clone();
            async move { t.cancelled().await }
        });
        t.cancel();
        waiter.await.unwrap();
        assert!(t.is_cancelled());
        t.cancelled().await;
    }
}
