//! Every aggregate checked against a plain recount over the same posts, written here as simply
//! as possible, on real SQLite files: counts, top lists, heatmap cells and activity buckets in
//! UTC, across New York's DST changes (March and November) and in Asia/Kolkata (+5:30), and
//! the network's edges; scopes of each kind (a request's, its results alone), filters and ranges;
//! the migration's backfill; the
//! conversation tree.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use chrono::{DateTime, Datelike, Duration, NaiveDate, TimeZone, Timelike, Utc};
use chrono_tz::Tz;
use serde_json::json;

use super::*;
use crate::test_support::{first_release_db, record, temp_store};
use crate::{InvestigationItem, NewPost, PostQuery, Store};

/// A small deterministic generator, so the corpus is varied but the same every run.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

const TAGS: [&str; 5] = ["Flood", "flood", "Storm", "harbour", "ferry"];
const CASHTAGS: [&str; 3] = ["BTC", "eth", "AAPL"];
const LINKS: [&str; 5] = [
    "https://www.Example.com/a?b=1",
    "http://news.site.org:8080/x",
    "https://example.com",
    "https://blog.example.com#top",
    "https://t.co/abc",
];
const LANGS: [Option<&str>; 5] = [Some("en"), Some("de"), Some("fr"), Some("ja"), None];

/// What the test knows about each post, beside the record it stores.
#[derive(Clone, Debug)]
struct Fact {
    id: String,
    author: String,
    handle: String,
    at: DateTime<Utc>,
    lang: Option<String>,
    kind: &'static str,
    engagement: i64,
    tags: BTreeSet<String>,
    mentions: BTreeSet<String>,
    cashtags: BTreeSet<String>,
    domains: BTreeSet<String>,
    reply_to: Option<(String, String)>,
    quoted: Option<(String, String)>,
}

fn host(link: &str) -> String {
    let rest = link.split_once("://").map_or(link, |(_, rest)| rest);
    let host = rest
        .split(['/', '?', '#', ':'])
        .next()
        .unwrap_or_default()
        .to_lowercase();
    host.strip_prefix("www.").map(str::to_owned).unwrap_or(host)
}

