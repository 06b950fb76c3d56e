//! Provenance: for every response received, when (UTC, ms) and from where it came, what was
//! asked, the HTTP status and billing headers, the app's version and the SHA-256 of the exact
//! bytes received, with those bytes kept (zlib) so the hash can be checked again at any time.
//!
//! Every response header as received is kept beside it (table `response_headers`, migration
//! 0017; captures made before have only their billing headers).
//! Written by [`crate::record`] in the request's own transaction and never edited afterwards
//! (a trigger refuses any UPDATE); queued there too for a trusted timestamp when a timestamp
//! authority is set (`stamps.rs`). Requests recorded before provenance was kept are listed by
//! the migration and say so; a request that got no answer has none. Reads are batched by
//! history or post ids, for lists that show a capture line on every row.

use std::collections::{BTreeMap, HashMap};
use std::io::{Read, Write};

use chrono::{DateTime, Utc};
use flate2::read::ZlibDecoder;
use flate2::write::ZlibEncoder;
use flate2::Compression;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use sqlx::{QueryBuilder, Row, Sqlite, SqliteConnection};
use ts_rs::TS;

use crate::error::Result;
use crate::time::{from_ms, to_ms};
use crate::Store;

/// The provenance part of a [`crate::RequestRecord`]: the response as it was received.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct NewProvenance {
    /// When the response was received.
    pub captured_at: DateTime<Utc>,
    /// The service address the request was sent to (the session's base URL).
    pub service_url: String,
    /// The URL that answered, after same-host redirects (never holds the key).
    pub response_url: String,
    /// The HTTP status of the answer.
    pub http_status: u16,
    /// The billing headers as written on the response.
    pub billing_headers: BTreeMap<String, String>,
    /// Every response header, name and value, in the order received (table
    /// `response_headers`, migration 0017); None writes no row, as before 0017.
    #[serde(default)]
    pub response_headers: Option<Vec<(String, String)>>,
    /// The version of the app that received it.
    pub app_version: String,
    /// SHA-256 of `body`, lower-case hex, computed as the bytes arrived.
    pub sha256: String,
    /// The exact bytes received.
    pub body: Vec<u8>,
    /// A 304: `body` is the stored copy the answer re-used.
    pub from_cache: bool,
    /// The timestamp authority to ask for a trusted timestamp of these bytes, when one is set:
    /// the capture is queued for it in its own record's transaction (`stamps.rs`).
    #[serde(default)]
    pub stamp_with: Option<String>,
}

/// One response's provenance, as stored (without its body: see [`Store::provenance_body`]).
#[derive(Serialize, TS, Clone, Debug, PartialEq, Eq)]
#[ts(export)]
pub struct ProvenanceRecord {
    /// The history row of the request it answered.
    pub history_id: i64,
    /// UTC, to the millisecond.
    pub captured_at: DateTime<Utc>,
    /// The service address the request was sent to.
    pub service_url: String,
    /// The operation's name.
    pub operation: String,
    /// The parameters sent, as JSON.
    pub params_json: String,
    /// The URL that answered, after same-host redirects (never holds the key).
    pub response_url: String,
    /// The HTTP status of the answer.
    pub http_status: u16,
    /// The billing headers as written on the response.
    pub billing_headers: BTreeMap<String, String>,
    /// The app's version that received it.
    pub app_version: String,
    /// SHA-256 of the bytes as they arrived, lower-case hex.
    pub sha256: String,
    /// Bytes received (before compression).
    pub body_size: i64,
    /// A 304: the stored copy the answer re-used.
    pub from_cache: bool,
}

/// What is known of a request's response.
#[derive(Serialize, TS, Clone, Debug, PartialEq, Eq)]
#[serde(tag = "state", rename_all = "snake_case")]
#[ts(export)]
pub enum Provenance {
    /// Received and kept: its record.
    Captured {
        /// The stored provenance.
        record: ProvenanceRecord,
    },
    /// Recorded before this version of the app kept provenance: no hash exists.
    BeforeProvenance,
    /// No response was received (the request failed, or is still running).
    NotReceived,
}

