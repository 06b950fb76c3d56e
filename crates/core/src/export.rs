//! Exports: history as CSV or JSON Lines, archived posts as CSV, JSON Lines or a Markdown
//! citation list, the ledger as CSV (forecasts, with their own fields and citation, in
//! `forecast::export`). What to write and where, without the save dialog, which
//! belongs to the window. Every time is written twice: in UTC and in the display zone
//! ([`crate::zone::time_zone`]), its offset and zone named.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use serde::Deserialize;
use sightline_store::ranked_matches;
use sightline_store::{
    export, HistoryEntry, HistoryQuery, LedgerEntry, PostQuery, PostSort, Store, StoredPost,
};
use ts_rs::TS;

use crate::errors::CommandError;
use crate::settings::AppSettings;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
#[ts(export)]
/// The file format an export is written in, as the save dialog offers it.
pub enum ExportFormat {
    /// Comma-separated rows; local times in the display zone, ids kept whole for a spreadsheet.
    Csv,
    /// One JSON document per line, every field kept.
    Jsonl,
    /// A citation list (posts and forecasts).
    Markdown,
}

impl ExportFormat {
    /// The file name's extension for this format.
    pub fn extension(self) -> &'static str {
        match self {
            Self::Csv => "csv",
            Self::Jsonl => "jsonl",
            Self::Markdown => "md",
        }
    }
}

/// Rows per read while collecting everything a selection holds.
const PAGE: u32 = 1_000;

/// Writes through a temporary file renamed into place, so a full disk or a crash never
/// leaves half an export where the user expects a whole one.
pub(crate) fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut BufWriter<File>) -> sightline_store::Result<()>,
) -> Result<(), CommandError> {
    let partial = path.with_extension("partial");
    let result = File::create(&partial)
        .map_err(sightline_store::StoreError::from)
        .and_then(|file| {
            let mut out = BufWriter::new(file);
            write(&mut out)?;
            out.flush()?;
            out.into_inner()
                .map_err(|error| error.into_error())?
                .sync_all()?;
            Ok(())
        })
        .and_then(|()| Ok(std::fs::rename(&partial, path)?));
    result.map_err(|error| {
        let _ = std::fs::remove_file(&partial);
        if error.is_disk_full() {
            return CommandError::disk_full();
        }
        CommandError::file(format!(
            "The export could not be written to {}: {error}",
            path.display()
        ))
    })
}

/// Writes History rows to `path` as `format` (Markdown falls back to JSON lines), atomically.
pub fn write_history(
    entries: &[HistoryEntry],
    format: ExportFormat,
    path: &Path,
) -> Result<(), CommandError> {
    write_atomically(path, |out| match format {
        ExportFormat::Csv => export::history_csv(entries, crate::zone::time_zone(), out),
        ExportFormat::Jsonl | ExportFormat::Markdown => {
            export::history_jsonl(entries, crate::zone::time_zone(), out)
        }
    })
}

/// Writes posts to `path` as `format` (Markdown: a citation list), atomically.
pub fn write_posts(
    posts: &[StoredPost],
    format: ExportFormat,
    path: &Path,
) -> Result<(), CommandError> {
    write_atomically(path, |out| match format {
        ExportFormat::Csv => export::posts_csv(posts, crate::zone::time_zone(), out),
        ExportFormat::Jsonl => export::posts_jsonl(posts, crate::zone::time_zone(), out),
        ExportFormat::Markdown => export::citations_markdown(posts, crate::zone::time_zone(), out),
    })
}

/// Everything a paged selection holds, read a page at a time.
async fn every_page<T, F, Fut>(mut page: F) -> Result<Vec<T>, CommandError>
where
    F: FnMut(u32) -> Fut,
    Fut: std::future::Future<Output = sightline_store::Result<Vec<T>>>,
{
    let mut all = Vec::new();
    loop {
        let offset = u32::try_from(all.len()).unwrap_or(u32::MAX);
        let rows = page(offset).await?;
        let last = rows.len() < PAGE as usize;
        all.extend(rows);
        if last {
            return Ok(all);
        }
    }
}

