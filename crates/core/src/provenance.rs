//! A response's provenance as the pipeline records it: the capture the client took of the
//! bytes received, with when, from which service address and by which version of the app.
//! Written with the request's history row ([`sightline_store::provenance`]), never edited.

use chrono::Utc;
use sightline_api::Capture;
use sightline_store::NewProvenance;

use crate::session::Session;

/// The app's version, as every provenance record names it.
pub const APP_VERSION: &str = env!("CARGO_PKG_VERSION");

/// The provenance of a response just received by `session`'s client (the capture time is now).
pub fn received(session: &Session, capture: Capture) -> NewProvenance {
    NewProvenance {
        captured_at: Utc::now(),
        service_url: session.client.base_url().to_owned(),
        response_url: capture.url,
        http_status: capture.status,
        billing_headers: capture.billing_headers,
        app_version: APP_VERSION.to_owned(),
        sha256: capture.sha256,
        body: capture.bytes,
        from_cache: capture.from_cache,
    }
}