/// `count` posts, one every 37 minutes from `start`, by 12 accounts (one spelt two ways).
fn corpus(
    seed: u64,
    start: DateTime<Utc>,
    count: usize,
    first_id: u64,
) -> (Vec<NewPost>, Vec<Fact>) {
    let mut rng = Lcg(seed);
    let mut posts: Vec<NewPost> = Vec::new();
    let mut facts: Vec<Fact> = Vec::new();
    for n in 0..count {
        let account = rng.next(12);
        let handle = if account == 3 && n % 2 == 0 {
            "Acct3".to_owned()
        } else {
            format!("acct{account}")
        };
        let at = start + Duration::minutes(37 * n as i64);
        let id = (first_id + n as u64).to_string();
        let (verified, blue, kind) = match account % 5 {
            0 => (true, false, "verified"),
            1 => (false, true, "blue"),
            _ => (false, false, "other"),
        };
        let lang = LANGS[rng.next(LANGS.len())].map(str::to_owned);
        let tags: Vec<&str> = (0..rng.next(3))
            .map(|_| TAGS[rng.next(TAGS.len())])
            .collect();
        let mentions: Vec<String> = (0..rng.next(3))
            .map(|_| {
                let m = rng.next(14);
                if m == 3 {
                    "ACCT3".into()
                } else {
                    format!("acct{m}")
                }
            })
            .collect();
        let cashtags: Vec<&str> = (0..rng.next(2)).map(|_| CASHTAGS[rng.next(3)]).collect();
        let links: Vec<&str> = (0..rng.next(3))
            .map(|_| LINKS[rng.next(LINKS.len())])
            .collect();
        let reply_to = (n > 0 && rng.next(3) == 0).then(|| facts[rng.next(facts.len())].clone());
        let quoted = (n > 0 && rng.next(5) == 0).then(|| facts[rng.next(facts.len())].clone());
        let (likes, reposts, replies, quotes) = (
            rng.next(50) as i64,
            rng.next(9) as i64,
            rng.next(4) as i64,
            rng.next(3) as i64,
        );
        let mut raw = json!({
            "id": id,
            "text": format!("post {n}"),
            "user": {"id": format!("u{account}"), "username": handle, "verified": verified, "is_blue_verified": blue},
            "entities": {
                "hashtags": tags.iter().map(|t| json!({"text": t, "indices": [0, 1]})).collect::<Vec<_>>(),
                "user_mentions": mentions.iter().map(|m| json!({"id_str": "1", "name": m, "screen_name": m, "indices": [0, 1]})).collect::<Vec<_>>(),
                "symbols": cashtags.iter().map(|t| json!({"text": t, "indices": [0, 1]})).collect::<Vec<_>>(),
                "urls": links.iter().map(|l| if l.starts_with("https://t.co") {
                    json!({"url": l, "expanded_url": null, "display_url": l})
                } else {
                    json!({"url": "https://t.co/x", "expanded_url": l, "display_url": l})
                }).collect::<Vec<_>>(),
            },
        });
        if let Some(parent) = &reply_to {
            raw["in_reply_to_status_id"] = json!(parent.id);
            raw["in_reply_to_screen_name"] = json!(parent.handle);
        }
        if let Some(q) = &quoted {
            raw["quoted_status_id"] = json!(q.id);
            raw["quote"] = json!({"id": q.id, "user": {"id": "q", "username": q.handle}});
        }
        posts.push(NewPost {
            id: id.clone(),
            conversation_id: None,
            author_id: Some(format!("u{account}")),
            author_username: handle.clone(),
            author_name: format!("Account {account}"),
            author_verified: verified || blue,
            text: format!("post {n}"),
            lang: lang.clone(),
            created_at: at,
            like_count: likes,
            retweet_count: reposts,
            reply_count: replies,
            quote_count: quotes,
            view_count: None,
            bookmark_count: 0,
            hashtags: tags.iter().map(|t| (*t).to_owned()).collect(),
            url: None,
            raw_json: raw.to_string(),
            nested: false,
        });
        facts.push(Fact {
            id,
            author: handle.to_lowercase(),
            handle,
            at,
            lang,
            kind,
            engagement: likes + reposts + replies + quotes,
            tags: tags.iter().map(|t| t.to_lowercase()).collect(),
            mentions: mentions.iter().map(|m| m.to_lowercase()).collect(),
            cashtags: cashtags.iter().map(|t| t.to_lowercase()).collect(),
            domains: links.iter().map(|l| host(l)).collect(),
            reply_to: reply_to.map(|p| (p.id, p.author)),
            quoted: quoted.map(|q| (q.id, q.author)),
        });
    }
    (posts, facts)
}

/// The whole archive, unfiltered (the analysis tests' starting scope).
pub(in crate::analysis) fn archive_scope() -> AnalysisScope {
    AnalysisScope {
        source: ScopeSource::Archive {
            query: PostQuery::default(),
        },
        from: None,
        to: None,
        filters: ScopeFilters::default(),
    }
}

/// The whole archive as a narrower scope (a range from 1970 holds every post): its counts come
/// from a pass over the posts' facts, which carry their entities, not from the archive's indexes.
fn from_1970() -> AnalysisScope {
    AnalysisScope {
        from: Some(DateTime::UNIX_EPOCH),
        ..archive_scope()
    }
}

fn utc(y: i32, m: u32, d: u32, h: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(y, m, d, h, 0, 0).unwrap()
}

/// Posts across New York's spring (8 March 2026) and autumn (1 November 2026) changes.
async fn dst_store() -> (Store, tempfile::TempDir, Vec<Fact>) {
    let (store, dir) = temp_store().await;
    let (mut posts, mut facts) = corpus(7, utc(2026, 3, 6, 0), 300, 1_000);
    let (more_posts, more_facts) = corpus(11, utc(2026, 10, 30, 0), 300, 5_000);
    posts.extend(more_posts);
    facts.extend(more_facts);
    store.archive_posts(Utc::now(), &posts).await.unwrap();
    (store, dir, facts)
}

fn recount_heatmap(facts: &[&Fact], tz: Tz) -> Vec<Vec<i64>> {
    let mut cells = vec![vec![0; 24]; 7];
    for f in facts {
        let local = f.at.with_timezone(&tz);
        cells[local.weekday().num_days_from_monday() as usize][local.hour() as usize] += 1;
    }
    cells
}

#[tokio::test]
async fn heatmap_cells_equal_a_recount_in_utc_new_york_and_kolkata() {
    let (store, _dir, facts) = dst_store().await;
    let all: Vec<&Fact> = facts.iter().collect();
    for zone in ["UTC", "America/New_York", "Asia/Kolkata"] {
        let tz: Tz = zone.parse().unwrap();
        let map = store
            .analysis_heatmap(&archive_scope(), tz)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(map.zone, zone);
        assert_eq!(map.total, facts.len() as i64);
        assert_eq!(map.cells, recount_heatmap(&all, tz), "{zone}");
    }
}

