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
//! total at the last whole hour before `t` when `t` is on one (`spend_hour_cum`, migration
//! 0026: a local midnight in nearly every zone), else at the quarter hour nearest `t`,
//! corrected by the ledger rows between the two (none in any zone in use today, whose offsets
//! are whole quarter hours). Local days in any zone and DST day are therefore exact, and a
//! year is about 365 day rows plus two running totals per value; a per-day series shares each
//! boundary between two neighbouring days.
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
const HOUR_MS: i64 = 3_600_000;
const DAY_MS: i64 = 86_400_000;
const QUARTERS_PER_DAY: i64 = DAY_MS / QUARTER_MS;
const HOURS_PER_DAY: i64 = DAY_MS / HOUR_MS;
/// How many recent billed responses of a service its learned rate is averaged over.
pub const RATE_SAMPLE: i64 = 20;
/// Longest per-day series answered in one call (about ten years).
const MAX_DAYS: usize = 3_700;

/// What a spend breakdown groups by.
#[derive(Serialize, Deserialize, TS, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum SpendDimension {
    /// The service that billed (as its billing headers name it).
    Service,
    /// The operation sent (`search`, `replies`, ...).
    Operation,
    /// The label of the key the requests were sent with.
    KeyLabel,
    /// The monitor that sent the requests (only theirs are counted).
    Monitor,
    /// The collection that sent the requests (only theirs are counted).
    Collection,
}

impl SpendDimension {
    /// The `dim` value in the roll-up tables; `None` for a monitor or a collection, whose
    /// spend is read from the ledger's own rows ([`owners`]).
    fn rollup_name(self) -> Option<&'static str> {
        match self {
            Self::Service => Some("service"),
            Self::Operation => Some("operation"),
            Self::KeyLabel => Some("key"),
            Self::Monitor | Self::Collection => None,
        }
    }

    /// The matching column of `ledger`.
    fn ledger_column(self) -> &'static str {
        match self {
            Self::Service => "service",
            Self::Operation => "operation",
            Self::KeyLabel => "key_label",
            Self::Monitor => "monitor_id",
            Self::Collection => "collection_id",
        }
    }
}

/// Spend of one service, operation or key label (`key` is `""` for requests without a label),
/// or of one monitor or collection (`key` its id, `label` its name).
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq, Eq)]
pub struct SpendLine {
    /// The service, operation or key label; a monitor's or collection's id.
    pub key: String,
    /// A monitor's or a collection's name as it is now; absent for the other dimensions and
    /// for one that was deleted (its money stays, under its id).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub label: Option<String>,
    /// What the line's ledger rows cost, exact.
    #[ts(type = "string")]
    pub cost: Decimal,
    /// Billed answers on the line.
    pub requests: i64,
    /// The usage the service counted for them, summed.
    pub usage_count: i64,
}

/// The three headline figures, and in each period how many answers were billed at a cost that
/// was not a number: their money is unknown, so it is in no figure (never counted as zero).
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq, Eq)]
pub struct SpendTotals {
    /// Spent today (the local calendar day).
    #[ts(type = "string")]
    pub today: Decimal,
    /// Spent this local calendar month.
    #[ts(type = "string")]
    pub this_month: Decimal,
    /// Spent since the first request.
    #[ts(type = "string")]
    pub all_time: Decimal,
    /// Answers billed today at a cost that was not a number.
    pub unreadable_today: i64,
    /// Answers billed this month at a cost that was not a number.
    pub unreadable_this_month: i64,
    /// Answers ever billed at a cost that was not a number.
    pub unreadable_all_time: i64,
}

/// One local day of a spend series, stacked by service.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq, Eq)]
pub struct DaySpend {
    /// The local calendar day.
    pub date: NaiveDate,
    /// What the day cost.
    #[ts(type = "string")]
    pub total: Decimal,
    /// Sorted by service name; empty on a day without spend.
    pub by_service: Vec<SpendLine>,
}

