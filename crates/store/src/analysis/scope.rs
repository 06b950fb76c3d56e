//! A scope as SQL: the `FROM post_facts f … WHERE …` that every aggregate starts from, with
//! the scope's source (a request's paging chain, an investigation, an Archive query), its time
//! range and the filters added by clicks. Also the scope's plain-words name.

use sqlx::{QueryBuilder, Sqlite};

use super::types::{AnalysisScope, ScopeSource};
use crate::archive::read::fts_match_expression;
use crate::error::Result;
use crate::fold::fold;
use crate::time::to_ms;
use crate::Store;

/// Entity kinds as stored in `post_entities.kind` (migration 0008).
pub(super) const HASHTAG: i64 = 1;
pub(super) const MENTION: i64 = 2;
pub(super) const CASHTAG: i64 = 3;
pub(super) const DOMAIN: i64 = 4;

/// The `(kind, value)` entities of a post, from its `post_facts.entities`: one to a line, each
/// its kind's digit then its value (migration 0008).
pub(super) fn entity_lines(lines: Option<&str>) -> impl Iterator<Item = (i64, &str)> {
    lines.unwrap_or_default().split('\n').filter_map(|line| {
        let mut chars = line.chars();
        let kind = chars.next()?.to_digit(10)?;
        let value = chars.as_str();
        (!value.is_empty()).then_some((i64::from(kind), value))
    })
}

/// A scope with its source looked up: what [`push_from`] needs, all values owned.
#[derive(Debug, Clone, Default)]
pub(super) struct Resolved {
    /// Posts found by these history rows (a request's chain, or the Archive's `history_ids`).
    history_ids: Option<Vec<i64>>,
    investigation: Option<i64>,
    /// An FTS5 expression the posts must match.
    text: Option<String>,
    from_ms: Option<i64>,
    to_ms: Option<i64>,
    authors: Vec<String>,
    languages: Vec<String>,
    min_likes: Option<i64>,
    entities: Vec<(i64, String)>,
}

impl Resolved {
    /// The whole archive within a time range, if nothing else narrows it: its bounds
    /// (`from` inclusive, `to` exclusive, Unix milliseconds; `None`: unbounded).
    pub(super) fn range_only(&self) -> Option<(Option<i64>, Option<i64>)> {
        let unranged = Resolved {
            from_ms: None,
            to_ms: None,
            ..self.clone()
        };
        unranged
            .is_everything()
            .then_some((self.from_ms, self.to_ms))
    }

    /// True when nothing narrows the archive: aggregates may then read whole tables.
    pub(super) fn is_everything(&self) -> bool {
        self.history_ids.is_none()
            && self.investigation.is_none()
            && self.text.is_none()
            && self.from_ms.is_none()
            && self.to_ms.is_none()
            && self.authors.is_empty()
            && self.languages.is_empty()
            && self.min_likes.is_none()
            && self.entities.is_empty()
    }
}

/// A handle, tag or host as stored: trimmed, without its sigil, folded ([`crate::fold`]).
pub(super) fn normalise(value: &str, sigil: char) -> String {
    fold(value.trim().trim_start_matches(sigil))
}

fn later(a: Option<i64>, b: Option<i64>) -> Option<i64> {
    a.max(b)
}

fn earlier(a: Option<i64>, b: Option<i64>) -> Option<i64> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

impl Store {
    /// Looks the scope's source up; `None` when its request or investigation is gone.
    pub(super) async fn resolve_scope(&self, scope: &AnalysisScope) -> Result<Option<Resolved>> {
        let mut resolved = Resolved {
            from_ms: scope.from.map(to_ms),
            to_ms: scope.to.map(to_ms),
            ..Resolved::default()
        };
        match &scope.source {
            ScopeSource::Request { history_id } => {
                let chain = self.chain_ids(*history_id).await?;
                if chain.is_empty() {
                    return Ok(None);
                }
                resolved.history_ids = Some(chain);
            }
            ScopeSource::Investigation { id } => {
                let exists: Option<i64> =
                    sqlx::query_scalar("SELECT id FROM investigations WHERE id = ?")
                        .bind(id)
                        .fetch_optional(&self.pool)
                        .await?;
                if exists.is_none() {
                    return Ok(None);
                }
                resolved.investigation = Some(*id);
            }
            ScopeSource::Archive { query } => {
                if !query.history_ids.is_empty() {
                    resolved.history_ids = Some(query.history_ids.clone());
                }
                resolved.text = query.text.as_deref().and_then(fts_match_expression);
                resolved.from_ms = later(resolved.from_ms, query.from.map(to_ms));
                resolved.to_ms = earlier(resolved.to_ms, query.to.map(to_ms));
                if let Some(author) = query.author.as_deref().map(|a| normalise(a, '@')) {
                    if !author.is_empty() {
                        resolved.authors.push(author);
                    }
                }
                if let Some(lang) = query.lang.as_deref().map(str::trim) {
                    if !lang.is_empty() {
                        resolved.languages.push(lang.to_owned());
                    }
                }
                resolved.min_likes = query.min_likes;
            }
        }
        let f = &scope.filters;
        let mut push = |kind: i64, value: &Option<String>, sigil: char| {
            if let Some(value) = value.as_deref().map(|v| normalise(v, sigil)) {
                if !value.is_empty() {
                    resolved.entities.push((kind, value));
                }
            }
        };
        push(HASHTAG, &f.hashtag, '#');
        push(MENTION, &f.mention, '@');
        push(CASHTAG, &f.cashtag, '$');
        push(DOMAIN, &f.domain, ' ');
        if let Some(account) = f.account.as_deref().map(|a| normalise(a, '@')) {
            if !account.is_empty() {
                resolved.authors.push(account);
            }
        }
        if let Some(lang) = f.language.as_deref().map(str::trim) {
            if !lang.is_empty() {
                resolved.languages.push(lang.to_owned());
            }
        }
        // A domain is kept without `www.`, as stored.
        for (kind, value) in &mut resolved.entities {
            if *kind == DOMAIN {
                if let Some(bare) = value.strip_prefix("www.") {
                    *value = bare.to_owned();
                }
            }
        }
        Ok(Some(resolved))
    }

