//! Settings → Storage's commands: the data folder measured by part, the disk's room (for the
//! low-disk warning), and "Compact" with its progress on a channel and its Cancel (the running
//! compaction's token kept by `crate::running`). Each calls one function of
//! `sightline_core::storage`. Written by hand: the compaction (a channel).

use sightline_core::errors::CommandError;
use sightline_core::state::AppState;
use sightline_core::storage::{self, CompactOutcome, CompactProgress, DiskSpace, StorageReport};
use tauri::ipc::Channel;
use tauri::State;

use crate::running::{relay, Running};
use crate::surface::{define_commands, ok};

define_commands! {
    // Reads every page of the database: seconds for a large archive, on the async runtime.
    read storage_report() -> StorageReport = |state| storage::report(state).await;
    read storage_disk() -> DiskSpace = |state| storage::disk_now(state).await;
    hand storage_compact(; progress: CompactProgress) -> CompactOutcome;
    // Stops the running compaction; the database is left as it was.
    set storage_compact_cancel() -> () = |compactions: Compactions| {
        compactions.0.cancel();
        ok(())
    };
}

/// The compaction running now, if any: one at a time, so "Cancel" means that one.
#[derive(Default)]
pub struct Compactions(Running);

/// Compacts the current mode's database and removes the media folder's orphaned files,
/// telling `progress` as it goes.
#[tauri::command]
pub async fn storage_compact(
    state: State<'_, AppState>,
    compactions: State<'_, Compactions>,
    progress: Channel<CompactProgress>,
) -> Result<CompactOutcome, CommandError> {
    let run = compactions.0.start();
    storage::compact(&state, relay(progress), run.token()).await
}