/// A breakdown over a range of local days (or all time).
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq, Eq)]
pub struct SpendBreakdown {
    /// What the lines group by.
    pub dimension: SpendDimension,
    /// The range's whole spend.
    #[ts(type = "string")]
    pub total: Decimal,
    /// Answers in the range billed at a cost that was not a number (in no sum: unknown).
    pub unreadable: i64,
    /// Most expensive first.
    pub lines: Vec<SpendLine>,
}

impl SpendBreakdown {
    /// The breakdown with its lines in the one order every breakdown shows: most expensive
    /// first, then by key.
    pub(crate) fn ranked(
        dimension: SpendDimension,
        total: Decimal,
        unreadable: i64,
        mut lines: Vec<SpendLine>,
    ) -> Self {
        lines.sort_by(|a, b| b.cost.cmp(&a.cost).then_with(|| a.key.cmp(&b.key)));
        Self {
            dimension,
            total,
            unreadable,
            lines,
        }
    }
}

/// A per-service rate learned from recent responses.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq, Eq)]
pub struct LearnedRate {
    /// The service the rate is for.
    pub service: String,
    /// Cost of 1,000 units, averaged over the last `samples` billed responses.
    #[ts(type = "string")]
    pub rate_per_1000: Decimal,
    /// Billed responses the rate averages (the most recent, up to a fixed sample).
    pub samples: i64,
    /// When the newest of them was billed.
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
            label: None,
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
    /// `spend_hour_cum`: as `DayBefore`, in hours (a bound on a whole hour: five days of
    /// running totals share a page, against one day of the quarter hours').
    DayBeforeHour = 3,
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
    if t.rem_euclid(HOUR_MS) == 0 {
        // On a whole hour (a local midnight in nearly every zone): the hours' running total.
        let first = t.div_euclid(DAY_MS) * HOURS_PER_DAY;
        let hour = t.div_euclid(HOUR_MS);
        if hour > first {
            out.push(Piece {
                slot,
                source: Source::DayBeforeHour,
                lo: first,
                hi: hour,
                sign: 1,
            });
        }
        return;
    }
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
        SELECT p.slot, c.value, c.requests, c.usage_count, c.cost_nanos
        FROM p CROSS JOIN spend_total v CROSS JOIN spend_hour_cum c
        WHERE p.kind = 3 AND v.dim = '{dim}' AND c.dim = '{dim}' AND c.value = v.value
          AND c.hour = (SELECT max(m.hour) FROM spend_hour_cum m
                        WHERE m.dim = '{dim}' AND m.value = v.value
                          AND m.hour >= p.lo AND m.hour < p.hi)
        UNION ALL
        SELECT p.slot, l.{col}, p.sign * count(*), p.sign * sum(l.usage_count),
               p.sign * sum(l.cost_nanos)
        FROM p CROSS JOIN ledger l
        WHERE p.kind = 2 AND l.at >= p.lo AND l.at < p.hi
        GROUP BY p.slot, p.sign, l.{col})
    SELECT json_group_array(json_array(slot, value, requests, usage_count, cost_nanos))
    FROM sums";

/// [`SUM_PIECES`] for one dimension; `None` for one without roll-ups (monitor, collection).
pub(crate) fn sum_pieces_sql(dim: SpendDimension) -> Option<String> {
    let rollup = dim.rollup_name()?;
    Some(
        SUM_PIECES
            .replace("{dim}", rollup)
            .replace("{col}", dim.ledger_column()),
    )
}

/// Answers in a range whose cost could not be read: only they are read (a partial index).
pub(crate) const UNREADABLE_IN_RANGE: &str =
    "SELECT count(*) FROM ledger WHERE cost_unreadable = 1 AND at >= ? AND at < ?";

/// A service's last billed responses with units: the newest few off `ledger_service_at`.
pub(crate) const RECENT_BILLING: &str =
    "SELECT sum(cost_nanos), sum(usage_count), count(*), max(at) FROM (
         SELECT cost_nanos, usage_count, at FROM ledger
         WHERE service = ? AND usage_count > 0 AND cost_unreadable = 0
         ORDER BY at DESC LIMIT ?)";