/// The short form a list shows on each row: when, and the hash.
#[derive(Serialize, TS, Clone, Debug, PartialEq, Eq)]
#[ts(export)]
pub struct CaptureSummary {
    /// The history row of the request.
    pub history_id: i64,
    /// When the response was received.
    pub captured_at: DateTime<Utc>,
    /// SHA-256 of the bytes received, lower-case hex.
    pub sha256: String,
}

/// A history row's capture line.
#[derive(Serialize, TS, Clone, Debug, PartialEq, Eq)]
#[serde(tag = "state", rename_all = "snake_case")]
#[ts(export)]
pub enum CaptureState {
    /// Received and kept.
    Captured {
        /// When, and the hash.
        capture: CaptureSummary,
    },
    /// Recorded before this version of the app kept provenance: no hash exists.
    BeforeProvenance,
    /// No response was received (the request failed, or is still running).
    NotReceived,
}

/// [`CaptureState`] of one history row.
#[derive(Serialize, TS, Clone, Debug, PartialEq, Eq)]
#[ts(export)]
pub struct HistoryCapture {
    /// The history row.
    pub history_id: i64,
    /// What is known of its response.
    pub capture: CaptureState,
}

/// The earliest captured response that brought a post; `capture` is None when every request
/// that found it was recorded before provenance was kept.
#[derive(Serialize, TS, Clone, Debug, PartialEq, Eq)]
#[ts(export)]
pub struct PostCapture {
    /// The post.
    pub post_id: String,
    /// Its earliest capture, if any.
    pub capture: Option<CaptureSummary>,
}

/// The stored bytes hashed again and compared with the hash taken when they arrived.
#[derive(Serialize, TS, Clone, Debug, PartialEq, Eq)]
#[ts(export)]
pub struct ProvenanceCheck {
    /// The history row whose response was checked.
    pub history_id: i64,
    /// The hash recorded at capture.
    pub recorded: String,
    /// The hash of the bytes stored now.
    pub recomputed: String,
    /// Whether the two hashes are the same: the bytes are as received.
    pub matches: bool,
}

/// Ids per query: far below SQLite's limit on bound values, and a page of a list is smaller.
const BATCH: usize = 500;

/// zlib at its fastest level: JSON still shrinks several times, and recording stays cheap.
fn compress(bytes: &[u8]) -> Result<Vec<u8>> {
    let mut encoder = ZlibEncoder::new(
        Vec::with_capacity(bytes.len() / 4 + 64),
        Compression::fast(),
    );
    encoder.write_all(bytes)?;
    Ok(encoder.finish()?)
}

pub(crate) fn decompress(stored: &[u8], size: i64) -> Result<Vec<u8>> {
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    ZlibDecoder::new(stored).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// What was asked: the operation and its parameters, as the history row holds them.
pub(crate) struct Asked<'a> {
    pub operation: &'a str,
    pub params_json: &'a str,
}

/// A provenance with its bytes compressed, ready to write: compressed before the write
/// transaction begins, so the database is not held while zlib runs.
pub(crate) struct Packed<'a> {
    received: &'a NewProvenance,
    stored: Vec<u8>,
}

pub(crate) fn pack(received: &NewProvenance) -> Result<Packed<'_>> {
    Ok(Packed {
        stored: compress(&received.body)?,
        received,
    })
}

/// Writes a request's provenance inside the caller's transaction (see [`crate::record`]).
pub(crate) async fn write(
    conn: &mut SqliteConnection,
    history_id: i64,
    asked: Asked<'_>,
    packed: &Packed<'_>,
) -> Result<()> {
    let p = packed.received;
    let billing_headers = serde_json::to_string(&p.billing_headers)?;
    sqlx::query(
        "INSERT INTO provenance (history_id, captured_at, service_url, operation, params_json,
             response_url, http_status, billing_headers, app_version, sha256, body_size, body,
             from_cache)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(history_id)
    .bind(to_ms(p.captured_at))
    .bind(&p.service_url)
    .bind(asked.operation)
    .bind(asked.params_json)
    .bind(&p.response_url)
    .bind(i64::from(p.http_status))
    .bind(billing_headers)
    .bind(&p.app_version)
    .bind(&p.sha256)
    .bind(i64::try_from(p.body.len()).unwrap_or(i64::MAX))
    .bind(&packed.stored)
    .bind(p.from_cache)
    .execute(&mut *conn)
    .await?;
    if let Some(headers) = &p.response_headers {
        sqlx::query("INSERT INTO response_headers (history_id, headers) VALUES (?, ?)")
            .bind(history_id)
            .bind(serde_json::to_string(headers)?)
            .execute(&mut *conn)
            .await?;
    }
    if let Some(tsa_url) = &p.stamp_with {
        crate::stamps::enqueue(conn, history_id, &p.sha256, tsa_url, p.captured_at).await?;
    }
    Ok(())
}

