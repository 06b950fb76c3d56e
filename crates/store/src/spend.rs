//! Spend: aggregates over the ledger in the user's time zone, and per-service rates learned
//! from what the service actually charged.
//!
//! Sums read the hourly roll-up (`spend_hourly`, maintained by a trigger in the same
//! transaction as the ledger row) for the whole hours of a range, and the ledger itself for
//! the part of an hour at either edge. Local days in zones with half- or quarter-hour offsets
//! (India, Nepal, ...) therefore stay exact. Finished per-day sums are cached per zone and
//! invalidated by the ledger trigger (see `day_sums`), so a year of days is a few hundred
//! small rows once computed.

use std::collections::{BTreeMap, HashMap};

use chrono::{DateTime, Datelike, Months, NaiveDate, Utc};
use chrono_tz::Tz;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use sqlx::{QueryBuilder, Sqlite, SqliteConnection};
use ts_rs::TS;

use crate::error::{Result, StoreError};
use crate::money::from_nanos;
use crate::time::{day_bounds_ms, local_date};
use crate::Store;

const HOUR_MS: i64 = 3_600_000;
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
    /// The `dim` value in `spend_hourly` / `spend_total`.
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

#[derive(Default, Clone, Copy)]
struct Sums {
    requests: i64,
    usage_count: i64,
    cost_nanos: i64,
}

impl Sums {
    fn add(&mut self, other: Sums) {
        self.requests += other.requests;
        self.usage_count += other.usage_count;
        self.cost_nanos += other.cost_nanos;
    }
}

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

/// Sums the ledger over each `[start, end)` range (UTC ms), grouped by the dimension.
/// Returns, per range index, the sums per dimension value.
async fn sum_ranges(
    conn: &mut SqliteConnection,
    dim: SpendDimension,
    ranges: &[(i64, i64)],
) -> Result<Vec<HashMap<String, Sums>>> {
    // Split each range into whole hours (read from the roll-up) and edges (from the ledger).
    let mut hourly = Vec::new();
    let mut raw = Vec::new();
    for (idx, &(start, end)) in ranges.iter().enumerate() {
        let idx = idx as i64;
        let first_hour = start.div_euclid(HOUR_MS) + i64::from(start.rem_euclid(HOUR_MS) != 0);
        let end_hour = end.div_euclid(HOUR_MS);
        if first_hour < end_hour {
            hourly.push((idx, first_hour, end_hour));
            if start < first_hour * HOUR_MS {
                raw.push((idx, start, first_hour * HOUR_MS));
            }
            if end_hour * HOUR_MS < end {
                raw.push((idx, end_hour * HOUR_MS, end));
            }
        } else if start < end {
            raw.push((idx, start, end));
        }
    }
    let mut out = vec![HashMap::<String, Sums>::new(); ranges.len()];
    let pieces = [
        (
            hourly,
            format!(
                "SELECT r.idx, s.value, sum(s.requests), sum(s.usage_count), sum(s.cost_nanos)
                 FROM r JOIN spend_hourly s
                   ON s.dim = '{}' AND s.hour >= r.lo AND s.hour < r.hi
                 GROUP BY r.idx, s.value",
                dim.rollup_name()
            ),
        ),
        (
            raw,
            format!(
                "SELECT r.idx, l.{col}, count(*), sum(l.usage_count), sum(l.cost_nanos)
                 FROM r JOIN ledger l ON l.at >= r.lo AND l.at < r.hi
                 GROUP BY r.idx, l.{col}",
                col = dim.ledger_column()
            ),
        ),
    ];
    for (parts, select) in pieces {
        // Three parameters per piece; stay well below SQLite's 32,766.
        for chunk in parts.chunks(3_000) {
            let mut sql = QueryBuilder::<Sqlite>::new("WITH r(idx, lo, hi) AS (VALUES ");
            let mut values = sql.separated(", ");
            for &(idx, lo, hi) in chunk {
                values
                    .push("(")
                    .push_bind_unseparated(idx)
                    .push_unseparated(", ")
                    .push_bind_unseparated(lo)
                    .push_unseparated(", ")
                    .push_bind_unseparated(hi)
                    .push_unseparated(")");
            }
            sql.push(") ").push(&select);
            let rows: Vec<(i64, String, i64, i64, i64)> =
                sql.build_query_as().fetch_all(&mut *conn).await?;
            for (idx, value, requests, usage_count, cost_nanos) in rows {
                out[idx as usize].entry(value).or_default().add(Sums {
                    requests,
                    usage_count,
                    cost_nanos,
                });
            }
        }
    }
    Ok(out)
}

/// A day's sums as cached: `[value, requests, usage_count, cost_nanos]` per dimension value.
type CachedDay = Vec<(String, i64, i64, i64)>;

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

fn merge(days: impl IntoIterator<Item = HashMap<String, Sums>>) -> HashMap<String, Sums> {
    let mut total = HashMap::<String, Sums>::new();
    for day in days {
        for (value, sums) in day {
            total.entry(value).or_default().add(sums);
        }
    }
    total
}

