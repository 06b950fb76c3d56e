//! The stamp queue's worker: while a timestamp authority (TSA) is set in Settings, asks it for
//! a trusted timestamp (RFC 3161, [`crate::timestamps::ask`]) of each waiting capture's
//! SHA-256, one request at a time with a gap between them, and stores each token
//! (the store's `stamps`). One request per capture: each token is checked alone with one
//! `openssl ts -verify` over the capture's own hash.
//!
//! It cannot loop: after a failure nothing is asked before a hold that doubles with each
//! failure in a row (from [`Pace::first_hold`] up to [`Pace::longest_hold`]). The hold is kept
//! in the rows (every waiting capture's next try moves to its end, so it outlives a restart)
//! and in memory (so a database that refuses the write cannot make it ask again at once).
//! An authority that could not be reached is asked again after the hold; one that refused, or
//! answered with no token, leaves its capture failed, with why, until the user asks again
//! ("Stamp now"). Nothing is scanned at start-up: each look reads the next due row alone.
//! With no authority set it asks nothing and reads nothing.

use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;
use sightline_api::wait;
use sightline_store::{NewStampToken, NextStamp, StampCounts, Store};
use tokio::sync::Notify;
use ts_rs::TS;

use crate::backoff::Hold;
use crate::errors::CommandError;
use crate::monitors::SchedulerClock;
use crate::settings::AppSettings;
use crate::state::AppState;
use crate::timestamps;

/// A well-known public timestamp authority, offered in Settings.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct KnownAuthority {
    /// Who runs it.
    pub name: String,
    /// Its RFC 3161 address.
    pub url: String,
}

/// Public authorities that answer RFC 3161 requests over HTTP without an account. Each is a
/// third party: it sees each capture's hash (never the data) and when it was asked.
pub fn known_authorities() -> Vec<KnownAuthority> {
    [
        ("FreeTSA", "https://freetsa.org/tsr"),
        ("DigiCert", "http://timestamp.digicert.com"),
        ("Sectigo", "http://timestamp.sectigo.com"),
    ]
    .into_iter()
    .map(|(name, url)| KnownAuthority {
        name: name.into(),
        url: url.into(),
    })
    .collect()
}

pub use crate::backoff::Pace;

/// The stamper's pace: a second between two requests (a public authority serves everyone),
/// and after a failure a hold from 30 s up to an hour.
pub const PACE: Pace = Pace {
    gap: Duration::from_secs(1),
    first_hold: Duration::from_secs(30),
    longest_hold: Duration::from_secs(60 * 60),
};

/// The longest sleep between looks: a capture queued meanwhile, or an authority set in
/// Settings, is seen within it.
const LONGEST_NAP: Duration = Duration::from_secs(10);

/// Asks the authority set in Settings for each waiting capture's timestamp; the app keeps one
/// for its life ([`Stamper::serve`]).
pub struct Stamper {
    pace: Pace,
    clock: Arc<dyn SchedulerClock>,
    client: reqwest::Client,
    hold: Hold,
    wake: Notify,
}

impl Default for Stamper {
    fn default() -> Self {
        Self::new(PACE, crate::monitors::system_clock())
    }
}

impl Stamper {
    /// A stamper at `pace` on `clock` (tests move it; the app uses [`Stamper::default`]).
    pub fn new(pace: Pace, clock: Arc<dyn SchedulerClock>) -> Self {
        Self {
            pace,
            clock,
            client: timestamps::client(),
            hold: Hold::default(),
            wake: Notify::new(),
        }
    }

    /// Looks at the queue again now (the user asked to stamp, or changed the authority).
    pub fn wake(&self) {
        self.wake.notify_one();
    }

    /// "Stamp now" for investigation `id`: its captures with no stamp are queued for the
    /// authority set in Settings, its failed ones queued again, and the stamper woken. How
    /// many of its captures are now waiting.
    pub async fn stamp_investigation(
        &self,
        state: &AppState,
        id: i64,
    ) -> Result<i64, CommandError> {
        let tsa_url = authority(state).ok_or_else(|| CommandError::NotConfigured {
            message: "Choose a timestamp authority in Settings first.".into(),
        })?;
        let store = state.store().await?;
        let waiting = store
            .stamp_investigation(id, &tsa_url, self.clock.now())
            .await?;
        // A hold from an earlier failure gives way to the user's ask.
        self.hold.clear();
        self.wake();
        Ok(waiting)
    }

