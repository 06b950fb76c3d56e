//! Links and files leave the app only through here: the system browser opens http(s)
//! addresses and nothing else, so a hostile `javascript:` or `file:` link in fetched content can
//! do no harm; the file manager shows only a file that is there, named by its whole path.

use std::path::{Path, PathBuf};

use sightline_api::validation::FieldError;
use url::Url;

use crate::errors::CommandError;

/// The address to hand to the system browser, or the reason it is refused.
pub fn web_address(raw: &str) -> Result<Url, CommandError> {
    let refuse = |why: &str| CommandError::invalid(vec![FieldError::new("url", why)]);
    let url = Url::parse(raw.trim()).map_err(|_| refuse("this is not a web address"))?;
    match url.scheme() {
        "http" | "https" if url.host_str().is_some() => Ok(url),
        _ => Err(refuse("only http and https links are opened")),
    }
}

/// The file to show, selected in its folder, in the system's file manager: an absolute path to
/// a file that is still there (one an export returned). A relative path, a folder or a file
/// moved or deleted since is refused in words.
pub fn revealable(raw: &str) -> Result<PathBuf, CommandError> {
    let file = Path::new(raw);
    if !file.is_absolute() || !file.is_file() {
        return Err(CommandError::not_found(format!(
            "{raw} is not there any more: it was moved or deleted."
        )));
    }
    Ok(file.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn web_links_are_accepted() {
        let url = web_address(" https://x.com/a/status/1 ").unwrap();
        assert_eq!(url.as_str(), "https://x.com/a/status/1");
        assert!(web_address("http://example.org").is_ok());
    }

    #[test]
    fn other_schemes_are_refused() {
        for raw in [
            "javascript:alert(1)",
            "file:///etc/passwd",
            "data:text/html,hi",
            "not a url",
            "mailto:a@b.c",
        ] {
            assert!(
                matches!(web_address(raw), Err(CommandError::Invalid { .. })),
                "{raw}"
            );
        }
    }

    #[test]
    fn only_a_file_still_there_is_shown_in_its_folder() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("sightline-posts.csv");
        std::fs::write(&file, "id\n").unwrap();
        let raw = file.display().to_string();
        assert_eq!(revealable(&raw).unwrap(), file);

        let gone = dir.path().join("moved.csv").display().to_string();
        let folder = dir.path().display().to_string();
        for refused in [gone.as_str(), folder.as_str(), "sightline-posts.csv", ""] {
            let error = revealable(refused).unwrap_err();
            assert!(matches!(error, CommandError::NotFound { .. }), "{refused}");
            assert!(error.message().contains("moved or deleted"), "{refused}");
        }
    }
}
