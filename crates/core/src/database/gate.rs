//! Each mode's database phase (opening with its step, checking, open, or a problem in words),
//! shared with the progress of an opening in flight; and the types the start and recovery
//! screens read. Below the app's state, which holds one gate: nothing here knows of it.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use chrono::{DateTime, Utc};
use serde::Serialize;
use sightline_store::{backup, latest_known};
use sightline_store::{Check, Store, StoreError, Upgrade, UpgradeStep};
use tokio::sync::watch;
use ts_rs::TS;

use crate::errors::CommandError;
use crate::session::Mode;

const DAMAGED: &str = "Sightline checked this archive's file and found it damaged: part of \
    it cannot be read as SQLite wrote it.";

/// The folder, in the data folder, of the copies made before an upgrade.
pub const BACKUPS_DIR: &str = "backups";

/// Where the current mode's database is, for the start screen and the recovery screen.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(
    tag = "state",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
#[ts(export)]
pub enum DatabaseStatus {
    /// Nothing has asked for it yet.
    Closed,
    /// Being opened: checked, copied, upgraded. `elapsedMs` since the opening began (the start
    /// screen shows itself after a second).
    Opening {
        /// The upgrade step under way, if an upgrade is running.
        step: Option<UpgradeStep>,
        /// Milliseconds since the opening began.
        elapsed_ms: u64,
    },
    /// Open. `readOnly`: the user chose to read it as it is; nothing can be sent or saved.
    /// `checking`: SQLite's check of it is still running (it may yet turn to `problem`).
    Ready {
        /// Opened for reading only, by the user's choice.
        read_only: bool,
        /// SQLite's check is still running.
        checking: bool,
    },
    /// It could not be opened: the recovery screen.
    Problem {
        /// What is wrong, and what the screen offers.
        problem: DatabaseProblem,
    },
}

/// Why the database could not be opened, in words, and what can be done.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct DatabaseProblem {
    /// Newer, damaged or unopenable: which ways on the recovery screen offers.
    pub kind: ProblemKind,
    /// What happened, in a sentence or two.
    pub message: String,
    /// SQLite's own words (its check's first findings, or the error), for a person helping.
    pub details: Vec<String>,
    /// The database file.
    pub file: String,
    /// The newest copy made before an upgrade, if any: what "Restore" puts back.
    pub backup: Option<BackupInfo>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
/// Why a database could not be opened, as the recovery screen branches on it.
pub enum ProblemKind {
    /// Written by a newer Sightline: this one must not change it.
    Newer,
    /// SQLite's check failed, or the file is not a database.
    Damaged,
    /// Anything else (a full disk during an upgrade, no permission to read it).
    Unopenable,
}

/// A copy of the database made before an upgrade.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct BackupInfo {
    /// The copy's path.
    pub file: String,
    /// When the copy was made (the time in its file name).
    pub made_at: DateTime<Utc>,
    /// Its size, in bytes.
    pub bytes: u64,
}

/// What a recovery action did, for the screen to say (`setAside`: where the old file went).
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct Recovered {
    /// The database's status after the action.
    pub status: DatabaseStatus,
    /// Where the old file was moved, if it was (never deleted).
    pub set_aside: Option<String>,
}

#[derive(Debug, Clone)]
pub(super) enum Phase {
    Opening {
        since: Instant,
        step: Option<UpgradeStep>,
    },
    /// Open, SQLite's check of it still running.
    Checking,
    Open {
        read_only: bool,
    },
    Problem(DatabaseProblem),
}

/// Each mode's phase, shared with the progress callback of an opening in flight.
#[derive(Debug)]
pub struct Gate {
    phases: Arc<Mutex<HashMap<Mode, Phase>>>,
    /// Bumped at each change, for [`Gate::until_writable`].
    changed: watch::Sender<u64>,
}

impl Default for Gate {
    fn default() -> Self {
        Self {
            phases: Arc::default(),
            changed: watch::channel(0).0,
        }
    }
}

impl Gate {
    pub(super) fn set(&self, mode: Mode, phase: Option<Phase>) {
        let mut phases = self.phases.lock().expect("database phases poisoned");
        match phase {
            Some(phase) => phases.insert(mode, phase),
            None => phases.remove(&mode),
        };
        drop(phases);
        self.changed.send_modify(|n| *n += 1);
    }

    pub(super) fn phase(&self, mode: Mode) -> Option<Phase> {
        self.phases
            .lock()
            .expect("database phases poisoned")
            .get(&mode)
            .cloned()
    }

    pub fn status(&self, mode: Mode) -> DatabaseStatus {
        match self.phase(mode) {
            None => DatabaseStatus::Closed,
            Some(Phase::Opening { since, step }) => DatabaseStatus::Opening {
                step,
                elapsed_ms: since.elapsed().as_millis() as u64,
            },
            Some(Phase::Checking) => DatabaseStatus::Ready {
                read_only: false,
                checking: true,
            },
            Some(Phase::Open { read_only }) => DatabaseStatus::Ready {
                read_only,
                checking: false,
            },
            Some(Phase::Problem(problem)) => DatabaseStatus::Problem { problem },
        }
    }

    /// Waits until the database of the mode `mode()` names (asked again at each change) is open
    /// for writing: not read-only, not at the recovery screen.
    pub(crate) async fn until_writable(&self, mode: impl Fn() -> Mode) {
        let mut changes = self.changed.subscribe();
        loop {
            if matches!(
                self.phase(mode()),
                Some(Phase::Open { read_only: false } | Phase::Checking)
            ) {
                return;
            }
            if changes.changed().await.is_err() {
                return;
            }
        }
    }

    pub fn is_read_only(&self, mode: Mode) -> bool {
        matches!(self.phase(mode), Some(Phase::Open { read_only: true }))
    }

