//! A request as Sightline puts it on the wire, for a record of what was sent (the web
//! archive's `request` records): the headers every request carries besides the key, and a
//! POST's body rebuilt from the parameters history keeps, byte for byte as [`crate::Client`]
//! sends it. The key is never part of either: it travels only in `Authorization`, which is
//! set where the request is built and nowhere here.

use crate::operation::{Method, Operation};
use crate::request::*;

/// `User-Agent` of every request.
pub const USER_AGENT: &str = concat!("sightline/", env!("CARGO_PKG_VERSION"));

/// `Accept` of every request.
pub const ACCEPT: &str = "application/json, text/event-stream, text/plain";

/// `Content-Type` of a POST's JSON body.
pub const JSON_CONTENT_TYPE: &str = "application/json";

/// The body a POST of `operation` sent, rebuilt from its parameters as history stored them
/// (`serde_json::to_string` of the typed request): the same `encode()` and serialisation the
/// client uses, so the bytes are the ones sent. `None` for a GET (no body) and for parameters
/// this version cannot read.
pub fn sent_body(operation: Operation, params_json: &str) -> Option<Vec<u8>> {
    fn body_of<R: ApiRequest + serde::de::DeserializeOwned>(params_json: &str) -> Option<Vec<u8>> {
        let request: R = serde_json::from_str(params_json).ok()?;
        match request.encode() {
            Encoded::Json(value) => serde_json::to_vec(&value).ok(),
            Encoded::Query(_) => None,
        }
    }
    if operation.method() != Method::Post {
        return None;
    }
    match operation {
        Operation::AiSearch => body_of::<AiSearchRequest>(params_json),
        Operation::LinksWeb => body_of::<LinksWebRequest>(params_json),
        Operation::LinksTwitter => body_of::<LinksTwitterRequest>(params_json),
        Operation::Forecast => body_of::<ForecastRequest>(params_json),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_posts_body_is_rebuilt_as_the_client_encodes_it_and_a_get_has_none() {
        let request = LinksWebRequest {
            prompt: "  solar flares  ".into(),
            ..LinksWebRequest::default()
        };
        let params = serde_json::to_string(&request).unwrap();
        let Encoded::Json(sent) = request.encode() else {
            panic!("a POST")
        };
        assert_eq!(
            sent_body(Operation::LinksWeb, &params),
            Some(serde_json::to_vec(&sent).unwrap())
        );
        assert!(
            String::from_utf8(sent_body(Operation::LinksWeb, &params).unwrap())
                .unwrap()
                .contains(r#""prompt":"solar flares""#)
        );
        assert_eq!(
            sent_body(Operation::TwitterSearch, r#"{"query":"x"}"#),
            None
        );
        assert_eq!(sent_body(Operation::LinksWeb, "not json"), None);
    }
}