/// A new file in the chosen export folder, named `<name>-<local time>.<ext>`, never replacing
/// one already there.
pub fn new_file_in_folder(
    folder: &Path,
    name: &str,
    ext: &str,
    now: chrono::DateTime<chrono::Local>,
) -> Result<PathBuf, CommandError> {
    if !folder.is_dir() {
        return Err(CommandError::file(format!(
            "The export folder {} does not exist. Choose another in Settings, or leave it empty to be asked.",
            folder.display()
        )));
    }
    let stem = format!("{name}-{}", now.format("%Y%m%d-%H%M%S"));
    (1..1000)
        .map(|n| match n {
            1 => folder.join(format!("{stem}.{ext}")),
            n => folder.join(format!("{stem}-{n}.{ext}")),
        })
        .find(|path| !path.exists())
        .ok_or_else(|| CommandError::file("The export folder is full of files with this name."))
}

/// The file a save goes to without asking: a new dated file in the folder Settings names, or
/// `None` when no folder is set (the window then asks with its save dialog). Every save (an
/// export, an evidence bundle's `zip`, the analysis's `gexf`, `png`, `svg`) goes through this
/// one rule, "the export folder, else ask".
pub fn preset_file(
    settings: &AppSettings,
    name: &str,
    extension: &str,
) -> Option<Result<PathBuf, CommandError>> {
    let folder = settings.export_folder.as_deref()?;
    Some(new_file_in_folder(
        Path::new(folder.trim()),
        name,
        extension,
        chrono::Local::now(),
    ))
}

/// The most characters a name takes in a file name.
const STEM_CHARS: usize = 40;

/// A name as part of a file name: its words (letters and digits) in lower case joined by `-`,
/// at most 40 characters (`Floods 2026!` → `floods-2026`, `../../etc` → `etc`), `fallback`
/// when nothing is left; safe in any file system. An evidence bundle (named after its
/// investigation) and a saved chart are named through here.
pub fn file_stem(name: &str, fallback: &str) -> String {
    let words: Vec<String> = name
        .split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .map(str::to_lowercase)
        .collect();
    let stem: String = words.join("-").chars().take(STEM_CHARS).collect();
    if stem.is_empty() {
        fallback.into()
    } else {
        stem
    }
}

/// The history rows to export: a hand-picked selection in the order it was picked, or every
/// row `query` matches.
pub async fn history_rows(
    store: &Store,
    query: &HistoryQuery,
    ids: Option<Vec<i64>>,
) -> Result<Vec<HistoryEntry>, CommandError> {
    match ids {
        Some(ids) => {
            let mut entries = Vec::with_capacity(ids.len());
            for id in ids {
                entries.extend(store.history_entry(id).await?);
            }
            Ok(entries)
        }
        None => {
            // Each page after the last row of the one before (keyset paging: skipping a
            // million rows by offset reads them all again); the offset only if that row went.
            let mut all: Vec<HistoryEntry> = Vec::new();
            loop {
                let page = HistoryQuery {
                    limit: PAGE,
                    offset: u32::try_from(all.len()).unwrap_or(u32::MAX),
                    after: all.last().map(|entry| entry.id),
                    ..query.clone()
                };
                let rows = store.history(&page).await?;
                let last = rows.len() < PAGE as usize;
                all.extend(rows);
                if last {
                    return Ok(all);
                }
            }
        }
    }
}

/// Every post `query` matches. Relevance ranks a window of the matches (`RELEVANCE_WINDOW`);
/// a file holds every match, so past the window it is written newest first rather than cut.
pub async fn post_rows(store: &Store, query: PostQuery) -> Result<Vec<StoredPost>, CommandError> {
    let total = store.posts_count(&query).await?;
    let query = match ranked_matches(&query, total) {
        Some(_) => PostQuery {
            sort: PostSort::Newest,
            ..query
        },
        None => query,
    };
    every_page(|offset| {
        let page = PostQuery {
            limit: PAGE,
            offset,
            ..query.clone()
        };
        async move { store.posts(&page).await }
    })
    .await
}

