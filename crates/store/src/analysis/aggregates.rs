//! The scope's summary and the aggregates that count posts over time: activity and the posting
//! heatmap. Times are put on the zone's clock in SQL, each post's own offset
//! chosen by a `CASE` over the zone's changes (found here with chrono-tz) within the archive's
//! span, so hours, days and weekdays are right across DST changes and in zones like
//! Asia/Kolkata (+5:30), and SQL hands back one row per bucket rather than per post.
//!
//! The whole archive's activity, heatmap and post count (and a range of it whose ends fall on
//! quarter hours) read the roll-ups of migration 0021 (`activity_by_lang`, `activity_by_kind`:
//! posts and engagement per UTC quarter hour), never the posts, whenever the zone's offsets
//! over the archive's span are whole quarter hours changing on a quarter hour
//! ([`quarters_fit`]); the same SQL then places each quarter hour on the zone's clock as it
//! would each post, so the numbers are the same. A narrower scope, or a zone that breaks the
//! rule, counts its posts' facts.

use std::collections::BTreeMap;

use chrono::{Datelike, Duration, NaiveDate, Offset};
use chrono_tz::Tz;
use sqlx::{QueryBuilder, Sqlite};

use super::scope::{push_from, Resolved};
use super::types::{
    ActivityLayer, ActivitySeries, AnalysisScope, Bucket, Heatmap, ScopeSummary, StackBy,
    ACTIVITY_LAYERS,
};
use crate::error::Result;
use crate::time::{from_ms, local_day_start};
use crate::Store;

const HOUR_MS: i64 = 60 * 60 * 1000;
/// The roll-ups' step (migration 0021).
const QUARTER_MS: i64 = 15 * 60 * 1000;
const DAY_MS: i64 = 24 * HOUR_MS;

/// Spans up to this long are shown per hour unless asked otherwise,
const HOURLY_SPAN: Duration = Duration::days(3);
/// up to this long per day (at most about 92 bars),
const DAILY_SPAN: Duration = Duration::days(92);
/// up to this long per week (at most 53), and longer ones per month: a chart, its table and its
/// range lists stay readable however long the scope.
const WEEKLY_SPAN: Duration = Duration::days(366);

/// More hourly bars than this (about 2 years and 3 months) are shown per day instead.
const MAX_HOUR_BUCKETS: i64 = 20_000;

/// The name a zone is reported by.
pub(crate) fn zone_name(tz: Tz) -> String {
    tz.name().to_owned()
}

fn bucket_for_span(first: Option<i64>, last: Option<i64>) -> Bucket {
    let span = match (first, last) {
        (Some(first), Some(last)) => last - first,
        _ => 0,
    };
    if span > WEEKLY_SPAN.num_milliseconds() {
        Bucket::Month
    } else if span > DAILY_SPAN.num_milliseconds() {
        Bucket::Week
    } else if span > HOURLY_SPAN.num_milliseconds() {
        Bucket::Day
    } else {
        Bucket::Hour
    }
}

/// `tz`'s offset from UTC at an instant, in milliseconds.
fn offset_ms(tz: Tz, at: i64) -> i64 {
    i64::from(
        from_ms(at)
            .with_timezone(&tz)
            .offset()
            .fix()
            .local_minus_utc(),
    ) * 1000
}

/// The zone's offsets over `[first, last]`: `(from, offset)`, oldest first, the first one
/// holding from the beginning of time. Found by stepping a day at a time (zones change at
/// most a few times a year) and narrowing each change down to the millisecond.
pub(super) fn offsets(tz: Tz, first: i64, last: i64) -> Vec<(i64, i64)> {
    let mut changes = vec![(i64::MIN, offset_ms(tz, first))];
    let mut at = first;
    while at < last {
        let next = (at + DAY_MS).min(last);
        if offset_ms(tz, next) != offset_ms(tz, at) {
            let (mut before, mut after) = (at, next);
            while after - before > 1 {
                let mid = before + (after - before) / 2;
                if offset_ms(tz, mid) == offset_ms(tz, before) {
                    before = mid;
                } else {
                    after = mid;
                }
            }
            changes.push((after, offset_ms(tz, after)));
        }
        at = next;
    }
    changes
}

