//! Budgets: optional daily and monthly limits with a warning threshold, and the check made
//! before every billable request. Comparisons are exact (integer nano-dollars).

use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::error::{Result, StoreError};
use crate::money::{from_nanos, to_nanos};
use crate::Store;

/// Warn at this share of a limit unless the user chose otherwise.
pub const DEFAULT_WARN_PERCENT: u8 = 80;

/// The user's limits. `None` means no limit for that period.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq, Eq)]
pub struct BudgetLimits {
    /// The most a local calendar day may cost.
    #[ts(type = "string | null")]
    pub daily: Option<Decimal>,
    /// The most a local calendar month may cost.
    #[ts(type = "string | null")]
    pub monthly: Option<Decimal>,
    /// Warn once spending (including the request about to be made) reaches this percentage of
    /// a limit; 1 to 100.
    pub warn_percent: u8,
}

impl Default for BudgetLimits {
    fn default() -> Self {
        Self {
            daily: None,
            monthly: None,
            warn_percent: DEFAULT_WARN_PERCENT,
        }
    }
}

/// The answer for one request.
#[derive(Serialize, Deserialize, TS, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Under the warning share of every limit: send.
    Allow,
    /// The request would reach the warning share of a limit: ask the user first.
    Warn,
    /// The request would go over a limit: do not send.
    Block,
}

/// The numbers behind the verdict for one period.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq, Eq)]
pub struct PeriodCheck {
    /// This period's answer.
    pub verdict: Verdict,
    /// The period's limit.
    #[ts(type = "string")]
    pub limit: Decimal,
    /// Spent so far in this period.
    #[ts(type = "string")]
    pub spent: Decimal,
    /// What is left before this request (never below zero).
    #[ts(type = "string")]
    pub remaining: Decimal,
    /// Spent plus the estimate.
    #[ts(type = "string")]
    pub after_request: Decimal,
}

/// The budget check for one request.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq, Eq)]
pub struct BudgetCheck {
    /// The stricter of the two periods.
    pub verdict: Verdict,
    /// What the request is expected to cost.
    #[ts(type = "string")]
    pub estimate: Decimal,
    /// The warning share of a limit, in percent, the check used.
    pub warn_percent: u8,
    /// `None` when there is no daily limit.
    pub daily: Option<PeriodCheck>,
    /// `None` when there is no monthly limit.
    pub monthly: Option<PeriodCheck>,
}

fn check_period(limit: i64, spent: i64, estimate: i64, warn_percent: u8) -> PeriodCheck {
    let after = spent + estimate;
    let verdict = if after > limit {
        Verdict::Block
    } else if i128::from(after) * 100 >= i128::from(limit) * i128::from(warn_percent) {
        Verdict::Warn
    } else {
        Verdict::Allow
    };
    PeriodCheck {
        verdict,
        limit: from_nanos(limit),
        spent: from_nanos(spent),
        remaining: from_nanos((limit - spent).max(0)),
        after_request: from_nanos(after),
    }
}

impl Store {
    /// The saved limits (no limits and the default threshold until the user sets them).
    pub async fn budget(&self) -> Result<BudgetLimits> {
        let row: Option<(Option<i64>, Option<i64>, i64)> = sqlx::query_as(
            "SELECT daily_limit_nanos, monthly_limit_nanos, warn_percent FROM budget WHERE id = 1",
        )
        .fetch_optional(&self.pool)
        .await?;
        Ok(match row {
            Some((daily, monthly, warn)) => BudgetLimits {
                daily: daily.map(from_nanos),
                monthly: monthly.map(from_nanos),
                warn_percent: u8::try_from(warn).unwrap_or(DEFAULT_WARN_PERCENT),
            },
            None => BudgetLimits::default(),
        })
    }

