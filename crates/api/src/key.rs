//! The API key, wrapped so that it can never be printed by accident.

use std::fmt;

/// A service API key. `Debug` and `Display` print a redacted form only; the raw value
/// leaves this type solely through [`ApiKey::expose`], which the transport calls to set
/// the `Authorization` header.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey(String);

/// Why a value was rejected as an API key before anything was sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum KeyProblem {
    #[error("No API key was given. Add your key in Settings.")]
    Empty,
    #[error(
        "This looks like the example text from the documentation, not a real key. \
         Paste the key from your account page instead."
    )]
    Placeholder,
    #[error(
        "This is not an API key: keys start with \"dt_\" or \"dsr_\". \
         You may have copied a different value, such as a login token."
    )]
    WrongPrefix,
    #[error("This key looks cut short. Copy the whole key again from your account page.")]
    Truncated,
    #[error("The key contains spaces or other characters keys never have. Copy it again.")]
    InvalidCharacters,
}

/// Fewest characters after the prefix a real key has; public keys carry about 44.
const MIN_BODY_LEN: usize = 20;

impl ApiKey {
    /// Checks the local shape of a key (prefix, placeholder, obvious truncation) so that
    /// a value the service would answer with 403 is never sent. Surrounding whitespace is
    /// trimmed because it is nearly always a copy-paste artefact.
    pub fn parse(raw: &str) -> Result<ApiKey, KeyProblem> {
        let value = raw.trim();
        if value.is_empty() {
            return Err(KeyProblem::Empty);
        }
        if looks_like_placeholder(value) {
            return Err(KeyProblem::Placeholder);
        }
        let body = value
            .strip_prefix("dt_")
            .or_else(|| value.strip_prefix("dsr_"))
            .ok_or(KeyProblem::WrongPrefix)?;
        if value.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(KeyProblem::InvalidCharacters);
        }
        if body.len() < MIN_BODY_LEN || body.ends_with("...") || body.ends_with('…') {
            return Err(KeyProblem::Truncated);
        }
        Ok(ApiKey(value.to_owned()))
    }

    /// The raw key, for the `Authorization` header only.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// A form safe to show: prefix and last four characters, e.g. `dt_…f3a9`.
    pub fn masked(&self) -> String {
        let prefix = if self.0.starts_with("dsr_") {
            "dsr_"
        } else {
            "dt_"
        };
        let tail: String = self
            .0
            .chars()
            .rev()
            .take(4)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        format!("{prefix}…{tail}")
    }
}

fn looks_like_placeholder(value: &str) -> bool {
    let lower = value.to_ascii_lowercase();
    let bracketed = (value.starts_with('<') && value.ends_with('>'))
        || (value.starts_with('{') && value.ends_with('}'))
        || (value.starts_with('[') && value.ends_with(']'))
        || value.starts_with("${");
    bracketed
        || [
            "your_api_key",
            "your-api-key",
            "yourapikey",
            "api_key_here",
            "<api-key>",
            "xxxxxxxx",
        ]
        .iter()
        .any(|p| lower.contains(p))
        || lower.starts_with("your")
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ApiKey({})", self.masked_safe())
    }
}

impl fmt::Display for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.masked_safe())
    }
}

impl ApiKey {
    /// Redaction for logs: only the prefix, never any character of the secret part.
    fn masked_safe(&self) -> String {
        let prefix = if self.0.starts_with("dsr_") {
            "dsr_"
        } else {
            "dt_"
        };
        format!("{prefix}<redacted>")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "dt_$AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcde";

    #[test]
    fn accepts_well_formed_keys() {
        assert!(ApiKey::parse(GOOD).is_ok());
        assert!(ApiKey::parse("dsr_0123456789abcdefghijklmnop").is_ok());
        assert_eq!(
            ApiKey::parse(&format!("  {GOOD}\n")).unwrap().expose(),
            GOOD
        );
    }

    #[test]
    fn rejects_bad_shapes_with_the_right_reason() {
        let cases = [
            ("", KeyProblem::Empty),
            ("   ", KeyProblem::Empty),
            ("YOUR_API_KEY", KeyProblem::Placeholder),
            ("<api-key>", KeyProblem::Placeholder),
            ("dt_YOUR_API_KEY_HERE_PLEASE_xx", KeyProblem::Placeholder),
            ("{{API_KEY}}", KeyProblem::Placeholder),
            (
                "eyJhbGciOiJIUzI1NiJ9.session.token",
                KeyProblem::WrongPrefix,
            ),
            (
                "Bearer dt_$abcdefghijklmnopqrstuvwxyz",
                KeyProblem::WrongPrefix,
            ),
            ("dt_$abc", KeyProblem::Truncated),
            ("dt_$abcdefghijklmnopqrstu...", KeyProblem::Truncated),
            (
                "dt_$abcdefghij klmnopqrstuvwxyz",
                KeyProblem::InvalidCharacters,
            ),
        ];
        for (raw, want) in cases {
            assert_eq!(ApiKey::parse(raw).unwrap_err(), want, "input {raw:?}");
        }
    }

    #[test]
    fn never_prints_the_secret() {
        let key = ApiKey::parse(GOOD).unwrap();
        for shown in [
            format!("{key:?}"),
            format!("{key}"),
            format!("{:#?}", Some(&key)),
        ] {
            assert!(!shown.contains(&GOOD[3..]), "{shown}");
            assert!(!shown.contains("abcde"), "{shown}");
        }
        assert_eq!(key.masked(), "dt_…bcde");
    }
}
