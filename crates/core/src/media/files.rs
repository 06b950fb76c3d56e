//! The media folder: every kept media file under the data folder's `media/`, named by the
//! SHA-256 of its bytes (`media/<first two hex>/<sha256>`, so no folder holds more than a
//! 256th of them). The same bytes kept twice are one file. A file is written whole to a
//! partial name first, flushed to disk, then renamed into place, so a name in the folder
//! always holds the whole file. A name is made only from 64 lower-case hex characters, so no
//! caller's text can reach outside the folder.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use super::hash::sha256_hex;
use crate::evidence::write::partial_beside;

/// The folder under the data folder.
pub const MEDIA_DIR: &str = "media";

/// A file kept by [`MediaFolder::write`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kept {
    /// SHA-256 of its bytes, lower-case hex.
    pub sha256: String,
    /// Where it is.
    pub path: PathBuf,
    /// Bytes.
    pub size: u64,
}

/// The content-addressed media folder of one data folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MediaFolder {
    root: PathBuf,
}

/// Tells one partial name from another written at the same time in this process.
static PARTIALS: AtomicU64 = AtomicU64::new(0);

/// Whether `text` is a SHA-256 as the folder names files: 64 lower-case hex characters.
pub fn is_sha256(text: &str) -> bool {
    text.len() == 64 && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

impl MediaFolder {
    /// The media folder of the data folder `data_dir` (created when a file is first kept).
    pub fn new(data_dir: &Path) -> Self {
        Self {
            root: data_dir.join(MEDIA_DIR),
        }
    }

    /// The folder itself.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Where the file of `sha256` is (whether or not it is kept); refused unless `sha256` is
    /// 64 lower-case hex characters.
    pub fn path(&self, sha256: &str) -> io::Result<PathBuf> {
        if !is_sha256(sha256) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("not a SHA-256 in lower-case hex: {sha256:?}"),
            ));
        }
        Ok(self.root.join(&sha256[..2]).join(sha256))
    }

    /// Whether the file of `sha256` is kept.
    pub fn contains(&self, sha256: &str) -> bool {
        self.path(sha256).is_ok_and(|path| path.is_file())
    }

    /// Keeps `bytes` under their SHA-256 (written to a partial file, flushed, renamed); bytes
    /// kept before are left as they are.
    pub async fn write(&self, bytes: &[u8]) -> io::Result<Kept> {
        let sha256 = sha256_hex(bytes);
        let path = self.path(&sha256)?;
        let size = bytes.len() as u64;
        if already_kept(&path, size).await {
            return Ok(Kept { sha256, path, size });
        }
        let partial = self.partial_for(&sha256)?;
        let written = {
            let (partial, bytes) = (partial.clone(), bytes.to_vec());
            tokio::task::spawn_blocking(move || -> io::Result<()> {
                let mut file = std::fs::File::create(&partial)?;
                file.write_all(&bytes)?;
                file.sync_all()
            })
            .await
            .map_err(io::Error::other)?
        };
        if let Err(error) = written {
            let _ = tokio::fs::remove_file(&partial).await;
            return Err(error);
        }
        self.adopt(&partial, &sha256).await?;
        Ok(Kept { sha256, path, size })
    }

    /// Moves `partial` (a whole file in this folder, whose bytes the caller hashed as it wrote
    /// them to `sha256`) to its name; when those bytes are already kept, `partial` is removed.
    /// The partial must be on the folder's disk (in [`MediaFolder::root`]) for the rename.
    pub async fn adopt(&self, partial: &Path, sha256: &str) -> io::Result<PathBuf> {
        let path = self.path(sha256)?;
        let size = tokio::fs::metadata(partial).await?.len();
        if already_kept(&path, size).await {
            tokio::fs::remove_file(partial).await?;
            return Ok(path);
        }
        // Flushed before the rename: a name in the folder never holds a file cut short by a
        // power loss.
        let file = tokio::fs::File::open(partial).await?;
        file.sync_all().await?;
        drop(file);
        if let Some(parent) = path.parent() {
            tokio::fs::create_dir_all(parent).await?;
        }
        tokio::fs::rename(partial, &path).await?;
        Ok(path)
    }

    /// The kept bytes of `sha256`.
    pub async fn read(&self, sha256: &str) -> io::Result<Vec<u8>> {
        tokio::fs::read(self.path(sha256)?).await
    }

    /// A partial name for `sha256` in the folder, its own for every write in this process.
    fn partial_for(&self, sha256: &str) -> io::Result<PathBuf> {
        std::fs::create_dir_all(&self.root)?;
        let n = PARTIALS.fetch_add(1, Ordering::Relaxed);
        let name = format!("{sha256}-{}-{n}", std::process::id());
        Ok(partial_beside(&self.root.join(name), "media"))
    }
}

/// Whether `path` holds a file of `size` bytes: the same name and size is taken for the same
/// file, and one of another size under the name (damaged since) is written again.
async fn already_kept(path: &Path, size: u64) -> bool {
    tokio::fs::metadata(path)
        .await
        .is_ok_and(|meta| meta.is_file() && meta.len() == size)
}

#[cfg(test)]
mod tests;
