//! Trusted timestamps (RFC 3161): a timestamp authority (TSA) signs a token saying it saw a
//! hash at a time, so a capture's SHA-256 can be shown to have existed then, by a party other
//! than this computer's clock.
//!
//! * [`request_der`] writes a `TimeStampReq` for a SHA-256 digest (version 1, a nonce, the
//!   authority's certificate asked for), what `openssl ts -query` writes;
//! * [`ask`] sends it to the authority's address with a plain HTTP client ([`client`], never the
//!   service's: the API key must not reach another host) and returns a [`Stamp`] only once the
//!   reply is granted and names this hash and this nonce; a failure is a [`StampError`] that
//!   says whether to try again later;
//! * [`check`] checks a stored reply on its own, as `openssl ts -verify` does: the hash, the
//!   signature over the token, the signing certificate named in the token and its time-stamping
//!   use, and whose chain it is ([`ChainTrust`]). Its [`TokenCheck`] claims only what the check
//!   proves: that the authority attests it saw this hash at that time.
//!
//! One request per capture (not one over a batch's Merkle root): each capture's token can then
//! be checked alone with one openssl command, and removing a capture from a case leaves the
//! others' tokens whole.

use std::time::Duration;

use chrono::{DateTime, Utc};
use const_oid::db::rfc5912::ID_SHA_256;
use der::asn1::{Int, OctetString};
use der::{Any, Decode, Encode};
use serde::Serialize;
use spki::AlgorithmIdentifierOwned;
use ts_rs::TS;

mod asn1;
mod chain;
mod signature;
mod token;

#[cfg(test)]
mod tests;

/// How long an authority may take to answer one request.
pub const ASK_TIMEOUT: Duration = Duration::from_secs(30);

/// The largest reply read; a token with its certificate chain is a few kilobytes.
pub const MAX_REPLY_BYTES: usize = 1024 * 1024;

/// A granted timestamp, as stored with its capture.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stamp {
    /// The whole `TimeStampResp`, as received: what `openssl ts -verify -in x.tsr` reads.
    pub reply_der: Vec<u8>,
    /// The authority's time (`genTime`), in UTC.
    pub stamped_at: DateTime<Utc>,
    /// The authority's signing certificate's subject, in words.
    pub authority: String,
    /// Every certificate the token carries, PEM, the signer's first.
    pub certificates_pem: String,
}

/// Why no stamp came back.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, thiserror::Error)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
#[ts(export)]
pub enum StampError {
    /// The authority could not be reached or did not answer in time: worth trying again later.
    #[error("{message}")]
    Unreachable {
        /// What happened, in words.
        message: String,
    },
    /// The authority answered and refused to stamp.
    #[error("{message}")]
    Refused {
        /// What it said, in words.
        message: String,
    },
    /// The answer is not a timestamp for this hash (unreadable, another hash, another nonce).
    #[error("{message}")]
    BadReply {
        /// What is wrong with it, in words.
        message: String,
    },
}

impl StampError {
    /// Whether asking again later may succeed (the authority was down or unreachable).
    pub fn retry_later(&self) -> bool {
        matches!(self, Self::Unreachable { .. })
    }

    fn unreachable(url: &str, why: impl std::fmt::Display) -> Self {
        Self::Unreachable {
            message: format!(
                "The timestamp authority at {url} could not be reached ({why}). Sightline will \
                 ask again later; the capture and its hash are kept."
            ),
        }
    }

    fn bad_reply(url: &str, why: impl std::fmt::Display) -> Self {
        Self::BadReply {
            message: format!(
                "The timestamp authority at {url} answered, but not with a timestamp for this \
                 capture: {why}."
            ),
        }
    }
}

/// What a token's check found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
#[ts(export)]
pub enum TokenCheck {
    /// The token is for this hash, its signature verifies with the certificate it names, and
    /// that certificate is for time-stamping.
    Valid {
        /// The authority's time (`genTime`).
        stamped_at: DateTime<Utc>,
        /// The signing certificate's subject, in words.
        authority: String,
        /// Whose chain the signing certificate is in.
        chain: ChainTrust,
        /// One sentence for the screen, claiming only what the check proves.
        summary: String,
    },
    /// The token does not prove the hash was seen at its time.
    Invalid {
        /// Why, in words.
        why: String,
    },
}