fn record_of(row: &sqlx::sqlite::SqliteRow) -> Result<ProvenanceRecord> {
    let headers: String = row.try_get("billing_headers")?;
    let status: i64 = row.try_get("http_status")?;
    Ok(ProvenanceRecord {
        history_id: row.try_get("history_id")?,
        captured_at: from_ms(row.try_get("captured_at")?),
        service_url: row.try_get("service_url")?,
        operation: row.try_get("operation")?,
        params_json: row.try_get("params_json")?,
        response_url: row.try_get("response_url")?,
        http_status: u16::try_from(status).unwrap_or_default(),
        billing_headers: serde_json::from_str(&headers).unwrap_or_default(),
        app_version: row.try_get("app_version")?,
        sha256: row.try_get("sha256")?,
        body_size: row.try_get("body_size")?,
        from_cache: row.try_get("from_cache")?,
    })
}

fn push_ids<'a, T: sqlx::Encode<'a, Sqlite> + sqlx::Type<Sqlite> + 'a>(
    query: &mut QueryBuilder<'a, Sqlite>,
    ids: impl IntoIterator<Item = T>,
) {
    query.push(" (");
    let mut list = query.separated(", ");
    for id in ids {
        list.push_bind(id);
    }
    list.push_unseparated(")");
}

impl Store {
    /// Every header of a request's response as received, in order; None for a capture made
    /// before they were kept (migration 0017: only its billing headers are known) or a request
    /// with no capture.
    pub async fn response_headers(&self, history_id: i64) -> Result<Option<Vec<(String, String)>>> {
        let text: Option<String> =
            sqlx::query_scalar("SELECT headers FROM response_headers WHERE history_id = ?")
                .bind(history_id)
                .fetch_optional(&self.pool)
                .await?;
        Ok(match text {
            Some(text) => Some(serde_json::from_str(&text)?),
            None => None,
        })
    }

    /// The provenance of one request: its record, or why there is none.
    pub async fn provenance(&self, history_id: i64) -> Result<Provenance> {
        let row = sqlx::query(
            "SELECT history_id, captured_at, service_url, operation, params_json, response_url,
                    http_status, billing_headers, app_version, sha256, body_size, from_cache
             FROM provenance WHERE history_id = ?",
        )
        .bind(history_id)
        .fetch_optional(&self.pool)
        .await?;
        if let Some(row) = row {
            return Ok(Provenance::Captured {
                record: record_of(&row)?,
            });
        }
        Ok(if self.before_provenance(history_id).await? {
            Provenance::BeforeProvenance
        } else {
            Provenance::NotReceived
        })
    }

    async fn before_provenance(&self, history_id: i64) -> Result<bool> {
        let before: Option<i64> =
            sqlx::query_scalar("SELECT history_id FROM provenance_before WHERE history_id = ?")
                .bind(history_id)
                .fetch_optional(&self.pool)
                .await?;
        Ok(before.is_some())
    }

    /// The exact bytes a request's response was received as; None without provenance.
    pub async fn provenance_body(&self, history_id: i64) -> Result<Option<Vec<u8>>> {
        let row: Option<(Vec<u8>, i64)> =
            sqlx::query_as("SELECT body, body_size FROM provenance WHERE history_id = ?")
                .bind(history_id)
                .fetch_optional(&self.pool)
                .await?;
        row.map(|(stored, size)| decompress(&stored, size))
            .transpose()
    }

