//! Deserialisers that accept the shapes the live service has been seen to send for one
//! field (null, a number as a string, an id as a number), so one odd record never sinks a
//! whole response.

use serde::{Deserialize, Deserializer};
use serde_json::Value;

/// A count: integer, numeric string or null (null and garbage read as 0).
pub fn count<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    Ok(opt_count(d)?.unwrap_or(0))
}

/// An optional count: integer, numeric string, or null.
pub fn opt_count<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    Ok(match Value::deserialize(d)? {
        Value::Number(n) => n.as_u64().or_else(|| n.as_f64().map(|f| f.max(0.0) as u64)),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    })
}

/// A string that may arrive as a number (ids) or null (read as "").
pub fn string<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    Ok(opt_string(d)?.unwrap_or_default())
}

/// An optional string that may arrive as a number.
pub fn opt_string<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Ok(match Value::deserialize(d)? {
        Value::String(s) => Some(s),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    })
}

/// A boolean that may be null or a "true"/"false" string.
pub fn opt_bool<'de, D: Deserializer<'de>>(d: D) -> Result<Option<bool>, D::Error> {
    Ok(match Value::deserialize(d)? {
        Value::Bool(b) => Some(b),
        Value::String(s) => s.parse().ok(),
        _ => None,
    })
}

/// A value that is kept only when it has the expected shape; anything else reads as None.
pub fn opt_lenient<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: serde::de::DeserializeOwned,
{
    let value = Value::deserialize(d)?;
    if value.is_null() {
        return Ok(None);
    }
    Ok(serde_json::from_value(value).ok())
}

/// A string integer or a number, for request fields such as `min_likes` that the
/// contract accepts in both forms and the UI may send as either.
pub fn opt_text_number<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    opt_string(d)
}