#[tokio::test]
async fn daily_activity_in_new_york_follows_its_dst_days() {
    let (store, _dir, facts) = dst_store().await;
    let tz: Tz = "America/New_York".parse().unwrap();
    let series = store
        .analysis_activity(
            &archive_scope(),
            StackBy::AccountKind,
            Some(Bucket::Day),
            tz,
        )
        .await
        .unwrap()
        .unwrap();
    let mut per_day: BTreeMap<NaiveDate, (i64, i64)> = BTreeMap::new();
    for f in &facts {
        let day = per_day
            .entry(f.at.with_timezone(&tz).date_naive())
            .or_default();
        day.0 += 1;
        day.1 += f.engagement;
    }
    // Every day from the first post's to the last's, empty ones too, each starting at local
    // midnight: 05:00 UTC in winter, 04:00 in summer.
    let first = *per_day.keys().next().unwrap();
    let last = *per_day.keys().last().unwrap();
    assert_eq!(series.starts.len() as i64, (last - first).num_days() + 1);
    for (i, start) in series.starts.iter().enumerate() {
        let local = start.with_timezone(&tz);
        assert_eq!((local.hour(), local.minute()), (0, 0), "{start}");
        let (count, engagement) = per_day
            .get(&local.date_naive())
            .copied()
            .unwrap_or_default();
        assert_eq!(series.totals[i], count, "{start}");
        assert_eq!(series.engagement[i], engagement, "{start}");
    }
    let march_8 = series
        .starts
        .iter()
        .position(|s| *s == utc(2026, 3, 8, 5))
        .unwrap();
    assert_eq!(
        series.starts[march_8 + 1],
        utc(2026, 3, 9, 4),
        "a 23-hour day"
    );
    let november_1 = series
        .starts
        .iter()
        .position(|s| *s == utc(2026, 11, 1, 4))
        .unwrap();
    assert_eq!(
        series.starts[november_1 + 1],
        utc(2026, 11, 2, 5),
        "a 25-hour day"
    );

    // Layers by account kind, each equal to its recount.
    for layer in &series.layers {
        let expected = facts.iter().filter(|f| f.kind == layer.key).count() as i64;
        assert_eq!(layer.total, expected, "{}", layer.key);
        assert_eq!(layer.counts.iter().sum::<i64>(), expected);
    }
    assert_eq!(
        series.layers.iter().map(|l| l.total).sum::<i64>(),
        facts.len() as i64
    );
}

#[tokio::test]
async fn hourly_activity_in_kolkata_starts_on_the_half_hour_and_a_range_narrows_it() {
    let (store, _dir, facts) = dst_store().await;
    let tz: Tz = "Asia/Kolkata".parse().unwrap();
    let mut scope = archive_scope();
    scope.from = Some(utc(2026, 3, 7, 0));
    scope.to = Some(utc(2026, 3, 8, 12));
    let series = store
        .analysis_activity(&scope, StackBy::Language, None, tz)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        series.bucket,
        Bucket::Hour,
        "a day and a half is shown per hour"
    );
    let inside: Vec<&Fact> = facts
        .iter()
        .filter(|f| f.at >= scope.from.unwrap() && f.at < scope.to.unwrap())
        .collect();
    let mut per_hour: HashMap<(NaiveDate, u32), i64> = HashMap::new();
    for f in &inside {
        let local = f.at.with_timezone(&tz);
        *per_hour
            .entry((local.date_naive(), local.hour()))
            .or_default() += 1;
    }
    for (i, start) in series.starts.iter().enumerate() {
        assert_eq!(start.minute(), 30, "Kolkata's hours begin at :30 UTC");
        let local = start.with_timezone(&tz);
        assert_eq!(local.minute(), 0);
        let expected = per_hour
            .get(&(local.date_naive(), local.hour()))
            .copied()
            .unwrap_or(0);
        assert_eq!(series.totals[i], expected, "{start}");
    }
    assert_eq!(series.totals.iter().sum::<i64>(), inside.len() as i64);
    for layer in &series.layers {
        let expected = inside
            .iter()
            .filter(|f| f.lang.as_deref().unwrap_or("none") == layer.key)
            .count() as i64;
        assert_eq!(layer.total, expected, "{}", layer.key);
    }
    let summary = store.analysis_summary(&scope).await.unwrap().unwrap();
    assert_eq!(summary.post_count, inside.len() as i64);
    assert_eq!(summary.first, inside.iter().map(|f| f.at).min());
    assert_eq!(summary.last, inside.iter().map(|f| f.at).max());
    assert_eq!(summary.name, "Archive");
}

