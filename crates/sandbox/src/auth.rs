//! The contract's 401/403 table: decide what an `Authorization` header value is.

use crate::rng::{url_safe_chars, Rng};

/// Length of the url-safe part of a public key (`dt_$` + 43 characters).
pub const KEY_BODY_LEN: usize = 43;
/// Shorter bodies are taken as truncated keys, i.e. not a key at all.
const MIN_BODY_LEN: usize = 32;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// A key the sandbox knows.
    Valid,
    /// No header, or an empty one: 401 `{"detail": "Unauthorized"}`.
    Missing,
    /// Looks like a key but is not one we issued: 401 `{"error": "Invalid API key"}`.
    UnknownKey,
    /// Not an API key at all (placeholder, no prefix, truncated): 403 `{"detail": "Forbidden"}`.
    NotAKey,
}

/// The demo key for a seed: a valid-looking public key, the same for the same seed.
pub fn demo_key(seed: u64) -> String {
    let mut rng = Rng::derive(seed, 0xDE30);
    format!("dt_${}", url_safe_chars(&mut rng, KEY_BODY_LEN))
}

fn is_url_safe(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '-' || c == '_'
}

/// Unreplaced placeholders copied from documentation.
fn is_placeholder(value: &str) -> bool {
    let upper = value.to_ascii_uppercase();
    let markers = [
        "YOUR",
        "API_KEY",
        "API-KEY",
        "APIKEY",
        "REPLACE",
        "INSERT",
        "TOKEN_HERE",
        "KEY_HERE",
        "XXXX",
        "<",
        ">",
        "{",
        "}",
    ];
    markers.iter().any(|m| upper.contains(m))
}

/// Whether the value has the shape of a public key: `dt_` or `dsr_`, an optional `$`, then
/// enough url-safe base64 characters.
pub fn is_well_formed(value: &str) -> bool {
    let body = match value
        .strip_prefix("dt_")
        .or_else(|| value.strip_prefix("dsr_"))
    {
        Some(rest) => rest.strip_prefix('$').unwrap_or(rest),
        None => return false,
    };
    body.len() >= MIN_BODY_LEN && body.chars().all(is_url_safe)
}

pub fn classify(header: Option<&str>, valid_keys: &[String]) -> Verdict {
    let value = match header.map(str::trim) {
        None | Some("") => return Verdict::Missing,
        Some(v) => v,
    };
    if valid_keys.iter().any(|k| k == value) {
        Verdict::Valid
    } else if is_placeholder(value) || !is_well_formed(value) {
        Verdict::NotAKey
    } else {
        Verdict::UnknownKey
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys() -> Vec<String> {
        vec![demo_key(42)]
    }

    #[test]
    fn demo_key_is_well_formed_and_stable() {
        let k = demo_key(42);
        assert!(k.starts_with("dt_$"));
        assert_eq!(k.len(), 4 + KEY_BODY_LEN);
        assert!(is_well_formed(&k));
        assert_eq!(k, demo_key(42));
        assert_ne!(k, demo_key(43));
    }

    #[test]
    fn the_contract_table() {
        let k = demo_key(42);
        assert_eq!(classify(Some(&k), &keys()), Verdict::Valid);
        assert_eq!(classify(None, &keys()), Verdict::Missing);
        assert_eq!(classify(Some("  "), &keys()), Verdict::Missing);
        let other = demo_key(7);
        assert_eq!(classify(Some(&other), &keys()), Verdict::UnknownKey);
        let dsr = format!("dsr_{}", &other[4..]);
        assert_eq!(classify(Some(&dsr), &keys()), Verdict::UnknownKey);
        for not_key in [
            "YOUR_API_KEY",
            "<api-key>",
            "dt_$YOUR_API_KEY",
            "sk-abcdef",
            "Bearer dt_$abc",
            "eyJhbGciOiJIUzI1NiJ9.e30.x",
        ] {
            assert_eq!(
                classify(Some(not_key), &keys()),
                Verdict::NotAKey,
                "{not_key}"
            );
        }
        let truncated = &k[..20];
        assert_eq!(classify(Some(truncated), &keys()), Verdict::NotAKey);
        let bearer = format!("Bearer {k}");
        assert_eq!(classify(Some(&bearer), &keys()), Verdict::NotAKey);
    }
}