    /// Asks for the next due capture's timestamp, if one is due and no hold is on; how long
    /// to wait before the next look.
    pub async fn step(&self, state: &AppState) -> Duration {
        let Some(tsa_url) = authority(state) else {
            return LONGEST_NAP;
        };
        let now = self.clock.now();
        if let Some(left) = self.hold.left(now) {
            return left.min(LONGEST_NAP);
        }
        let store = match state.store().await {
            Ok(store) => store,
            Err(error) => {
                tracing::warn!(error = error.message(), "the stamp queue could not be read");
                return LONGEST_NAP;
            }
        };
        match store.next_stamp(now).await {
            Ok(NextStamp::Idle) => LONGEST_NAP,
            Ok(NextStamp::At(at)) => wait::until(now, at).clamp(self.pace.gap, LONGEST_NAP),
            Ok(NextStamp::Due(due)) => {
                let Some(digest) = digest_of(&due.sha256) else {
                    let problem = "The capture's hash is not a SHA-256, so no timestamp was asked.";
                    return self
                        .failed(&store, due.history_id, &tsa_url, problem, false)
                        .await;
                };
                match timestamps::ask(&self.client, &tsa_url, &digest).await {
                    Ok(stamp) => {
                        let token = NewStampToken {
                            reply_der: stamp.reply_der,
                            stamped_at: stamp.stamped_at,
                            authority: stamp.authority,
                            certificates_pem: stamp.certificates_pem,
                        };
                        match store.stamp_done(due.history_id, &tsa_url, &token).await {
                            Ok(_) => {
                                self.hold.clear();
                                self.pace.gap
                            }
                            Err(error) => {
                                tracing::warn!(%error, capture = due.history_id, "a timestamp token could not be stored");
                                self.hold.strike(&self.pace, now)
                            }
                        }
                    }
                    Err(error) => {
                        let problem = error.to_string();
                        tracing::warn!(
                            capture = due.history_id,
                            retry = error.retry_later(),
                            "a timestamp was not granted"
                        );
                        self.failed(
                            &store,
                            due.history_id,
                            &tsa_url,
                            &problem,
                            error.retry_later(),
                        )
                        .await
                    }
                }
            }
            Err(error) => {
                tracing::warn!(%error, "the stamp queue could not be read");
                LONGEST_NAP
            }
        }
    }

    /// Records a failed attempt and holds every waiting capture off; the hold's length.
    async fn failed(
        &self,
        store: &Store,
        history_id: i64,
        tsa_url: &str,
        problem: &str,
        retry: bool,
    ) -> Duration {
        let now = self.clock.now();
        let hold = self.hold.strike(&self.pace, now);
        let until = wait::after(now, hold);
        if let Err(error) = store
            .stamp_attempt_failed(history_id, tsa_url, problem, retry, until)
            .await
        {
            tracing::warn!(%error, capture = history_id, "a failed timestamp could not be recorded");
        }
        hold
    }

    /// Stamps captures as they wait, for as long as the app is open.
    pub async fn serve(&self, state: &AppState) {
        loop {
            let nap = self.step(state).await;
            tokio::select! {
                _ = self.clock.nap(nap) => {}
                _ = self.wake.notified() => {}
            }
        }
    }
}

/// The authority set in Settings, if any.
fn authority(state: &AppState) -> Option<String> {
    state
        .settings()
        .tsa_url
        .map(|url| url.trim().to_owned())
        .filter(|url| !url.is_empty())
}

/// A SHA-256 from its lower-case hex.
fn digest_of(hex: &str) -> Option<[u8; 32]> {
    if hex.len() != 64 {
        return None;
    }
    let mut digest = [0u8; 32];
    for (byte, pair) in digest.iter_mut().zip(hex.as_bytes().chunks(2)) {
        *byte = u8::from_str_radix(std::str::from_utf8(pair).ok()?, 16).ok()?;
    }
    Some(digest)
}

/// Sets the timestamp authority and its certificate (Settings' own section; empty: none),
/// each checked and named by its field when wrong; the settings now in force. Captures
/// recorded from now on are queued for the new authority, and those waiting are asked of it.
pub async fn set_authority(
    state: &AppState,
    tsa_url: Option<String>,
    certificate_pem: Option<String>,
) -> Result<AppSettings, CommandError> {
    let given = |value: Option<String>| {
        value
            .map(|text| text.trim().to_owned())
            .filter(|text| !text.is_empty())
    };
    let settings = AppSettings {
        tsa_url: given(tsa_url),
        tsa_certificate_pem: given(certificate_pem),
        ..state.settings()
    };
    settings.validate().map_err(CommandError::invalid)?;
    state.save_settings(settings.clone()).await?;
    Ok(settings)
}

/// How many of investigation `id`'s captures are stamped, waiting, failed or not asked.
pub async fn investigation_counts(store: &Store, id: i64) -> Result<StampCounts, CommandError> {
    Ok(store.investigation_stamp_counts(id).await?)
}

/// The stamp state of each capture asked for.
pub async fn capture_stamps(
    store: &Store,
    history_ids: &[i64],
) -> Result<Vec<sightline_store::CaptureStamp>, CommandError> {
    Ok(store.capture_stamps(history_ids).await?)
}

/// Checks capture `history_id`'s stored token as `openssl ts -verify` would, against the
/// authority's certificate set in Settings (if one is); `None` when it has no token.
pub async fn check(
    state: &AppState,
    history_id: i64,
) -> Result<Option<timestamps::TokenCheck>, CommandError> {
    let store = state.store().await?;
    let Some(token) = store.stamp_tokens(&[history_id]).await?.pop() else {
        return Ok(None);
    };
    let Some(digest) = digest_of(&token.sha256) else {
        return Ok(None);
    };
    let trusted = state.settings().tsa_certificate_pem;
    Ok(Some(timestamps::check(
        &token.reply_der,
        &digest,
        trusted.as_deref(),
    )))
}

#[cfg(test)]
mod tests {
    use super::digest_of;

    #[test]
    fn a_digest_is_read_from_its_hex_only_when_it_is_one() {
        let hex = "00ff10".repeat(10) + "abcd";
        let digest = digest_of(&hex).unwrap();
        assert_eq!(&digest[..3], &[0x00, 0xff, 0x10]);
        assert_eq!(&digest[30..], &[0xab, 0xcd]);
        assert_eq!(digest_of("abc"), None);
        assert_eq!(digest_of(&"zz".repeat(32)), None);
    }
}