/// SQL for the offset of `f.created_at` (as `part` of each offset): a constant, or a `CASE`
/// newest change first, as most posts are recent.
fn offset_sql(changes: &[(i64, i64)], part: impl Fn(i64) -> i64) -> String {
    if changes.iter().all(|c| part(c.1) == part(changes[0].1)) {
        return part(changes[0].1).to_string();
    }
    let mut sql = String::from("CASE");
    for (from, offset) in changes.iter().skip(1).rev() {
        sql.push_str(&format!(
            " WHEN f.created_at >= {from} THEN {}",
            part(*offset)
        ));
    }
    sql.push_str(&format!(" ELSE {} END", part(changes[0].1)));
    sql
}

/// True when every offset of `changes` is a whole number of quarter hours and each change
/// falls on a quarter hour (every zone since 1980): then each UTC quarter hour lies whole within
/// one local hour and day, and its roll-up counts are its posts' ([`QUARTER_MS`]).
pub(super) fn quarters_fit(changes: &[(i64, i64)]) -> bool {
    changes.iter().enumerate().all(|(n, (from, offset))| {
        offset.rem_euclid(QUARTER_MS) == 0 && (n == 0 || from.rem_euclid(QUARTER_MS) == 0)
    })
}

/// A zone's offsets over the archive's span, and whether the roll-ups hold its counts: its
/// offsets [`quarters_fit`] and no post is older than 1970 (the SQL's division rounds toward
/// zero, which a quarter hour's start and its posts share only from 1970 on).
struct Zone {
    changes: Vec<(i64, i64)>,
    quarters_fit: bool,
}

/// The bounds of a scope the roll-ups can count: the whole archive, or the whole archive within
/// a range whose ends fall on quarter hours (as a range brushed on the chart does, snapped to
/// its hours or days): a post is within it exactly when its quarter hour's start is.
fn rollup_range(resolved: &Resolved) -> Option<(Option<i64>, Option<i64>)> {
    let (from, to) = resolved.range_only()?;
    let on_quarter = |at: Option<i64>| at.is_none_or(|at| at.rem_euclid(QUARTER_MS) == 0);
    (on_quarter(from) && on_quarter(to)).then_some((from, to))
}

/// Pushes ` WHERE …` for a range's bounds on `f.created_at`.
fn push_range(sql: &mut QueryBuilder<'_, Sqlite>, (from, to): (Option<i64>, Option<i64>)) {
    sql.push(" WHERE 1 = 1");
    if let Some(from) = from {
        sql.push(" AND f.created_at >= ").push_bind(from);
    }
    if let Some(to) = to {
        sql.push(" AND f.created_at < ").push_bind(to);
    }
}

/// The roll-ups' bounds when they hold the scope's counts in the zone.
fn rollup_for(resolved: &Resolved, zone: &Zone) -> Option<(Option<i64>, Option<i64>)> {
    rollup_range(resolved).filter(|_| zone.quarters_fit)
}

/// Where a count over time reads from: the roll-up `table` (as `f`, one row per quarter hour
/// and key, its posts in `posts`) for the whole archive, or a range of it on quarter hours, in
/// a zone whose counts it holds; else the scope's posts' facts (one row per post).
fn push_counted_from(
    sql: &mut QueryBuilder<'_, Sqlite>,
    resolved: &Resolved,
    zone: &Zone,
    table: &str,
) {
    if let Some(range) = rollup_for(resolved, zone) {
        sql.push(format!(" FROM {table} f"));
        push_range(sql, range);
    } else {
        push_from(sql, resolved);
    }
}