/// Counts per key, ordered as the store orders a top list: most first, then by key.
fn ranked(counts: HashMap<String, i64>, limit: usize) -> (Vec<(String, i64)>, i64) {
    let distinct = counts.len() as i64;
    let mut list: Vec<(String, i64)> = counts.into_iter().collect();
    list.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    list.truncate(limit);
    (list, distinct)
}

fn keys(list: &TopList) -> (Vec<(String, i64)>, i64) {
    (
        list.entries
            .iter()
            .map(|e| (e.key.clone(), e.count))
            .collect(),
        list.distinct,
    )
}

fn count_sets<'a>(sets: impl Iterator<Item = &'a BTreeSet<String>>) -> HashMap<String, i64> {
    let mut counts = HashMap::new();
    for set in sets {
        for value in set {
            *counts.entry(value.clone()).or_default() += 1;
        }
    }
    counts
}

#[tokio::test]
async fn top_lists_equal_a_recount() {
    let (store, _dir, facts) = dst_store().await;
    let top = store
        .analysis_top(&archive_scope(), 5)
        .await
        .unwrap()
        .unwrap();

    let mut by_posts = HashMap::new();
    let mut by_engagement = HashMap::new();
    let mut languages = HashMap::new();
    for f in &facts {
        *by_posts.entry(f.author.clone()).or_default() += 1;
        *by_engagement.entry(f.author.clone()).or_default() += f.engagement;
        if let Some(lang) = &f.lang {
            *languages.entry(lang.clone()).or_default() += 1;
        }
    }
    assert_eq!(keys(&top.accounts_by_posts), ranked(by_posts, 5));
    assert_eq!(keys(&top.accounts_by_engagement), ranked(by_engagement, 5));
    assert_eq!(keys(&top.languages), ranked(languages, 5));
    assert_eq!(
        keys(&top.hashtags),
        ranked(count_sets(facts.iter().map(|f| &f.tags)), 5)
    );
    assert_eq!(
        keys(&top.mentions),
        ranked(count_sets(facts.iter().map(|f| &f.mentions)), 5)
    );
    assert_eq!(
        keys(&top.cashtags),
        ranked(count_sets(facts.iter().map(|f| &f.cashtags)), 5)
    );
    assert_eq!(
        keys(&top.domains),
        ranked(count_sets(facts.iter().map(|f| &f.domains)), 5)
    );
    assert!(top.domains.entries.iter().any(|e| e.key == "example.com"));
    assert!(top.domains.entries.iter().any(|e| e.key == "news.site.org"));

    // Labels: an account by the handle of its newest post; tags with their sigil.
    let acct3 = facts.iter().rev().find(|f| f.author == "acct3").unwrap();
    let label = top
        .accounts_by_posts
        .entries
        .iter()
        .chain(&top.accounts_by_engagement.entries)
        .find(|e| e.key == "acct3")
        .map(|e| e.label.clone());
    if let Some(label) = label {
        assert_eq!(label, format!("@{}", acct3.handle));
    }
    assert!(top
        .hashtags
        .entries
        .iter()
        .all(|e| e.label == format!("#{}", e.key)));
    assert!(top
        .cashtags
        .entries
        .iter()
        .all(|e| e.label == format!("${}", e.key.to_uppercase())));
}

