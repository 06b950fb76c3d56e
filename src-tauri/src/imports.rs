//! "Import posts": the core hashes the file, detects its format and reads it line by line into
//! the archive, or into an investigation (`sightline_core::import`); the store keeps each line's
//! outcome and which import brought each post. This picks the file with the open dialog, keeps
//! the running import's cancel token (one at a time, `crate::running`, so Cancel means that
//! one), sends its progress to the window as `import-progress` events (every open screen
//! follows the import, whichever started it) and keeps the last for a screen opened while it
//! runs, and saves the outcomes as CSV through the one "export folder, else ask"
//! (`crate::export::pick_path`). Written by hand: the dialogs, and the runs (their events).

use std::path::Path;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use sightline_core::errors::CommandError;
use sightline_core::import::{self, ImportProgress};
use sightline_core::state::AppState;
use sightline_store::{ImportFormat, ImportLineRow, ImportOutcome, PostImportMark, StoredImport};
use tauri::{AppHandle, Emitter, Manager, Runtime, State};
use tauri_plugin_dialog::DialogExt;

use crate::commands::records_changed;
use crate::export::pick_path;
use crate::running::Running;
use crate::surface::{define_commands, ok};

define_commands! {
    hand import_pick_file() -> Option<String>;
    // The file's format, read from its first lines (before anything is imported).
    read import_detect(path: String) -> ImportFormat = |state| import::detect(Path::new(&path));
    // Hashes the file, then reads it into investigation `investigation_id` (none: the archive
    // alone); `None` when cancelled before its first line.
    hand import_start(path: String, investigation_id: Option<i64>) -> Option<StoredImport>;
    // Goes on after the last line recorded, once the file at `path` hashes as before.
    hand import_resume(id: i64, path: String) -> Option<StoredImport>;
    // Stops the running import after its current batch; what it read is kept.
    set import_cancel() -> () = |imports: ImportRuns| {
        imports.running.cancel();
        ok(())
    };
    // The import running now, as last told, if any.
    read import_running() -> Option<ImportProgress> = |imports: ImportRuns| ok(imports.last());
    read import_list() -> Vec<StoredImport> = |store| store.imports().await;
    read import_get(id: i64) -> Option<StoredImport> = |store| store.import(id).await;
    // Up to `limit` outcomes after line `after_line`'s item `after_item` (none: from the
    // start), in file order, only `outcome`'s when one is given.
    read import_lines(
        id: i64,
        after_line: Option<i64>,
        after_item: Option<i64>,
        outcome: Option<ImportOutcome>,
        limit: i64
    ) -> Vec<ImportLineRow> = |store| {
        let after = after_line.map(|line| (line, after_item.unwrap_or(i64::MAX)));
        store.import_lines(id, after, outcome, limit).await
    };
    hand import_export_outcomes(id: i64) -> Option<String>;
    // Which of these posts an import brought: "Imported from <file>, not captured by Sightline".
    read import_marks(post_ids: Vec<String>) -> Vec<PostImportMark>
        = |store| store.import_for_posts(&post_ids).await;
}

/// The event an import's progress travels on (payload: `ImportProgress`).
pub const IMPORT_PROGRESS: &str = "import-progress";

/// Progress is told at most this often (a batch is about a thousand lines); the last always.
const TELL_EVERY: Duration = Duration::from_millis(150);

/// The import running now: its cancel token, and its last progress for a screen that opens
/// while it runs.
#[derive(Default)]
pub struct ImportRuns {
    running: Running,
    last: Mutex<Option<ImportProgress>>,
}

impl ImportRuns {
    fn last(&self) -> Option<ImportProgress> {
        self.last.lock().ok().and_then(|last| last.clone())
    }

    fn keep(&self, progress: Option<ImportProgress>) {
        if let Ok(mut last) = self.last.lock() {
            *last = progress;
        }
    }
}

/// Asks for a file to import with the system's open dialog; `None` when closed.
#[tauri::command]
pub async fn import_pick_file<R: Runtime>(app: AppHandle<R>) -> Option<String> {
    let (tx, rx) = tokio::sync::oneshot::channel();
    app.dialog()
        .file()
        .add_filter(
            "Posts (JSON Lines, NDJSON, CSV)",
            &["jsonl", "ndjson", "json", "csv"],
        )
        .add_filter("Any file", &["*"])
        .pick_file(move |path| {
            let _ = tx.send(path.and_then(|path| path.into_path().ok()));
        });
    rx.await
        .ok()
        .flatten()
        .map(|path| path.display().to_string())
}

