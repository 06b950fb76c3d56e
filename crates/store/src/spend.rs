//! Spend: aggregates over the ledger in the user's time zone, and per-service rates learned
//! from what the service actually charged.
//!
//! The ledger trigger keeps three roll-ups in the same transaction as the ledger row, each per
//! service, operation and key label: per UTC day (`spend_daily`), a running total within each
//! UTC day per quarter hour (`spend_quarter_cum`) and all time (`spend_total`). A range of
//! local days `[start, end)` is summed as
//!
//! ```text
//! days[day(start), day(end)) + before(end) - before(start)
//! ```
//!
//! where `day(t)` is t's UTC day and `before(t)` the spend of that day before `t`: the running
//! total at the quarter hour nearest `t`, corrected by the ledger rows between the two (none
//! in any zone in use today, whose offsets are whole quarter hours). Local days in any zone
//! and DST day are therefore exact, and a year is about 365 day rows plus two running totals
//! per value; a per-day series shares each boundary between two neighbouring days.
//! Nothing is cached, so reads never write and never wait for the write lock.

use std::collections::{BTreeMap, HashMap};

use chrono::{DateTime, Datelike, Months, NaiveDate, Utc};
use chrono_tz::Tz;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::error::{Result, StoreError};
use crate::money::from_nanos;
use crate::time::{day_bounds_ms, local_date, local_day_start, to_ms};
use crate::Store;

const QUARTER_MS: i64 = 900_000;
const DAY_MS: i64 = 86_400_000;
const QUARTERS_PER_DAY: i64 = DAY_MS / QUARTER_MS;
/// How many recent billed responses of a service its learned rate is averaged over.
pub const RATE_SAMPLE: i64 = 20;
/// Longest per-day series answered in one call (about ten years).
const MAX_DAYS: usize = 3_700;

/// What a spend breakdown groups by.
#[derive(Serialize, Deserialize, TS, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum SpendDimension {
    Service,
    Operation,
    KeyLabel,
}

impl SpendDimension {
    /// The `dim` value in the roll-up tables.
    fn rollup_name(self) -> &'static str {
        match self {
            Self::Service => "service",
            Self::Operation => "operation",
            Self::KeyLabel => "key",
        }
    }

    /// The matching column of `ledger`.
    fn ledger_column(self) -> &'static str {
        match self {
            Self::Service => "service",
            Self::Operation => "operation",
            Self::KeyLabel => "key_label",
        }
    }
}

/// Spend of one service, operation or key label (`key` is `""` for requests without a label).
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq, Eq)]
pub struct SpendLine {
    pub key: String,
    #[ts(type = "string")]
    pub cost: Decimal,
    pub requests: i64,
    pub usage_count: i64,
}

/// The three headline figures.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq, Eq)]
pub struct SpendTotals {
    #[ts(type = "string")]
    pub today: Decimal,
    #[ts(type = "string")]
    pub this_month: Decimal,
    #[ts(type = "string")]
    pub all_time: Decimal,
}

/// One local day of a spend series, stacked by service.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq, Eq)]
pub struct DaySpend {
    pub date: NaiveDate,
    #[ts(type = "string")]
    pub total: Decimal,
    /// Sorted by service name; empty on a day without spend.
    pub by_service: Vec<SpendLine>,
}

/// A breakdown over a range of local days (or all time).
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq, Eq)]
pub struct SpendBreakdown {
    pub dimension: SpendDimension,
    #[ts(type = "string")]
    pub total: Decimal,
    /// Most expensive first.
    pub lines: Vec<SpendLine>,
}

/// A per-service rate learned from recent responses.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq, Eq)]
pub struct LearnedRate {
    pub service: String,
    /// Cost of 1,000 units, averaged over the last `samples` billed responses.
    #[ts(type = "string")]
    pub rate_per_1000: Decimal,
    pub samples: i64,
    pub last_billed_at: DateTime<Utc>,
}

