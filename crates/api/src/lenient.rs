//! Deserialisers that accept the shapes the live service has been seen to send for one
//! field (null, a number as a string, an id as a number), so one odd record never sinks a
//! whole response. They visit the value directly (no intermediate `serde_json::Value`),
//! because they run for nearly every field of every post.

use std::fmt;

use serde::de::{DeserializeOwned, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::Value;

/// What a scalar-ish field turned out to be.
enum Scalar {
    Text(String),
    Unsigned(u64),
    Signed(i64),
    Float(f64),
    Bool(bool),
    /// null, or an array/object where a scalar was expected.
    Nothing,
}

struct ScalarVisitor;

impl<'de> Visitor<'de> for ScalarVisitor {
    type Value = Scalar;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string, number, boolean or null")
    }
    fn visit_str<E>(self, v: &str) -> Result<Scalar, E> {
        Ok(Scalar::Text(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Scalar, E> {
        Ok(Scalar::Text(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Scalar, E> {
        Ok(Scalar::Unsigned(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Scalar, E> {
        Ok(Scalar::Signed(v))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Scalar, E> {
        Ok(Scalar::Float(v))
    }
    fn visit_bool<E>(self, v: bool) -> Result<Scalar, E> {
        Ok(Scalar::Bool(v))
    }
    fn visit_unit<E>(self) -> Result<Scalar, E> {
        Ok(Scalar::Nothing)
    }
    fn visit_none<E>(self) -> Result<Scalar, E> {
        Ok(Scalar::Nothing)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Scalar, D::Error> {
        d.deserialize_any(self)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Scalar, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Scalar::Nothing)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Scalar, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Scalar::Nothing)
    }
}

fn scalar<'de, D: Deserializer<'de>>(d: D) -> Result<Scalar, D::Error> {
    d.deserialize_any(ScalarVisitor)
}

/// A count: integer, numeric string or null (null and garbage read as 0).
pub fn count<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    Ok(opt_count(d)?.unwrap_or(0))
}

/// An optional count: integer, numeric string, or null.
pub fn opt_count<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    Ok(match scalar(d)? {
        Scalar::Unsigned(n) => Some(n),
        Scalar::Signed(n) => Some(n.max(0) as u64),
        Scalar::Float(f) => Some(f.max(0.0) as u64),
        Scalar::Text(s) => s.trim().parse().ok(),
        Scalar::Bool(_) | Scalar::Nothing => None,
    })
}

/// A string that may arrive as a number (ids) or null (read as "").
pub fn string<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    Ok(opt_string(d)?.unwrap_or_default())
}

/// An optional string that may arrive as a number.
pub fn opt_string<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Ok(match scalar(d)? {
        Scalar::Text(s) => Some(s),
        Scalar::Unsigned(n) => Some(n.to_string()),
        Scalar::Signed(n) => Some(n.to_string()),
        Scalar::Float(f) => Some(f.to_string()),
        Scalar::Bool(b) => Some(b.to_string()),
        Scalar::Nothing => None,
    })
}

/// A boolean that may be null or a "true"/"false" string.
pub fn opt_bool<'de, D: Deserializer<'de>>(d: D) -> Result<Option<bool>, D::Error> {
    Ok(match scalar(d)? {
        Scalar::Bool(b) => Some(b),
        Scalar::Text(s) => s.parse().ok(),
        _ => None,
    })
}

/// A value that is kept only when it has the expected shape; anything else reads as None.
pub fn opt_lenient<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: DeserializeOwned,
{
    let value = Value::deserialize(d)?;
    if value.is_null() {
        return Ok(None);
    }
    Ok(serde_json::from_value(value).ok())
}

/// Reads `{title, snippet, link, …}` keeping unknown keys, without serde's `flatten`
/// (which buffers every field and dominated the decoding of tool results).
pub(crate) struct LinkFields {
    pub title: String,
    pub snippet: String,
    pub link: String,
    pub extra: serde_json::Map<String, Value>,
}

impl<'de> Deserialize<'de> for LinkFields {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = LinkFields;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a link result object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<LinkFields, A::Error> {
                let mut out = LinkFields {
                    title: String::new(),
                    snippet: String::new(),
                    link: String::new(),
                    extra: serde_json::Map::new(),
                };
                while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
                    let slot = match key.as_ref() {
                        "title" => &mut out.title,
                        "snippet" => &mut out.snippet,
                        "link" => &mut out.link,
                        _ => {
                            let value = map.next_value::<Value>()?;
                            out.extra.insert(key.into_owned(), value);
                            continue;
                        }
                    };
                    *slot = map.next_value::<LenientString>()?.0;
                }
                Ok(out)
            }
        }
        d.deserialize_map(V)
    }
}

/// [`string`] as a type, for use with `next_value`.
struct LenientString(String);

impl<'de> Deserialize<'de> for LenientString {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        string(d).map(LenientString)
    }
}

/// A string integer or a number, for request fields such as `min_likes` that the
/// contract accepts in both forms and the UI may send as either.
pub fn opt_text_number<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    opt_string(d)
}
