//! What a check reads from `manifest.json`, leniently: a manifest may be damaged or forged, so
//! each part is read on its own and one that cannot be read is missing, not an error.

use std::collections::BTreeMap;

use serde_json::Value;

/// The parts of a manifest the checks use.
#[derive(Debug, Default)]
pub(super) struct Manifest {
    /// `format_version` (1: before signing; 2: signed, with tokens and custody; 3: with the
    /// media files, which are checked as any other file).
    pub format_version: Option<u64>,
    /// `installation_fingerprint`: the key the manifest says signed it.
    pub installation_fingerprint: Option<String>,
    /// `files`: path to SHA-256 (lower-case hex).
    pub files: BTreeMap<String, String>,
    /// `custody`, when not null.
    pub custody: Option<CustodyRef>,
    /// `captures`, in bundle order.
    pub captures: Vec<Capture>,
}

impl Manifest {
    /// The manifest as far as it can be read; an empty one when missing or not JSON.
    pub fn parse(bytes: Option<&[u8]>) -> Self {
        let Some(value) = bytes.and_then(|b| serde_json::from_slice::<Value>(b).ok()) else {
            return Self::default();
        };
        let text = |v: &Value| v.as_str().map(str::to_owned);
        Self {
            format_version: value["format_version"].as_u64(),
            installation_fingerprint: text(&value["installation_fingerprint"]),
            files: value["files"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|file| {
                    Some((
                        file["path"].as_str()?.to_owned(),
                        file["sha256"].as_str()?.to_ascii_lowercase(),
                    ))
                })
                .collect(),
            custody: value["custody"].as_object().map(|custody| CustodyRef {
                file: custody.get("file").and_then(text),
                entries: custody.get("entries").and_then(Value::as_u64),
                head_hash: custody.get("head_hash").and_then(text),
            }),
            captures: value["captures"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|capture| Capture {
                    file: text(&capture["file"]),
                    sha256: text(&capture["sha256"]).map(|h| h.to_ascii_lowercase()),
                    stamp: Stamp::parse(&capture["stamp"]),
                })
                .collect(),
        }
    }

    /// Whether the manifest says it was signed (a version 2 manifest names its key).
    pub fn claims_signature(&self) -> bool {
        self.format_version.is_some_and(|v| v >= 2) || self.installation_fingerprint.is_some()
    }
}

/// The manifest's `custody`.
#[derive(Debug, Default)]
pub(super) struct CustodyRef {
    /// The log's file in the bundle.
    pub file: Option<String>,
    /// How many entries it says the log holds.
    pub entries: Option<u64>,
    /// The hash it says the last entry has.
    pub head_hash: Option<String>,
}

/// One of the manifest's `captures`.
#[derive(Debug)]
pub(super) struct Capture {
    /// The response's file in the bundle.
    pub file: Option<String>,
    /// SHA-256 of the response's bytes as recorded when it arrived.
    pub sha256: Option<String>,
    /// Its stamp.
    pub stamp: Stamp,
}

/// A capture's stamp, as the manifest gives it.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Stamp {
    /// A token is in the bundle.
    Stamped {
        /// The token's file.
        file: String,
        /// The authority's time, as the manifest gives it.
        stamped_at: Option<String>,
    },
    /// Waiting for the authority when the bundle was made.
    Waiting,
    /// The request to the authority failed.
    Failed,
    /// Not stamped (no authority set; captured before provenance was kept), or a state this
    /// version does not know.
    None,
}

impl Stamp {
    fn parse(value: &Value) -> Self {
        match value["state"].as_str() {
            Some("stamped") => match value["file"].as_str() {
                Some(file) => Stamp::Stamped {
                    file: file.to_owned(),
                    stamped_at: value["stamped_at_utc"].as_str().map(str::to_owned),
                },
                None => Stamp::None,
            },
            Some("waiting") => Stamp::Waiting,
            Some("failed") => Stamp::Failed,
            _ => Stamp::None,
        }
    }
}