#[derive(Default, Clone, Copy, Debug, PartialEq, Eq)]
struct Sums {
    requests: i64,
    usage_count: i64,
    cost_nanos: i64,
}

impl Sums {
    /// Adds `other` times `sign` (+1 or -1).
    fn add(&mut self, other: Sums, sign: i64) {
        self.requests += sign * other.requests;
        self.usage_count += sign * other.usage_count;
        self.cost_nanos += sign * other.cost_nanos;
    }
}

/// Sums per value of a dimension.
type ValueSums = HashMap<String, Sums>;

fn lines_from(map: impl IntoIterator<Item = (String, Sums)>) -> Vec<SpendLine> {
    map.into_iter()
        .map(|(key, s)| SpendLine {
            key,
            cost: from_nanos(s.cost_nanos),
            requests: s.requests,
            usage_count: s.usage_count,
        })
        .collect()
}

/// Which table a piece of a range is read from (the `kind` in [`SUM_PIECES`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Source {
    /// `spend_daily` over days `[lo, hi)`.
    Days = 0,
    /// `spend_quarter_cum`: the running total of the UTC day whose first quarter hour is `lo`,
    /// up to (not including) quarter hour `hi`.
    DayBefore = 1,
    /// `ledger` over milliseconds `[lo, hi)`.
    Ledger = 2,
}

/// A piece of a sum: `sign` times the sums of `source` over `lo..hi`, into `slot`.
#[derive(Clone, Copy, Debug)]
struct Piece {
    slot: usize,
    source: Source,
    lo: i64,
    hi: i64,
    sign: i64,
}

/// The pieces of `before(t)`: the spend of t's UTC day before `t`. From the running total at
/// the nearer quarter hour, plus the ledger rows from it to `t` (or minus those from `t` to it).
fn before_pieces(slot: usize, t: i64, out: &mut Vec<Piece>) {
    let first = t.div_euclid(DAY_MS) * QUARTERS_PER_DAY;
    let floor = t.div_euclid(QUARTER_MS);
    let past_floor = t - floor * QUARTER_MS;
    let piece = |source, lo, hi, sign| Piece {
        slot,
        source,
        lo,
        hi,
        sign,
    };
    if past_floor <= QUARTER_MS / 2 {
        if floor > first {
            out.push(piece(Source::DayBefore, first, floor, 1));
        }
        if past_floor > 0 {
            out.push(piece(Source::Ledger, floor * QUARTER_MS, t, 1));
        }
    } else {
        out.push(piece(Source::DayBefore, first, floor + 1, 1));
        out.push(piece(Source::Ledger, t, (floor + 1) * QUARTER_MS, -1));
    }
}

/// One statement (so one consistent snapshot) that sums every piece of a plan. The pieces
/// arrive as one JSON parameter `[[slot, kind, lo, hi, sign], ...]`, so the SQL text (and its
/// prepared statement) is the same whatever the number of ranges, and the sums leave as one
/// JSON array `[[slot, value, requests, usage_count, cost_nanos], ...]` in one row: handing
/// rows over one by one costs more than summing them (a year of days is ~2,000 sums).
/// `CROSS JOIN` keeps the pieces as the outer loop; each is an index range or a seek per value
/// (the running total at the last quarter hour with spend before the bound, if any that day).
const SUM_PIECES: &str = "
    WITH p(slot, kind, lo, hi, sign) AS (
        SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4
        FROM json_each(?)),
    sums(slot, value, requests, usage_count, cost_nanos) AS (
        SELECT p.slot, s.value, sum(s.requests), sum(s.usage_count), sum(s.cost_nanos)
        FROM p CROSS JOIN spend_daily s
        WHERE p.kind = 0 AND s.dim = '{dim}' AND s.day >= p.lo AND s.day < p.hi
        GROUP BY p.slot, s.value
        UNION ALL
        SELECT p.slot, c.value, c.requests, c.usage_count, c.cost_nanos
        FROM p CROSS JOIN spend_total v CROSS JOIN spend_quarter_cum c
        WHERE p.kind = 1 AND v.dim = '{dim}' AND c.dim = '{dim}' AND c.value = v.value
          AND c.quarter = (SELECT max(m.quarter) FROM spend_quarter_cum m
                           WHERE m.dim = '{dim}' AND m.value = v.value
                             AND m.quarter >= p.lo AND m.quarter < p.hi)
        UNION ALL
        SELECT p.slot, l.{col}, p.sign * count(*), p.sign * sum(l.usage_count),
               p.sign * sum(l.cost_nanos)
        FROM p CROSS JOIN ledger l
        WHERE p.kind = 2 AND l.at >= p.lo AND l.at < p.hi
        GROUP BY p.slot, p.sign, l.{col})
    SELECT json_group_array(json_array(slot, value, requests, usage_count, cost_nanos))
    FROM sums";