#[tokio::test]
async fn filters_from_clicks_narrow_every_count() {
    let (store, _dir, facts) = dst_store().await;
    let mut scope = archive_scope();
    scope.filters = ScopeFilters {
        hashtag: Some("#FLOOD".into()),
        domain: Some("www.example.com".into()),
        ..ScopeFilters::default()
    };
    let expected: Vec<&Fact> = facts
        .iter()
        .filter(|f| f.tags.contains("flood") && f.domains.contains("example.com"))
        .collect();
    assert!(!expected.is_empty());
    let summary = store.analysis_summary(&scope).await.unwrap().unwrap();
    assert_eq!(summary.post_count, expected.len() as i64);
    let map = store
        .analysis_heatmap(&scope, Tz::UTC)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(map.cells, recount_heatmap(&expected, Tz::UTC));

    scope.filters = ScopeFilters {
        account: Some("@ACCT3".into()),
        mention: Some("acct5".into()),
        language: Some("en".into()),
        cashtag: None,
        ..ScopeFilters::default()
    };
    let expected = facts
        .iter()
        .filter(|f| {
            f.author == "acct3" && f.mentions.contains("acct5") && f.lang.as_deref() == Some("en")
        })
        .count();
    let summary = store.analysis_summary(&scope).await.unwrap().unwrap();
    assert_eq!(summary.post_count, expected as i64);

    scope.filters = ScopeFilters {
        cashtag: Some("$btc".into()),
        ..ScopeFilters::default()
    };
    let top = store.analysis_top(&scope, 50).await.unwrap().unwrap();
    let expected: HashMap<String, i64> = count_sets(
        facts
            .iter()
            .filter(|f| f.cashtags.contains("btc"))
            .map(|f| &f.tags),
    );
    assert_eq!(keys(&top.hashtags), ranked(expected, 50));
}

#[tokio::test]
async fn request_and_investigation_scopes_hold_their_posts() {
    let (store, _dir) = temp_store().await;
    let (posts, facts) = corpus(3, utc(2026, 5, 1, 0), 120, 9_000);
    let mut page1 = record("p1", Utc::now());
    page1.params_json = json!({"query": "floods"}).to_string();
    page1.posts = posts[..50].to_vec();
    let page1_id = match store.record_request(&page1).await.unwrap() {
        crate::RecordOutcome::Recorded { history_id } => history_id,
        other => panic!("{other:?}"),
    };
    let mut page2 = record("p2", Utc::now());
    page2.parent_id = Some(page1_id);
    page2.posts = posts[40..80].to_vec();
    store.record_request(&page2).await.unwrap();
    let mut unrelated = record("p3", Utc::now());
    unrelated.posts = posts[80..].to_vec();
    store.record_request(&unrelated).await.unwrap();

    let scope = AnalysisScope {
        source: ScopeSource::Request {
            history_id: page1_id,
        },
        ..archive_scope()
    };
    let summary = store.analysis_summary(&scope).await.unwrap().unwrap();
    assert_eq!(summary.name, "X search “floods”");
    assert_eq!(summary.post_count, 80, "both pages, each post once");
    let map = store
        .analysis_heatmap(&scope, Tz::UTC)
        .await
        .unwrap()
        .unwrap();
    let first80: Vec<&Fact> = facts[..80].iter().collect();
    assert_eq!(map.cells, recount_heatmap(&first80, Tz::UTC));

    let id = store
        .create_investigation("Harbour", "", Utc::now())
        .await
        .unwrap();
    let items: Vec<InvestigationItem> = facts[100..110]
        .iter()
        .map(|f| InvestigationItem::Post {
            post_id: f.id.clone(),
        })
        .collect();
    store
        .add_to_investigation(id, &items, Utc::now())
        .await
        .unwrap();
    let scope = AnalysisScope {
        source: ScopeSource::Investigation { id },
        ..archive_scope()
    };
    let summary = store.analysis_summary(&scope).await.unwrap().unwrap();
    assert_eq!(
        (summary.name.as_str(), summary.post_count),
        ("Investigation “Harbour”", 10)
    );
    let top = store.analysis_top(&scope, 100).await.unwrap().unwrap();
    let mut by_posts = HashMap::new();
    for f in &facts[100..110] {
        *by_posts.entry(f.author.clone()).or_default() += 1;
    }
    assert_eq!(keys(&top.accounts_by_posts), ranked(by_posts, 100));

    // A search in the Archive: its words, through the full-text index.
    let scope = AnalysisScope {
        source: ScopeSource::Archive {
            query: PostQuery {
                text: Some("post".into()),
                author: Some("@acct3".into()),
                ..PostQuery::default()
            },
        },
        ..archive_scope()
    };
    let summary = store.analysis_summary(&scope).await.unwrap().unwrap();
    assert_eq!(
        summary.post_count,
        facts.iter().filter(|f| f.author == "acct3").count() as i64
    );
    assert_eq!(summary.name, "Archive “post” by @acct3");

    // Gone sources answer None.
    let gone = AnalysisScope {
        source: ScopeSource::Investigation { id: 999 },
        ..archive_scope()
    };
    assert!(store.analysis_summary(&gone).await.unwrap().is_none());
    let gone = AnalysisScope {
        source: ScopeSource::Request { history_id: 999 },
        ..archive_scope()
    };
    assert!(store.analysis_top(&gone, 5).await.unwrap().is_none());
}

