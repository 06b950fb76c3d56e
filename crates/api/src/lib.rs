//! Sightline's typed client of the service: requests with the server's validation rules,
//! response records, error classification, billing metadata, the stream decoder, cursor
//! pagination and the transport policy (timeouts, retries, redirects, ETags).
//!
//! Where things live:
//! - [`request`]: the [`ApiRequest`] trait and one typed request per operation, by family:
//!   `request::ai` (AI search, link searches), `request::x` (the X reads), `request::web`
//!   (web search, crawl), `request::forecast` (ask for a forecast, follow its job); all
//!   re-exported as `request::*`. `request::units` holds each
//!   request's billing units ([`ExpectedUnits`], [`units_for`]).
//! - [`model`]: the typed answers, and the one layer where the service's words (tweet,
//!   retweeters) become the app's (post, reposters): its doc holds the rule.
//!   [`operation`]: the operations, their paths and methods.
//! - [`client`]: the transport ([`Client`], retries, redirects, ETags); every request goes
//!   through [`Client::send`] (a forecast's two also by name). The streaming AI search is in `client::streaming`: `open_ai_search_stream`
//!   waits for the headers (and the cost they announce), then [`AiSearchStream::read`]
//!   reads the events; `ai_search_stream` does both.
//! - [`capture`]: a response as received ([`Capture`]): its exact bytes and their SHA-256
//!   (a stream's hashed as they arrive), status, every header in the order received (the
//!   ones the client undid renamed, a value holding the key replaced), billing headers as
//!   written, the URL that answered; every [`Response`] and every stream read carries one.
//! - [`billing`]: the cost headers read as a [`Charge`] of exact decimals, in any form a
//!   service writes (`0.00010499999999999999`, `1.5e-05`), its text kept as sent, a cost
//!   that is no number still a charge. [`error`]: [`ApiError`], its classes as a type
//!   ([`ErrorKind`]) and their plain-words messages; an answer that could not be decoded
//!   keeps its charge and bytes ([`UnreadAnswer`]). [`key`]: the API key, never printed.
//! - [`decoder`]: the stream's bytes to [`StreamEvent`]s. [`stream`]: [`PartialStream`], what a
//!   stream delivered so far. [`pagination`]: a paged request's cursor ([`Paged`]; the app
//!   pages one request at a time, from the cursor kept in history). [`cancel`]: [`CancelToken`].
//! - [`validation`]: the shared checks behind `validate()`. [`transport`]: why a connection
//!   failed ([`NetworkCause`]: no such host, refused, bad certificate, offline).
//! - [`wire`]: a request as it goes on the wire besides the key (its `User-Agent` and
//!   `Accept`, a POST's body rebuilt from the parameters history keeps), for the web archive's
//!   `request` records.
//! - [`words`]: a count with its noun ("1 part", "12 parts"), as the UI says it.
//! - [`wait`]: every wait, checked: a `Retry-After` (seconds, units or an HTTP date) or a
//!   backoff, capped at a day and never a panic; conversions to chrono; a wait in words.

pub mod billing;
pub mod cancel;
pub mod capture;
pub mod client;
pub mod decoder;
pub mod error;
pub mod key;
mod lenient;
pub mod model;
pub mod operation;
pub mod pagination;
pub mod request;
pub mod stream;
pub mod transport;
pub mod validation;
pub mod wait;
pub mod wire;
pub mod words;

pub use billing::Charge;
pub use cancel::CancelToken;
pub use capture::Capture;
pub use client::{
    AiSearchStream, CacheFuture, CachedBody, CapturedRead, Client, ClientConfig, ConfigError,
    EtagCache, Response, RetryPolicy, StreamOutcome,
};
pub use decoder::{StreamDecoder, StreamEvent};
pub use error::{ApiError, ErrorKind, ErrorPayload, UnreadAnswer};
pub use key::{ApiKey, KeyProblem};
pub use operation::Operation;
pub use pagination::Paged;
pub use request::{units_for, ApiRequest, ExpectedUnits};
pub use stream::PartialStream;
pub use transport::NetworkCause;
pub use validation::FieldError;

#[cfg(test)]
mod ts_tests {
    use ts_rs::{Config, TS};

    use crate::decoder::StreamEvent;
    use crate::model::*;
    use crate::request::*;

    /// Every type the app will export to TypeScript produces a declaration.
    #[test]
    fn ipc_types_declare_in_typescript() {
        let cfg = Config::new().with_large_int("number");
        let decls = [
            Post::export_to_string(&cfg).unwrap(),
            User::export_to_string(&cfg).unwrap(),
            AiSearchResult::export_to_string(&cfg).unwrap(),
            Posts::export_to_string(&cfg).unwrap(),
            StreamEvent::export_to_string(&cfg).unwrap(),
            crate::ErrorPayload::export_to_string(&cfg).unwrap(),
            crate::Charge::export_to_string(&cfg).unwrap(),
            crate::PartialStream::export_to_string(&cfg).unwrap(),
            TwitterSearchRequest::export_to_string(&cfg).unwrap(),
            AiSearchRequest::export_to_string(&cfg).unwrap(),
            crate::Operation::export_to_string(&cfg).unwrap(),
        ];
        assert!(decls[0].contains("[key in string]"), "{}", decls[0]);
        assert!(decls[6].contains("cost_usd: string | null"), "{}", decls[6]);
        assert!(decls[4].contains("\"kind\": \"text\""), "{}", decls[4]);
    }
}
