//! Folding the write-ahead log into the database file off the writer's path.
//!
//! SQLite checkpoints inside the commit that takes the log past 1,000 pages: every page written
//! since is copied into the database file and the file synced before the commit returns. In a
//! large archive a page of 100 posts dirties more than 1,000 pages (each post's rows land on
//! pages of their own in some fifteen indexes and tallies), so every request's commit paid for
//! its pages twice. Now the store pokes [`Checkpointer`] after each commit; it lets [`SETTLE`]
//! pass (a run of commits is folded in once: a page many of them touched is copied once), then
//! runs a passive checkpoint on a pool connection, which copies what no reader still needs,
//! never waits for a reader and never holds up the writer.
//!
//! SQLite starts the log over only when a write begins with every page of it copied. Between the
//! app's requests that moment comes by itself; with writes back to back (an import, the bench)
//! it does not, and the log grows until the writer's own checkpoint at
//! [`WRITER_BACKSTOP_PAGES`] copies the little that is left and starts it over: that write waits
//! for it, once per 256 MiB written. [`LOG_KEPT_BYTES`] is what the log file is cut back to then.
//!
//! It runs only after a write, at most once per [`SETTLE`] plus the checkpoint's own time, and
//! after a failure (a full disk, say) waits [`AFTER_FAILURE`] before it tries again; it stops
//! when the store is closed or dropped.

use std::sync::Arc;
use std::time::Duration;

use sqlx::SqlitePool;
use tokio::sync::{mpsc, Mutex, OwnedMutexGuard};

/// The writer connection's `wal_autocheckpoint`: 65,536 pages, a 256 MiB log at 4 KiB pages.
/// On the 2,000,000-post bench archive, writing pages of 100 posts back to back (the median
/// page, the 95th percentile): 16,384 pages 31.8 / 165.3 ms, 32,768 25.2 / 50.7 ms, 65,536
/// 27.8 / 42.7 ms; SQLite's 1,000 in the commit 58.6 / 78.0 ms.
pub(crate) const WRITER_BACKSTOP_PAGES: &str = "65536";

/// `journal_size_limit`: the log file is cut back to 64 MiB when it starts over, rather than
/// keeping the largest size it ever reached until the app quits.
pub(crate) const LOG_KEPT_BYTES: &str = "67108864";

/// How long after a commit the log is folded in: later commits within it are folded in with it.
const SETTLE: Duration = Duration::from_millis(250);

/// How long a failed checkpoint waits before the next may run.
const AFTER_FAILURE: Duration = Duration::from_secs(5);

/// The handle the store keeps: poking it asks for a checkpoint soon.
#[derive(Clone, Debug)]
pub(crate) struct Checkpointer {
    poke: mpsc::Sender<()>,
    /// Held while a checkpoint runs, and by [`Checkpointer::hold`]: SQLite runs one checkpoint
    /// at a time and answers a second with "busy" at once, so a truncating checkpoint (at close,
    /// before a backup) waits for this one instead of failing.
    running: Arc<Mutex<()>>,
}

impl Checkpointer {
    /// Starts the task over the store's read `pool`; it ends when every handle is dropped or
    /// the pool is closed.
    pub(crate) fn start(pool: SqlitePool) -> Self {
        let (poke, mut poked) = mpsc::channel::<()>(1);
        let running = Arc::new(Mutex::new(()));
        let held = running.clone();
        tokio::spawn(async move {
            while poked.recv().await.is_some() {
                tokio::time::sleep(SETTLE).await;
                // Pokes that came while it settled are answered by this checkpoint.
                while poked.try_recv().is_ok() {}
                let _running = held.lock().await;
                if pool.is_closed() {
                    break;
                }
                let folded = sqlx::query("PRAGMA wal_checkpoint(PASSIVE)")
                    .execute(&pool)
                    .await;
                if let Err(error) = folded {
                    if pool.is_closed() {
                        break;
                    }
                    tracing::warn!(%error, "folding the write-ahead log in failed; trying again later");
                    tokio::time::sleep(AFTER_FAILURE).await;
                }
            }
        });
        Self { poke, running }
    }

    /// Waits for a checkpoint under way, and keeps the next from starting while held.
    pub(crate) async fn hold(&self) -> OwnedMutexGuard<()> {
        self.running.clone().lock_owned().await
    }

    /// Asks for a checkpoint after a commit; returns at once (a poke already waiting stands).
    pub(crate) fn poke(&self) {
        let _ = self.poke.try_send(());
    }
}

#[cfg(test)]
mod tests;