/// What a roll-up row or a post counts for, as [`push_counted_from`] chose.
fn counted(resolved: &Resolved, zone: &Zone) -> &'static str {
    if rollup_for(resolved, zone).is_some() {
        "sum(f.posts)"
    } else {
        "count(*)"
    }
}

/// The local day a day number (days since 1970-01-01 on the zone's clock) names.
fn day_of(number: i64) -> NaiveDate {
    NaiveDate::from_ymd_opt(1970, 1, 1).expect("a valid date") + Duration::days(number)
}

/// The week (Monday to Sunday) of day number `day`: 1 January 1970 was a Thursday, so week 0
/// begins on day -3.
fn week_of(day: i64) -> i64 {
    (day + 3).div_euclid(7)
}

/// The month of day number `day`, counted from year 0 (`year * 12 + month - 1`).
fn month_of(day: i64) -> i64 {
    let date = day_of(day);
    i64::from(date.year()) * 12 + i64::from(date.month0())
}

/// The first day of month `number` (as [`month_of`] counts them).
fn first_of_month(number: i64) -> NaiveDate {
    let year = i32::try_from(number.div_euclid(12)).unwrap_or(1970);
    let month = u32::try_from(number.rem_euclid(12)).unwrap_or(0) + 1;
    NaiveDate::from_ymd_opt(year, month, 1).expect("a valid month")
}

/// The offset's part below a whole hour (Kolkata's 30 minutes): hours on the zone's clock
/// begin that much before the UTC hour.
fn below_hour(offset: i64) -> i64 {
    offset.rem_euclid(HOUR_MS)
}

impl Store {
    /// The scope's name, post count and date span; `None` when its source is gone.
    pub async fn analysis_summary(&self, scope: &AnalysisScope) -> Result<Option<ScopeSummary>> {
        let (Some(resolved), Some(name)) = (
            self.resolve_scope(scope).await?,
            self.scope_name(scope).await?,
        ) else {
            return Ok(None);
        };
        let (count, first, last): (i64, Option<i64>, Option<i64>) =
            if let Some(range) = rollup_range(&resolved) {
                // Counted off the roll-up with fewest rows (whatever the zone: a count needs no
                // clock), the ends off post_facts_created.
                let (first, last) = self.scope_span(&resolved).await?;
                let mut sql = QueryBuilder::<Sqlite>::new(
                    "SELECT COALESCE(sum(f.posts), 0) FROM activity_by_kind f",
                );
                push_range(&mut sql, range);
                let count = sql.build_query_scalar().fetch_one(&self.pool).await?;
                (count, first, last)
            } else {
                let mut sql = QueryBuilder::<Sqlite>::new(
                    "SELECT count(*), min(f.created_at), max(f.created_at)",
                );
                push_from(&mut sql, &resolved);
                sql.build_query_as().fetch_one(&self.pool).await?
            };
        Ok(Some(ScopeSummary {
            name,
            post_count: count,
            first: first.map(from_ms),
            last: last.map(from_ms),
            bucket: bucket_for_span(first, last),
        }))
    }

