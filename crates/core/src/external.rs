//! Links leave the app only through here: the system browser opens http(s) addresses and
//! nothing else, so a hostile `javascript:` or `file:` link in fetched content can do no harm.

use sightline_api::validation::FieldError;
use url::Url;

use crate::errors::CommandError;

/// The address to hand to the system browser, or the reason it is refused.
pub fn web_address(raw: &str) -> Result<Url, CommandError> {
    let refuse = |why: &str| CommandError::invalid(vec![FieldError::new("url", why)]);
    let url = Url::parse(raw.trim()).map_err(|_| refuse("this is not a web address"))?;
    match url.scheme() {
        "http" | "https" if url.host_str().is_some() => Ok(url),
        _ => Err(refuse("only http and https links are opened")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn web_links_are_accepted() {
        let url = web_address(" https://x.com/a/status/1 ").unwrap();
        assert_eq!(url.as_str(), "https://x.com/a/status/1");
        assert!(web_address("http://example.org").is_ok());
    }

    #[test]
    fn other_schemes_are_refused() {
        for raw in [
            "javascript:alert(1)",
            "file:///etc/passwd",
            "data:text/html,hi",
            "not a url",
            "mailto:a@b.c",
        ] {
            assert!(
                matches!(web_address(raw), Err(CommandError::Invalid { .. })),
                "{raw}"
            );
        }
    }
}