fn consecutive_days(first: NaiveDate, last: NaiveDate) -> Result<Vec<NaiveDate>> {
    let days: Vec<NaiveDate> = first
        .iter_days()
        .take_while(|d| *d <= last)
        .take(MAX_DAYS + 1)
        .collect();
    if days.len() > MAX_DAYS {
        return Err(StoreError::InvalidInput(format!(
            "a spend range covers at most {MAX_DAYS} days"
        )));
    }
    Ok(days)
}

impl Store {
    /// Sums the ledger over each `[start, end)` range (UTC ms), grouped by the dimension:
    /// per range, the sums per dimension value (values without requests left out).
    ///
    /// See the module documentation for the decomposition. Boundaries shared by ranges that
    /// meet (a per-day series) are read once.
    async fn sum_ranges(
        &self,
        dim: SpendDimension,
        ranges: &[(i64, i64)],
    ) -> Result<Vec<ValueSums>> {
        // Slots 0..ranges.len() hold each range's whole days; then one slot per boundary.
        let mut pieces: Vec<Piece> = Vec::new();
        let mut bounds: HashMap<i64, usize> = HashMap::new();
        for (slot, &(start, end)) in ranges.iter().enumerate() {
            if start >= end {
                continue;
            }
            let (from, to) = (start.div_euclid(DAY_MS), end.div_euclid(DAY_MS));
            if from < to {
                pieces.push(Piece {
                    slot,
                    source: Source::Days,
                    lo: from,
                    hi: to,
                    sign: 1,
                });
            }
            for t in [start, end] {
                let next = ranges.len() + bounds.len();
                if *bounds.entry(t).or_insert(next) == next {
                    before_pieces(next, t, &mut pieces);
                }
            }
        }
        let mut slots = vec![ValueSums::new(); ranges.len() + bounds.len()];
        if !pieces.is_empty() {
            let mut json = String::with_capacity(pieces.len() * 40);
            json.push('[');
            for (i, p) in pieces.iter().enumerate() {
                if i > 0 {
                    json.push(',');
                }
                json.push_str(&format!(
                    "[{},{},{},{},{}]",
                    p.slot, p.source as i64, p.lo, p.hi, p.sign
                ));
            }
            json.push(']');
            let sql = SUM_PIECES
                .replace("{dim}", dim.rollup_name())
                .replace("{col}", dim.ledger_column());
            let rows: String = sqlx::query_scalar(&sql)
                .bind(json)
                .fetch_one(&self.pool)
                .await?;
            let rows: Vec<(usize, String, i64, i64, i64)> = serde_json::from_str(&rows)?;
            for (slot, value, requests, usage_count, cost_nanos) in rows {
                let sums = Sums {
                    requests,
                    usage_count,
                    cost_nanos,
                };
                slots[slot].entry(value).or_default().add(sums, 1);
            }
        }
        let bound_slots = slots.split_off(ranges.len());
        let add_before = |t: i64, out: &mut ValueSums, sign: i64| {
            for (value, sums) in &bound_slots[bounds[&t] - ranges.len()] {
                out.entry(value.clone()).or_default().add(*sums, sign);
            }
        };
        let mut out = Vec::with_capacity(ranges.len());
        for (slot, &(start, end)) in ranges.iter().enumerate() {
            let mut sums = std::mem::take(&mut slots[slot]);
            if start < end {
                add_before(end, &mut sums, 1);
                add_before(start, &mut sums, -1);
            }
            // A value whose requests all fell outside the range nets to zero: not a line.
            sums.retain(|_, s| s.requests != 0);
            debug_assert!(sums.values().all(|s| s.requests > 0 && s.cost_nanos >= 0));
            out.push(sums);
        }
        Ok(out)
    }

