//! Sightline's typed client of the service: requests with the server's validation rules,
//! response records, error classification, billing metadata, the stream decoder, cursor
//! pagination and the transport policy (timeouts, retries, redirects, ETags).

pub mod billing;
pub mod cancel;
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
pub mod validation;

pub use billing::Billing;
pub use cancel::CancelToken;
pub use client::{
    CachedBody, Client, ClientConfig, ConfigError, EtagCache, Response, RetryPolicy, StreamOutcome,
};
pub use decoder::{StreamDecoder, StreamEvent};
pub use error::{ApiError, ErrorPayload};
pub use key::{ApiKey, KeyProblem};
pub use operation::Operation;
pub use pagination::{Paged, Pages};
pub use request::ApiRequest;
pub use stream::PartialStream;
pub use validation::FieldError;
