//! The top lists: accounts by posts and by engagement, hashtags, mentions, cashtags, linked
//! domains and languages, each counted over the scope and ranked heaviest first, ties by key.
//!
//! The whole archive's lists are read off tallies kept as posts are written (migration 0009),
//! one row per account, language and entity, not grouped from ten million posts' facts: SQLite
//! keeps only each list's heaviest entries as it reads a tally (a sort with a limit) and counts
//! its rows, so a list's few entries cross to Rust, not the 200,000 rows of every account and
//! mention (1.5 s a call at ten million posts, most of it handing rows over). Accounts are
//! labelled from their handles (migration 0028). A narrower scope's posts come back from SQLite
//! as one JSON array (their facts, with their entities) and are tallied and ranked here: SQLite
//! groups by sorting every row, which cost several times more than the tally.

use std::collections::HashMap;

use sqlx::{QueryBuilder, Sqlite, SqliteConnection};

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

/// A list's heaviest entries (key, count), heaviest first, ties by key, and how many keys it
/// has in all.
type RankedList = (Vec<(String, i64)>, i64);

/// A scope's top lists, ranked but not yet labelled.
struct Ranked {
    by_posts: RankedList,
    by_engagement: RankedList,
    /// Per entity kind.
    entities: HashMap<i64, RankedList>,
    languages: RankedList,
    /// Each listed account's handle as spelt in its newest post.
    handles: HashMap<String, String>,
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

/// A ranked list with each entry's label.
fn labelled((entries, distinct): RankedList, label: impl Fn(&str) -> String) -> TopList {
    TopList {
        entries: entries
            .into_iter()
            .map(|(key, count)| TopEntry {
                label: label(&key),
                key,
                count,
            })
            .collect(),
        distinct,
    }
}

/// The whole archive's heaviest `limit` accounts by `order` (`posts` or `engagement`, a column
/// of author_tally), ties by key, each listed one's handle put in `handles`: the handles are
/// joined to the few ranked, not to every account.
async fn archive_accounts(
    conn: &mut SqliteConnection,
    order: &'static str,
    limit: i64,
    handles: &mut HashMap<String, String>,
) -> Result<Vec<(String, i64)>> {
    let rows: Vec<(String, i64, Option<String>)> = sqlx::query_as(&format!(
        "SELECT t.author, t.{order}, h.handle FROM
             (SELECT author, {order} FROM author_tally ORDER BY {order} DESC, author LIMIT ?) t
         LEFT JOIN author_handles h ON h.author = t.author
         ORDER BY t.{order} DESC, t.author"
    ))
    .bind(limit)
    .fetch_all(conn)
    .await?;
    let mut list = Vec::with_capacity(rows.len());
    for (author, count, handle) in rows {
        if let Some(handle) = handle {
            handles.insert(author.clone(), handle);
        }
        list.push((author, count));
    }
    Ok(list)
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
        let mut ranked = if scope.is_everything() {
            self.archive_ranked(limit).await?
        } else {
            let tally = self.scope_tally(scope).await?;
            self.rank(tally, limit).await?
        };
        let handles = std::mem::take(&mut ranked.handles);
        // Each account is labelled with its handle as spelt in its newest post.
        let account_list = |list: RankedList| {
            labelled(list, |key| {
                format!("@{}", handles.get(key).map_or(key, String::as_str))
            })
        };
        let mut entity_list = |kind: i64| {
            let list = ranked.entities.remove(&kind).unwrap_or_default();
            labelled(list, |value| entity_label(kind, value))
        };
        Ok(TopLists {
            hashtags: entity_list(HASHTAG),
            mentions: entity_list(MENTION),
            cashtags: entity_list(CASHTAG),
            domains: entity_list(DOMAIN),
            accounts_by_posts: account_list(ranked.by_posts),
            accounts_by_engagement: account_list(ranked.by_engagement),
            languages: labelled(ranked.languages, str::to_owned),
        })
    }

    /// A scope's counts ranked, `limit` entries a list, its listed accounts' handles read from
    /// their newest posts.
    async fn rank(&self, tally: Tally, limit: usize) -> Result<Ranked> {
        let authors = tally.authors;
        let (by_posts, distinct) = ranked(authors.iter().map(|(a, c)| (a.clone(), c.0)), limit);
        let (by_engagement, _) = ranked(authors.iter().map(|(a, c)| (a.clone(), c.1)), limit);
        let listed = || {
            by_posts
                .iter()
                .chain(&by_engagement)
                .map(|(author, _)| author)
        };
        let pks: Vec<i64> = listed().map(|author| authors[author].2).collect();
        let by_pk: HashMap<i64, String> = sqlx::query_as(
            "SELECT pk, author_username FROM posts WHERE pk IN (SELECT value FROM json_each(?))",
        )
        .bind(serde_json::to_string(&pks)?)
        .fetch_all(&self.pool)
        .await?
        .into_iter()
        .collect();
        let handles = listed()
            .filter_map(|author| Some((author.clone(), by_pk.get(&authors[author].2)?.clone())))
            .collect();
        let mut by_kind: HashMap<i64, Vec<(String, i64)>> = HashMap::new();
        for ((kind, value), count) in tally.entities {
            by_kind.entry(kind).or_default().push((value, count));
        }
        Ok(Ranked {
            by_posts: (by_posts, distinct),
            by_engagement: (by_engagement, distinct),
            entities: by_kind
                .into_iter()
                .map(|(kind, counts)| (kind, ranked(counts, limit)))
                .collect(),
            languages: ranked(tally.languages, limit),
            handles,
        })
    }

    /// The whole archive's lists off its tallies (migrations 0009 and 0028), each ranked by
    /// SQLite as it reads the tally: only the heaviest `limit` of a list, ties by key, and the
    /// tally's number of rows come back.
    async fn archive_ranked(&self, limit: usize) -> Result<Ranked> {
        let sql_limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let mut conn = self.pool.acquire().await?;
        let conn = &mut *conn;
        let mut handles = HashMap::new();
        let by_posts = archive_accounts(conn, "posts", sql_limit, &mut handles).await?;
        let by_engagement = archive_accounts(conn, "engagement", sql_limit, &mut handles).await?;
        let distinct: i64 = sqlx::query_scalar("SELECT count(*) FROM author_tally")
            .fetch_one(&mut *conn)
            .await?;
        let mut entities = HashMap::new();
        for kind in [HASHTAG, MENTION, CASHTAG, DOMAIN] {
            let entries: Vec<(String, i64)> = sqlx::query_as(
                "SELECT value, posts FROM entity_tally WHERE kind = ?
                 ORDER BY posts DESC, value LIMIT ?",
            )
            .bind(kind)
            .bind(sql_limit)
            .fetch_all(&mut *conn)
            .await?;
            let count: i64 = sqlx::query_scalar("SELECT count(*) FROM entity_tally WHERE kind = ?")
                .bind(kind)
                .fetch_one(&mut *conn)
                .await?;
            entities.insert(kind, (entries, count));
        }
        // One row a language: read whole.
        let languages: Vec<(String, i64)> = sqlx::query_as("SELECT lang, posts FROM lang_tally")
            .fetch_all(&mut *conn)
            .await?;
        Ok(Ranked {
            by_posts: (by_posts, distinct),
            by_engagement: (by_engagement, distinct),
            entities,
            languages: ranked(languages, limit),
            handles,
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