    /// Spend today, this month (local calendar of `tz` at `now`) and all time.
    pub async fn spend_totals(&self, tz: Tz, now: DateTime<Utc>) -> Result<SpendTotals> {
        let (today, month) = self.spent_today_and_month(tz, now).await?;
        let all_time: i64 = sqlx::query_scalar(
            "SELECT COALESCE(sum(cost_nanos), 0) FROM spend_total WHERE dim = 'service'",
        )
        .fetch_one(&self.pool)
        .await?;
        Ok(SpendTotals {
            today: from_nanos(today),
            this_month: from_nanos(month),
            all_time: from_nanos(all_time),
        })
    }

    /// Spend of today and of this month in nano-units (for budget checks).
    pub(crate) async fn spent_today_and_month(
        &self,
        tz: Tz,
        now: DateTime<Utc>,
    ) -> Result<(i64, i64)> {
        let today = local_date(tz, now);
        let first = today.with_day(1).expect("day 1 exists");
        let next_month = first.checked_add_months(Months::new(1)).unwrap_or(today);
        let day = day_bounds_ms(tz, today);
        let month = (
            to_ms(local_day_start(tz, first)),
            to_ms(local_day_start(tz, next_month)).max(day.1),
        );
        let sums = self
            .sum_ranges(SpendDimension::Service, &[day, month])
            .await?;
        let nanos = |m: &ValueSums| m.values().map(|s| s.cost_nanos).sum::<i64>();
        Ok((nanos(&sums[0]), nanos(&sums[1])))
    }

    /// One entry per local day from `first` to `last` (inclusive), stacked by service.
    pub async fn spend_by_day(
        &self,
        tz: Tz,
        first: NaiveDate,
        last: NaiveDate,
    ) -> Result<Vec<DaySpend>> {
        let days = consecutive_days(first, last)?;
        let bounds: Vec<(i64, i64)> = days.iter().map(|&d| day_bounds_ms(tz, d)).collect();
        let sums = self.sum_ranges(SpendDimension::Service, &bounds).await?;
        Ok(days
            .into_iter()
            .zip(sums)
            .map(|(date, per_service)| {
                let sorted: BTreeMap<String, Sums> = per_service.into_iter().collect();
                let total = from_nanos(sorted.values().map(|s| s.cost_nanos).sum());
                DaySpend {
                    date,
                    total,
                    by_service: lines_from(sorted),
                }
            })
            .collect())
    }

    /// Spend grouped by service, operation or key label, over local days `first..=last`, or
    /// over all time when `days` is `None`. Most expensive first.
    pub async fn spend_breakdown(
        &self,
        dim: SpendDimension,
        tz: Tz,
        days: Option<(NaiveDate, NaiveDate)>,
    ) -> Result<SpendBreakdown> {
        let sums: Vec<(String, Sums)> = match days {
            None => {
                let rows: Vec<(String, i64, i64, i64)> = sqlx::query_as(
                    "SELECT value, requests, usage_count, cost_nanos FROM spend_total WHERE dim = ?",
                )
                .bind(dim.rollup_name())
                .fetch_all(&self.pool)
                .await?;
                rows.into_iter()
                    .map(|(value, requests, usage_count, cost_nanos)| {
                        let sums = Sums {
                            requests,
                            usage_count,
                            cost_nanos,
                        };
                        (value, sums)
                    })
                    .collect()
            }
            Some((first, last)) if first <= last => {
                if (last - first).num_days() >= MAX_DAYS as i64 {
                    return Err(StoreError::InvalidInput(format!(
                        "a spend range covers at most {MAX_DAYS} days"
                    )));
                }
                let range = (day_bounds_ms(tz, first).0, day_bounds_ms(tz, last).1);
                let mut sums = self.sum_ranges(dim, &[range]).await?;
                sums.pop().unwrap_or_default().into_iter().collect()
            }
            Some(_) => Vec::new(),
        };
        let total = from_nanos(sums.iter().map(|(_, s)| s.cost_nanos).sum());
        let mut lines = lines_from(sums);
        lines.sort_by(|a, b| b.cost.cmp(&a.cost).then_with(|| a.key.cmp(&b.key)));
        Ok(SpendBreakdown {
            dimension: dim,
            total,
            lines,
        })
    }

