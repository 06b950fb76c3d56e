//! The posts' pictures and videos in the web archive, so a replay of their addresses shows
//! them:
//!
//! * each kept file as a `response` record for the address it was fetched from, at the time
//!   its response arrived, with the HTTP status and every header as received (as an API
//!   response's: `Transfer-Encoding` and `Content-Encoding` renamed `X-Sightline-Original-…`,
//!   since the bytes kept are the body after them, and a `Content-Length` that does not count
//!   them kept as `X-Sightline-Original-Content-Length`) and the exact bytes kept, streamed
//!   from the media folder; its payload digest is the file's SHA-256;
//! * a link found gone (404/410) as a `response` record with that status and the headers
//!   received and no body (the error page's bytes were not kept);
//! * a video's still picture, whose own response was not recorded, as a `resource` record of
//!   its address holding the file, with its type: no status or header is invented;
//! * a kept file that is no longer in this computer's media folder, or no longer hashes to its
//!   name, as a `metadata` record for its address saying so.
//!
//! No `request` records: the media fetcher's requests are plain GETs with no key, and their
//! headers are not recorded. An item fetched for several posts is written once per fetch.

use std::collections::BTreeSet;
use std::io::Write;

use chrono::{DateTime, Utc};
use sightline_store::{MediaFile, MediaItemRecord, MediaState};

use super::exchange::as_received;
use super::index::{self, Entry};
use super::warc::{self, FileRecord, Kind, Record, WarcFile, Written};
use super::WARC_NAME;
use crate::evidence::{Bundle, ResponseBodies};

/// What the media records of an archive came to.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct MediaRecords {
    /// Kept files written as responses (and stills as resources).
    pub files: u32,
    /// Gone links written as responses without a body.
    pub gone: u32,
    /// Kept files left out (a `metadata` record says why).
    pub left_out: u32,
}

/// How media records are made, in words, for `warcinfo`.
pub const MEDIA_IN_WORDS: &str = "Each picture or video Sightline kept of the posts is a \
    response record for the address it was fetched from, dated when its response arrived, \
    holding the HTTP status, the response's headers as received (renamed as for the service's \
    responses above) and the exact bytes kept; its payload digest is the SHA-256 Sightline \
    recorded. A media link found gone is a response record with the status and headers \
    received and no body. A video's still picture is a resource record of its address (its \
    own response was not recorded). No request records are written for media: they were plain \
    GET requests carrying no key, whose headers were not recorded. A file kept but missing \
    from, or changed in, the media folder at export is a metadata record saying so.";

/// The headers of a media response for its record.
fn headers_for_record(received: &[(String, String)], body_len: u64) -> Vec<(String, String)> {
    let renamed: Vec<(String, String)> = received
        .iter()
        .map(|(name, value)| {
            let lower = name.to_ascii_lowercase();
            if lower == "transfer-encoding" || lower == "content-encoding" {
                (format!("x-sightline-original-{lower}"), value.clone())
            } else {
                (name.clone(), value.clone())
            }
        })
        .collect();
    as_received(
        &renamed,
        usize::try_from(body_len).unwrap_or(usize::MAX),
        false,
    )
}

fn ours(item: &MediaItemRecord) -> Vec<(String, String)> {
    vec![
        ("WARC-Sightline-Post-Id".into(), item.post_id.clone()),
        (
            "WARC-Sightline-Media-Position".into(),
            item.position.to_string(),
        ),
        (
            "WARC-Sightline-Media-Kind".into(),
            serde_json::to_value(item.kind)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default(),
        ),
    ]
}

