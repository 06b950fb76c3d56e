//! The log a person can send: plain text lines, each with its time (UTC), in
//! `<data folder>/logs/`, one file a day (`sightline.2025-01-31.log`) and the last
//! [`FILES_KEPT`] kept. Sightline's own crates write `info` and above, every other crate (Tauri
//! and its plugins through `log`, the HTTP stack) `warn` and above. A day's file stops growing
//! at [`DAY_LIMIT`], so a fault that repeats cannot fill the disk or make the file too big to
//! send. Demo mode and real use share the one folder.
//!
//! What reaches the log is only what the code hands to `tracing`: operations, error kinds and
//! plain-words messages, statuses, ids and counts. Never the key, a header, a URL's query or a
//! response's body — each `tracing` call is written so, and `tests/log_file.rs` checks it after
//! real requests.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use chrono::{NaiveDate, Utc};
use tracing::level_filters::LevelFilter;
use tracing::Level;
use tracing_appender::non_blocking::{NonBlockingBuilder, WorkerGuard};
use tracing_appender::rolling::{RollingFileAppender, Rotation};
use tracing_log::AsLog;
use tracing_subscriber::filter::Targets;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::Layer;

use crate::errors::CommandError;

/// The folder, inside the data folder, that holds the log files.
pub const LOG_FOLDER: &str = "logs";
/// How many daily files are kept; older ones are deleted when a new one starts.
pub const FILES_KEPT: usize = 7;
/// The most one day's file grows to; later lines that day are dropped, after one line saying so.
pub const DAY_LIMIT: u64 = 16 * 1024 * 1024;

/// Lines queued for the log's writer thread at most; a line beyond them is dropped rather than
/// made to wait. The queue is allocated whole when the log starts, and every slot is written
/// then: tracing-appender's default of 128,000 lines was 4 MB of the app's idle memory.
const LINES_QUEUED: usize = 4_096;

const FILE_PREFIX: &str = "sightline";
const FILE_SUFFIX: &str = "log";
const LIMIT_NOTE: &str =
    "The log reached its size limit for today; later lines today are left out.\n";

/// The log folder of a data folder.
pub fn log_dir(data_dir: &Path) -> PathBuf {
    data_dir.join(LOG_FOLDER)
}

/// The log folder, created first if it is missing, for "Open the log folder" in Settings; the
/// reason in words when it cannot be.
pub fn ready_log_dir(data_dir: &Path) -> Result<PathBuf, CommandError> {
    let dir = log_dir(data_dir);
    fs::create_dir_all(&dir).map_err(|error| {
        CommandError::io(
            &error,
            format!(
                "The log folder {} could not be created: {error}",
                dir.display()
            ),
        )
    })?;
    Ok(dir)
}

/// Keeps the log's writer thread alive; dropping it writes out the lines still queued.
#[must_use = "the log stops when this is dropped"]
pub struct LogGuard {
    _worker: WorkerGuard,
}

/// Starts the log in `data_dir`'s log folder (created if missing), its warnings and errors also
/// on stderr, and logs a panic before the default hook reports it. Once per process: a second
/// call fails.
pub fn start(data_dir: &Path) -> Result<LogGuard, String> {
    let dir = log_dir(data_dir);
    fs::create_dir_all(&dir)
        .map_err(|error| format!("Could not create the log folder {}: {error}", dir.display()))?;
    let files = RollingFileAppender::builder()
        .rotation(Rotation::DAILY)
        .filename_prefix(FILE_PREFIX)
        .filename_suffix(FILE_SUFFIX)
        .max_log_files(FILES_KEPT)
        .build(&dir)
        .map_err(|error| format!("Could not open a log file in {}: {error}", dir.display()))?;
    // Lines are queued and written on a thread of their own: logging never waits on the disk.
    let (writer, worker) = NonBlockingBuilder::default()
        .buffered_lines_limit(LINES_QUEUED)
        .finish(DayLimit::new(files, &dir));
    let filter = Targets::new()
        .with_target("sightline", Level::INFO)
        .with_default(Level::WARN);
    let subscriber = tracing_subscriber::registry()
        .with(
            tracing_subscriber::fmt::layer()
                .with_ansi(false)
                .with_writer(writer)
                .with_filter(filter),
        )
        // On stderr, warnings and errors only: a terminal or a test run stays readable.
        .with(
            tracing_subscriber::fmt::layer()
                .with_ansi(false)
                .with_writer(io::stderr)
                .with_filter(LevelFilter::WARN),
        );
    tracing::subscriber::set_global_default(subscriber)
        .map_err(|error| format!("The log was already started: {error}"))?;
    // Tauri and its plugins write through `log`: their warnings join the same lines. Should
    // something else have claimed `log` first, Sightline's own lines are still written.
    let _ = tracing_log::LogTracer::builder()
        .with_max_level(LevelFilter::WARN.as_log())
        .init();
    log_panics();
    tracing::info!(
        version = env!("CARGO_PKG_VERSION"),
        os = std::env::consts::OS,
        "Sightline started"
    );
    Ok(LogGuard { _worker: worker })
}

