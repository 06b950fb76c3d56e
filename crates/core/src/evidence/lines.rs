//! The bundle's JSON Lines files: `posts.jsonl` (each post with its raw record, note and
//! tags, and the import that brought it, if one did) and `provenance.jsonl` (each request's capture record, as captured).

use std::collections::BTreeMap;
use std::io::Write;

use serde::Serialize;
use sightline_store::zone_names::local_seconds;
use sightline_store::StoredPost;

use super::{utc_iso, Bundle, BundlePost};

/// One line of `posts.jsonl`: the archived post, its raw record as the service sent it (or as
/// the imported file held it), the investigation's note and tags, and its import's mark.
pub(super) fn post_line(post: &BundlePost, out: &mut dyn Write) -> std::io::Result<()> {
    #[derive(Serialize)]
    struct Line<'p> {
        #[serde(flatten)]
        post: &'p StoredPost,
        raw: serde_json::Value,
        note: &'p str,
        tags: &'p [String],
        found_by_history_id: Option<i64>,
        /// The import that brought it: it came in no response of this installation.
        imported_from: Option<Imported<'p>>,
    }
    #[derive(Serialize)]
    struct Imported<'p> {
        file_name: &'p str,
        file_sha256: &'p str,
        line: i64,
        import_id: i64,
        imported_at_utc: String,
        /// A request of this installation found the post too (its capture is `found_by`'s).
        also_captured: bool,
        note: &'static str,
    }
    let raw = serde_json::from_str(&post.post.raw_json)
        .unwrap_or_else(|_| serde_json::Value::String(post.post.raw_json.clone()));
    serde_json::to_writer(
        &mut *out,
        &Line {
            post: &post.post,
            raw,
            note: &post.note,
            tags: &post.tags,
            found_by_history_id: post.found_by,
            imported_from: post.imported.as_ref().map(|mark| Imported {
                file_name: &mark.file_name,
                file_sha256: &mark.file_sha256,
                line: mark.line,
                import_id: mark.import_id,
                imported_at_utc: utc_iso(mark.imported_at),
                also_captured: mark.also_captured,
                note: if mark.also_captured {
                    "also imported from this file"
                } else {
                    "imported from this file, not captured by Sightline"
                },
            }),
        },
    )?;
    out.write_all(b"\n")
}

/// `provenance.jsonl`: one record per request, as captured; a request made before provenance
/// was kept says so, with no hash.
pub(super) fn provenance_lines(
    bundle: &Bundle,
    body_files: &[Option<String>],
    out: &mut dyn Write,
) -> std::io::Result<()> {
    #[derive(Serialize)]
    struct Line<'r> {
        history_id: i64,
        request_id: &'r str,
        operation: &'r str,
        parameters: serde_json::Value,
        request_status: &'r str,
        started_at_utc: String,
        captured_at_ms: Option<i64>,
        captured_at_utc: Option<String>,
        captured_at_local: Option<String>,
        service_address: Option<&'r str>,
        response_url: Option<&'r str>,
        http_status: Option<u16>,
        from_cache: Option<bool>,
        billing_headers: Option<&'r BTreeMap<String, String>>,
        app_version: Option<&'r str>,
        sha256: Option<&'r str>,
        body_file: Option<&'r str>,
        /// `false` for a response here only because it brought posts added on their own
        /// (its cost is not the bundle's).
        in_cost: bool,
        #[serde(skip_serializing_if = "Option::is_none")]
        note: Option<&'static str>,
    }
    for (request, body_file) in bundle.requests.iter().zip(body_files) {
        let entry = &request.entry;
        let capture = request.capture.as_ref();
        let captured_at = capture.map(|c| c.captured_at);
        let line = Line {
            history_id: entry.id,
            request_id: &entry.request_id,
            operation: &entry.operation,
            parameters: serde_json::from_str(&entry.params_json)
                .unwrap_or_else(|_| serde_json::Value::String(entry.params_json.clone())),
            request_status: entry.status.as_str(),
            started_at_utc: utc_iso(entry.started_at),
            captured_at_ms: captured_at.map(|t| t.timestamp_millis()),
            captured_at_utc: captured_at.map(utc_iso),
            captured_at_local: captured_at.map(|t| local_seconds(t, bundle.zone)),
            service_address: capture.map(|c| c.service_address.as_str()),
            response_url: capture.map(|c| c.response_url.as_str()),
            http_status: capture.map(|c| c.http_status),
            from_cache: capture.map(|c| c.from_cache),
            billing_headers: capture.map(|c| &c.billing_headers),
            app_version: capture.map(|c| c.app_version.as_str()),
            sha256: capture.map(|c| c.sha256.as_str()),
            body_file: body_file.as_deref(),
            in_cost: !request.only_brought_posts,
            note: capture
                .is_none()
                .then_some("captured before provenance was kept"),
        };
        serde_json::to_writer(&mut *out, &line)?;
        out.write_all(b"\n")?;
    }
    Ok(())
}
