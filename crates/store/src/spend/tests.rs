//! Spend aggregates against sums over the ledger, across zones, DST days and migrations.

use super::*;
use crate::money::to_nanos;
use crate::test_support::{billing, record, temp_store};
use chrono::TimeZone;
use std::str::FromStr;

fn dec(s: &str) -> Decimal {
    Decimal::from_str(s).unwrap()
}

fn date(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap()
}

#[allow(clippy::too_many_arguments)]
async fn spend(
    store: &Store,
    id: &str,
    at: DateTime<Utc>,
    cost: &str,
    units: i64,
    service: &str,
    operation: &str,
    key: Option<&str>,
) {
    let mut r = record(id, at);
    r.operation = operation.into();
    r.key_label = key.map(str::to_owned);
    r.billing = Some(billing(cost, units, service));
    store.record_request(&r).await.unwrap();
}

#[tokio::test]
async fn totals_are_exact_and_follow_the_local_calendar() {
    let (store, _dir) = temp_store().await;
    let tz: Tz = "America/New_York".parse().unwrap();
    // 2026-03-10 03:30 UTC is still 2026-03-09 in New York (UTC-4 after the DST switch).
    let now = Utc.with_ymd_and_hms(2026, 3, 10, 15, 0, 0).unwrap();
    let s = &store;
    spend(
        s,
        "a",
        Utc.with_ymd_and_hms(2026, 3, 10, 3, 30, 0).unwrap(),
        "0.1",
        1,
        "ai",
        "ai_search",
        None,
    )
    .await;
    spend(
        s,
        "b",
        Utc.with_ymd_and_hms(2026, 3, 10, 4, 30, 0).unwrap(),
        "0.2",
        1,
        "ai",
        "ai_search",
        None,
    )
    .await;
    spend(
        s,
        "c",
        Utc.with_ymd_and_hms(2026, 3, 10, 14, 59, 59).unwrap(),
        "0.00015",
        10,
        "x",
        "twitter_search",
        None,
    )
    .await;
    spend(
        s,
        "d",
        Utc.with_ymd_and_hms(2026, 2, 28, 12, 0, 0).unwrap(),
        "1",
        1,
        "web",
        "web_search",
        None,
    )
    .await;
    // Failed and unbilled requests cost nothing.
    store.record_request(&record("e", now)).await.unwrap();

    let totals = store.spend_totals(tz, now).await.unwrap();
    assert_eq!(totals.today, dec("0.20015"));
    assert_eq!(totals.this_month, dec("0.30015"));
    assert_eq!(totals.all_time, dec("1.30015"));
}

#[tokio::test]
async fn per_day_series_is_dst_correct_and_stacked_by_service() {
    let (store, _dir) = temp_store().await;
    let tz: Tz = "Europe/Berlin".parse().unwrap();
    let s = &store;
    // 2026-03-29 is 23 hours long in Berlin; 22:30 UTC that day is already 03-30 locally.
    spend(
        s,
        "a",
        Utc.with_ymd_and_hms(2026, 3, 28, 23, 30, 0).unwrap(),
        "0.5",
        1,
        "ai",
        "ai_search",
        None,
    )
    .await;
    spend(
        s,
        "b",
        Utc.with_ymd_and_hms(2026, 3, 29, 21, 59, 0).unwrap(),
        "0.25",
        1,
        "web",
        "web_search",
        None,
    )
    .await;
    spend(
        s,
        "c",
        Utc.with_ymd_and_hms(2026, 3, 29, 22, 0, 0).unwrap(),
        "0.125",
        1,
        "ai",
        "ai_search",
        None,
    )
    .await;

    let days = store
        .spend_by_day(tz, date(2026, 3, 28), date(2026, 3, 31))
        .await
        .unwrap();
    let totals: Vec<(NaiveDate, Decimal)> = days.iter().map(|d| (d.date, d.total)).collect();
    assert_eq!(
        totals,
        [
            (date(2026, 3, 28), dec("0")),
            (date(2026, 3, 29), dec("0.75")),
            (date(2026, 3, 30), dec("0.125")),
            (date(2026, 3, 31), dec("0")),
        ]
    );
    let stacked: Vec<(&str, Decimal)> = days[1]
        .by_service
        .iter()
        .map(|l| (l.key.as_str(), l.cost))
        .collect();
    assert_eq!(stacked, [("ai", dec("0.5")), ("web", dec("0.25"))]);
}