/// Reads the file at `path` into investigation `investigation_id` (none: the archive alone),
/// its progress sent as `import-progress`. The import as it ended (done, cancelled or failed,
/// each resumable but the first); `None` when cancelled while the file was being hashed.
#[tauri::command]
pub async fn import_start<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    imports: State<'_, ImportRuns>,
    path: String,
    investigation_id: Option<i64>,
) -> Result<Option<StoredImport>, CommandError> {
    let store = state.store().await?;
    let Some(run) = imports.running.try_start() else {
        return Err(busy());
    };
    let mut tell = teller(&app);
    let ended = import::start(
        &store,
        Path::new(&path),
        investigation_id,
        &mut tell,
        run.token(),
    )
    .await;
    ended_run(&app, &imports, ended)
}

/// Goes on with import `id` from the line after the last it recorded, once the file at `path`
/// hashes as it did (a changed file is refused in words).
#[tauri::command]
pub async fn import_resume<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    imports: State<'_, ImportRuns>,
    id: i64,
    path: String,
) -> Result<Option<StoredImport>, CommandError> {
    let store = state.store().await?;
    let Some(run) = imports.running.try_start() else {
        return Err(busy());
    };
    let mut tell = teller(&app);
    let ended = import::resume(&store, id, Path::new(&path), &mut tell, run.token()).await;
    ended_run(&app, &imports, ended)
}

/// Saves import `id`'s outcomes as CSV (a row per line, or per post of a line holding many)
/// into the export folder, or where the save dialog says; `None` when the dialog was closed.
#[tauri::command]
pub async fn import_export_outcomes<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    id: i64,
) -> Result<Option<String>, CommandError> {
    let store = state.store().await?;
    let Some(found) = store.import(id).await? else {
        return Err(CommandError::not_found("That import no longer exists."));
    };
    let stem = Path::new(&found.file_name)
        .file_stem()
        .map_or_else(|| "import".into(), |stem| stem.to_string_lossy());
    let name = format!("sightline-import-{id}-{stem}-outcomes");
    let Some(path) = pick_path(&app, &state, &name, "csv").await? else {
        return Ok(None);
    };
    import::outcomes_csv(&store, id, &path).await?;
    Ok(Some(path.display().to_string()))
}

fn busy() -> CommandError {
    CommandError::Invalid {
        message: "An import is running already: wait for it to end, or cancel it, before \
                  starting another."
            .into(),
        fields: Vec::new(),
    }
}

/// Each step of the run: kept for a screen opened meanwhile, and told to the window at most
/// every [`TELL_EVERY`] (and whenever the import's phase or id changes).
fn teller<R: Runtime>(app: &AppHandle<R>) -> impl FnMut(ImportProgress) + Send + 'static {
    let app = app.clone();
    let mut told: Option<(Instant, ImportProgress)> = None;
    move |progress: ImportProgress| {
        app.state::<ImportRuns>().keep(Some(progress.clone()));
        let due = told.as_ref().is_none_or(|(at, last)| {
            at.elapsed() >= TELL_EVERY
                || last.phase != progress.phase
                || last.import_id != progress.import_id
        });
        if due {
            tell(&app, &progress);
            told = Some((Instant::now(), progress));
        }
    }
}

fn tell<R: Runtime>(app: &AppHandle<R>, progress: &ImportProgress) {
    if let Err(error) = app.emit(IMPORT_PROGRESS, progress) {
        tracing::warn!(%error, "an import's progress could not reach the window");
    }
}

/// After a run: its last progress told (the teller may have held it back), nothing kept as
/// running, and open screens told the archive changed.
fn ended_run<R: Runtime>(
    app: &AppHandle<R>,
    imports: &ImportRuns,
    ended: Result<Option<StoredImport>, CommandError>,
) -> Result<Option<StoredImport>, CommandError> {
    if let Some(last) = imports.last() {
        tell(app, &last);
    }
    imports.keep(None);
    records_changed(app);
    ended
}