#[tokio::test]
async fn a_post_seen_again_updates_its_facts() {
    let (store, _dir) = temp_store().await;
    let (mut posts, _) = corpus(5, utc(2026, 5, 1, 0), 1, 100);
    store.archive_posts(Utc::now(), &posts).await.unwrap();
    posts[0].like_count = 1_000;
    posts[0].raw_json = json!({"id": posts[0].id, "user": {"verified": true}, "entities": {
        "hashtags": [{"text": "Fresh"}], "user_mentions": [{"screen_name": "Someone"}]}})
    .to_string();
    store.archive_posts(Utc::now(), &posts).await.unwrap();
    // Both ways of counting: the whole archive's indexes, and a narrower scope's pass over
    // the posts' facts (whose copy of the entities the update rewrote too).
    for scope in [archive_scope(), from_1970()] {
        let top = store.analysis_top(&scope, 5).await.unwrap().unwrap();
        assert_eq!(keys(&top.hashtags), (vec![("fresh".to_owned(), 1)], 1));
        assert_eq!(keys(&top.mentions), (vec![("someone".to_owned(), 1)], 1));
        let p = &posts[0];
        assert_eq!(
            top.accounts_by_engagement.entries[0].count,
            1_000 + p.retweet_count + p.reply_count + p.quote_count
        );
        let network = store
            .analysis_network(&scope, &NetworkQuery::default())
            .await
            .unwrap()
            .unwrap();
        let mentions: Vec<(&str, &str)> = network
            .edges
            .iter()
            .filter(|e| e.kind == EdgeKind::Mention)
            .map(|e| (e.source.as_str(), e.target.as_str()))
            .collect();
        assert_eq!(
            mentions,
            [(p.author_username.to_lowercase().as_str(), "someone")]
        );
    }
    let series = store
        .analysis_activity(&archive_scope(), StackBy::AccountKind, None, Tz::UTC)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(series.layers[0].key, "verified");
}

#[tokio::test]
async fn the_migration_backfills_posts_stored_before_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.db");
    let pool = first_release_db(&path).await;
    let raw = json!({"id": "1", "in_reply_to_status_id": "0", "in_reply_to_screen_name": "Root",
        "entities": {"hashtags": [{"text": "Old"}], "urls": [{"expanded_url": "https://www.Old.example/x"}]},
        "user": {"is_blue_verified": true}});
    sqlx::query(
        "INSERT INTO posts (id, author_username, author_name, author_verified, text, lang, created_at,
             like_count, retweet_count, reply_count, quote_count, bookmark_count, hashtags, raw_json,
             first_seen, last_seen)
         VALUES ('1', 'Ada', 'Ada', 1, 'old', 'en', 1000, 1, 2, 3, 4, 0, 'Old', ?, 0, 0),
                ('2', 'bob', 'Bob', 0, 'not json', NULL, 2000, 0, 0, 0, 0, 0, '', 'not json', 0, 0)",
    )
    .bind(raw.to_string())
    .execute(&pool)
    .await
    .unwrap();
    pool.close().await;
    let store = Store::open(&path).await.unwrap();
    for scope in [archive_scope(), from_1970()] {
        let top = store.analysis_top(&scope, 5).await.unwrap().unwrap();
        assert_eq!(keys(&top.hashtags), (vec![("old".to_owned(), 1)], 1));
        assert_eq!(keys(&top.domains), (vec![("old.example".to_owned(), 1)], 1));
        assert_eq!(keys(&top.accounts_by_posts).1, 2);
    }
    let network = store
        .analysis_network(&archive_scope(), &NetworkQuery::default())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(network.edges.len(), 1);
    assert_eq!(
        (
            network.edges[0].source.as_str(),
            network.edges[0].target.as_str(),
            network.edges[0].weight
        ),
        ("ada", "root", 1)
    );
    let series = store
        .analysis_activity(&archive_scope(), StackBy::AccountKind, None, Tz::UTC)
        .await
        .unwrap()
        .unwrap();
    let kinds: BTreeMap<String, i64> = series
        .layers
        .iter()
        .map(|l| (l.key.clone(), l.total))
        .collect();
    assert_eq!(
        kinds,
        BTreeMap::from([("blue".to_owned(), 1), ("other".to_owned(), 1)])
    );
}

mod buckets;
mod conversation;
mod edge_tallies;
mod folding;
mod nested;
mod network;
mod rollups;
mod tallies;
