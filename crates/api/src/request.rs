//! One typed request per operation, with the contract's defaults and the server's 422
//! rules applied locally by `validate()`, so an invalid request is never sent or billed.
//!
//! The requests live by family, as the service groups them: [`ai`] (the AI search and the
//! link searches), [`x`] (the X reads) and [`web`] (web search and crawl). Every request
//! and enumeration is re-exported here, so `request::TwitterSearchRequest` and
//! `request::x::TwitterSearchRequest` name the same type. [`forecast`] asks for a forecast and
//! follows its job. [`units`] says how many units
//! the service bills each request for ([`ExpectedUnits`], [`units_for`]).

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::operation::Operation;
use crate::validation::FieldError;

/// How a request travels: query parameters (GET) or a JSON body (POST).
#[derive(Debug, Clone, PartialEq)]
pub enum Encoded {
    /// Pairs in order; an array parameter repeats its name.
    Query(Vec<(&'static str, String)>),
    Json(Value),
}

/// What every operation's request provides to the client.
pub trait ApiRequest {
    /// The typed 200 body.
    type Output: DeserializeOwned;
    const OPERATION: Operation;
    /// Every violation of the server's rules, or Ok.
    fn validate(&self) -> Result<(), Vec<FieldError>>;
    /// The request on the wire. Call only after `validate()` succeeded.
    fn encode(&self) -> Encoded;
    /// The path below the base URL; the operation's own unless the request names a resource
    /// in it (a forecast's id).
    fn path(&self) -> String {
        Self::OPERATION.path().to_owned()
    }
    /// Reads the 200 body; JSON unless the operation answers text.
    fn decode(text: &str) -> Result<Self::Output, serde_json::Error> {
        serde_json::from_str(text)
    }
}

/// An enumeration that crosses the wire as fixed text, with its contract default.
macro_rules! wire_enum {
    ($(#[$doc:meta])* $name:ident { $($variant:ident = $wire:literal),+ $(,)? } default $default:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
        pub enum $name {
            $(#[serde(rename = $wire)] $variant),+
        }
        impl $name {
            pub fn as_str(self) -> &'static str {
                match self { $($name::$variant => $wire),+ }
            }
        }
        impl Default for $name {
            fn default() -> Self { $name::$default }
        }
    };
}

/// Adds `name=value` when the text is not blank.
fn push_text(pairs: &mut Vec<(&'static str, String)>, name: &'static str, value: &Option<String>) {
    if let Some(v) = value.as_deref().map(str::trim).filter(|v| !v.is_empty()) {
        pairs.push((name, v.to_owned()));
    }
}

fn push_bool(pairs: &mut Vec<(&'static str, String)>, name: &'static str, value: Option<bool>) {
    if let Some(v) = value {
        pairs.push((name, v.to_string()));
    }
}

pub mod ai;
pub mod forecast;
pub mod units;
pub mod web;
pub mod x;

pub use ai::*;
pub use forecast::*;
pub use units::{units_for, ExpectedUnits};
pub use web::*;
pub use x::*;

#[cfg(test)]
mod tests;
