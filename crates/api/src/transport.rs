//! Why a request never got an answer: the transport failure behind [`ApiError::Network`],
//! sorted into the few causes a person can act on (a mistyped address, a service that is not
//! running there, a certificate that does not check out, no network at all).
//!
//! reqwest reports all of these as one "error sending request"; the cause is found by walking
//! its chain of sources: the I/O error's kind, the TLS library's certificate error, and the
//! name resolver's message (the system resolver gives no kind, only words).
//!
//! [`ApiError::Network`]: crate::ApiError::Network

use std::error::Error as StdError;
use std::io;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// The cause of a failed connection, as far as the transport can tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum NetworkCause {
    /// The host name does not exist (the resolver answered "no such name").
    NoSuchHost,
    /// A computer answered at that address, but nothing listens on the port.
    Refused,
    /// The TLS certificate did not check out (self-signed, expired, another name).
    BadCertificate,
    /// No network to try with: the resolver could not be asked, or no route to the host.
    Offline,
    /// Anything else (a reset connection, a TLS handshake with something that is not TLS).
    Other,
}

/// The cause behind `error`, found in its chain of sources.
pub fn network_cause(error: &(dyn StdError + 'static)) -> NetworkCause {
    let mut current: Option<&(dyn StdError + 'static)> = Some(error);
    let mut words = String::new();
    while let Some(error) = current {
        if let Some(cause) = cause_of(error) {
            return cause;
        }
        words.push_str(&error.to_string());
        words.push('\n');
        current = next_in_chain(error);
    }
    cause_from_words(&words)
}

/// The next error down: an io::Error's `source()` skips the error it wraps (and hyper wraps
/// the TLS library's error in two of them), so step into the wrapped one instead.
fn next_in_chain<'a>(error: &'a (dyn StdError + 'static)) -> Option<&'a (dyn StdError + 'static)> {
    match error
        .downcast_ref::<io::Error>()
        .and_then(io::Error::get_ref)
    {
        Some(inner) => Some(inner),
        None => error.source(),
    }
}

fn cause_of(error: &(dyn StdError + 'static)) -> Option<NetworkCause> {
    if let Some(tls) = error.downcast_ref::<rustls::Error>() {
        return tls_cause(tls);
    }
    match error.downcast_ref::<io::Error>()?.kind() {
        io::ErrorKind::ConnectionRefused => Some(NetworkCause::Refused),
        io::ErrorKind::NetworkUnreachable
        | io::ErrorKind::HostUnreachable
        | io::ErrorKind::NetworkDown => Some(NetworkCause::Offline),
        _ => None,
    }
}

fn tls_cause(error: &rustls::Error) -> Option<NetworkCause> {
    matches!(
        error,
        rustls::Error::InvalidCertificate(_) | rustls::Error::NoCertificatesPresented
    )
    .then_some(NetworkCause::BadCertificate)
}

/// The system resolver's words (glibc's `gai_strerror`, as hyper passes them on).
fn cause_from_words(words: &str) -> NetworkCause {
    let words = words.to_ascii_lowercase();
    if !(words.contains("dns error") || words.contains("lookup address")) {
        NetworkCause::Other
    } else if words.contains("temporary failure") || words.contains("try again") {
        // EAI_AGAIN: the resolver itself could not be reached, which is what offline looks like.
        NetworkCause::Offline
    } else {
        NetworkCause::NoSuchHost
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_resolvers_words_tell_a_missing_name_from_no_network() {
        let missing = "client error (Connect)\ndns error\nfailed to lookup address information: Name or service not known";
        assert_eq!(cause_from_words(missing), NetworkCause::NoSuchHost);
        let offline =
            "dns error\nfailed to lookup address information: Temporary failure in name resolution";
        assert_eq!(cause_from_words(offline), NetworkCause::Offline);
        assert_eq!(
            cause_from_words("connection reset by peer"),
            NetworkCause::Other
        );
    }

    #[test]
    fn io_kinds_and_certificate_errors_are_read_through_the_wrapper() {
        let refused = io::Error::from(io::ErrorKind::ConnectionRefused);
        assert_eq!(network_cause(&refused), NetworkCause::Refused);
        let unreachable = io::Error::from(io::ErrorKind::NetworkUnreachable);
        assert_eq!(network_cause(&unreachable), NetworkCause::Offline);
        let certificate = io::Error::new(
            io::ErrorKind::InvalidData,
            rustls::Error::InvalidCertificate(rustls::CertificateError::UnknownIssuer),
        );
        assert_eq!(network_cause(&certificate), NetworkCause::BadCertificate);
    }
}
