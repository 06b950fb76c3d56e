use super::*;

fn now() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-10-21T07:00:00Z")
        .unwrap()
        .to_utc()
}

#[test]
fn seconds_and_units_are_read() {
    assert_eq!(parse("60", now()), Some(Duration::from_secs(60)));
    assert_eq!(parse(" 7 ", now()), Some(Duration::from_secs(7)));
    assert_eq!(parse("60 seconds", now()), Some(Duration::from_secs(60)));
    assert_eq!(parse("2 minutes", now()), Some(Duration::from_secs(120)));
    assert_eq!(parse("1.5s", now()), Some(Duration::from_millis(1500)));
    assert_eq!(parse("1 hour", now()), Some(Duration::from_secs(3600)));
    assert_eq!(parse("0", now()), Some(Duration::ZERO));
}

/// What once panicked (`Duration::from_secs_f64` on a number past `u64` seconds) or made no
/// sense is a day at most, or unknown: never a panic, never a negative wait.
#[test]
fn huge_negative_and_non_numbers_never_panic() {
    assert_eq!(parse("99999999999999999999", now()), Some(LONGEST_WAIT));
    assert_eq!(parse("1e400", now()), None);
    assert_eq!(parse("1000000 hours", now()), Some(LONGEST_WAIT));
    for unknown in [
        "-5", "-0.5", "nan", "NaN", "inf", "-inf", "infinity", "soon", "", "1.2.3",
    ] {
        assert_eq!(parse(unknown, now()), None, "{unknown:?}");
    }
    assert_eq!(from_secs(f64::NAN), None);
    assert_eq!(from_secs(f64::INFINITY), None);
    assert_eq!(from_secs(f64::NEG_INFINITY), None);
    assert_eq!(from_secs(-1.0), None);
    assert_eq!(from_secs(f64::MAX), Some(LONGEST_WAIT));
    assert_eq!(from_secs(2.5), Some(Duration::from_millis(2500)));
}

/// `Retry-After` may be a date (RFC 9110): the wait is until then, from now.
#[test]
fn an_http_date_is_the_time_until_it() {
    assert_eq!(
        parse("Wed, 21 Oct 2026 07:28:00 GMT", now()),
        Some(Duration::from_secs(28 * 60))
    );
    // Passed already: no wait. Years away: a day.
    assert_eq!(
        parse("Wed, 21 Oct 2026 06:28:00 GMT", now()),
        Some(Duration::ZERO)
    );
    assert_eq!(
        parse("Fri, 31 Dec 9999 23:59:59 GMT", now()),
        Some(LONGEST_WAIT)
    );
    // Not a date, not a number: unknown.
    assert_eq!(parse("Wed, 32 Oct 2026 07:28:00 GMT", now()), None);
}

#[test]
fn conversions_to_chrono_are_capped_not_panicking() {
    assert_eq!(to_chrono(Duration::MAX), TimeDelta::days(1));
    assert_eq!(to_chrono(Duration::from_secs(90)), TimeDelta::seconds(90));
    assert_eq!(after(now(), Duration::MAX), now() + TimeDelta::days(1));
    assert_eq!(
        after(DateTime::<Utc>::MAX_UTC, Duration::from_secs(1)),
        DateTime::<Utc>::MAX_UTC
    );
    assert_eq!(until(now(), now() - TimeDelta::days(3)), Duration::ZERO);
}

#[test]
fn doubling_starts_at_the_first_and_stops_at_a_day() {
    let quarter = Duration::from_secs(15 * 60);
    let minutes: Vec<u64> = (1..=9)
        .map(|times| doubling(quarter, times).as_secs() / 60)
        .collect();
    assert_eq!(minutes, [15, 30, 60, 120, 240, 480, 960, 1440, 1440]);
    assert_eq!(doubling(quarter, 0), quarter);
    assert_eq!(doubling(quarter, u32::MAX), LONGEST_WAIT);
    assert_eq!(doubling(Duration::MAX, 1), LONGEST_WAIT);
}

#[test]
fn a_wait_in_words() {
    let words = |secs: u64| plain_wait(Duration::from_secs(secs));
    assert_eq!(plain_wait(Duration::from_millis(200)), "1 second");
    assert_eq!(words(1), "1 second");
    assert_eq!(words(45), "45 seconds");
    assert_eq!(words(119), "119 seconds");
    assert_eq!(words(120), "2 minutes");
    assert_eq!(words(150), "3 minutes");
    assert_eq!(words(30 * 60), "30 minutes");
    assert_eq!(words(2 * 3600), "2 hours");
    assert_eq!(words(24 * 3600), "24 hours");
    assert_eq!(
        plain_wait(Duration::MAX),
        format!("{} hours", u64::MAX.div_ceil(3600))
    );
}