impl Store {
    /// Sums per local day of `tz` for consecutive `days`, grouped by the dimension.
    ///
    /// Finished computations are kept in `spend_day_cache` (per zone, dimension and day); the
    /// ledger trigger deletes a cached day as soon as a ledger row lands in it, so the cache
    /// is never stale. Missing days are computed and stored under the write lock, so no
    /// insert can slip in between computing and caching.
    async fn day_sums(
        &self,
        dim: SpendDimension,
        tz: Tz,
        days: &[NaiveDate],
    ) -> Result<Vec<HashMap<String, Sums>>> {
        let (Some(first), Some(last)) = (days.first(), days.last()) else {
            return Ok(Vec::new());
        };
        let zone = tz.name();
        let cached: Vec<(String, String)> = sqlx::query_as(
            "SELECT day, sums FROM spend_day_cache
             WHERE zone = ? AND dim = ? AND day BETWEEN ? AND ?",
        )
        .bind(zone)
        .bind(dim.rollup_name())
        .bind(first.to_string())
        .bind(last.to_string())
        .fetch_all(&self.pool)
        .await?;
        let mut by_day: HashMap<String, CachedDay> = HashMap::with_capacity(cached.len());
        for (day, sums) in cached {
            by_day.insert(day, serde_json::from_str(&sums)?);
        }
        let mut out: Vec<Option<HashMap<String, Sums>>> = days
            .iter()
            .map(|d| {
                by_day.remove(&d.to_string()).map(|lines| {
                    lines
                        .into_iter()
                        .map(|(value, requests, usage_count, cost_nanos)| {
                            let sums = Sums {
                                requests,
                                usage_count,
                                cost_nanos,
                            };
                            (value, sums)
                        })
                        .collect()
                })
            })
            .collect();

        let missing: Vec<usize> = (0..days.len()).filter(|&i| out[i].is_none()).collect();
        if !missing.is_empty() {
            let mut tx = self.begin_write().await?;
            let bounds: Vec<(i64, i64)> = missing
                .iter()
                .map(|&i| day_bounds_ms(tz, days[i]))
                .collect();
            let computed = sum_ranges(&mut tx, dim, &bounds).await?;
            let rows: Vec<(String, (i64, i64), String)> = missing
                .iter()
                .zip(&bounds)
                .zip(&computed)
                .map(|((&i, &span), sums)| {
                    let lines: CachedDay = sums
                        .iter()
                        .map(|(v, s)| (v.clone(), s.requests, s.usage_count, s.cost_nanos))
                        .collect();
                    let json = serde_json::to_string(&lines).expect("plain data serializes");
                    (days[i].to_string(), span, json)
                })
                .collect();
            for chunk in rows.chunks(1_000) {
                let mut sql = QueryBuilder::<Sqlite>::new(
                    "INSERT OR REPLACE INTO spend_day_cache (zone, dim, day, start_ms, end_ms, sums) ",
                );
                sql.push_values(chunk, |mut row, (day, (start, end), json)| {
                    row.push_bind(zone)
                        .push_bind(dim.rollup_name())
                        .push_bind(day.as_str())
                        .push_bind(*start)
                        .push_bind(*end)
                        .push_bind(json.as_str());
                });
                sql.build().execute(&mut *tx).await?;
            }
            tx.commit().await?;
            for (i, sums) in missing.into_iter().zip(computed) {
                out[i] = Some(sums);
            }
        }
        Ok(out.into_iter().map(Option::unwrap_or_default).collect())
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
        let last = first
            .checked_add_months(Months::new(1))
            .and_then(|d| d.pred_opt())
            .unwrap_or(today);
        let days = consecutive_days(first, last)?;
        let sums = self.day_sums(SpendDimension::Service, tz, &days).await?;
        let nanos = |m: &HashMap<String, Sums>| m.values().map(|s| s.cost_nanos).sum::<i64>();
        let today_index = days.iter().position(|d| *d == today).unwrap_or(0);
        Ok((nanos(&sums[today_index]), sums.iter().map(nanos).sum()))
    }

    /// One entry per local day from `first` to `last` (inclusive), stacked by service.
    pub async fn spend_by_day(
        &self,
        tz: Tz,
        first: NaiveDate,
        last: NaiveDate,
    ) -> Result<Vec<DaySpend>> {
        let days = consecutive_days(first, last)?;
        let sums = self.day_sums(SpendDimension::Service, tz, &days).await?;
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
            Some((first, last)) => {
                let days = consecutive_days(first, last)?;
                merge(self.day_sums(dim, tz, &days).await?)
                    .into_iter()
                    .collect()
            }
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
    async fn cached_days_are_invalidated_by_new_spend_in_them() {
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
        let cached: i64 = sqlx::query_scalar("SELECT count(*) FROM spend_day_cache")
            .fetch_one(&store.pool)
            .await
            .unwrap();
        assert_eq!(cached, 3);
        // New spend on a cached day (recorded late, out of order) and on a cached empty day.
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
}