    /// Opens `mode`'s database in `data_dir` with progress, or records why it cannot be. A
    /// problem recorded earlier is answered at once: the file is not checked again until the
    /// user chooses what to do.
    pub(crate) async fn open(&self, mode: Mode, data_dir: &Path) -> Result<Store, CommandError> {
        if let Some(Phase::Problem(problem)) = self.phase(mode) {
            return Err(problem.as_error());
        }
        let since = Instant::now();
        self.set(mode, Some(Phase::Opening { since, step: None }));
        let phases = self.phases.clone();
        let changed = self.changed.clone();
        let upgrade = Upgrade {
            // Checked before an upgrade; otherwise once open, in the background, when due.
            check: Check::BeforeMigrating,
            backups: Some(data_dir.join(BACKUPS_DIR)),
            progress: Some(Arc::new(move |step| {
                phases.lock().expect("database phases poisoned").insert(
                    mode,
                    Phase::Opening {
                        since,
                        step: Some(step),
                    },
                );
                changed.send_modify(|n| *n += 1);
            })),
        };
        let path = database_path(mode, data_dir);
        let opened = match Store::open_upgrading(&path, &upgrade).await {
            // Requests left running by a crash are closed, keeping what they had received.
            Ok(store) => match store.recover_unfinished().await {
                Ok(_) => Ok(store),
                Err(error) => {
                    store.close().await;
                    Err(error)
                }
            },
            Err(error) => Err(error),
        };
        match opened {
            Ok(store) => {
                self.set(mode, Some(Phase::Open { read_only: false }));
                // The whole file is read only when it is worth it: after an unclean close, when
                // no clean check is recorded, or a week after the last (`Store::check_due`).
                if let Some(due) = store.check_due() {
                    tracing::info!(?due, mode = mode.as_str(), "the database's check is due");
                    self.check_in_background(mode, store.clone(), path, data_dir.to_owned());
                }
                Ok(store)
            }
            Err(error) => {
                tracing::warn!(%error, mode = mode.as_str(), "the database could not be opened");
                let problem = DatabaseProblem::new(error, &path, data_dir);
                let answer = problem.as_error();
                self.set(mode, Some(Phase::Problem(problem)));
                Err(answer)
            }
        }
    }
}

impl Gate {
    /// SQLite's check of an open database, off the start's path: it reads the whole file (1.9 s
    /// for a 1,000,000-post archive), so the window opens first. Damage found turns the window
    /// to the recovery screen; the store is closed by the next time the app asks for it.
    fn check_in_background(&self, mode: Mode, store: Store, path: PathBuf, data_dir: PathBuf) {
        let phases = self.phases.clone();
        let changed = self.changed.clone();
        self.set(mode, Some(Phase::Checking));
        tokio::spawn(async move {
            let found = match store.quick_check().await {
                Ok(report) if report == ["ok"] => None,
                Ok(report) => Some(StoreError::Damaged { report }),
                Err(error) if error.is_damage() => Some(error),
                Err(error) => {
                    tracing::warn!(%error, "the database's check could not run");
                    None
                }
            };
            let next = match found {
                None => Phase::Open { read_only: false },
                Some(error) => {
                    tracing::warn!(%error, mode = mode.as_str(), "the database is damaged");
                    Phase::Problem(DatabaseProblem::new(error, &path, &data_dir))
                }
            };
            let mut phases = phases.lock().expect("database phases poisoned");
            // Only if nothing else happened meanwhile (a recovery, a re-opening).
            if matches!(phases.get(&mode), Some(Phase::Checking)) {
                phases.insert(mode, next);
            }
            drop(phases);
            changed.send_modify(|n| *n += 1);
        });
    }

    /// A store held while its database turned out damaged: to be closed, not used.
    pub(crate) fn is_problem(&self, mode: Mode) -> bool {
        matches!(self.phase(mode), Some(Phase::Problem(_)))
    }
}

/// The database file of `mode` in `data_dir`.
pub fn database_path(mode: Mode, data_dir: &Path) -> PathBuf {
    data_dir.join(mode.database_name())
}

fn last_backup(path: &Path, data_dir: &Path) -> Option<BackupInfo> {
    backup::latest(&data_dir.join(BACKUPS_DIR), path).map(|copy| BackupInfo {
        file: copy.path.display().to_string(),
        made_at: copy.made_at,
        bytes: copy.bytes,
    })
}

impl DatabaseProblem {
    fn new(error: StoreError, path: &Path, data_dir: &Path) -> Self {
        let (kind, message, details) = match error {
            StoreError::NewerSchema { unknown, .. } => (
                ProblemKind::Newer,
                "This archive was last used by a newer version of Sightline. This version \
                 cannot change it without risking what the newer one recorded."
                    .to_owned(),
                vec![format!(
                    "Schema versions {unknown:?}; this version knows up to {}.",
                    latest_known()
                )],
            ),
            // SQLite may meet the damage while opening too (at a page the check had not read).
            damage if damage.is_damage() && !matches!(damage, StoreError::Damaged { .. }) => (
                ProblemKind::Damaged,
                DAMAGED.to_owned(),
                vec![damage.to_string()],
            ),
            StoreError::Damaged { report } => (ProblemKind::Damaged, DAMAGED.to_owned(), report),
            other => {
                let details = vec![other.to_string()];
                let message = CommandError::from(other).message().to_owned();
                (ProblemKind::Unopenable, message, details)
            }
        };
        Self {
            kind,
            message,
            details,
            file: path.display().to_string(),
            backup: last_backup(path, data_dir),
        }
    }

    /// What a command that needs the database answers meanwhile.
    fn as_error(&self) -> CommandError {
        CommandError::database(format!(
            "{} Choose what to do on Sightline's start screen.",
            self.message
        ))
    }
}
