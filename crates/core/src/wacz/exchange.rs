//! One capture as two WARC records: the `request` rebuilt from what Sightline recorded of it
//! (never the `Authorization` header) and the `response` with its status, headers as received
//! and exact bytes, linked by `WARC-Concurrent-To`; and the response's index line.

use std::io::Write;

use sightline_api::Operation;

use super::index::{self, Entry};
use super::warc::{self, Kind, Record, WarcFile};
use super::WARC_NAME;
use crate::evidence::{BundleRequest, CaptureRecord};

/// The request and response records of one capture, and the response's index line.
pub(super) fn exchange(
    request: &BundleRequest,
    capture: &CaptureRecord,
    received: Option<&[(String, String)]>,
    body: &[u8],
    warc: &mut WarcFile,
    out: &mut dyn Write,
    lines: &mut Vec<String>,
) -> std::io::Result<()> {
    let entry = &request.entry;
    let operation = Operation::from_name(&entry.operation);
    let post = operation.is_some_and(|op| op.method() == sightline_api::operation::Method::Post);
    let method = if post { "POST" } else { "GET" };
    let url = &capture.response_url;
    let parsed = url::Url::parse(url).ok();
    let target = parsed
        .as_ref()
        .map(|u| match u.query() {
            Some(q) => format!("{}?{q}", u.path()),
            None => u.path().to_owned(),
        })
        .unwrap_or_else(|| url.clone());
    let host = parsed
        .as_ref()
        .and_then(|u| {
            let host = u.host_str()?;
            Some(match u.port() {
                Some(port) => format!("{host}:{port}"),
                None => host.to_owned(),
            })
        })
        .unwrap_or_default();
    let sent_body = operation
        .and_then(|op| sightline_api::wire::sent_body(op, &entry.params_json))
        .filter(|_| post);
    let mut headers = vec![
        ("Host".to_owned(), host),
        (
            "User-Agent".to_owned(),
            format!("sightline/{}", capture.app_version),
        ),
        ("Accept".to_owned(), sightline_api::wire::ACCEPT.to_owned()),
    ];
    if let Some(sent) = &sent_body {
        headers.push((
            "Content-Type".into(),
            sightline_api::wire::JSON_CONTENT_TYPE.into(),
        ));
        headers.push(("Content-Length".into(), sent.len().to_string()));
    }
    let mut request_block = warc::http_head(&format!("{method} {target} HTTP/1.1"), &headers);
    let request_payload = request_block.len();
    if let Some(sent) = &sent_body {
        request_block.extend_from_slice(sent);
    }

    let not_modified = capture.from_cache;
    let response_body: &[u8] = if not_modified { &[] } else { body };
    let response_headers = match received {
        Some(all) => as_received(all, response_body.len(), not_modified),
        None => {
            let mut kept: Vec<(String, String)> = capture
                .billing_headers
                .iter()
                .map(|(name, value)| (name.clone(), value.clone()))
                .collect();
            if !not_modified {
                kept.push(("Content-Length".into(), body.len().to_string()));
            }
            kept
        }
    };
    let status = capture.http_status;
    let mut response_block = warc::http_head(
        format!("HTTP/1.1 {status} {}", warc::reason(status)).trim_end(),
        &response_headers,
    );
    let response_payload = response_block.len();
    response_block.extend_from_slice(response_body);

    let response_id = warc::record_id();
    let mut ours = vec![
        ("WARC-Sightline-History-Id".to_owned(), entry.id.to_string()),
        (
            "WARC-Sightline-Request-Id".to_owned(),
            entry.request_id.clone(),
        ),
        (
            "WARC-Sightline-Operation".to_owned(),
            entry.operation.clone(),
        ),
        (
            "WARC-Sightline-Response-Headers".to_owned(),
            if received.is_some() {
                "as-received"
            } else {
                "billing-only"
            }
            .to_owned(),
        ),
    ];
    if not_modified {
        ours.push((
            "WARC-Sightline-Reused-Body-SHA256".into(),
            capture.sha256.clone(),
        ));
    }
    let request_record = Record {
        kind: Kind::Request,
        id: warc::record_id(),
        date: capture.captured_at,
        target: Some(url.clone()),
        content_type: "application/http; msgtype=request".into(),
        payload_from: Some(request_payload),
        fields: vec![("WARC-Concurrent-To".into(), response_id.clone())],
        block: request_block,
    };
    let response_record = Record {
        kind: Kind::Response,
        id: response_id,
        date: capture.captured_at,
        target: Some(url.clone()),
        content_type: "application/http; msgtype=response".into(),
        payload_from: Some(response_payload),
        fields: ours,
        block: response_block,
    };
    warc.write(&request_record, out)?;
    let written = warc.write(&response_record, out)?;
    let entry = Entry {
        url,
        date: capture.captured_at,
        mime: None,
        status: Some(status),
        method: post.then_some("POST"),
    };
    lines.push(index::cdxj_line(&entry, &written, WARC_NAME));
    Ok(())
}

/// A response's headers as received, for its record: all of them in order, but a
/// `Content-Length` that does not count the bytes written (a stream cut short) is kept as
/// `X-Sightline-Original-Content-Length` and the true one added, as it is when the answer sent
/// none (a chunked one). A 304's are written as they came: its record has no body.
pub(super) fn as_received(
    all: &[(String, String)],
    body_len: usize,
    not_modified: bool,
) -> Vec<(String, String)> {
    let length = body_len.to_string();
    let mut has_length = false;
    let mut headers: Vec<(String, String)> = all
        .iter()
        .map(|(name, value)| {
            if !not_modified && name.eq_ignore_ascii_case("content-length") {
                if value.trim() == length && !has_length {
                    has_length = true;
                    return (name.clone(), value.clone());
                }
                return (format!("x-sightline-original-{name}"), value.clone());
            }
            (name.clone(), value.clone())
        })
        .collect();
    if !not_modified && !has_length {
        headers.push(("Content-Length".into(), length));
    }
    headers
}
