//! The activity chart's bucket follows the scope's span at the long end too: a scope of two
//! years is counted per month, of half a year per week (from Monday), on the zone's clock, each
//! bucket equal to a recount and every bucket between the first and the last present.

use super::*;

/// Clusters of posts spread over `days` days from January 2025 (one every 37 minutes in
/// each cluster, a cluster every 23 days), and their facts.
async fn spread_store(days: i64) -> (Store, tempfile::TempDir, Vec<Fact>) {
    let (store, dir) = temp_store().await;
    let (mut posts, mut facts) = (Vec::new(), Vec::new());
    let mut at = utc(2025, 1, 3, 9);
    let end = at + Duration::days(days);
    let mut id = 10_000;
    let mut seed = 3;
    while at < end {
        let (more_posts, more_facts) = corpus(seed, at, 12, id);
        posts.extend(more_posts);
        facts.extend(more_facts);
        at += Duration::days(23);
        id += 100;
        seed += 1;
    }
    store.archive_posts(Utc::now(), &posts).await.unwrap();
    (store, dir, facts)
}

#[tokio::test]
async fn two_years_are_counted_per_month_on_the_zones_clock() {
    let (store, _dir, facts) = spread_store(730).await;
    let tz: Tz = "America/New_York".parse().unwrap();
    let series = store
        .analysis_activity(&archive_scope(), StackBy::Language, None, tz)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        series.bucket,
        Bucket::Month,
        "two years are shown per month"
    );
    let mut per_month: BTreeMap<(i32, u32), i64> = BTreeMap::new();
    for f in &facts {
        let local = f.at.with_timezone(&tz);
        *per_month.entry((local.year(), local.month())).or_default() += 1;
    }
    let (first, last) = (
        *per_month.keys().next().unwrap(),
        *per_month.keys().last().unwrap(),
    );
    let months = (last.0 - first.0) * 12 + last.1 as i32 - first.1 as i32 + 1;
    assert_eq!(series.starts.len() as i32, months);
    assert!(months <= 25, "{months} bars, not 700 days");
    for (i, start) in series.starts.iter().enumerate() {
        let local = start.with_timezone(&tz);
        assert_eq!(
            (local.day(), local.hour(), local.minute()),
            (1, 0, 0),
            "{start}"
        );
        let count = per_month
            .get(&(local.year(), local.month()))
            .copied()
            .unwrap_or_default();
        assert_eq!(series.totals[i], count, "{start}");
    }
    assert_eq!(series.totals.iter().sum::<i64>(), facts.len() as i64);
}

#[tokio::test]
async fn half_a_year_is_counted_per_week_from_monday() {
    let (store, _dir, facts) = spread_store(180).await;
    let tz: Tz = "Asia/Kolkata".parse().unwrap();
    let series = store
        .analysis_activity(&archive_scope(), StackBy::AccountKind, None, tz)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(series.bucket, Bucket::Week);
    let monday_of = |f: &Fact| {
        let day = f.at.with_timezone(&tz).date_naive();
        day - Duration::days(i64::from(day.weekday().num_days_from_monday()))
    };
    let mut per_week: BTreeMap<NaiveDate, (i64, i64)> = BTreeMap::new();
    for f in &facts {
        let week = per_week.entry(monday_of(f)).or_default();
        week.0 += 1;
        week.1 += f.engagement;
    }
    let first = *per_week.keys().next().unwrap();
    let last = *per_week.keys().last().unwrap();
    assert_eq!(series.starts.len() as i64, (last - first).num_weeks() + 1);
    for (i, start) in series.starts.iter().enumerate() {
        // Each week begins at midnight on a Monday in Kolkata (18:30 UTC the Sunday before).
        let local = start.with_timezone(&tz);
        assert_eq!(local.weekday(), chrono::Weekday::Mon, "{start}");
        assert_eq!((local.hour(), local.minute()), (0, 0), "{start}");
        assert_eq!((start.hour(), start.minute()), (18, 30), "{start}");
        let (count, engagement) = per_week
            .get(&local.date_naive())
            .copied()
            .unwrap_or_default();
        assert_eq!(series.totals[i], count, "{start}");
        assert_eq!(series.engagement[i], engagement, "{start}");
    }
}

#[tokio::test]
async fn the_summary_names_the_bucket_the_span_calls_for() {
    for (days, bucket) in [
        (2, Bucket::Hour),
        (60, Bucket::Day),
        (200, Bucket::Week),
        (500, Bucket::Month),
    ] {
        let (store, _dir, _facts) = spread_store(days).await;
        let summary = store
            .analysis_summary(&archive_scope())
            .await
            .unwrap()
            .unwrap();
        assert_eq!(summary.bucket, bucket, "{days} days");
    }
}
