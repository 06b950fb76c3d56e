//! A response's provenance as the pipeline records it: the capture the client took of the
//! bytes received, with when, from which service address and by which version of the app.
//! Written with the request's history row (the store's `provenance` table), never edited.

use chrono::Utc;
use sightline_api::Capture;
use sightline_store::{
    HistoryCapture, NewProvenance, PostCapture, Provenance, ProvenanceCheck, Store,
};

use crate::errors::CommandError;
use crate::session::Session;

/// The app's version, as every provenance record names it.
pub const APP_VERSION: &str = env!("CARGO_PKG_VERSION");

/// The provenance of a response just received by `session`'s client (the capture time is now),
/// queued for a trusted timestamp when the session has a timestamp authority.
pub fn received(session: &Session, capture: Capture) -> NewProvenance {
    NewProvenance {
        captured_at: Utc::now(),
        service_url: session.client.base_url().to_owned(),
        response_url: capture.url,
        http_status: capture.status,
        billing_headers: capture.billing_headers,
        response_headers: Some(capture.response_headers),
        app_version: APP_VERSION.to_owned(),
        sha256: capture.sha256,
        body: capture.bytes,
        from_cache: capture.from_cache,
        stamp_with: session.tsa_url.clone(),
    }
}

/// The full record of one request's response (never its bytes), or why there is none.
pub async fn get(store: &Store, history_id: i64) -> Result<Provenance, CommandError> {
    Ok(store.provenance(history_id).await?)
}

/// Hashes the stored bytes again; `None` when the request has no provenance.
pub async fn verify(
    store: &Store,
    history_id: i64,
) -> Result<Option<ProvenanceCheck>, CommandError> {
    Ok(store.verify_provenance(history_id).await?)
}

/// The capture line of each history row on a page.
pub async fn history_lines(
    store: &Store,
    history_ids: &[i64],
) -> Result<Vec<HistoryCapture>, CommandError> {
    Ok(store.history_captures(history_ids).await?)
}

/// The capture line of each post on a page: the earliest captured response that brought it.
pub async fn post_lines(
    store: &Store,
    post_ids: &[String],
) -> Result<Vec<PostCapture>, CommandError> {
    Ok(store.post_captures(post_ids).await?)
}