/// The ledger, row by row, as CSV.
pub fn write_ledger(entries: &[LedgerEntry], path: &Path) -> Result<(), CommandError> {
    write_atomically(path, |out| {
        export::ledger_csv(entries, crate::zone::time_zone(), out)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_becomes_a_safe_file_name() {
        assert_eq!(file_stem("Floods 2026!", "selection"), "floods-2026");
        assert_eq!(file_stem("../../etc", "selection"), "etc");
        assert_eq!(file_stem("???", "selection"), "selection");
        assert_eq!(
            file_stem("Überschwemmung im Tal", "selection"),
            "überschwemmung-im-tal"
        );
        assert_eq!(file_stem("Activity (UTC)", "chart"), "activity-utc");
        assert_eq!(file_stem("", "chart"), "chart");
        assert_eq!(file_stem(&"a".repeat(50), "chart"), "a".repeat(40));
    }

    fn post(id: &str, text: &str) -> StoredPost {
        serde_json::from_value(serde_json::json!({
            "id": id, "conversation_id": null, "author_id": "u1", "author_username": "hydro",
            "author_name": "Hydro Desk", "author_verified": false, "text": text, "lang": "en",
            "created_at": "2026-03-16T07:01:23Z", "like_count": 3, "retweet_count": 2,
            "reply_count": 1, "quote_count": 0, "view_count": null, "bookmark_count": 0,
            "hashtags": [], "url": format!("https://x.com/hydro/status/{id}"),
            "first_seen": "2026-03-17T00:00:00Z", "last_seen": "2026-03-17T00:00:00Z",
            "raw_json": "{}"
        }))
        .unwrap()
    }

    #[test]
    fn posts_export_in_every_format_and_leave_no_partial_file() {
        let dir = tempfile::tempdir().unwrap();
        let posts = [post("1", "Rivers rise, \"again\""), post("2", "Dry spell")];
        for format in [
            ExportFormat::Csv,
            ExportFormat::Jsonl,
            ExportFormat::Markdown,
        ] {
            let path = dir.path().join(format!("posts.{}", format.extension()));
            write_posts(&posts, format, &path).unwrap();
            let text = std::fs::read_to_string(&path).unwrap();
            assert!(text.contains("Dry spell"), "{format:?}: {text}");
            assert!(!path.with_extension("partial").exists());
        }
        let jsonl = std::fs::read_to_string(dir.path().join("posts.jsonl")).unwrap();
        assert_eq!(jsonl.lines().count(), 2);
    }

    #[test]
    fn the_export_folder_gets_a_new_dated_file_each_time() {
        use chrono::TimeZone;
        let dir = tempfile::tempdir().unwrap();
        let now = chrono::Local
            .with_ymd_and_hms(2026, 11, 22, 9, 5, 7)
            .unwrap();
        let first = new_file_in_folder(dir.path(), "sightline-posts", "csv", now).unwrap();
        assert_eq!(
            first,
            dir.path().join("sightline-posts-20261122-090507.csv")
        );
        std::fs::write(&first, "taken").unwrap();
        let second = new_file_in_folder(dir.path(), "sightline-posts", "csv", now).unwrap();
        assert_eq!(
            second,
            dir.path().join("sightline-posts-20261122-090507-2.csv")
        );

        let missing = dir.path().join("gone");
        let error = new_file_in_folder(&missing, "x", "jsonl", now).unwrap_err();
        assert!(error.message().contains("does not exist"), "{error}");
    }

    /// The Archive's CSV read back as the evidence bundle's is: every digit of a 19-digit id
    /// kept by a program and by a spreadsheet.
    #[test]
    fn the_archive_csv_keeps_every_digit_of_a_long_id() {
        use crate::read_back::{python_rows, spreadsheet_rows};
        const LONG_ID: &str = "1864029172638449665";
        let dir = tempfile::tempdir().unwrap();
        let mut long = post(LONG_ID, "Rivers rise");
        long.conversation_id = Some(LONG_ID.into());
        let path = dir.path().join("archive.csv");
        write_posts(&[long], ExportFormat::Csv, &path).unwrap();
        let mut checked = 0;
        for rows in [python_rows(&path), spreadsheet_rows(&path, dir.path())]
            .into_iter()
            .flatten()
        {
            assert_eq!(rows[0]["id"].trim(), LONG_ID);
            assert_eq!(rows[0]["conversation_id"].trim(), LONG_ID);
            assert_eq!(rows[0]["text"], "Rivers rise");
            checked += 1;
        }
        println!("read back {checked} ways");
    }

    #[test]
    fn a_failed_export_says_where_and_cleans_up() {
        let missing = std::path::Path::new("/nonexistent-folder/posts.csv");
        let error = write_posts(&[post("1", "x")], ExportFormat::Csv, missing).unwrap_err();
        assert!(
            error.message().contains("/nonexistent-folder/posts.csv"),
            "{error}"
        );
    }
}
