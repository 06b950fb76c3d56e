//! Each mode's database at start-up: opened in steps whose progress the start screen shows
//! ([`DatabaseStatus`]), and, when it cannot be opened, what happened in words and the ways on
//! that the recovery screen offers: open it read-only, restore the last copy, start afresh
//! (or try again, after a failure that was neither). Nothing here deletes a database: a file
//! replaced is set aside beside it under a dated name.
//!
//! SQLite's check of the whole file runs before an upgrade, and otherwise in the background
//! only when the store says it is due ([`sightline_store::CheckDue`]: the app did not close
//! the file last time, no clean check of it is recorded, or the last is a week old).
//! At quit the databases are closed ([`close_all`]), which is how the next start knows the
//! close was clean.
//!
//! The store's own steps (check, newer-version refusal, copy, migrations) are in
//! `sightline_store::upgrade`; this module keeps their state per mode and acts on the user's
//! choice.

use std::path::PathBuf;

use sightline_store::backup;
use sightline_store::Store;

use crate::errors::CommandError;
use crate::session::Mode;
use crate::state::AppState;

pub(crate) mod gate;

use gate::{database_path, Phase, BACKUPS_DIR};
pub use gate::{BackupInfo, DatabaseProblem, DatabaseStatus, ProblemKind, Recovered};

/// The current mode's database as the start screen sees it.
pub fn status(state: &AppState) -> DatabaseStatus {
    state.database.status(state.mode())
}

/// At quit: every database opened so far closed, so that its next opening knows the close was
/// clean and skips the check of the whole file. One still opening (an upgrade under way holds
/// the stores) is left, as is one that does not close within `wait` (a long write): their
/// next opening checks them.
pub async fn close_all(state: &AppState, wait: std::time::Duration) {
    let Ok(mut stores) = state.stores.try_lock() else {
        tracing::info!("a database was still opening at quit: it is checked at the next start");
        return;
    };
    for (mode, store) in stores.drain() {
        if tokio::time::timeout(wait, store.close()).await.is_err() {
            tracing::warn!(
                mode = mode.as_str(),
                "the database did not close in time: it is checked at the next start"
            );
        }
    }
}

/// The recovery screen's "Open read-only": the file as it is, no check, no upgrade.
pub async fn open_read_only(state: &AppState) -> Result<Recovered, CommandError> {
    let mode = state.mode();
    let path = problem_file(state, mode).await?;
    let store = Store::open_read_only(&path).await?;
    state.stores.lock().await.insert(mode, store);
    state
        .database
        .set(mode, Some(Phase::Open { read_only: true }));
    state.reset_session().await;
    Ok(Recovered {
        status: status(state),
        set_aside: None,
    })
}

/// "Restore the last copy": the file is set aside (never deleted) and the newest copy made
/// before an upgrade put in its place, then opened as at any start (and upgraded again).
pub async fn restore_backup(state: &AppState) -> Result<Recovered, CommandError> {
    let mode = state.mode();
    let path = problem_file(state, mode).await?;
    let copy = backup::latest(&state.data_dir.join(BACKUPS_DIR), &path)
        .ok_or_else(|| CommandError::not_found("There is no copy of this archive to restore."))?;
    let label = aside_label(state, mode);
    let aside = {
        let path = path.clone();
        blocking(move || backup::restore(&copy, &path, label)).await?
    };
    reopen(state, mode, aside).await
}

/// "Start afresh": the file is set aside (never deleted) and a new, empty archive begun.
/// Settings and keys, kept apart from the database, stay.
pub async fn start_afresh(state: &AppState) -> Result<Recovered, CommandError> {
    let mode = state.mode();
    let path = problem_file(state, mode).await?;
    let label = aside_label(state, mode);
    let aside = blocking(move || backup::set_aside(&path, label)).await?;
    reopen(state, mode, aside).await
}

/// "Try again", after a failure that was neither a newer version nor damage (a full disk).
pub async fn retry(state: &AppState) -> Result<Recovered, CommandError> {
    let mode = state.mode();
    problem_file(state, mode).await?;
    state.database.set(mode, None);
    state.store_of(mode).await?;
    Ok(Recovered {
        status: status(state),
        set_aside: None,
    })
}

/// The database file, when the current mode's database is at the recovery screen; a store
/// still open on it (found damaged by its check in the background) is closed first.
async fn problem_file(state: &AppState, mode: Mode) -> Result<PathBuf, CommandError> {
    if !state.database.is_problem(mode) {
        return Err(CommandError::Invalid {
            message: "The archive is not waiting for a choice: there is nothing to recover.".into(),
            fields: Vec::new(),
        });
    }
    if let Some(store) = state.stores.lock().await.remove(&mode) {
        store.close().await;
    }
    state.reset_session().await;
    Ok(database_path(mode, &state.data_dir))
}

fn aside_label(state: &AppState, mode: Mode) -> &'static str {
    match state.database.phase(mode) {
        Some(Phase::Problem(DatabaseProblem {
            kind: ProblemKind::Newer,
            ..
        })) => "newer",
        Some(Phase::Problem(DatabaseProblem {
            kind: ProblemKind::Damaged,
            ..
        })) => "damaged",
        _ => "set-aside",
    }
}

async fn reopen(state: &AppState, mode: Mode, aside: PathBuf) -> Result<Recovered, CommandError> {
    tracing::warn!(file = %aside.display(), "the database was set aside");
    state.database.set(mode, None);
    state.reset_session().await;
    // Opened as at any start; a problem with the new file shows on the recovery screen again.
    let _ = state.store_of(mode).await;
    Ok(Recovered {
        status: status(state),
        set_aside: Some(aside.display().to_string()),
    })
}

async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> std::io::Result<T> + Send + 'static,
) -> Result<T, CommandError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|error| CommandError::internal(format!("The files could not be moved: {error}")))?
        .map_err(|error| {
            CommandError::io(
                &error,
                format!(
                    "The archive's file could not be set aside: {error}. Nothing was changed or deleted."
                ),
            )
        })
}

impl AppState {
    /// Waits until the current mode's database is open for writing (not read-only, not at the
    /// recovery screen): background work that writes (monitors, forecasts) starts then.
    pub async fn until_writable(&self) {
        self.database.until_writable(|| self.mode()).await;
    }
}

#[cfg(test)]
mod tests;