    /// The learned rate of every service that has billed something with units.
    pub async fn learned_rates(&self) -> Result<Vec<LearnedRate>> {
        let services: Vec<String> = sqlx::query_scalar(
            "SELECT value FROM spend_total WHERE dim = 'service' AND usage_count > 0 ORDER BY value",
        )
        .fetch_all(&self.pool)
        .await?;
        let mut rates = Vec::with_capacity(services.len());
        for service in services {
            if let Some(rate) = self.learned_rate(&service).await? {
                rates.push(rate);
            }
        }
        Ok(rates)
    }

    /// The rate per 1,000 units of one service, from its last [`RATE_SAMPLE`] billed responses.
    pub async fn learned_rate(&self, service: &str) -> Result<Option<LearnedRate>> {
        let Some((nanos, units, samples, last_at)) = self.recent_billing(service).await? else {
            return Ok(None);
        };
        let rate =
            Decimal::from_i128_with_scale(i128::from(nanos) * 1000, 9) / Decimal::from(units);
        Ok(Some(LearnedRate {
            service: service.to_owned(),
            rate_per_1000: rate.round_dp(9).normalize(),
            samples,
            last_billed_at: crate::time::from_ms(last_at),
        }))
    }

    /// Estimated cost of `units` units of `service` at its learned rate, rounded up to the
    /// nano-dollar (an estimate guards a budget, so it errs high). `None` before the first
    /// billed response of that service.
    pub async fn estimate(&self, service: &str, units: i64) -> Result<Option<Decimal>> {
        let Some((nanos, sample_units, _, _)) = self.recent_billing(service).await? else {
            return Ok(None);
        };
        let numerator = i128::from(nanos) * i128::from(units.max(0));
        let denominator = i128::from(sample_units);
        let estimate = (numerator + denominator - 1).div_euclid(denominator);
        let estimate = i64::try_from(estimate).map_err(|_| {
            StoreError::InvalidInput(format!("{units} units is too many to estimate"))
        })?;
        Ok(Some(from_nanos(estimate)))
    }

    /// (cost nanos, units, rows, latest time) over the last billed responses with units.
    async fn recent_billing(&self, service: &str) -> Result<Option<(i64, i64, i64, i64)>> {
        let row: (Option<i64>, Option<i64>, i64, Option<i64>) = sqlx::query_as(
            "SELECT sum(cost_nanos), sum(usage_count), count(*), max(at) FROM (
                 SELECT cost_nanos, usage_count, at FROM ledger
                 WHERE service = ? AND usage_count > 0
                 ORDER BY at DESC LIMIT ?)",
        )
        .bind(service)
        .bind(RATE_SAMPLE)
        .fetch_one(&self.pool)
        .await?;
        Ok(match row {
            (Some(nanos), Some(units), samples, Some(at)) if units > 0 => {
                Some((nanos, units, samples, at))
            }
            _ => None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::history::tests::{billing, record};
    use crate::money::to_nanos;
    use crate::test_support::temp_store;
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
        let unlinked: i64 =
            sqlx::query_scalar("SELECT count(*) FROM ledger WHERE history_id IS NULL")
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
}
