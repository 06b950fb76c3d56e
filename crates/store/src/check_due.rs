//! When SQLite's check of the whole file ([`Store::quick_check`]) is worth its cost. It reads
//! every page: seconds of disk and CPU, and the page cache churned, at each start of a
//! ten-million-post archive. So an opening asks for it only ([`Store::check_due`]):
//!
//! * after an unclean close ([`CheckDue::UncleanClose`]): the app did not close the file the
//!   last time (a crash, a kill, power lost), told by a marker file beside it, `<file>-open`,
//!   written once the store is open and removed by [`Store::close`];
//! * when no clean check of this file is recorded ([`CheckDue::NeverChecked`]), or the last
//!   one is [`CHECK_EVERY`] old or more ([`CheckDue::Overdue`]).
//!
//! An upgrade checks the file before migrating it whatever this says (`upgrade`), and that
//! check counts as the opening's.
//!
//! The marker rather than SQLite's own trace of a crash, a write-ahead log left behind: the
//! log also outlives a clean close while another connection or process has the file open, and
//! SQLite folds it in at the next opening, before anything could look. The marker says only
//! whether Sightline closed its store, the same on every platform. A marker left while an
//! unclean close's check has not yet passed stays at close, so a check cut short by a quit is
//! run again at the next start.
//!
//! The last clean check's time is kept in the file itself (archive state
//! [`LAST_CLEAN_CHECK`]), not in the data folder: it vouches for the file it was taken on, so
//! a file set aside, restored from a copy or put in place by hand carries its own time, never
//! another file's. Writing it costs one small transaction per check.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use chrono::{DateTime, TimeDelta, Utc};

use crate::Store;

/// How long a clean check vouches for a file that was closed cleanly since.
pub const CHECK_EVERY: TimeDelta = TimeDelta::days(7);

/// The archive state key of the last clean check's time (UTC).
pub const LAST_CLEAN_CHECK: &str = "last_clean_check";

/// Why the whole file's check is due at this opening.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckDue {
    /// The store was not closed the last time the file was open: its marker was still there.
    UncleanClose,
    /// No clean check of this file is recorded.
    NeverChecked,
    /// The last clean check is [`CHECK_EVERY`] old or more (or later than now: a clock set
    /// back).
    Overdue {
        /// When it was.
        last: DateTime<Utc>,
    },
}

/// What an opening found, held by every clone of the store.
#[derive(Debug, Default)]
pub(crate) struct Opened {
    /// The marker beside the file; `None` for a store that writes none (read-only, in memory).
    marker: Option<PathBuf>,
    /// Why the check is due; `None` once a check has passed.
    due: Mutex<Option<CheckDue>>,
}

impl Opened {
    pub(crate) fn due(&self) -> Option<CheckDue> {
        *self.due.lock().expect("check state poisoned")
    }

    /// A clean check done: nothing due, and the marker may go at close.
    fn passed(&self) {
        *self.due.lock().expect("check state poisoned") = None;
    }

    /// At close: the marker removed, unless an unclean close's check has not passed yet.
    pub(crate) fn closed(&self) {
        let Some(marker) = &self.marker else {
            return;
        };
        if self.due() == Some(CheckDue::UncleanClose) {
            return;
        }
        match std::fs::remove_file(marker) {
            Ok(()) => {}
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
            Err(error) => {
                tracing::warn!(%error, file = %marker.display(), "the open marker was not removed")
            }
        }
    }
}

/// The marker beside the database file `db`.
pub fn marker_path(db: &Path) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push("-open");
    PathBuf::from(name)
}

/// Whether the last store on `db` was left open (its marker is there).
pub(crate) fn left_open(db: &Path) -> bool {
    marker_path(db).exists()
}

/// The rule: an unclean close first, then the age of the last clean check.
pub(crate) fn due(
    left_open: bool,
    last: Option<DateTime<Utc>>,
    now: DateTime<Utc>,
) -> Option<CheckDue> {
    if left_open {
        return Some(CheckDue::UncleanClose);
    }
    let Some(last) = last else {
        return Some(CheckDue::NeverChecked);
    };
    let age = now.signed_duration_since(last);
    if age < TimeDelta::zero() || age >= CHECK_EVERY {
        return Some(CheckDue::Overdue { last });
    }
    None
}

impl Store {
    /// Why the whole file's check is due at this opening (see `check_due`); `None` when it is
    /// not, or when a check has passed since. A store not opened by
    /// [`Store::open_upgrading`] or [`Store::open`] has none due.
    pub fn check_due(&self) -> Option<CheckDue> {
        self.opened.due()
    }

    /// The last clean check's time, as the file records it.
    pub async fn last_clean_check(&self) -> crate::Result<Option<DateTime<Utc>>> {
        self.archive_state(LAST_CLEAN_CHECK).await
    }

    /// After an opening of the file `db`: the marker written and what is due decided.
    /// `checked`: the opening checked the file itself (before migrating), which counts as a
    /// clean check.
    pub(crate) async fn opened_at(mut self, db: &Path, left_open: bool, checked: bool) -> Self {
        let now = Utc::now();
        let due = if checked {
            self.record_clean_check(now).await;
            None
        } else {
            // A time that cannot be read is as none: the check runs and writes it anew.
            let last = self.last_clean_check().await.unwrap_or_else(|error| {
                tracing::warn!(%error, "the last check's time could not be read");
                None
            });
            due(left_open, last, now)
        };
        let marker = marker_path(db);
        if let Err(error) = write_marker(&marker) {
            // Without it a crash goes unseen; the check still runs every CHECK_EVERY.
            tracing::warn!(%error, file = %marker.display(), "the open marker was not written");
        }
        self.opened = std::sync::Arc::new(Opened {
            marker: Some(marker),
            due: Mutex::new(due),
        });
        self
    }

    /// A check that found the file sound: its time recorded, nothing due any more.
    pub(crate) async fn check_passed(&self) {
        self.record_clean_check(Utc::now()).await;
        self.opened.passed();
    }

    async fn record_clean_check(&self, at: DateTime<Utc>) {
        // Not recorded (a read-only store, a file before migration 0013): checked again later.
        if let Err(error) = self.set_archive_state(LAST_CLEAN_CHECK, &at).await {
            tracing::warn!(%error, "the check's time was not recorded");
        }
    }
}

/// Written and synced, so that a power cut soon after the opening still leaves it.
fn write_marker(marker: &Path) -> std::io::Result<()> {
    use std::io::Write;
    let mut file = std::fs::File::create(marker)?;
    file.write_all(b"Sightline has this database open; it removes this file when it closes it.\n")?;
    file.sync_all()
}

#[cfg(test)]
mod tests;