    /// A history row and every later page of its paging chain.
    async fn chain_ids(&self, history_id: i64) -> Result<Vec<i64>> {
        Ok(sqlx::query_scalar(
            "WITH RECURSIVE chain(id) AS (
                 SELECT id FROM history WHERE id = ?
                 UNION SELECT h.id FROM history h JOIN chain c ON h.parent_id = c.id)
             SELECT id FROM chain",
        )
        .bind(history_id)
        .fetch_all(&self.pool)
        .await?)
    }

    /// The scope's name in plain words (`None` when its source is gone).
    pub(super) async fn scope_name(&self, scope: &AnalysisScope) -> Result<Option<String>> {
        Ok(Some(match &scope.source {
            ScopeSource::Request { history_id } => {
                let Some((operation, params)): Option<(String, String)> =
                    sqlx::query_as("SELECT operation, params_json FROM history WHERE id = ?")
                        .bind(history_id)
                        .fetch_optional(&self.pool)
                        .await?
                else {
                    return Ok(None);
                };
                request_name(&operation, &params)
            }
            ScopeSource::Investigation { id } => {
                let Some(name): Option<String> =
                    sqlx::query_scalar("SELECT name FROM investigations WHERE id = ?")
                        .bind(id)
                        .fetch_optional(&self.pool)
                        .await?
                else {
                    return Ok(None);
                };
                format!("Investigation “{name}”")
            }
            ScopeSource::Archive { query } => {
                let mut name = String::from("Archive");
                if let Some(text) = query
                    .text
                    .as_deref()
                    .map(str::trim)
                    .filter(|t| !t.is_empty())
                {
                    name.push_str(&format!(" “{text}”"));
                }
                if let Some(author) = query.author.as_deref().map(|a| normalise(a, '@')) {
                    if !author.is_empty() {
                        name.push_str(&format!(" by @{author}"));
                    }
                }
                name
            }
        }))
    }
}

/// `X search “floods”`, `Timeline of @user`, `Replies to post 123`, `Reposters of post 123`.
fn request_name(operation: &str, params_json: &str) -> String {
    let params: serde_json::Value = serde_json::from_str(params_json).unwrap_or_default();
    let text = |field: &str| {
        params
            .get(field)
            .and_then(serde_json::Value::as_str)
            .map(str::trim)
            .unwrap_or_default()
            .to_owned()
    };
    match operation {
        "twitter_search" => format!("X search “{}”", text("query")),
        "twitter_user_posts" => {
            format!("Timeline of @{}", text("username").trim_start_matches('@'))
        }
        "twitter_replies" => format!("Replies by @{}", text("user").trim_start_matches('@')),
        "twitter_replies_post" => format!("Replies to post {}", text("post_id")),
        "twitter_retweeters" => format!("Reposters of post {}", text("id")),
        "twitter_post" | "twitter_post_user" | "twitter_urls" => "Posts by id or link".to_owned(),
        other => format!("Results of {}", other.replace('_', " ")),
    }
}

/// Pushes ` FROM post_facts f [JOIN …] WHERE …` for the scope.
pub(super) fn push_from(sql: &mut QueryBuilder<'_, Sqlite>, scope: &Resolved) {
    sql.push(" FROM post_facts f");
    if let Some(id) = scope.investigation {
        sql.push(
            " JOIN investigation_posts ip ON ip.post_pk = f.post_pk AND ip.investigation_id = ",
        )
        .push_bind(id);
    }
    if let Some(text) = &scope.text {
        sql.push(" JOIN (SELECT rowid AS pk FROM posts_fts WHERE posts_fts MATCH ")
            .push_bind(text.clone())
            .push(") AS hit ON hit.pk = f.post_pk");
    }
    sql.push(" WHERE 1 = 1");
    if let Some(ids) = &scope.history_ids {
        // As `IN`, SQLite gathers the pages' posts once, sorted and each once, and seeks them
        // in order (a join to a `DISTINCT` subquery cost half as much again).
        // Its results alone: not the posts they quote or repost (`nested`), as on screen.
        sql.push(" AND f.post_pk IN (SELECT post_pk FROM post_sightings WHERE nested = 0 AND history_id IN (");
        let mut list = sql.separated(", ");
        for id in ids {
            list.push_bind(*id);
        }
        sql.push("))");
    }
    if let Some(from) = scope.from_ms {
        sql.push(" AND f.created_at >= ").push_bind(from);
    }
    if let Some(to) = scope.to_ms {
        sql.push(" AND f.created_at < ").push_bind(to);
    }
    for author in &scope.authors {
        sql.push(" AND f.author = ").push_bind(author.clone());
    }
    for lang in &scope.languages {
        sql.push(" AND f.lang = ").push_bind(lang.clone());
    }
    if let Some(min) = scope.min_likes {
        sql.push(" AND f.likes >= ").push_bind(min);
    }
    for (kind, value) in &scope.entities {
        sql.push(" AND f.post_pk IN (SELECT post_pk FROM post_entities WHERE kind = ")
            .push_bind(*kind)
            .push(" AND value = ")
            .push_bind(value.clone())
            .push(")");
    }
}
