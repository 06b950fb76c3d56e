//! The scope's summary and the aggregates that count posts: activity over time, the posting
//! heatmap and the top lists. Times are grouped in SQL by UTC quarter hour (every zone's offset
//! is a whole number of quarter hours), then each quarter is placed on the zone's clock here
//! with chrono-tz, so hours, days and weekdays are right across DST changes and in zones like
//! Asia/Kolkata (+5:30).

use std::collections::{BTreeMap, HashMap};

use chrono::{Datelike, Duration, Timelike};
use chrono_tz::Tz;
use sqlx::{QueryBuilder, Row, Sqlite};

use super::scope::{push_from, Resolved, CASHTAG, DOMAIN, HASHTAG, MENTION};
use super::types::{
    ActivityLayer, ActivitySeries, AnalysisScope, Bucket, Heatmap, ScopeSummary, StackBy, TopEntry,
    TopKind, TopList, TopLists, ACTIVITY_LAYERS,
};
use crate::error::Result;
use crate::time::{from_ms, local_date, local_day_start};
use crate::Store;

const QUARTER_MS: i64 = 15 * 60 * 1000;
const HOUR_MS: i64 = 60 * 60 * 1000;

/// Spans up to this long are shown per hour unless asked otherwise.
const HOURLY_SPAN: Duration = Duration::days(3);

/// More hourly bars than this (about 2 years and 3 months) are shown per day instead.
const MAX_HOUR_BUCKETS: i64 = 20_000;

/// The name a zone is reported by.
pub(crate) fn zone_name(tz: Tz) -> String {
    tz.name().to_owned()
}

fn bucket_for_span(first: Option<i64>, last: Option<i64>) -> Bucket {
    match (first, last) {
        (Some(first), Some(last)) if last - first > HOURLY_SPAN.num_milliseconds() => Bucket::Day,
        _ => Bucket::Hour,
    }
}

/// The start of the bucket an instant at the start of `quarter` falls in, on `tz`'s clock.
fn bucket_start(quarter: i64, bucket: Bucket, tz: Tz) -> i64 {
    let at = quarter * QUARTER_MS;
    let local = from_ms(at).with_timezone(&tz);
    match bucket {
        Bucket::Hour => at - i64::from(local.minute()) * 60_000,
        Bucket::Day => local_day_start(tz, local.date_naive()).timestamp_millis(),
    }
}

/// Every bucket start from the one holding `first` to the one holding `last`, empty ones too.
fn every_bucket(first: i64, last: i64, bucket: Bucket, tz: Tz) -> Vec<i64> {
    let mut starts = Vec::new();
    match bucket {
        Bucket::Hour => {
            let mut at = bucket_start(first.div_euclid(QUARTER_MS), bucket, tz);
            while at <= last {
                starts.push(at);
                at += HOUR_MS;
            }
        }
        Bucket::Day => {
            let end = local_date(tz, from_ms(last));
            let mut day = local_date(tz, from_ms(first));
            loop {
                starts.push(local_day_start(tz, day).timestamp_millis());
                match day.succ_opt() {
                    Some(next) if next <= end => day = next,
                    _ => break,
                }
            }
        }
    }
    starts
}

