//! How monitors and collections tell the window what happened, without knowing it: the
//! desktop adapter implements [`Announce`] with Tauri events and the notification plugin;
//! the tests record the calls (`tests/support/announce.rs`). Every call comes after what it
//! announces is committed to the database, so nothing announced can be lost.

use crate::collections::Collection;
use crate::monitors::types::MonitorsChanged;

/// What a monitor's run or a collection's paging tells the window, each call after the change
/// it announces is committed.
pub trait Announce: Send + Sync {
    /// A monitor's state, unseen count or run log changed.
    fn monitors_changed(&self, change: MonitorsChanged);
    /// A collection moved on by a page, or changed state.
    fn collection_progress(&self, collection: &Collection);
    /// A monitor found new posts (already stored unseen): the desktop notification.
    fn new_posts(&self, title: &str, body: &str);
    /// History, the Archive or Spend changed.
    fn records_changed(&self);
}