    /// Hashes the stored bytes again and compares with the hash taken when they arrived;
    /// None without provenance. Stored bytes that no longer decompress do not match.
    pub async fn verify_provenance(&self, history_id: i64) -> Result<Option<ProvenanceCheck>> {
        let row: Option<(Vec<u8>, i64, String)> =
            sqlx::query_as("SELECT body, body_size, sha256 FROM provenance WHERE history_id = ?")
                .bind(history_id)
                .fetch_optional(&self.pool)
                .await?;
        let Some((stored, size, recorded)) = row else {
            return Ok(None);
        };
        let recomputed = match decompress(&stored, size) {
            Ok(bytes) => hex(&Sha256::digest(&bytes)),
            Err(_) => String::from("(the stored bytes are damaged and could not be read)"),
        };
        Ok(Some(ProvenanceCheck {
            history_id,
            matches: recomputed == recorded,
            recorded,
            recomputed,
        }))
    }

    /// The capture line of each history row asked for (rows that do not exist are left out).
    pub async fn history_captures(&self, history_ids: &[i64]) -> Result<Vec<HistoryCapture>> {
        let mut out = Vec::with_capacity(history_ids.len());
        for ids in history_ids.chunks(BATCH) {
            let mut query = QueryBuilder::<Sqlite>::new(
                "SELECT h.id, p.captured_at, p.sha256, b.history_id IS NOT NULL AS before
                 FROM history h
                 LEFT JOIN provenance p ON p.history_id = h.id
                 LEFT JOIN provenance_before b ON b.history_id = h.id
                 WHERE h.id IN",
            );
            push_ids(&mut query, ids.iter().copied());
            for row in query.build().fetch_all(&self.pool).await? {
                let history_id: i64 = row.try_get(0)?;
                let captured_at: Option<i64> = row.try_get(1)?;
                let sha256: Option<String> = row.try_get(2)?;
                let before: bool = row.try_get(3)?;
                let capture = match (captured_at, sha256) {
                    (Some(at), Some(sha256)) => CaptureState::Captured {
                        capture: CaptureSummary {
                            history_id,
                            captured_at: from_ms(at),
                            sha256,
                        },
                    },
                    _ if before => CaptureState::BeforeProvenance,
                    _ => CaptureState::NotReceived,
                };
                out.push(HistoryCapture {
                    history_id,
                    capture,
                });
            }
        }
        Ok(out)
    }

    /// For each post asked for, the earliest captured response that brought it, in one query
    /// per page (post cards show it). Posts not in the archive are left out.
    pub async fn post_captures(&self, post_ids: &[String]) -> Result<Vec<PostCapture>> {
        let mut found: HashMap<String, Option<CaptureSummary>> = HashMap::new();
        for ids in post_ids.chunks(BATCH) {
            // SQLite gives a bare column the values of the row MIN() picked.
            let mut query = QueryBuilder::<Sqlite>::new(
                "SELECT po.id, pr.history_id, MIN(pr.captured_at), pr.sha256
                 FROM posts po
                 LEFT JOIN post_sightings s ON s.post_pk = po.pk
                 LEFT JOIN provenance pr ON pr.history_id = s.history_id
                 WHERE po.id IN",
            );
            push_ids(&mut query, ids.iter().map(String::as_str));
            query.push(" GROUP BY po.id");
            for row in query.build().fetch_all(&self.pool).await? {
                let post_id: String = row.try_get(0)?;
                let history_id: Option<i64> = row.try_get(1)?;
                let at: Option<i64> = row.try_get(2)?;
                let sha256: Option<String> = row.try_get(3)?;
                let capture = match (history_id, at, sha256) {
                    (Some(history_id), Some(at), Some(sha256)) => Some(CaptureSummary {
                        history_id,
                        captured_at: from_ms(at),
                        sha256,
                    }),
                    _ => None,
                };
                found.insert(post_id, capture);
            }
        }
        Ok(post_ids
            .iter()
            .filter_map(|id| {
                let capture = found.get(id)?.clone();
                Some(PostCapture {
                    post_id: id.clone(),
                    capture,
                })
            })
            .collect())
    }
}

fn hex(digest: &[u8]) -> String {
    use std::fmt::Write;
    digest.iter().fold(String::with_capacity(64), |mut out, b| {
        let _ = write!(out, "{b:02x}");
        out
    })
}

#[cfg(test)]
mod tests;