#[tokio::test]
async fn late_spend_lands_in_its_day() {
    let (store, _dir) = temp_store().await;
    let tz: Tz = "Asia/Kolkata".parse().unwrap();
    let s = &store;
    let at = |d: u32, h: u32| Utc.with_ymd_and_hms(2026, 5, d, h, 0, 0).unwrap();
    spend(s, "a", at(2, 12), "1", 1, "ai", "ai_search", None).await;
    let series = || store.spend_by_day(tz, date(2026, 5, 1), date(2026, 5, 3));
    let totals = |v: Vec<DaySpend>| v.into_iter().map(|d| d.total).collect::<Vec<_>>();
    assert_eq!(
        totals(series().await.unwrap()),
        [dec("0"), dec("1"), dec("0")]
    );
    // New spend on a day already read (recorded late, out of order) and on an empty day.
    spend(s, "b", at(2, 1), "2", 1, "ai", "ai_search", None).await;
    spend(s, "c", at(1, 20), "4", 1, "web", "web_search", None).await; // 05-02 01:30 local
    spend(s, "d", at(3, 5), "8", 1, "ai", "ai_search", None).await;
    assert_eq!(
        totals(series().await.unwrap()),
        [dec("0"), dec("7"), dec("8")]
    );
    // Other zones and dimensions see the same ledger.
    let utc = store
        .spend_breakdown(
            SpendDimension::Operation,
            Tz::UTC,
            Some((date(2026, 5, 1), date(2026, 5, 3))),
        )
        .await
        .unwrap();
    assert_eq!(utc.total, dec("15"));
    let month = store.spend_totals(tz, at(3, 12)).await.unwrap();
    assert_eq!((month.today, month.this_month), (dec("8"), dec("15")));
}

#[tokio::test]
async fn half_hour_zones_split_hours_exactly() {
    let (store, _dir) = temp_store().await;
    let tz: Tz = "Asia/Kolkata".parse().unwrap(); // UTC+05:30: local midnight is hh:30 UTC
    let s = &store;
    spend(
        s,
        "a",
        Utc.with_ymd_and_hms(2026, 5, 1, 18, 29, 59).unwrap(),
        "1",
        1,
        "ai",
        "ai_search",
        None,
    )
    .await;
    spend(
        s,
        "b",
        Utc.with_ymd_and_hms(2026, 5, 1, 18, 30, 0).unwrap(),
        "2",
        1,
        "ai",
        "ai_search",
        None,
    )
    .await;
    spend(
        s,
        "c",
        Utc.with_ymd_and_hms(2026, 5, 1, 18, 45, 0).unwrap(),
        "4",
        1,
        "ai",
        "ai_search",
        None,
    )
    .await;
    spend(
        s,
        "d",
        Utc.with_ymd_and_hms(2026, 5, 1, 12, 0, 0).unwrap(),
        "8",
        1,
        "ai",
        "ai_search",
        None,
    )
    .await;
    let days = store
        .spend_by_day(tz, date(2026, 5, 1), date(2026, 5, 2))
        .await
        .unwrap();
    assert_eq!(days[0].total, dec("9"));
    assert_eq!(days[1].total, dec("6"));
}

#[tokio::test]
async fn breakdowns_by_operation_and_key_label() {
    let (store, _dir) = temp_store().await;
    let tz: Tz = "UTC".parse().unwrap();
    let s = &store;
    let at = |d: u32| Utc.with_ymd_and_hms(2026, 4, d, 10, 0, 0).unwrap();
    spend(s, "a", at(1), "0.004", 1, "ai", "ai_search", Some("work")).await;
    spend(
        s,
        "b",
        at(2),
        "0.004",
        1,
        "ai",
        "ai_search",
        Some("personal"),
    )
    .await;
    spend(
        s,
        "c",
        at(2),
        "0.03",
        100,
        "x",
        "twitter_search",
        Some("work"),
    )
    .await;
    spend(s, "d", at(9), "0.0025", 1, "web", "web_search", None).await;

    let ops = store
        .spend_breakdown(
            SpendDimension::Operation,
            tz,
            Some((date(2026, 4, 1), date(2026, 4, 2))),
        )
        .await
        .unwrap();
    assert_eq!(ops.total, dec("0.038"));
    let lines: Vec<(&str, Decimal, i64, i64)> = ops
        .lines
        .iter()
        .map(|l| (l.key.as_str(), l.cost, l.requests, l.usage_count))
        .collect();
    assert_eq!(
        lines,
        [
            ("twitter_search", dec("0.03"), 1, 100),
            ("ai_search", dec("0.008"), 2, 2)
        ]
    );

    let keys = store
        .spend_breakdown(SpendDimension::KeyLabel, tz, None)
        .await
        .unwrap();
    let lines: Vec<(&str, Decimal)> = keys
        .lines
        .iter()
        .map(|l| (l.key.as_str(), l.cost))
        .collect();
    assert_eq!(
        lines,
        [
            ("work", dec("0.034")),
            ("personal", dec("0.004")),
            ("", dec("0.0025"))
        ]
    );
    assert_eq!(keys.total, dec("0.0405"));

    let services = store
        .spend_breakdown(SpendDimension::Service, tz, None)
        .await
        .unwrap();
    assert_eq!(services.lines.len(), 3);
}

