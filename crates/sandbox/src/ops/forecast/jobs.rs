//! The forecast jobs of one sandbox: in memory, and in a JSON file when the sandbox is given
//! one ([`crate::SandboxBuilder::jobs_file`]), so a sandbox started again on the same file
//! still knows every job it issued, as the real service does. Demo mode keeps its file in the
//! app's data folder: a forecast still running when the app closed finishes after it reopens.
//!
//! A job's progress is measured on the wall clock from when it was asked, so it runs on while
//! no sandbox is serving and is over when its time is up, whichever sandbox answers the poll.

use super::Question;
use crate::rng::{fnv1a, mix, Rng};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct Job {
    /// When it was asked, on the world's clock (what `created_at` reports).
    pub created_ms: i64,
    /// When it was asked, on the wall clock (what its progress is measured from).
    pub asked_unix_ms: i64,
    pub question: Question,
}

/// What the jobs file holds.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Kept {
    /// Jobs issued so far, ever: part of each new id's seed, so ids never repeat.
    issued: u64,
    jobs: HashMap<String, Job>,
}

/// The jobs of one sandbox, and how long each takes.
#[derive(Debug)]
pub struct Jobs {
    pub(super) duration: Duration,
    kept: Mutex<Kept>,
    file: Option<PathBuf>,
}

impl Jobs {
    /// Jobs in memory only: a sandbox started again knows none of them.
    pub fn new(duration: Duration) -> Jobs {
        Jobs {
            duration,
            kept: Mutex::new(Kept::default()),
            file: None,
        }
    }

    /// Jobs kept in `file`, starting from those it already holds. A missing file is an empty
    /// one; an unreadable one is reported and replaced at the next job.
    pub fn kept_in(duration: Duration, file: PathBuf) -> Jobs {
        let kept = match std::fs::read(&file) {
            Ok(bytes) => serde_json::from_slice(&bytes).unwrap_or_else(|error| {
                tracing::warn!(file = %file.display(), %error, "the forecast jobs file is unreadable; starting without its jobs");
                Kept::default()
            }),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => Kept::default(),
            Err(error) => {
                tracing::warn!(file = %file.display(), %error, "the forecast jobs file cannot be read; starting without its jobs");
                Kept::default()
            }
        };
        Jobs {
            duration,
            kept: Mutex::new(kept),
            file: Some(file),
        }
    }

    /// Records a new job and returns its id. The file (if any) is written before the id is
    /// given out, so a job the client knows of is one a restarted sandbox knows too.
    pub(super) fn add(&self, seed: u64, created_ms: i64, question: Question) -> String {
        let mut kept = self.lock();
        let n = kept.issued;
        kept.issued += 1;
        let mut rng = Rng::derive(
            seed ^ mix(n),
            fnv1a(question.text().as_bytes()) ^ created_ms as u64,
        );
        let id = uuid_v4(rng.next_u64(), rng.next_u64());
        let job = Job {
            created_ms,
            asked_unix_ms: unix_now_ms(),
            question,
        };
        kept.jobs.insert(id.clone(), job);
        if let Some(file) = &self.file {
            if let Err(error) = write_atomically(file, &kept) {
                // The job still runs in this sandbox; only a restart would forget it.
                tracing::warn!(file = %file.display(), %error, "the forecast jobs file could not be written");
            }
        }
        id
    }

    pub(super) fn get(&self, id: &str) -> Option<Job> {
        self.lock().jobs.get(id).cloned()
    }

    /// How long ago the job was asked, on the wall clock.
    pub(super) fn elapsed(job: &Job) -> Duration {
        Duration::from_millis(unix_now_ms().saturating_sub(job.asked_unix_ms).max(0) as u64)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Kept> {
        self.kept.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Default for Jobs {
    fn default() -> Self {
        Jobs::new(super::DEFAULT_DURATION)
    }
}

fn unix_now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

/// Writes a temporary file beside `file`, flushed to disk, then renames it over `file`: a crash
/// leaves the old list or the new one, never half of either.
fn write_atomically(file: &Path, kept: &Kept) -> std::io::Result<()> {
    if let Some(folder) = file.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(folder)?;
    }
    let partial = file.with_extension("partial");
    let written = (|| {
        let mut out = std::fs::File::create(&partial)?;
        out.write_all(&serde_json::to_vec(kept).map_err(std::io::Error::other)?)?;
        out.sync_all()?;
        std::fs::rename(&partial, file)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&partial);
    }
    written
}

/// A random-looking UUID (version 4 layout) from two numbers.
pub(super) fn uuid_v4(a: u64, b: u64) -> String {
    let a = (a & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000;
    let b = (b & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000;
    format!(
        "{:08x}-{:04x}-{:04x}-{:04x}-{:012x}",
        a >> 32,
        (a >> 16) & 0xFFFF,
        a & 0xFFFF,
        b >> 48,
        b & 0xFFFF_FFFF_FFFF
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn question(text: &str) -> Question {
        Question {
            query: Some(text.into()),
            ..Question::default()
        }
    }

    #[test]
    fn jobs_in_a_file_outlive_their_sandbox_and_ids_never_repeat() {
        let dir = std::env::temp_dir().join(format!("sandbox-jobs-{}", std::process::id()));
        let file = dir.join("jobs.json");
        let _ = std::fs::remove_file(&file);
        let first = Jobs::kept_in(Duration::from_secs(1), file.clone());
        let a = first.add(42, 1_000, question("Will it rain?"));
        drop(first);
        assert!(!file.with_extension("partial").exists());

        let again = Jobs::kept_in(Duration::from_secs(1), file.clone());
        let job = again.get(&a).expect("the job is known after a restart");
        assert_eq!(job.question, question("Will it rain?"));
        assert_eq!(job.created_ms, 1_000);
        // Same seed, same question, same time: a new id all the same.
        let b = again.add(42, 1_000, question("Will it rain?"));
        assert_ne!(a, b);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_missing_or_broken_file_starts_empty() {
        let dir = std::env::temp_dir().join(format!("sandbox-jobs-bad-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let broken = dir.join("jobs.json");
        std::fs::write(&broken, "{not json").unwrap();
        assert!(Jobs::kept_in(Duration::from_secs(1), broken.clone())
            .get("x")
            .is_none());
        let missing = Jobs::kept_in(Duration::from_secs(1), dir.join("none.json"));
        let id = missing.add(1, 0, question("q"));
        assert!(missing.get(&id).is_some());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn ids_look_like_uuids() {
        let id = uuid_v4(u64::MAX, 0);
        assert_eq!(id.len(), 36);
        assert_eq!(&id[14..15], "4");
        assert_eq!(id.matches('-').count(), 4);
    }
}