    /// Saves the limits.
    pub async fn set_budget(&self, limits: &BudgetLimits) -> Result<()> {
        if !(1..=100).contains(&limits.warn_percent) {
            return Err(StoreError::InvalidInput(
                "the warning threshold is a percentage from 1 to 100".into(),
            ));
        }
        let nanos = |limit: Option<Decimal>| -> Result<Option<i64>> {
            match limit {
                Some(l) if l.is_sign_negative() => Err(StoreError::InvalidInput(
                    "a budget limit cannot be negative".into(),
                )),
                Some(l) => Ok(Some(to_nanos(l)?)),
                None => Ok(None),
            }
        };
        sqlx::query(
            "INSERT INTO budget (id, daily_limit_nanos, monthly_limit_nanos, warn_percent)
             VALUES (1, ?, ?, ?)
             ON CONFLICT (id) DO UPDATE SET daily_limit_nanos = excluded.daily_limit_nanos,
                 monthly_limit_nanos = excluded.monthly_limit_nanos,
                 warn_percent = excluded.warn_percent",
        )
        .bind(nanos(limits.daily)?)
        .bind(nanos(limits.monthly)?)
        .bind(i64::from(limits.warn_percent))
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Whether a request estimated to cost `estimate` may go ahead, given what was spent today
    /// and this month in `tz` at `now`. Block when the request would take spending past a
    /// limit; warn when it would reach the warning threshold.
    pub async fn check_budget(
        &self,
        tz: Tz,
        now: DateTime<Utc>,
        estimate: Decimal,
    ) -> Result<BudgetCheck> {
        if estimate.is_sign_negative() {
            return Err(StoreError::InvalidInput(
                "an estimate cannot be negative".into(),
            ));
        }
        let limits = self.budget().await?;
        // Round the estimate up to the nano-dollar rather than refuse it: it is only a guess.
        let estimate_nanos = to_nanos(
            estimate.round_dp_with_strategy(9, rust_decimal::RoundingStrategy::AwayFromZero),
        )?;
        let (today, month) = if limits.daily.is_some() || limits.monthly.is_some() {
            self.spent_today_and_month(tz, now).await?
        } else {
            (0, 0)
        };
        let daily = limits
            .daily
            .map(|l| {
                Ok::<_, StoreError>(check_period(
                    to_nanos(l)?,
                    today,
                    estimate_nanos,
                    limits.warn_percent,
                ))
            })
            .transpose()?;
        let monthly = limits
            .monthly
            .map(|l| {
                Ok::<_, StoreError>(check_period(
                    to_nanos(l)?,
                    month,
                    estimate_nanos,
                    limits.warn_percent,
                ))
            })
            .transpose()?;
        let verdict = [&daily, &monthly]
            .into_iter()
            .flatten()
            .map(|p| p.verdict)
            .max()
            .unwrap_or(Verdict::Allow);
        Ok(BudgetCheck {
            verdict,
            estimate: from_nanos(estimate_nanos),
            warn_percent: limits.warn_percent,
            daily,
            monthly,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{billing, record, temp_store};
    use chrono::TimeZone;
    use std::str::FromStr;

    fn dec(s: &str) -> Decimal {
        Decimal::from_str(s).unwrap()
    }

    #[test]
    fn period_verdicts_at_the_edges() {
        // limit 10, warn at 80%.
        assert_eq!(check_period(10, 0, 7, 80).verdict, Verdict::Allow);
        assert_eq!(check_period(10, 0, 8, 80).verdict, Verdict::Warn);
        assert_eq!(check_period(10, 5, 5, 80).verdict, Verdict::Warn);
        assert_eq!(check_period(10, 5, 6, 80).verdict, Verdict::Block);
        let over = check_period(10, 12, 0, 80);
        assert_eq!(over.verdict, Verdict::Block);
        assert_eq!(over.remaining, Decimal::ZERO);
    }

    #[tokio::test]
    async fn limits_persist_and_are_validated() {
        let (store, dir) = temp_store().await;
        assert_eq!(store.budget().await.unwrap(), BudgetLimits::default());
        let limits = BudgetLimits {
            daily: Some(dec("1.50")),
            monthly: Some(dec("20")),
            warn_percent: 75,
        };
        store.set_budget(&limits).await.unwrap();
        store.close().await;
        let store = Store::open(dir.path().join("sightline.db")).await.unwrap();
        assert_eq!(store.budget().await.unwrap(), limits);

        let bad = BudgetLimits {
            warn_percent: 0,
            ..limits.clone()
        };
        assert!(store.set_budget(&bad).await.is_err());
        let negative = BudgetLimits {
            daily: Some(dec("-1")),
            ..limits
        };
        assert!(store.set_budget(&negative).await.is_err());
    }

    #[tokio::test]
    async fn check_uses_local_today_and_month() {
        let (store, _dir) = temp_store().await;
        let tz: Tz = "Pacific/Auckland".parse().unwrap();
        let now = Utc.with_ymd_and_hms(2026, 6, 15, 0, 0, 0).unwrap(); // 12:00 on 06-15 locally
        let spend = |id: &str, at: DateTime<Utc>, cost: &str| {
            let mut r = record(id, at);
            r.billing = Some(billing(cost, 1, "ai"));
            r
        };
        // Local times: 06-15 01:00 (today), 06-14 23:00 (yesterday), 05-31 23:00 (last month).
        store
            .record_request(&spend(
                "a",
                Utc.with_ymd_and_hms(2026, 6, 14, 13, 0, 0).unwrap(),
                "0.60",
            ))
            .await
            .unwrap();
        store
            .record_request(&spend(
                "b",
                Utc.with_ymd_and_hms(2026, 6, 14, 11, 0, 0).unwrap(),
                "3.00",
            ))
            .await
            .unwrap();
        store
            .record_request(&spend(
                "c",
                Utc.with_ymd_and_hms(2026, 5, 31, 11, 0, 0).unwrap(),
                "50",
            ))
            .await
            .unwrap();

        // No limits: always allowed, no periods.
        let open = store.check_budget(tz, now, dec("100")).await.unwrap();
        assert_eq!(open.verdict, Verdict::Allow);
        assert!(open.daily.is_none() && open.monthly.is_none());

        store
            .set_budget(&BudgetLimits {
                daily: Some(dec("1")),
                monthly: Some(dec("10")),
                warn_percent: 80,
            })
            .await
            .unwrap();
        let small = store.check_budget(tz, now, dec("0.1")).await.unwrap();
        assert_eq!(small.verdict, Verdict::Allow);
        let daily = small.daily.unwrap();
        assert_eq!(
            (daily.spent, daily.remaining, daily.after_request),
            (dec("0.6"), dec("0.4"), dec("0.7"))
        );
        let monthly = small.monthly.unwrap();
        assert_eq!(monthly.spent, dec("3.6"), "May's spend is not this month's");

        let warn = store.check_budget(tz, now, dec("0.2")).await.unwrap();
        assert_eq!(warn.verdict, Verdict::Warn);
        assert_eq!(warn.daily.unwrap().verdict, Verdict::Warn);

        let block = store
            .check_budget(tz, now, dec("0.400000001"))
            .await
            .unwrap();
        assert_eq!(block.verdict, Verdict::Block);
        assert_eq!(block.monthly.unwrap().verdict, Verdict::Allow);

        // Estimates finer than a nano-dollar are rounded up, never down.
        let tiny = store
            .check_budget(tz, now, dec("0.0000000001"))
            .await
            .unwrap();
        assert_eq!(tiny.estimate, dec("0.000000001"));
        assert!(store.check_budget(tz, now, dec("-1")).await.is_err());
    }
}
