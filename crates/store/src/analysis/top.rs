//! The top lists: accounts by posts and by engagement, hashtags, mentions, cashtags, linked
//! domains and languages, each counted over the scope and ranked heaviest first, ties by key.
//!
//! The whole archive's counts are read off tallies kept as posts are written (migration 0009),
//! one row per account, language and entity, not grouped from a million posts' facts. A
//! narrower scope's posts come back from SQLite as one JSON array (their facts, with their
//! entities) and are tallied here: SQLite groups by sorting every row, which cost several times
//! more than the tally.

use std::collections::HashMap;

use sqlx::{QueryBuilder, Sqlite};

use super::scope::{entity_lines, push_from, Resolved, CASHTAG, DOMAIN, HASHTAG, MENTION};
use super::types::{AnalysisScope, TopEntry, TopKind, TopList, TopLists};
use crate::error::Result;
use crate::Store;

/// What the top lists count, before ranking.
#[derive(Default)]
struct Tally {
    /// Per author (lower-case): posts, engagement and their newest post's pk (for its label).
    authors: HashMap<String, (i64, i64, i64)>,
    languages: HashMap<String, i64>,
    /// Per (entity kind, value): the posts naming it.
    entities: HashMap<(i64, String), i64>,
}

/// A scope's post as its pass reads it: author, engagement, pk, language and entities (one to
/// a line, `post_facts.entities`).
type PostRow = (String, i64, i64, Option<String>, Option<String>);

/// The heaviest `limit` of `counts`, ties by key, and how many keys there are in all.
fn ranked<K: Ord>(
    counts: impl IntoIterator<Item = (K, i64)>,
    limit: usize,
) -> (Vec<(K, i64)>, i64) {
    let mut all: Vec<(K, i64)> = counts.into_iter().collect();
    let distinct = i64::try_from(all.len()).unwrap_or(i64::MAX);
    all.sort_unstable_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    all.truncate(limit);
    (all, distinct)
}

/// A tag, mention, cashtag or host as shown.
fn entity_label(kind: i64, value: &str) -> String {
    match kind {
        HASHTAG => format!("#{value}"),
        MENTION => format!("@{value}"),
        CASHTAG => format!("${}", value.to_uppercase()),
        _ => value.to_owned(),
    }
}

impl Store {
    /// Every top list of the scope, `limit` entries each.
    pub async fn analysis_top(
        &self,
        scope: &AnalysisScope,
        limit: u32,
    ) -> Result<Option<TopLists>> {
        let Some(resolved) = self.resolve_scope(scope).await? else {
            return Ok(None);
        };
        Ok(Some(
            self.top_lists(&resolved, limit.clamp(1, 1_000)).await?,
        ))
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
        let lists = self.top_lists(&resolved, limit.max(1)).await?;
        Ok(Some(match kind {
            TopKind::AccountsByPosts => lists.accounts_by_posts,
            TopKind::AccountsByEngagement => lists.accounts_by_engagement,
            TopKind::Hashtags => lists.hashtags,
            TopKind::Mentions => lists.mentions,
            TopKind::Cashtags => lists.cashtags,
            TopKind::Domains => lists.domains,
            TopKind::Languages => lists.languages,
        }))
    }