#[tokio::test]
async fn rates_are_learned_from_recent_responses() {
    let (store, _dir) = temp_store().await;
    assert_eq!(store.estimate("x", 100).await.unwrap(), None);
    let s = &store;
    let at = |m: u32| Utc.with_ymd_and_hms(2026, 4, 1, 10, m, 0).unwrap();
    // An old price, then RATE_SAMPLE responses at the current one: the old one drops out.
    spend(s, "old", at(0), "1", 10, "x", "twitter_search", None).await;
    for i in 0..RATE_SAMPLE {
        spend(
            s,
            &format!("r{i}"),
            at(1 + i as u32),
            "0.006",
            20,
            "x",
            "twitter_search",
            None,
        )
        .await;
    }
    let rate = store.learned_rate("x").await.unwrap().unwrap();
    assert_eq!(rate.rate_per_1000, dec("0.3"));
    assert_eq!(rate.samples, RATE_SAMPLE);
    assert_eq!(store.estimate("x", 100).await.unwrap(), Some(dec("0.03")));
    // Rounded up to the nano-dollar: 1 unit at 0.0003 is exact; 1/3 of a nano is not.
    assert_eq!(store.estimate("x", 1).await.unwrap(), Some(dec("0.0003")));

    spend(s, "v", at(41), "0.000000001", 3, "odd", "web_search", None).await;
    assert_eq!(
        store.estimate("odd", 1).await.unwrap(),
        Some(dec("0.000000001"))
    );

    let rates = store.learned_rates().await.unwrap();
    let names: Vec<&str> = rates.iter().map(|r| r.service.as_str()).collect();
    assert_eq!(names, ["odd", "x"]);
}

/// What the ledger itself says for `[lo, hi)`, per value of `column`.
async fn ledger_lines(store: &Store, column: &str, lo: i64, hi: i64) -> Vec<SpendLine> {
    let rows: Vec<(String, i64, i64, i64)> = sqlx::query_as(&format!(
        "SELECT {column}, count(*), sum(usage_count), sum(cost_nanos) FROM ledger
         WHERE at >= ? AND at < ? GROUP BY {column} ORDER BY {column}"
    ))
    .bind(lo)
    .bind(hi)
    .fetch_all(&store.pool)
    .await
    .unwrap();
    rows.into_iter()
        .map(|(key, requests, usage_count, cost_nanos)| SpendLine {
            label: None,
            key,
            cost: from_nanos(cost_nanos),
            requests,
            usage_count,
        })
        .collect()
}

/// A deterministic spread of billed requests over 2026-02-20 .. 2026-05-10 (two DST
/// switches in most zones), many of them on hour, half-hour and midnight boundaries.
async fn seeded_ledger(store: &Store) {
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move |n: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % n
    };
    let start = Utc
        .with_ymd_and_hms(2026, 2, 20, 0, 0, 0)
        .unwrap()
        .timestamp_millis();
    let span = 79 * DAY_MS;
    let records: Vec<_> = (0..1_500)
        .map(|i| {
            let at = match next(4) {
                0 => start + next(span as u64) as i64,
                1 => start + next(span as u64 / 3_600_000) as i64 * 3_600_000,
                2 => start + next(span as u64 / (15 * 60_000)) as i64 * 15 * 60_000 - 1,
                _ => start + next(79) as i64 * DAY_MS + [0, -1, 1][next(3) as usize],
            };
            let mut r = record(&format!("seed-{i}"), crate::time::from_ms(at));
            r.operation = ["ai_search", "web_search", "twitter_search", "twitter_urls"]
                [next(4) as usize]
                .into();
            r.key_label =
                [Some("work"), Some("personal"), None][next(3) as usize].map(str::to_owned);
            let cost = format!("0.{:09}", 1 + next(50_000_000));
            r.billing = Some(billing(
                &cost,
                1 + next(100) as i64,
                ["ai", "x", "web"][next(3) as usize],
            ));
            r
        })
        .collect();
    store.record_requests(&records).await.unwrap();
}

