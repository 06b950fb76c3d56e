//! How monitors and collections tell the window what happened, without knowing it: the
//! desktop adapter implements [`Announce`] with Tauri events and the notification plugin;
//! tests record the calls. Every call comes after what it announces is committed to the
//! database, so nothing announced can be lost.

use std::sync::Mutex;

use crate::collections::Collection;
use crate::monitors::types::MonitorsChanged;

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

/// Keeps every announcement, for tests.
#[derive(Default)]
pub struct Recorded {
    pub monitors: Mutex<Vec<MonitorsChanged>>,
    pub collections: Mutex<Vec<Collection>>,
    pub notifications: Mutex<Vec<(String, String)>>,
}

impl Announce for Recorded {
    fn monitors_changed(&self, change: MonitorsChanged) {
        self.monitors.lock().expect("lock").push(change);
    }
    fn collection_progress(&self, collection: &Collection) {
        self.collections
            .lock()
            .expect("lock")
            .push(collection.clone());
    }
    fn new_posts(&self, title: &str, body: &str) {
        self.notifications
            .lock()
            .expect("lock")
            .push((title.to_owned(), body.to_owned()));
    }
    fn records_changed(&self) {}
}