/// Whose certificate the token's signing certificate chains to (each link checked by its
/// signature). Whether to trust that authority is the reader's judgement: the check names it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
#[ts(export)]
pub enum ChainTrust {
    /// It chains to one of the authority certificates the user added.
    Added {
        /// That certificate's subject, in words.
        root: String,
        /// Its SHA-256 fingerprint, as `openssl x509 -noout -fingerprint -sha256` prints it.
        fingerprint: String,
    },
    /// It chains only to certificates the token carries itself, ending at `root`.
    CarriedOnly {
        /// The last certificate of the chain, in words.
        root: String,
        /// Its SHA-256 fingerprint, as `openssl x509 -noout -fingerprint -sha256` prints it.
        fingerprint: String,
        /// Whether `root` signed itself (a root authority), rather than naming an issuer the
        /// token does not carry.
        self_signed: bool,
        /// Whether certificates were added to check it against (and it reached none of them).
        added_checked: bool,
    },
}

/// Said wherever a token is reported valid: the check reads no revocation list (CRL) nor
/// OCSP answer, so an authority certificate revoked after the token was made (a stolen
/// signing key, say) still checks out here, as with `openssl ts -verify` by default.
pub const REVOCATION_NOT_CHECKED: &str =
    "Whether the authority's certificates were revoked is not checked.";

impl ChainTrust {
    /// The chain in a few sentences, ending with [`REVOCATION_NOT_CHECKED`].
    pub fn words(&self) -> String {
        format!("{} {REVOCATION_NOT_CHECKED}", self.chain_words())
    }

    fn chain_words(&self) -> String {
        match self {
            Self::Added { root, fingerprint } => format!(
                "Its certificate chains to {root} (SHA-256 {fingerprint}), an authority \
                 certificate you added."
            ),
            Self::CarriedOnly {
                root,
                fingerprint,
                self_signed,
                added_checked,
            } => {
                let end = if *self_signed {
                    format!("the root {root} (SHA-256 {fingerprint}), carried in the token itself")
                } else {
                    format!("{root} (SHA-256 {fingerprint}), whose issuer the token does not carry")
                };
                let added = if *added_checked {
                    "It reaches none of the authority certificates you added"
                } else {
                    "No authority certificate was added to check it against"
                };
                format!(
                    "Its certificate chains only to {end}. {added}: whether to trust this \
                     authority is your judgement."
                )
            }
        }
    }
}

/// The digest's `MessageImprint`: SHA-256, with the NULL parameters openssl writes.
fn imprint(digest: &[u8; 32]) -> asn1::MessageImprint {
    asn1::MessageImprint {
        hash_algorithm: AlgorithmIdentifierOwned {
            oid: ID_SHA_256,
            parameters: Some(Any::null()),
        },
        hashed_message: OctetString::new(digest.to_vec()).expect("32 bytes fit an OCTET STRING"),
    }
}

/// A nonce as a DER INTEGER (unsigned, minimal).
fn nonce_int(nonce: u64) -> Int {
    Int::from_der(&nonce.to_der().expect("a u64 always encodes")).expect("a u64 is an INTEGER")
}

/// A DER `TimeStampReq` for a SHA-256 `digest`: version 1, the nonce, `certReq` TRUE (so the
/// token carries the authority's certificate and can be checked alone).
pub fn request_der(digest: &[u8; 32], nonce: u64) -> Vec<u8> {
    asn1::TimeStampReq {
        version: 1,
        message_imprint: imprint(digest),
        req_policy: None,
        nonce: Some(nonce_int(nonce)),
        cert_req: true,
    }
    .to_der()
    .expect("a TimeStampReq always encodes")
}

/// A plain HTTP client for timestamp authorities: no default headers, so nothing of the
/// service's (its key above all) can reach an authority, which is another host.
pub fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .user_agent(concat!("Sightline/", env!("CARGO_PKG_VERSION")))
        .connect_timeout(Duration::from_secs(10))
        .timeout(ASK_TIMEOUT)
        .build()
        .expect("a plain HTTPS client always builds")
}