/// Top list entries with the total number of distinct keys.
fn top_from_rows(rows: Vec<(String, i64, i64, String)>) -> TopList {
    let distinct = rows.first().map_or(0, |row| row.2);
    TopList {
        entries: rows
            .into_iter()
            .map(|(key, count, _, label)| TopEntry { key, label, count })
            .collect(),
        distinct,
    }
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
        let mut sql =
            QueryBuilder::<Sqlite>::new("SELECT count(*), min(f.created_at), max(f.created_at)");
        push_from(&mut sql, &resolved);
        let (count, first, last): (i64, Option<i64>, Option<i64>) =
            sql.build_query_as().fetch_one(&self.pool).await?;
        Ok(Some(ScopeSummary {
            name,
            post_count: count,
            first: first.map(from_ms),
            last: last.map(from_ms),
            bucket: bucket_for_span(first, last),
        }))
    }

    /// Posts per hour or day on `tz`'s clock (`bucket` chosen from the span when `None`),
    /// stacked by language or account kind, with the engagement per bucket.
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
        let key = match stack_by {
            StackBy::Language => "COALESCE(f.lang, 'none')",
            StackBy::AccountKind => {
                "CASE f.account_kind WHEN 2 THEN 'verified' WHEN 1 THEN 'blue' ELSE 'other' END"
            }
        };
        let mut sql = QueryBuilder::<Sqlite>::new(format!(
            "SELECT f.created_at / {QUARTER_MS} AS quarter, {key} AS layer, count(*), \
             sum(f.engagement)"
        ));
        push_from(&mut sql, &resolved);
        sql.push(" GROUP BY quarter, layer");
        let rows: Vec<(i64, String, i64, i64)> = sql.build_query_as().fetch_all(&self.pool).await?;

        let first = rows.iter().map(|r| r.0).min().map(|q| q * QUARTER_MS);
        let last = rows.iter().map(|r| r.0).max().map(|q| q * QUARTER_MS);
        let mut bucket = bucket.unwrap_or_else(|| bucket_for_span(first, last));
        if let (Bucket::Hour, Some(first), Some(last)) = (bucket, first, last) {
            if (last - first) / HOUR_MS > MAX_HOUR_BUCKETS {
                bucket = Bucket::Day;
            }
        }
        let starts = match (first, last) {
            (Some(first), Some(last)) => every_bucket(first, last, bucket, tz),
            _ => Vec::new(),
        };
        let index: HashMap<i64, usize> = starts.iter().enumerate().map(|(i, s)| (*s, i)).collect();

        let mut layers: BTreeMap<String, Vec<i64>> = BTreeMap::new();
        let mut totals = vec![0; starts.len()];
        let mut engagement = vec![0; starts.len()];
        let mut place: HashMap<i64, usize> = HashMap::new();
        for (quarter, layer, count, engaged) in rows {
            let at = *place
                .entry(quarter)
                .or_insert_with(|| index[&bucket_start(quarter, bucket, tz)]);
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
        let mut sql = QueryBuilder::<Sqlite>::new(format!(
            "SELECT f.created_at / {QUARTER_MS} AS quarter, count(*)"
        ));
        push_from(&mut sql, &resolved);
        sql.push(" GROUP BY quarter");
        let rows: Vec<(i64, i64)> = sql.build_query_as().fetch_all(&self.pool).await?;
        let mut cells = vec![vec![0_i64; 24]; 7];
        let mut total = 0;
        for (quarter, count) in rows {
            let local = from_ms(quarter * QUARTER_MS).with_timezone(&tz);
            let day = local.weekday().num_days_from_monday() as usize;
            cells[day][local.hour() as usize] += count;
            total += count;
        }
        Ok(Some(Heatmap {
            zone: zone_name(tz),
            cells,
            total,
        }))
    }

    /// Every top list of the scope, `limit` entries each.
    pub async fn analysis_top(
        &self,
        scope: &AnalysisScope,
        limit: u32,
    ) -> Result<Option<TopLists>> {
        let Some(resolved) = self.resolve_scope(scope).await? else {
            return Ok(None);
        };
        let limit = i64::from(limit.clamp(1, 1_000));
        Ok(Some(TopLists {
            accounts_by_posts: self.top_accounts(&resolved, "count(*)", limit).await?,
            accounts_by_engagement: self
                .top_accounts(&resolved, "sum(f.engagement)", limit)
                .await?,
            hashtags: self.top_entities(&resolved, HASHTAG, limit).await?,
            mentions: self.top_entities(&resolved, MENTION, limit).await?,
            cashtags: self.top_entities(&resolved, CASHTAG, limit).await?,
            domains: self.top_entities(&resolved, DOMAIN, limit).await?,
            languages: self.top_languages(&resolved, limit).await?,
        }))
    }

    /// One top list (for its CSV), all of it up to `limit` entries.
    pub async fn analysis_top_list(
        &self,
        scope: &AnalysisScope,
        kind: TopKind,
        limit: u32,
    ) -> Result<Option<TopList>> {
        let Some(resolved) = self.resolve_scope(scope).await? else {
            return Ok(None);
        };
        let limit = i64::from(limit.max(1));
        Ok(Some(match kind {
            TopKind::AccountsByPosts => self.top_accounts(&resolved, "count(*)", limit).await?,
            TopKind::AccountsByEngagement => {
                self.top_accounts(&resolved, "sum(f.engagement)", limit)
                    .await?
            }
            TopKind::Hashtags => self.top_entities(&resolved, HASHTAG, limit).await?,
            TopKind::Mentions => self.top_entities(&resolved, MENTION, limit).await?,
            TopKind::Cashtags => self.top_entities(&resolved, CASHTAG, limit).await?,
            TopKind::Domains => self.top_entities(&resolved, DOMAIN, limit).await?,
            TopKind::Languages => self.top_languages(&resolved, limit).await?,
        }))
    }

    /// Authors by `measure`, each labelled with the handle of their newest stored post.
    async fn top_accounts(&self, scope: &Resolved, measure: &str, limit: i64) -> Result<TopList> {
        let mut sql = QueryBuilder::<Sqlite>::new(format!(
            "SELECT g.author, g.n, g.distinct_n, '@' || p.author_username FROM (
                 SELECT f.author, {measure} AS n, max(f.post_pk) AS last_pk,
                        count(*) OVER () AS distinct_n"
        ));
        push_from(&mut sql, scope);
        sql.push(" GROUP BY f.author ORDER BY n DESC, f.author LIMIT ")
            .push_bind(limit)
            .push(") AS g JOIN posts p ON p.pk = g.last_pk ORDER BY g.n DESC, g.author");
        Ok(top_from_rows(
            sql.build_query_as().fetch_all(&self.pool).await?,
        ))
    }

    async fn top_languages(&self, scope: &Resolved, limit: i64) -> Result<TopList> {
        let mut sql =
            QueryBuilder::<Sqlite>::new("SELECT f.lang, count(*) AS n, count(*) OVER (), f.lang");
        push_from(&mut sql, scope);
        sql.push(" AND f.lang IS NOT NULL GROUP BY f.lang ORDER BY n DESC, f.lang LIMIT ")
            .push_bind(limit);
        Ok(top_from_rows(
            sql.build_query_as().fetch_all(&self.pool).await?,
        ))
    }

    /// Tags, mentions, cashtags or hosts by the number of the scope's posts naming them.
    async fn top_entities(&self, scope: &Resolved, kind: i64, limit: i64) -> Result<TopList> {
        let label = match kind {
            HASHTAG => "'#' || e.value",
            MENTION => "'@' || e.value",
            CASHTAG => "'$' || upper(e.value)",
            _ => "e.value",
        };
        let mut sql = QueryBuilder::<Sqlite>::new(format!(
            "SELECT e.value, count(*) AS n, count(*) OVER (), {label} FROM post_entities e
             WHERE e.kind = "
        ));
        sql.push_bind(kind);
        if !scope.is_everything() {
            sql.push(" AND e.post_pk IN (SELECT f.post_pk");
            push_from(&mut sql, scope);
            sql.push(")");
        }
        sql.push(" GROUP BY e.value ORDER BY n DESC, e.value LIMIT ")
            .push_bind(limit);
        let rows = sql.build().fetch_all(&self.pool).await?;
        let rows = rows
            .iter()
            .map(|row| {
                Ok((
                    row.try_get(0)?,
                    row.try_get(1)?,
                    row.try_get(2)?,
                    row.try_get(3)?,
                ))
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(top_from_rows(rows))
    }
}
