//! Time conversions: the database stores UTC milliseconds; calendar days and months are those
//! of the user's time zone (DST-aware through chrono-tz), passed in by the caller.

use chrono::{DateTime, Duration, LocalResult, NaiveDate, TimeZone, Utc};
use chrono_tz::Tz;

pub(crate) fn to_ms(t: DateTime<Utc>) -> i64 {
    t.timestamp_millis()
}

pub(crate) fn from_ms(ms: i64) -> DateTime<Utc> {
    DateTime::from_timestamp_millis(ms).unwrap_or_default()
}

/// The instant a local calendar day begins. Where midnight falls in a DST gap (some zones
/// switch at 00:00) the day begins at the first local time that exists.
pub fn local_day_start(tz: Tz, date: NaiveDate) -> DateTime<Utc> {
    let midnight = date.and_hms_opt(0, 0, 0).expect("midnight is a valid time");
    let mut probe = midnight;
    // Gaps are at most a few hours; step in 15-minute increments (the finest offset granularity).
    for _ in 0..(4 * 24) {
        match tz.from_local_datetime(&probe) {
            LocalResult::Single(t) => return t.with_timezone(&Utc),
            LocalResult::Ambiguous(earliest, _) => return earliest.with_timezone(&Utc),
            LocalResult::None => probe += Duration::minutes(15),
        }
    }
    Utc.from_utc_datetime(&midnight)
}

/// The local calendar date of an instant.
pub fn local_date(tz: Tz, t: DateTime<Utc>) -> NaiveDate {
    t.with_timezone(&tz).date_naive()
}

/// `[start, end)` of a local day, in UTC milliseconds. A day may last 23, 24 or 25 hours.
pub(crate) fn day_bounds_ms(tz: Tz, date: NaiveDate) -> (i64, i64) {
    let next = date.succ_opt().unwrap_or(date);
    (
        to_ms(local_day_start(tz, date)),
        to_ms(local_day_start(tz, next)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dst_days_have_23_and_25_hours() {
        let tz: Tz = "Europe/Berlin".parse().unwrap();
        let spring = NaiveDate::from_ymd_opt(2026, 3, 29).unwrap();
        let autumn = NaiveDate::from_ymd_opt(2026, 10, 25).unwrap();
        let (s, e) = day_bounds_ms(tz, spring);
        assert_eq!(e - s, 23 * 3_600_000);
        let (s, e) = day_bounds_ms(tz, autumn);
        assert_eq!(e - s, 25 * 3_600_000);
    }

    #[test]
    fn midnight_in_a_gap_starts_the_day_at_the_first_valid_time() {
        // Chile moved clocks from 00:00 to 01:00 on 2023-09-03.
        let tz: Tz = "America/Santiago".parse().unwrap();
        let day = NaiveDate::from_ymd_opt(2023, 9, 3).unwrap();
        let start = local_day_start(tz, day).with_timezone(&tz);
        assert_eq!(start.date_naive(), day);
        assert_eq!(start.format("%H:%M").to_string(), "01:00");
    }
}