/// A panic (a task that dies, say) is written to the log too, then reported as before.
fn log_panics() {
    let before = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let said = payload
            .downcast_ref::<&str>()
            .copied()
            .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
            .unwrap_or("");
        let at = info
            .location()
            .map(|place| format!("{}:{}", place.file(), place.line()))
            .unwrap_or_default();
        // On one line, as every line of the log starts with its time.
        let said = said.replace('\n', " | ");
        tracing::error!(at, panic = %said, "Sightline hit a bug (a panic)");
        before(info);
    }));
}

/// The day's file, cut off at [`DAY_LIMIT`] bytes a day (the UTC day, as the file's name).
struct DayLimit<W> {
    inner: W,
    day: NaiveDate,
    written: u64,
}

impl<W: Write> DayLimit<W> {
    /// Counts what today's file already holds, from an earlier start today.
    fn new(inner: W, dir: &Path) -> Self {
        let day = Utc::now().date_naive();
        let today = dir.join(format!(
            "{FILE_PREFIX}.{}.{FILE_SUFFIX}",
            day.format("%Y-%m-%d")
        ));
        let written = fs::metadata(today).map(|m| m.len()).unwrap_or(0);
        Self {
            inner,
            day,
            written,
        }
    }
}

impl<W: Write> Write for DayLimit<W> {
    fn write(&mut self, line: &[u8]) -> io::Result<usize> {
        let today = Utc::now().date_naive();
        if today != self.day {
            self.day = today;
            self.written = 0;
        }
        let before = self.written;
        self.written += line.len() as u64;
        if self.written <= DAY_LIMIT {
            return self.inner.write_all(line).map(|()| line.len());
        }
        if before <= DAY_LIMIT {
            // Said once: the file is cut on purpose, not broken.
            self.inner.write_all(LIMIT_NOTE.as_bytes())?;
        }
        Ok(line.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_log_folder_is_made_when_missing_and_its_failure_is_told() {
        let data = tempfile::tempdir().unwrap();
        let dir = ready_log_dir(data.path()).unwrap();
        assert_eq!(dir, data.path().join(LOG_FOLDER));
        assert!(dir.is_dir());
        assert_eq!(ready_log_dir(data.path()).unwrap(), dir, "there already");

        // A data folder that is a file: the log folder cannot be made in it.
        let file = data.path().join("not-a-folder");
        fs::write(&file, "").unwrap();
        let error = ready_log_dir(&file).unwrap_err();
        assert!(
            error.message().contains("could not be created"),
            "{error:?}"
        );
    }

    #[test]
    fn a_day_past_its_limit_drops_lines_after_saying_so_once() {
        let dir = tempfile::tempdir().unwrap();
        let mut out = DayLimit::new(Vec::new(), dir.path());
        let line = vec![b'x'; 1024 * 1024 - 1]
            .into_iter()
            .chain([b'\n'])
            .collect::<Vec<_>>();
        for _ in 0..(DAY_LIMIT / line.len() as u64) + 3 {
            out.write_all(&line).unwrap();
        }
        let text = String::from_utf8(out.inner).unwrap();
        assert_eq!(text.len() as u64, DAY_LIMIT + LIMIT_NOTE.len() as u64);
        assert_eq!(text.matches(LIMIT_NOTE).count(), 1);
        assert!(text.ends_with(LIMIT_NOTE));
    }

    #[test]
    fn todays_earlier_file_counts_towards_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let today = Utc::now().date_naive().format("%Y-%m-%d");
        let file = dir.path().join(format!("sightline.{today}.log"));
        fs::write(&file, vec![b'x'; DAY_LIMIT as usize]).unwrap();
        let mut out = DayLimit::new(Vec::new(), dir.path());
        out.write_all(b"one more line\n").unwrap();
        let text = String::from_utf8(out.inner).unwrap();
        assert_eq!(text, LIMIT_NOTE);
    }
}
