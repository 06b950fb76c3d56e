//! Waits: every wait the app takes from outside (a `Retry-After`, a body's `retry_after`) or
//! computes (a backoff) goes through here, so none can panic or run away. A wait is never
//! negative, never longer than [`LONGEST_WAIT`], and a value that is not a wait at all
//! (`nan`, `inf`, `-5`, `soon`) is unknown (`None`): the caller's own default applies.
//!
//! `std`'s `Duration::from_secs_f64` panics on a huge, negative or non-finite number, and
//! chrono's `DateTime + TimeDelta` on an overflow; the conversions below check first.
//! [`plain_wait`] says a wait in words, for every message that names one.

use std::time::Duration;

use chrono::{DateTime, TimeDelta, Utc};

/// The longest wait anything takes: a day. A service asking for more is waited a day.
pub const LONGEST_WAIT: Duration = Duration::from_secs(24 * 60 * 60);

/// `wait`, no longer than [`LONGEST_WAIT`].
pub fn capped(wait: Duration) -> Duration {
    wait.min(LONGEST_WAIT)
}

/// A number of seconds as a wait: capped at a day; `None` for a negative or non-finite one.
pub fn from_secs(secs: f64) -> Option<Duration> {
    if !secs.is_finite() || secs < 0.0 {
        return None;
    }
    Some(Duration::from_secs_f64(
        secs.min(LONGEST_WAIT.as_secs_f64()),
    ))
}

/// Reads a wait as the service may write it: seconds (`"60"`, `"1.5"`), with a unit
/// (`"60 seconds"`, `"2 minutes"`, `"1.5s"`, `"1 hour"`), or an HTTP date
/// (`"Wed, 21 Oct 2026 07:28:00 GMT"`, RFC 9110's other form of `Retry-After`): the time from
/// `now` until then, zero when it has passed. Capped at a day; anything else is unknown.
pub fn parse(text: &str, now: DateTime<Utc>) -> Option<Duration> {
    let text = text.trim();
    if let Ok(at) = DateTime::parse_from_rfc2822(text) {
        return Some(until(now, at.to_utc()));
    }
    let text = text.to_ascii_lowercase();
    let split = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len());
    let number: f64 = text[..split].parse().ok()?;
    let unit = text[split..].trim();
    let scale = if unit.starts_with("min") || unit == "m" {
        60.0
    } else if unit.starts_with('h') {
        3600.0
    } else if unit.is_empty() || unit.starts_with('s') {
        1.0
    } else {
        return None;
    };
    from_secs(number * scale)
}

/// The wait from `now` until `at`: zero when `at` has passed, capped at a day.
pub fn until(now: DateTime<Utc>, at: DateTime<Utc>) -> Duration {
    (at - now).to_std().map(capped).unwrap_or(Duration::ZERO)
}

/// `wait` as chrono's duration, capped at a day (which chrono always holds).
pub fn to_chrono(wait: Duration) -> TimeDelta {
    TimeDelta::from_std(capped(wait)).unwrap_or(TimeDelta::days(1))
}

/// The moment `wait` after `at` (capped at a day); the last moment chrono knows rather than
/// an overflow.
pub fn after(at: DateTime<Utc>, wait: Duration) -> DateTime<Utc> {
    at.checked_add_signed(to_chrono(wait))
        .unwrap_or(DateTime::<Utc>::MAX_UTC)
}

/// `first`, doubled for each time after the first (`times` = 1: `first`; 2: twice it; …),
/// capped at a day: the backoff after failures in a row.
pub fn doubling(first: Duration, times: u32) -> Duration {
    let factor = 2u32.saturating_pow(times.saturating_sub(1));
    capped(first.saturating_mul(factor))
}

/// A wait in words: "1 second", "45 seconds", "3 minutes", "2 hours" (rounded up; under a
/// second reads as one).
pub fn plain_wait(wait: Duration) -> String {
    let secs = wait.as_secs().max(1);
    match secs {
        1 => "1 second".into(),
        2..=119 => format!("{secs} seconds"),
        120..=7199 => format!("{} minutes", secs.div_ceil(60)),
        _ => format!("{} hours", secs.div_ceil(3600)),
    }
}

#[cfg(test)]
mod tests;