/// Today and this month of `tz`'s calendar at `now`, as `[start, end)` in UTC ms.
fn today_and_month(tz: Tz, now: DateTime<Utc>) -> ((i64, i64), (i64, i64)) {
    let today = local_date(tz, now);
    let first = today.with_day(1).expect("day 1 exists");
    let next_month = first.checked_add_months(Months::new(1)).unwrap_or(today);
    let day = day_bounds_ms(tz, today);
    let month = (
        to_ms(local_day_start(tz, first)),
        to_ms(local_day_start(tz, next_month)).max(day.1),
    );
    (day, month)
}

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
            let sql = sum_pieces_sql(dim)
                .ok_or_else(|| StoreError::InvalidInput(format!("{dim:?} spend has no roll-up")))?;
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
        let (day, month_ms) = today_and_month(tz, now);
        // Only the unreadable rows are read (a partial index holds them): usually none.
        let (unreadable_today, unreadable_this_month, unreadable_all_time): (i64, i64, i64) =
            sqlx::query_as(
                "SELECT count(*) FILTER (WHERE at >= ?1 AND at < ?2),
                        count(*) FILTER (WHERE at >= ?3 AND at < ?4), count(*)
                 FROM ledger WHERE cost_unreadable = 1",
            )
            .bind(day.0)
            .bind(day.1)
            .bind(month_ms.0)
            .bind(month_ms.1)
            .fetch_one(&self.pool)
            .await?;
        Ok(SpendTotals {
            today: from_nanos(today),
            this_month: from_nanos(month),
            all_time: from_nanos(all_time),
            unreadable_today,
            unreadable_this_month,
            unreadable_all_time,
        })
    }

    /// Spend of today and of this month in nano-units (for budget checks). A charge whose cost
    /// was unreadable adds nothing here: budgets count what could be read, rounded.
    pub(crate) async fn spent_today_and_month(
        &self,
        tz: Tz,
        now: DateTime<Utc>,
    ) -> Result<(i64, i64)> {
        let (day, month) = today_and_month(tz, now);
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

    /// Spend grouped by service, operation, key label, monitor or collection, over local days
    /// `first..=last`, or over all time when `days` is `None`. Most expensive first.
    pub async fn spend_breakdown(
        &self,
        dim: SpendDimension,
        tz: Tz,
        days: Option<(NaiveDate, NaiveDate)>,
    ) -> Result<SpendBreakdown> {
        let Some(rollup) = dim.rollup_name() else {
            return self.owner_breakdown(dim, tz, days).await;
        };
        let sums: Vec<(String, Sums)> = match days {
            None => {
                let rows: Vec<(String, i64, i64, i64)> = sqlx::query_as(
                    "SELECT value, requests, usage_count, cost_nanos FROM spend_total WHERE dim = ?",
                )
                .bind(rollup)
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
        let (from, to) = match days {
            None => (i64::MIN, i64::MAX),
            Some((first, last)) => (day_bounds_ms(tz, first).0, day_bounds_ms(tz, last).1),
        };
        let unreadable: i64 = sqlx::query_scalar(UNREADABLE_IN_RANGE)
            .bind(from)
            .bind(to)
            .fetch_one(&self.pool)
            .await?;
        let total = from_nanos(sums.iter().map(|(_, s)| s.cost_nanos).sum());
        Ok(SpendBreakdown::ranked(
            dim,
            total,
            unreadable,
            lines_from(sums),
        ))
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

    /// The rate per 1,000 units of one service, from its last `RATE_SAMPLE` billed responses.
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

    /// (cost nanos, units, rows, latest time) over the last billed responses with units and a
    /// cost that could be read (an unreadable one says nothing of the rate).
    async fn recent_billing(&self, service: &str) -> Result<Option<(i64, i64, i64, i64)>> {
        let row: (Option<i64>, Option<i64>, i64, Option<i64>) = sqlx::query_as(RECENT_BILLING)
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

pub(crate) mod owners;
#[cfg(test)]
mod tests;