#[tokio::test]
async fn series_breakdowns_and_totals_equal_the_ledger_in_every_zone() {
    let (store, _dir) = temp_store().await;
    seeded_ledger(&store).await;
    let zones = [
        "UTC",
        "America/New_York",
        "Europe/Berlin",
        "Asia/Kolkata",
        "Asia/Kathmandu",
        "America/St_Johns",
        "Australia/Lord_Howe",
        "Pacific/Chatham",
        "America/Santiago",
        "Pacific/Kiritimati",
    ];
    for zone in zones {
        let tz: Tz = zone.parse().unwrap();
        let series = store
            .spend_by_day(tz, date(2026, 2, 18), date(2026, 5, 12))
            .await
            .unwrap();
        assert_eq!(series.len(), 84);
        for day in &series {
            let (lo, hi) = day_bounds_ms(tz, day.date);
            let expected = ledger_lines(&store, "service", lo, hi).await;
            assert_eq!(day.by_service, expected, "{zone} {}", day.date);
            let total: i64 = expected.iter().map(|l| to_nanos(l.cost).unwrap()).sum();
            assert_eq!(day.total, from_nanos(total), "{zone} {}", day.date);
        }
        for (first, last) in [
            (date(2026, 2, 18), date(2026, 5, 12)),
            (date(2026, 3, 8), date(2026, 3, 8)),
            (date(2026, 3, 27), date(2026, 4, 6)),
            (date(2026, 4, 30), date(2026, 5, 2)),
        ] {
            let lo = day_bounds_ms(tz, first).0;
            let hi = day_bounds_ms(tz, last).1;
            for dim in [
                SpendDimension::Service,
                SpendDimension::Operation,
                SpendDimension::KeyLabel,
            ] {
                let got = store
                    .spend_breakdown(dim, tz, Some((first, last)))
                    .await
                    .unwrap();
                let mut lines = got.lines.clone();
                lines.sort_by(|a, b| a.key.cmp(&b.key));
                let expected = ledger_lines(&store, dim.ledger_column(), lo, hi).await;
                assert_eq!(lines, expected, "{zone} {dim:?} {first}..={last}");
            }
        }
        for now in [
            Utc.with_ymd_and_hms(2026, 3, 29, 0, 30, 0).unwrap(),
            Utc.with_ymd_and_hms(2026, 4, 1, 3, 0, 0).unwrap(),
            Utc.with_ymd_and_hms(2026, 4, 30, 23, 59, 59).unwrap(),
        ] {
            let today = local_date(tz, now);
            let (lo, hi) = day_bounds_ms(tz, today);
            let month_lo = day_bounds_ms(tz, today.with_day(1).unwrap()).0;
            let month_hi = to_ms(local_day_start(
                tz,
                today.with_day(1).unwrap() + Months::new(1),
            ));
            let sum = |lines: Vec<SpendLine>| -> Decimal { lines.iter().map(|l| l.cost).sum() };
            let totals = store.spend_totals(tz, now).await.unwrap();
            assert_eq!(
                totals.today,
                sum(ledger_lines(&store, "service", lo, hi).await)
            );
            assert_eq!(
                totals.this_month,
                sum(ledger_lines(&store, "service", month_lo, month_hi).await),
                "{zone} {now}"
            );
        }
    }
}

