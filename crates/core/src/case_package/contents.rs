//! The package's own files under `case/`, written from the store's [`CaseContents`] and read
//! back into it: `case.json` (the case id, name, description, notebook, the media switch, the
//! posts and requests taken out of the case and the layout's version), then one JSON line per request, post, check and media item. Each
//! line is the store's own type (`sightline_store::CaseRequest`...), so what an export reads is
//! what an import writes; `by: null` in a line means whoever signed the package.

use std::collections::HashMap;
use std::io::Write;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::json;
use sightline_store::{CaseContents, CaseRemoval};

use super::CASE_FORMAT_VERSION;

/// The case itself.
pub const CASE_JSON: &str = "case/case.json";
/// Each request, one JSON line.
pub const REQUESTS_JSONL: &str = "case/requests.jsonl";
/// Each post, one JSON line.
pub const POSTS_JSONL: &str = "case/posts.jsonl";
/// Each still-there check, one JSON line.
pub const CHECKS_JSONL: &str = "case/checks.jsonl";
/// Each media item, one JSON line.
pub const MEDIA_JSONL: &str = "case/media.jsonl";

/// `case.json`.
#[derive(Serialize, Deserialize)]
struct CaseJson {
    format_version: u32,
    case_id: String,
    name: String,
    description: String,
    notebook: String,
    media_full_view: bool,
    /// Posts and requests taken out of the case (layout 2; none in layout 1).
    #[serde(default)]
    unfiled: Vec<CaseRemoval>,
}

fn lines<T: Serialize>(items: &[T]) -> Vec<u8> {
    let mut out = Vec::new();
    for item in items {
        serde_json::to_writer(&mut out, item).expect("a case line always serialises");
        out.write_all(b"\n").expect("writing to memory");
    }
    out
}

/// The `case/` files, in the order written.
pub(super) fn files(contents: &CaseContents) -> Vec<(String, Vec<u8>)> {
    let case = CaseJson {
        format_version: CASE_FORMAT_VERSION,
        case_id: contents.case_id.clone(),
        name: contents.name.clone(),
        description: contents.description.clone(),
        notebook: contents.notebook.clone(),
        media_full_view: contents.media_full_view,
        unfiled: contents.unfiled.clone(),
    };
    let mut case_json = serde_json::to_vec_pretty(&case).expect("case.json serialises");
    case_json.push(b'\n');
    vec![
        (CASE_JSON.into(), case_json),
        (REQUESTS_JSONL.into(), lines(&contents.requests)),
        (POSTS_JSONL.into(), lines(&contents.posts)),
        (CHECKS_JSONL.into(), lines(&contents.checks)),
        (MEDIA_JSONL.into(), lines(&contents.media)),
    ]
}

/// The manifest's `case` object: the case id, the layout's version and what it holds.
pub(super) fn manifest_part(contents: &CaseContents) -> serde_json::Value {
    json!({
        "case_id": contents.case_id,
        "format_version": CASE_FORMAT_VERSION,
        "files": [CASE_JSON, REQUESTS_JSONL, POSTS_JSONL, CHECKS_JSONL, MEDIA_JSONL],
        "counts": {
            "requests": contents.requests.len(),
            "posts": contents.posts.len(),
            "checks": contents.checks.len(),
            "media_items": contents.media.len(),
        },
    })
}

fn parse_lines<T: DeserializeOwned>(name: &str, bytes: &[u8]) -> Result<Vec<T>, String> {
    bytes
        .split(|b| *b == b'\n')
        .enumerate()
        .filter(|(_, line)| !line.is_empty())
        .map(|(n, line)| {
            serde_json::from_slice(line)
                .map_err(|e| format!("line {} of {name} cannot be read: {e}", n + 1))
        })
        .collect()
}

/// The case read back from its files (taken out of `files`); why not, in words.
pub(super) fn parse(files: &mut HashMap<String, Vec<u8>>) -> Result<CaseContents, String> {
    let mut take = |name: &str| {
        files
            .remove(name)
            .ok_or_else(|| format!("the package holds no {name}"))
    };
    let case: CaseJson = serde_json::from_slice(&take(CASE_JSON)?)
        .map_err(|e| format!("{CASE_JSON} cannot be read: {e}"))?;
    if case.format_version > CASE_FORMAT_VERSION {
        return Err(format!(
            "it was written by a newer Sightline (case layout {}, this one reads up to {})",
            case.format_version, CASE_FORMAT_VERSION
        ));
    }
    Ok(CaseContents {
        case_id: case.case_id,
        name: case.name,
        description: case.description,
        notebook: case.notebook,
        media_full_view: case.media_full_view,
        requests: parse_lines(REQUESTS_JSONL, &take(REQUESTS_JSONL)?)?,
        posts: parse_lines(POSTS_JSONL, &take(POSTS_JSONL)?)?,
        checks: parse_lines(CHECKS_JSONL, &take(CHECKS_JSONL)?)?,
        media: parse_lines(MEDIA_JSONL, &take(MEDIA_JSONL)?)?,
        unfiled: case.unfiled,
    })
}