/// Writes the media records of `bundle`'s posts and their index lines.
pub(super) fn write(
    bundle: &Bundle,
    bodies: &impl ResponseBodies,
    warc: &mut WarcFile,
    out: &mut dyn Write,
    lines: &mut Vec<String>,
) -> std::io::Result<MediaRecords> {
    let mut done = MediaRecords::default();
    let mut fetches = BTreeSet::new();
    let mut stills = BTreeSet::new();
    for item in &bundle.media {
        let Some(at) = item.fetched_at else { continue };
        match item.state {
            MediaState::Kept => {
                let (Some(file), Some(status)) = (&item.file, item.http_status) else {
                    continue;
                };
                if !fetches.insert((item.source_url.clone(), at, file.sha256.clone())) {
                    continue;
                }
                let status = u16::try_from(status).unwrap_or(0);
                let head = warc::http_head(
                    format!("HTTP/1.1 {status} {}", warc::reason(status)).trim_end(),
                    &headers_for_record(item.response_headers.as_deref().unwrap_or(&[]), {
                        u64::try_from(file.size).unwrap_or(0)
                    }),
                );
                let record = Record {
                    kind: Kind::Response,
                    id: warc::record_id(),
                    date: at,
                    target: Some(item.source_url.clone()),
                    content_type: "application/http; msgtype=response".into(),
                    payload_from: Some(head.len()),
                    fields: ours(item),
                    block: head,
                };
                let entry = Entry {
                    url: &item.source_url,
                    date: at,
                    mime: Some(essence(&file.content_type)),
                    status: Some(status),
                    method: None,
                };
                file_record(bodies, warc, out, lines, &record, &entry, file, &mut done)?;
                if let (Some(url), Some(still)) = (&item.poster_url, &item.poster) {
                    if stills.insert((url.clone(), still.sha256.clone())) {
                        let record = Record {
                            kind: Kind::Resource,
                            id: warc::record_id(),
                            date: at,
                            target: Some(url.clone()),
                            content_type: essence(&still.content_type).to_owned(),
                            payload_from: Some(0),
                            fields: ours(item),
                            block: Vec::new(),
                        };
                        let entry = Entry {
                            url,
                            date: at,
                            mime: Some(essence(&still.content_type)),
                            status: None,
                            method: None,
                        };
                        file_record(bodies, warc, out, lines, &record, &entry, still, &mut done)?;
                    }
                }
            }
            MediaState::Gone => {
                let Some(status) = item.http_status.and_then(|s| u16::try_from(s).ok()) else {
                    continue;
                };
                if !fetches.insert((item.source_url.clone(), at, String::new())) {
                    continue;
                }
                let block = warc::http_head(
                    format!("HTTP/1.1 {status} {}", warc::reason(status)).trim_end(),
                    &headers_for_record(item.response_headers.as_deref().unwrap_or(&[]), 0),
                );
                let mut fields = ours(item);
                fields.push((
                    "WARC-Sightline-Media-State".into(),
                    "gone: the link answered this status; its body was not kept".into(),
                ));
                let record = Record {
                    kind: Kind::Response,
                    id: warc::record_id(),
                    date: at,
                    target: Some(item.source_url.clone()),
                    content_type: "application/http; msgtype=response".into(),
                    payload_from: Some(block.len()),
                    fields,
                    block,
                };
                let written = warc.write(&record, out)?;
                let entry = Entry {
                    url: &item.source_url,
                    date: at,
                    mime: None,
                    status: Some(status),
                    method: None,
                };
                lines.push(index::cdxj_line(&entry, &written, WARC_NAME));
                done.gone += 1;
            }
            MediaState::Waiting | MediaState::Failed | MediaState::TooLarge => {}
        }
    }
    Ok(done)
}

/// A media type without its parameters, lower case.
fn essence(content_type: &str) -> &str {
    content_type.split(';').next().unwrap_or_default().trim()
}

/// Writes `record` with the kept file as its payload and indexes it, or, when the file is left
/// out, a `metadata` record saying why.
#[allow(clippy::too_many_arguments)]
fn file_record(
    bodies: &impl ResponseBodies,
    warc: &mut WarcFile,
    out: &mut dyn Write,
    lines: &mut Vec<String>,
    record: &Record,
    entry: &Entry<'_>,
    file: &MediaFile,
    done: &mut MediaRecords,
) -> std::io::Result<()> {
    let outcome = match bodies.media_path(&file.sha256) {
        Some(path) => warc.write_with_file(record, &path, &file.sha256, out)?,
        None => FileRecord::LeftOut("its file is not in this computer's media folder".into()),
    };
    match outcome {
        FileRecord::Written(written) => {
            lines.push(index::cdxj_line(entry, &written, WARC_NAME));
            done.files += 1;
        }
        FileRecord::LeftOut(why) => {
            left_out(warc, out, record, entry.date, file, &why)?;
            done.left_out += 1;
        }
    }
    Ok(())
}

fn left_out(
    warc: &mut WarcFile,
    out: &mut dyn Write,
    about: &Record,
    date: DateTime<Utc>,
    file: &MediaFile,
    why: &str,
) -> std::io::Result<Written> {
    // One warc-fields line: the reason is Sightline's own words, never a line break.
    let block = format!(
        "left-out: Sightline kept this address's file (SHA-256 {}, {} bytes, {}) but {}, so \
         it is not in this archive.\r\n",
        file.sha256,
        file.size,
        file.content_type.replace(['\r', '\n'], " "),
        why.replace(['\r', '\n'], " ")
    );
    let record = Record {
        kind: Kind::Metadata,
        id: warc::record_id(),
        date,
        target: about.target.clone(),
        content_type: "application/warc-fields".into(),
        payload_from: None,
        fields: Vec::new(),
        block: block.into_bytes(),
    };
    warc.write(&record, out)
}