#[tokio::test]
async fn any_millisecond_range_equals_the_ledger() {
    // Bounds off the quarter hour use the ledger correction (no zone needs it today),
    // and times before 1970 floor like later ones.
    let (store, _dir) = temp_store().await;
    seeded_ledger(&store).await;
    let epoch = Utc.with_ymd_and_hms(1970, 1, 1, 0, 0, 0).unwrap();
    for (i, offset_ms) in [
        -86_400_001,
        -3_600_000,
        -900_001,
        -1,
        0,
        1,
        899_999,
        7_200_000,
    ]
    .into_iter()
    .enumerate()
    {
        spend(
            &store,
            &format!("epoch-{i}"),
            epoch + chrono::Duration::milliseconds(offset_ms),
            "0.5",
            1,
            "ai",
            "ai_search",
            None,
        )
        .await;
    }
    assert_rollups_match_ledger(&store).await;
    let mut x: u64 = 0x1234_5678_9abc_def1;
    let mut next = move |n: i64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % n as u64) as i64
    };
    let base = Utc
        .with_ymd_and_hms(2026, 2, 20, 0, 0, 0)
        .unwrap()
        .timestamp_millis();
    let mut ranges: Vec<(i64, i64)> = (0..300)
        .map(|_| {
            let start = base + next(79 * DAY_MS);
            (start, start + next(20 * DAY_MS) + 1)
        })
        .collect();
    ranges.extend([
        (-2 * DAY_MS, 2 * DAY_MS),
        (-900_000, 1),
        (-1, 900_000),
        (-86_400_001, -86_400_000),
        (5, 5),
    ]);
    for dim in [
        SpendDimension::Service,
        SpendDimension::Operation,
        SpendDimension::KeyLabel,
    ] {
        let sums = store.sum_ranges(dim, &ranges).await.unwrap();
        for (&(lo, hi), got) in ranges.iter().zip(sums) {
            let mut lines = lines_from(got);
            lines.sort_by(|a, b| a.key.cmp(&b.key));
            let expected = if lo < hi {
                ledger_lines(&store, dim.ledger_column(), lo, hi).await
            } else {
                Vec::new()
            };
            assert_eq!(lines, expected, "{dim:?} [{lo}, {hi})");
        }
    }
}

/// `floor(x / m)` in SQL (SQLite's `/` truncates towards zero).
fn floor_div(x: &str, m: i64) -> String {
    format!("(({x}) - ((({x}) % {m}) + {m}) % {m}) / {m}")
}

/// Every roll-up row equals the ledger grouped the same way, and nothing else is there.
async fn assert_rollups_match_ledger(store: &Store) {
    let day = floor_div("at", DAY_MS);
    let quarter = floor_div("at", QUARTER_MS);
    let day_start = format!(
        "(k.b - {}) * {QUARTER_MS}",
        format_args!("((k.b % 96) + 96) % 96")
    );
    let hour = floor_div("at", HOUR_MS);
    let hour_day_start = format!(
        "(k.b - {}) * {HOUR_MS}",
        format_args!("((k.b % 24) + 24) % 24")
    );
    for (dim, column) in [
        ("service", "service"),
        ("operation", "operation"),
        ("key", "key_label"),
    ] {
        let checks = [
            (
                "spend_daily",
                format!("SELECT day, value, requests, usage_count, cost_nanos FROM spend_daily WHERE dim = '{dim}'"),
                format!("SELECT {day}, {column}, count(*), sum(usage_count), sum(cost_nanos) FROM ledger GROUP BY 1, 2"),
            ),
            (
                "spend_quarter_cum",
                format!("SELECT quarter, value, requests, usage_count, cost_nanos FROM spend_quarter_cum WHERE dim = '{dim}'"),
                // Each quarter hour with spend: everything of its UTC day up to its end.
                format!(
                    "SELECT k.b, k.value, count(*), sum(l.usage_count), sum(l.cost_nanos)
                     FROM (SELECT DISTINCT {quarter} AS b, {column} AS value FROM ledger) k
                     JOIN ledger l ON l.{column} = k.value
                      AND l.at >= {day_start} AND l.at < (k.b + 1) * {QUARTER_MS}
                     GROUP BY k.b, k.value"
                ),
            ),
            (
                "spend_hour_cum",
                format!("SELECT hour, value, requests, usage_count, cost_nanos FROM spend_hour_cum WHERE dim = '{dim}'"),
                // Each hour with spend: everything of its UTC day up to its end.
                format!(
                    "SELECT k.b, k.value, count(*), sum(l.usage_count), sum(l.cost_nanos)
                     FROM (SELECT DISTINCT {hour} AS b, {column} AS value FROM ledger) k
                     JOIN ledger l ON l.{column} = k.value
                      AND l.at >= {hour_day_start} AND l.at < (k.b + 1) * {HOUR_MS}
                     GROUP BY k.b, k.value"
                ),
            ),
            (
                "spend_total",
                format!("SELECT 0, value, requests, usage_count, cost_nanos FROM spend_total WHERE dim = '{dim}'"),
                format!("SELECT 0, {column}, count(*), sum(usage_count), sum(cost_nanos) FROM ledger GROUP BY 2"),
            ),
        ];
        for (table, rollup, ledger) in checks {
            let diff: (i64, i64) = sqlx::query_as(&format!(
                "SELECT (SELECT count(*) FROM ({rollup} EXCEPT {ledger})),
                        (SELECT count(*) FROM ({ledger} EXCEPT {rollup}))"
            ))
            .fetch_one(&store.pool)
            .await
            .unwrap();
            assert_eq!(diff, (0, 0), "{table} by {dim} differs from the ledger");
        }
    }
}