/// Asks the authority at `tsa_url` to stamp `digest` (a capture's SHA-256) and checks that the
/// reply is granted and is for this digest and this request's nonce before returning it.
/// `client` must be a plain one ([`client`]), never the service's.
pub async fn ask(
    client: &reqwest::Client,
    tsa_url: &str,
    digest: &[u8; 32],
) -> Result<Stamp, StampError> {
    let nonce = random_nonce().map_err(|why| StampError::Unreachable {
        message: format!(
            "Sightline could not make a timestamp request: the system gave no randomness \
             ({why}). It will try again later."
        ),
    })?;
    let response = client
        .post(tsa_url)
        .header(reqwest::header::CONTENT_TYPE, "application/timestamp-query")
        .header(reqwest::header::ACCEPT, "application/timestamp-reply")
        .timeout(ASK_TIMEOUT)
        .body(request_der(digest, nonce))
        .send()
        .await
        .map_err(|error| StampError::unreachable(tsa_url, transport_words(&error)))?;
    let status = response.status();
    if status.is_server_error() || status == reqwest::StatusCode::TOO_MANY_REQUESTS {
        return Err(StampError::unreachable(
            tsa_url,
            format!("it answered HTTP {status}, busy or down"),
        ));
    }
    if !status.is_success() {
        return Err(StampError::Refused {
            message: format!(
                "The timestamp authority at {tsa_url} refused the request (HTTP {status}). \
                 Check its address in Settings."
            ),
        });
    }
    let content_type = response
        .headers()
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_ascii_lowercase();
    // "application/timestamp-response" is the older name some authorities still send.
    if !content_type.starts_with("application/timestamp-reply")
        && !content_type.starts_with("application/timestamp-response")
    {
        return Err(StampError::bad_reply(
            tsa_url,
            format!(
                "it sent “{}” instead of a timestamp reply; is this the address of a \
                 timestamp authority?",
                if content_type.is_empty() {
                    "nothing typed"
                } else {
                    &content_type
                }
            ),
        ));
    }
    let reply_der = read_bounded(response).await.map_err(|why| match why {
        Read::TooLarge => StampError::bad_reply(
            tsa_url,
            format!("its reply is larger than {} KiB", MAX_REPLY_BYTES / 1024),
        ),
        Read::Cut(error) => StampError::unreachable(tsa_url, transport_words(&error)),
    })?;
    token::granted(&reply_der, digest, Some(&nonce_int(nonce)))
        .map(|granted| Stamp {
            reply_der: reply_der.clone(),
            stamped_at: granted.stamped_at,
            authority: granted.authority,
            certificates_pem: granted.certificates_pem,
        })
        .map_err(|problem| match problem {
            token::Problem::Refused(text) => StampError::Refused {
                message: format!(
                    "The timestamp authority at {tsa_url} refused to stamp this capture: {text}"
                ),
            },
            token::Problem::Bad(why) => StampError::bad_reply(tsa_url, why),
        })
}

/// Checks a stored reply (`reply_der`, a whole `TimeStampResp`) for `digest` on its own, as
/// `openssl ts -verify` does; `trusted_pem` holds the authority certificates the user added
/// (PEM, one or more), to say whether the token's chain reaches one of them.
pub fn check(reply_der: &[u8], digest: &[u8; 32], trusted_pem: Option<&str>) -> TokenCheck {
    token::check(reply_der, digest, trusted_pem)
}

/// What is wrong with authority certificates a user adds (PEM, one or more), in words; `None`
/// when each reads as a certificate.
pub fn certificates_problem(pem: &str) -> Option<String> {
    chain::read_added(pem).err().map(|why| {
        let mut words = why;
        words[..1].make_ascii_uppercase();
        format!("{words}.")
    })
}

/// Eight random bytes from the operating system.
fn random_nonce() -> Result<u64, getrandom::Error> {
    let mut bytes = [0u8; 8];
    getrandom::getrandom(&mut bytes)?;
    Ok(u64::from_be_bytes(bytes))
}

/// A transport failure in words (reqwest's own text names the address, never a header).
fn transport_words(error: &reqwest::Error) -> String {
    if error.is_timeout() {
        format!("no answer within {} seconds", ASK_TIMEOUT.as_secs())
    } else if error.is_connect() {
        "no connection".to_owned()
    } else {
        "the connection failed".to_owned()
    }
}

enum Read {
    TooLarge,
    Cut(reqwest::Error),
}

/// The body, at most [`MAX_REPLY_BYTES`].
async fn read_bounded(mut response: reqwest::Response) -> Result<Vec<u8>, Read> {
    if response
        .content_length()
        .is_some_and(|length| length > MAX_REPLY_BYTES as u64)
    {
        return Err(Read::TooLarge);
    }
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(Read::Cut)? {
        if body.len() + chunk.len() > MAX_REPLY_BYTES {
            return Err(Read::TooLarge);
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}
