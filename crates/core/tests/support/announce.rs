//! An [`Announce`] that keeps every announcement, for the tests to read back.

use std::sync::Mutex;

use sightline_core::announce::Announce;
use sightline_core::collections::Collection;
use sightline_core::monitors::MonitorsChanged;

/// Keeps every announcement, in order.
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