#[tokio::test]
async fn rollups_equal_the_ledger_and_the_ledger_is_append_only() {
    let (store, _dir) = temp_store().await;
    seeded_ledger(&store).await;
    assert_rollups_match_ledger(&store).await;
    let before: i64 =
        sqlx::query_scalar("SELECT sum(cost_nanos) FROM spend_total WHERE dim = 'service'")
            .fetch_one(&store.pool)
            .await
            .unwrap();

    // Deleting history keeps the money: the ledger rows lose their link, nothing else.
    let ids: Vec<i64> = sqlx::query_scalar("SELECT id FROM history WHERE id % 3 = 0")
        .fetch_all(&store.pool)
        .await
        .unwrap();
    assert!(ids.len() > 100);
    for id in ids {
        assert!(store.delete_history(id).await.unwrap());
    }
    assert_rollups_match_ledger(&store).await;
    let unlinked: i64 = sqlx::query_scalar("SELECT count(*) FROM ledger WHERE history_id IS NULL")
        .fetch_one(&store.pool)
        .await
        .unwrap();
    assert!(unlinked > 100);
    let after = store
        .spend_breakdown(SpendDimension::Service, Tz::UTC, None)
        .await
        .unwrap();
    assert_eq!(after.total, from_nanos(before));

    // Anything that would make the roll-ups disagree with the ledger is refused.
    for sql in [
        "DELETE FROM ledger WHERE id = 1",
        "UPDATE ledger SET cost_nanos = 0 WHERE id = 1",
        "UPDATE ledger SET at = at + 1 WHERE id = 1",
    ] {
        let err = sqlx::query(sql).execute(&store.pool).await.unwrap_err();
        assert!(err.to_string().contains("append-only"), "{sql}: {err}");
    }
    assert_rollups_match_ledger(&store).await;
}

#[tokio::test]
async fn the_daily_rollup_is_backfilled_from_an_existing_ledger() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.db");
    let old = crate::test_support::first_release_db(&path).await;
    let mut at = Utc
        .with_ymd_and_hms(2026, 1, 30, 22, 0, 0)
        .unwrap()
        .timestamp_millis();
    for i in 0..200_i64 {
        sqlx::query(
            "INSERT INTO ledger (at, service, operation, key_label, cost_nanos, usage_count, currency)
             VALUES (?, ?, ?, ?, ?, ?, 'USD')",
        )
        .bind(at)
        .bind(["ai", "x"][(i % 2) as usize])
        .bind(["ai_search", "twitter_search", "web_search"][(i % 3) as usize])
        .bind(["work", ""][(i % 5 == 0) as usize])
        .bind(1_000 + i * 7)
        .bind(i % 9)
        .execute(&old)
        .await
        .unwrap();
        at += 47 * 60_000 + i * 1_000;
    }
    old.close().await;

    let store = Store::open(&path).await.unwrap();
    assert_rollups_match_ledger(&store).await;
    let days: i64 = sqlx::query_scalar("SELECT count(DISTINCT day) FROM spend_daily")
        .fetch_one(&store.pool)
        .await
        .unwrap();
    assert!(days > 5, "{days}");
    let cache: i64 =
        sqlx::query_scalar("SELECT count(*) FROM sqlite_master WHERE name = 'spend_day_cache'")
            .fetch_one(&store.pool)
            .await
            .unwrap();
    assert_eq!(cache, 0);
    // The new trigger keeps it up to date from then on.
    spend(
        &store,
        "new",
        Utc.with_ymd_and_hms(2026, 2, 3, 4, 5, 6).unwrap(),
        "0.5",
        1,
        "ai",
        "ai_search",
        None,
    )
    .await;
    assert_rollups_match_ledger(&store).await;
}