    /// Posts per hour, day, week (from Monday) or month on `tz`'s clock (`bucket` chosen from
    /// the span when `None`), stacked by language or account kind, with the engagement per
    /// bucket.
    pub async fn analysis_activity(
        &self,
        scope: &AnalysisScope,
        stack_by: StackBy,
        bucket: Option<Bucket>,
        tz: Tz,
    ) -> Result<Option<ActivitySeries>> {
        let Some(resolved) = self.resolve_scope(scope).await? else {
            return Ok(None);
        };
        let (key, rollup) = match stack_by {
            StackBy::Language => ("COALESCE(f.lang, 'none')", "activity_by_lang"),
            StackBy::AccountKind => (
                "CASE f.account_kind WHEN 2 THEN 'verified' WHEN 1 THEN 'blue' ELSE 'other' END",
                "activity_by_kind",
            ),
        };
        let zone = self.zone_changes(tz).await?;
        let changes = &zone.changes;
        let bucket = match bucket {
            Some(bucket) => bucket,
            None => {
                let (first, last) = self.scope_span(&resolved).await?;
                bucket_for_span(first, last)
            }
        };
        // Weeks and months are counted per local day in SQL, then added up below.
        let key_sql = match bucket {
            Bucket::Day | Bucket::Week | Bucket::Month => {
                format!("(f.created_at + {}) / {DAY_MS}", offset_sql(changes, |o| o))
            }
            Bucket::Hour => format!(
                "(f.created_at + {}) / {HOUR_MS}",
                offset_sql(changes, below_hour)
            ),
        };
        // One JSON array back rather than a row per bucket and layer: tens of thousands of rows
        // (a year of hours) cost more to hand over one by one than to count.
        let count = counted(&resolved, &zone);
        let mut sql = QueryBuilder::<Sqlite>::new(format!(
            "SELECT json_group_array(json_array(bucket, layer, n, engaged)) FROM (
                 SELECT {key_sql} AS bucket, {key} AS layer, {count} AS n,
                        sum(f.engagement) AS engaged"
        ));
        push_counted_from(&mut sql, &resolved, &zone, rollup);
        sql.push(" GROUP BY bucket, layer)");
        let rows: String = sql.build_query_scalar().fetch_one(&self.pool).await?;
        let mut rows: Vec<(i64, String, i64, i64)> = serde_json::from_str(&rows)?;
        let to_bucket: Option<fn(i64) -> i64> = match bucket {
            Bucket::Week => Some(week_of),
            Bucket::Month => Some(month_of),
            Bucket::Hour | Bucket::Day => None,
        };
        if let Some(to_bucket) = to_bucket {
            for row in &mut rows {
                row.0 = to_bucket(row.0);
            }
        }

        // Each bucket number's start as an instant.
        let start_of = |number: i64| match bucket {
            Bucket::Day => local_day_start(tz, day_of(number)).timestamp_millis(),
            Bucket::Week => local_day_start(tz, day_of(number * 7 - 3)).timestamp_millis(),
            Bucket::Month => local_day_start(tz, first_of_month(number)).timestamp_millis(),
            Bucket::Hour => {
                let at = number * HOUR_MS;
                at - below_hour(offset_ms(tz, at))
            }
        };
        let first = rows.iter().map(|r| r.0).min();
        let last = rows.iter().map(|r| r.0).max();
        if let (Bucket::Hour, Some(first), Some(last)) = (bucket, first, last) {
            if last - first > MAX_HOUR_BUCKETS {
                return Box::pin(self.analysis_activity(scope, stack_by, Some(Bucket::Day), tz))
                    .await;
            }
        }
        // Every bucket from the first post's to the last's, empty ones too.
        let starts: Vec<i64> = match (first, last) {
            (Some(first), Some(last)) => (first..=last).map(start_of).collect(),
            _ => Vec::new(),
        };

        let mut layers: BTreeMap<String, Vec<i64>> = BTreeMap::new();
        let mut totals = vec![0; starts.len()];
        let mut engagement = vec![0; starts.len()];
        for (number, layer, count, engaged) in rows {
            let at = (number - first.unwrap_or_default()) as usize;
            layers.entry(layer).or_insert_with(|| vec![0; starts.len()])[at] += count;
            totals[at] += count;
            engagement[at] += engaged;
        }
        let mut layers: Vec<ActivityLayer> = layers
            .into_iter()
            .map(|(key, counts)| ActivityLayer {
                total: counts.iter().sum(),
                key,
                counts,
            })
            .collect();
        layers.sort_by(|a, b| b.total.cmp(&a.total).then_with(|| a.key.cmp(&b.key)));
        if layers.len() > ACTIVITY_LAYERS {
            let rest = layers.split_off(ACTIVITY_LAYERS - 1);
            let mut counts = vec![0; starts.len()];
            for layer in &rest {
                for (sum, n) in counts.iter_mut().zip(&layer.counts) {
                    *sum += n;
                }
            }
            layers.push(ActivityLayer {
                key: "others".into(),
                total: counts.iter().sum(),
                counts,
            });
        }
        Ok(Some(ActivitySeries {
            bucket,
            zone: zone_name(tz),
            starts: starts.into_iter().map(from_ms).collect(),
            layers,
            totals,
            engagement,
        }))
    }