    async fn top_lists(&self, scope: &Resolved, limit: u32) -> Result<TopLists> {
        let limit = usize::try_from(limit).unwrap_or(usize::MAX);
        let mut tally = if scope.is_everything() {
            self.archive_tally().await?
        } else {
            self.scope_tally(scope).await?
        };

        let authors = std::mem::take(&mut tally.authors);
        let (by_posts, distinct) = ranked(authors.iter().map(|(a, c)| (a, c.0)), limit);
        let (by_engagement, _) = ranked(authors.iter().map(|(a, c)| (a, c.1)), limit);
        // Each account is labelled with its handle as spelt in its newest post.
        let pks: Vec<i64> = by_posts
            .iter()
            .chain(&by_engagement)
            .map(|(author, _)| authors[*author].2)
            .collect();
        let handles: HashMap<i64, String> = sqlx::query_as(
            "SELECT pk, author_username FROM posts WHERE pk IN (SELECT value FROM json_each(?))",
        )
        .bind(serde_json::to_string(&pks)?)
        .fetch_all(&self.pool)
        .await?
        .into_iter()
        .collect();
        let account_list = |entries: Vec<(&String, i64)>| TopList {
            entries: entries
                .into_iter()
                .map(|(key, count)| TopEntry {
                    label: format!("@{}", handles.get(&authors[key].2).unwrap_or(key)),
                    key: key.clone(),
                    count,
                })
                .collect(),
            distinct,
        };

        let mut by_kind: HashMap<i64, Vec<(String, i64)>> = HashMap::new();
        for ((kind, value), count) in tally.entities {
            by_kind.entry(kind).or_default().push((value, count));
        }
        let mut entity_list = |kind: i64| {
            let (entries, distinct) = ranked(by_kind.remove(&kind).unwrap_or_default(), limit);
            TopList {
                entries: entries
                    .into_iter()
                    .map(|(key, count)| TopEntry {
                        label: entity_label(kind, &key),
                        key,
                        count,
                    })
                    .collect(),
                distinct,
            }
        };
        let (languages, language_count) = ranked(tally.languages, limit);
        Ok(TopLists {
            accounts_by_posts: account_list(by_posts),
            accounts_by_engagement: account_list(by_engagement),
            hashtags: entity_list(HASHTAG),
            mentions: entity_list(MENTION),
            cashtags: entity_list(CASHTAG),
            domains: entity_list(DOMAIN),
            languages: TopList {
                entries: languages
                    .into_iter()
                    .map(|(key, count)| TopEntry {
                        label: key.clone(),
                        key,
                        count,
                    })
                    .collect(),
                distinct: language_count,
            },
        })
    }

    /// The whole archive's counts, as the tallies of migration 0009 keep them.
    async fn archive_tally(&self) -> Result<Tally> {
        let authors: Vec<(String, i64, i64, i64)> =
            sqlx::query_as("SELECT author, posts, engagement, last_pk FROM author_tally")
                .fetch_all(&self.pool)
                .await?;
        let languages: Vec<(String, i64)> = sqlx::query_as("SELECT lang, posts FROM lang_tally")
            .fetch_all(&self.pool)
            .await?;
        let entities: Vec<(i64, String, i64)> =
            sqlx::query_as("SELECT kind, value, posts FROM entity_tally")
                .fetch_all(&self.pool)
                .await?;
        Ok(Tally {
            authors: authors
                .into_iter()
                .map(|(author, posts, engaged, last)| (author, (posts, engaged, last)))
                .collect(),
            languages: languages.into_iter().collect(),
            entities: entities
                .into_iter()
                .map(|(kind, value, n)| ((kind, value), n))
                .collect(),
        })
    }

    /// A narrower scope's counts, tallied from one pass over its posts' facts, which carry
    /// their entities (`post_facts.entities`).
    async fn scope_tally(&self, scope: &Resolved) -> Result<Tally> {
        let mut tally = Tally::default();
        let mut sql = QueryBuilder::<Sqlite>::new(
            "SELECT json_group_array(json_array(f.author, f.engagement, f.post_pk, f.lang,
                    f.entities))",
        );
        push_from(&mut sql, scope);
        let posts: String = sql.build_query_scalar().fetch_one(&self.pool).await?;
        let posts: Vec<PostRow> = serde_json::from_str(&posts)?;
        for (author, engagement, pk, lang, entities) in posts {
            let counts = tally.authors.entry(author).or_default();
            counts.0 += 1;
            counts.1 += engagement;
            counts.2 = counts.2.max(pk);
            if let Some(lang) = lang {
                *tally.languages.entry(lang).or_default() += 1;
            }
            for (kind, value) in entity_lines(entities.as_deref()) {
                *tally.entities.entry((kind, value.to_owned())).or_default() += 1;
            }
        }
        Ok(tally)
    }
}
