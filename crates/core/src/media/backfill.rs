//! "Keep the media of every archived post" turned on after posts were archived: the posts
//! already in the archive have their media queued, a page of [`PAGE`] posts at a time, each
//! page in its own short transaction with the place reached (`Store::queue_media_backfill`),
//! a short gap between pages so the app's own writes and searches go on meanwhile. It can be
//! stopped at any page, and goes on from where it got to when started again (turning the
//! setting on, or the app starting with it on); a page read twice queues nothing twice.
//! Queued items are fetched by the worker at its own pace, like any other.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use chrono::Utc;
use serde::Serialize;
use sightline_store::{MediaBackfill, NewMediaItem, Store};
use ts_rs::TS;

use super::{queue, worker};

/// Posts read, planned and queued at a time.
pub const PAGE: u32 = 500;
/// The pause between pages: other writers take the database meanwhile.
pub const GAP: Duration = Duration::from_millis(50);

/// Where the backfill of archived posts' media is, as the window shows it.
#[derive(Serialize, TS, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct BackfillStatus {
    /// Reading the archive now.
    pub running: bool,
    /// Every post archived when it last ran has been read.
    pub done: bool,
    /// The last post row read (of `last_pk`): its progress.
    pub read_to: i64,
    /// The archive's last post row when it started.
    pub last_pk: i64,
    /// Media items it queued in this run.
    pub queued: u64,
}

/// Reads the archived posts after the place reached and queues their media, `page` posts at a
/// time with `gap` between pages, until the end or until `stop` is set; `told` hears the status
/// after each page. Returns the status it ended with.
pub async fn run(
    store: &Store,
    stop: &AtomicBool,
    (page, gap): (u32, Duration),
    told: &(dyn Fn(&BackfillStatus) + Send + Sync),
) -> sightline_store::Result<BackfillStatus> {
    let mut status = BackfillStatus {
        running: true,
        read_to: store.media_backfill().await?.after_pk,
        last_pk: store.last_post_pk().await?,
        ..BackfillStatus::default()
    };
    told(&status);
    loop {
        if stop.load(Ordering::Relaxed) {
            status.running = false;
            told(&status);
            return Ok(status);
        }
        let posts = store.archived_posts_after(status.read_to, page).await?;
        let Some(last) = posts.last() else {
            status.running = false;
            status.done = true;
            let reached = MediaBackfill {
                after_pk: status.read_to,
                done: true,
            };
            store.set_media_backfill(reached).await?;
            told(&status);
            return Ok(status);
        };
        let reached = MediaBackfill {
            after_pk: last.pk,
            done: false,
        };
        let items: Vec<NewMediaItem> = posts
            .iter()
            .flat_map(|post| queue::items(&post.id, &post.raw_json))
            .collect();
        let queued = store
            .queue_media_backfill(&items, reached, Utc::now())
            .await?;
        if queued > 0 {
            worker::queued();
        }
        status.queued += queued;
        status.read_to = last.pk;
        status.last_pk = status.last_pk.max(last.pk);
        told(&status);
        tokio::time::sleep(gap).await;
    }
}

/// The one backfill of the app: started, stopped and read by the window's commands.
#[derive(Default)]
pub struct Backfill {
    stop: AtomicBool,
    status: Mutex<BackfillStatus>,
}

impl Backfill {
    /// Its status now.
    pub fn status(&self) -> BackfillStatus {
        *self.status.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Asks a running backfill to stop after its current page.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Runs it to its end (or until stopped), unless it already runs (then false); `told`
    /// hears each page's status.
    pub async fn start(
        &self,
        store: &Store,
        told: &(dyn Fn(&BackfillStatus) + Send + Sync),
    ) -> sightline_store::Result<bool> {
        {
            let mut status = self.status.lock().unwrap_or_else(|e| e.into_inner());
            if status.running {
                return Ok(false);
            }
            status.running = true;
        }
        self.stop.store(false, Ordering::Relaxed);
        let keep = |now: &BackfillStatus| {
            *self.status.lock().unwrap_or_else(|e| e.into_inner()) = *now;
            told(now);
        };
        let ended = run(store, &self.stop, (PAGE, GAP), &keep).await;
        if ended.is_err() {
            let mut status = self.status.lock().unwrap_or_else(|e| e.into_inner());
            status.running = false;
            told(&status);
        }
        ended.map(|_| true)
    }
}