    /// Posts per weekday (Monday first) and hour on `tz`'s clock.
    pub async fn analysis_heatmap(&self, scope: &AnalysisScope, tz: Tz) -> Result<Option<Heatmap>> {
        let Some(resolved) = self.resolve_scope(scope).await? else {
            return Ok(None);
        };
        let zone = self.zone_changes(tz).await?;
        let changes = &zone.changes;
        let local = format!("(f.created_at + {})", offset_sql(changes, |o| o));
        // 1 January 1970 was a Thursday: day number + 3, modulo 7, counts from Monday.
        let mut sql = QueryBuilder::<Sqlite>::new(format!(
            "SELECT ({local} / {DAY_MS} + 3) % 7 AS weekday, ({local} % {DAY_MS}) / {HOUR_MS} AS hour, \
             {}",
            counted(&resolved, &zone)
        ));
        push_counted_from(&mut sql, &resolved, &zone, "activity_by_kind");
        sql.push(" GROUP BY weekday, hour");
        let rows: Vec<(i64, i64, i64)> = sql.build_query_as().fetch_all(&self.pool).await?;
        let mut cells = vec![vec![0_i64; 24]; 7];
        let mut total = 0;
        for (weekday, hour, count) in rows {
            cells[weekday.rem_euclid(7) as usize][hour.rem_euclid(24) as usize] += count;
            total += count;
        }
        Ok(Some(Heatmap {
            zone: zone_name(tz),
            cells,
            total,
        }))
    }

    /// The zone's offsets over the archive's whole span (its oldest to newest post).
    async fn zone_changes(&self, tz: Tz) -> Result<Zone> {
        let (first, last) = self.archive_span(None, None).await?;
        let (first, last) = (first.unwrap_or(0), last.unwrap_or(0));
        let changes = offsets(tz, first, last);
        Ok(Zone {
            quarters_fit: first >= 0 && quarters_fit(&changes),
            changes,
        })
    }

    /// The archive's oldest and newest post, within `[from, to)` when given.
    async fn archive_span(
        &self,
        from: Option<i64>,
        to: Option<i64>,
    ) -> Result<(Option<i64>, Option<i64>)> {
        // Apart: SQLite seeks one end of an index for a lone min() or max(), but reads the
        // range whole for both in one SELECT.
        let (first, last): (Option<i64>, Option<i64>) = sqlx::query_as(
            "SELECT (SELECT min(created_at) FROM post_facts
                     WHERE created_at >= ?1 AND created_at < ?2),
                    (SELECT max(created_at) FROM post_facts
                     WHERE created_at >= ?1 AND created_at < ?2)",
        )
        .bind(from.unwrap_or(i64::MIN))
        .bind(to.unwrap_or(i64::MAX))
        .fetch_one(&self.pool)
        .await?;
        Ok((first, last))
    }

    /// The scope's oldest and newest post.
    async fn scope_span(&self, scope: &Resolved) -> Result<(Option<i64>, Option<i64>)> {
        if let Some((from, to)) = scope.range_only() {
            return self.archive_span(from, to).await;
        }
        let mut sql = QueryBuilder::<Sqlite>::new("SELECT min(f.created_at), max(f.created_at)");
        push_from(&mut sql, scope);
        Ok(sql.build_query_as().fetch_one(&self.pool).await?)
    }
}
