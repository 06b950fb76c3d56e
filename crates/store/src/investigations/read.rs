//! Investigation reads: the list and one summary, the detail screen's cost (from the ledger),
//! tag counts and suggestions, a page of posts under filters, which investigations hold an
//! item, and the stored copies a still-there check compares with.

use std::collections::{BTreeMap, HashMap};

use sqlx::sqlite::SqliteRow;
use sqlx::{QueryBuilder, Row, Sqlite};

use super::types::{
    DayCost, InvestigationCost, InvestigationDetail, InvestigationItem, InvestigationPost,
    InvestigationPostPage, InvestigationPostQuery, InvestigationSummary, ItemMemberships, MadeBy,
    OperationCost, PostSnapshot, TagCount,
};
use crate::archive::read::{fts_match_expression, post_from_row, POST_COLUMNS};
use crate::error::Result;
use crate::money::from_nanos;
use crate::paging;
use crate::provenance::{CaptureState, CaptureSummary};
use crate::time::{from_ms, local_date, to_ms};
use crate::{Store, Tz};

const SUMMARY_SQL: &str = "SELECT i.id, i.name, i.description, i.created_at, i.updated_at, \
    i.archived, i.media_full_view, \
    (SELECT count(*) FROM investigation_requests r WHERE r.investigation_id = i.id) AS request_count, \
    COALESCE((SELECT n.posts FROM investigation_post_counts n \
       WHERE n.investigation_id = i.id), 0) AS post_count, \
    (SELECT COALESCE(sum(l.cost_nanos), 0) FROM investigation_requests r \
       JOIN ledger l ON l.history_id = r.history_id WHERE r.investigation_id = i.id) + \
    (SELECT COALESCE(sum(h.cost_nanos), 0) FROM investigation_requests r \
       JOIN received_requests rr ON rr.history_id = r.history_id \
       JOIN history h ON h.id = r.history_id WHERE r.investigation_id = i.id) AS cost_nanos \
    FROM investigations i";

fn summary_from_row(row: &SqliteRow) -> Result<InvestigationSummary> {
    Ok(InvestigationSummary {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        description: row.try_get("description")?,
        created_at: from_ms(row.try_get("created_at")?),
        updated_at: from_ms(row.try_get("updated_at")?),
        archived: row.try_get("archived")?,
        media_full_view: row.try_get("media_full_view")?,
        request_count: row.try_get("request_count")?,
        post_count: row.try_get("post_count")?,
        cost: from_nanos(row.try_get("cost_nanos")?),
    })
}

/// Tags come back joined by the unit separator, which no typed tag holds.
const TAG_SEPARATOR: char = '\u{1f}';

impl Store {
    /// Every investigation, most recently changed first; archived ones only when asked.
    pub async fn investigations(
        &self,
        include_archived: bool,
    ) -> Result<Vec<InvestigationSummary>> {
        let rows = sqlx::query(&format!(
            "{SUMMARY_SQL} WHERE ? OR i.archived = 0 ORDER BY i.updated_at DESC, i.id DESC"
        ))
        .bind(include_archived)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(summary_from_row).collect()
    }

    /// One investigation's row in the list; `None` when there is none.
    pub async fn investigation(&self, id: i64) -> Result<Option<InvestigationSummary>> {
        let row = sqlx::query(&format!("{SUMMARY_SQL} WHERE i.id = ?"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(summary_from_row).transpose()
    }

    /// What the investigation's screen opens with; days of the cost counted in `zone`.
    pub async fn investigation_detail(
        &self,
        id: i64,
        zone: Tz,
    ) -> Result<Option<InvestigationDetail>> {
        let Some(summary) = self.investigation(id).await? else {
            return Ok(None);
        };
        let notebook: String =
            sqlx::query_scalar("SELECT notebook FROM investigations WHERE id = ?")
                .bind(id)
                .fetch_one(&self.pool)
                .await?;
        Ok(Some(InvestigationDetail {
            summary,
            notebook,
            cost: self.investigation_cost(id, zone).await?,
            zone: zone.name().to_owned(),
            tags: self.investigation_tag_counts(id).await?,
            latest_check: self.investigation_checks(id, 1).await?.into_iter().next(),
        }))
    }

    /// The ledger rows of the investigation's requests, summed exactly: in all, per calendar
    /// day in `zone`, and per operation. A request received in a case package has no ledger
    /// row (it is not this installation's spending): its cost as its collector recorded it
    /// (the history row's) counts here, as a fact about the case, and nowhere in Spend.
    pub async fn investigation_cost(&self, id: i64, zone: Tz) -> Result<InvestigationCost> {
        let rows: Vec<(i64, String, i64)> = sqlx::query_as(
            "SELECT l.at, l.operation, l.cost_nanos FROM investigation_requests r
             JOIN ledger l ON l.history_id = r.history_id WHERE r.investigation_id = ?1
             UNION ALL
             SELECT h.started_at, h.operation, h.cost_nanos FROM investigation_requests r
             JOIN received_requests rr ON rr.history_id = r.history_id
             JOIN history h ON h.id = r.history_id
             WHERE r.investigation_id = ?1 AND h.cost_nanos IS NOT NULL",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        Ok(cost_of_ledger_rows(rows, zone))
    }

    /// The ledger rows of these history rows, summed as [`Store::investigation_cost`] sums an
    /// investigation's: every charge a request made counts (a forecast's billed polls too),
    /// not only the one its history row shows.
    pub async fn requests_cost(&self, history_ids: &[i64], zone: Tz) -> Result<InvestigationCost> {
        let mut rows: Vec<(i64, String, i64)> = Vec::new();
        // A few hundred ids per query: far below SQLite's limit on bound values.
        for ids in history_ids.chunks(500) {
            let mut query = QueryBuilder::<Sqlite>::new(
                "SELECT at, operation, cost_nanos FROM ledger WHERE history_id IN (",
            );
            let mut list = query.separated(", ");
            for id in ids {
                list.push_bind(*id);
            }
            list.push_unseparated(")");
            rows.extend(query.build_query_as().fetch_all(&self.pool).await?);
        }
        Ok(cost_of_ledger_rows(rows, zone))
    }

    /// Every tag of the investigation and how many posts carry it, most used first.
    pub async fn investigation_tag_counts(&self, id: i64) -> Result<Vec<TagCount>> {
        let rows: Vec<(String, i64)> = sqlx::query_as(
            "SELECT tag, count(*) AS n FROM investigation_tags WHERE investigation_id = ?
             GROUP BY tag ORDER BY n DESC, tag",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .into_iter()
            .map(|(tag, count)| TagCount { tag, count })
            .collect())
    }

    /// Tags of the investigation that start with `prefix` (any case), most used first.
    pub async fn investigation_tag_suggestions(
        &self,
        id: i64,
        prefix: &str,
        limit: u32,
    ) -> Result<Vec<String>> {
        let pattern = prefix_pattern(prefix.trim());
        sqlx::query_scalar(
            "SELECT tag FROM investigation_tags
             WHERE investigation_id = ? AND tag LIKE ? ESCAPE '\\'
             GROUP BY tag ORDER BY count(*) DESC, tag LIMIT ?",
        )
        .bind(id)
        .bind(pattern)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await
        .map_err(Into::into)
    }

    /// One page of the investigation's posts under the filters, newest post first, and how
    /// many match in all.
    pub async fn investigation_posts(
        &self,
        id: i64,
        q: &InvestigationPostQuery,
    ) -> Result<InvestigationPostPage> {
        let key: Option<(i64, i64)> = match &q.after {
            Some(post_id) => {
                sqlx::query_as(
                    "SELECT ip.created_at, ip.post_pk FROM investigation_posts ip
                     JOIN posts p ON p.pk = ip.post_pk
                     WHERE ip.investigation_id = ? AND p.id = ?",
                )
                .bind(id)
                .bind(post_id)
                .fetch_optional(&self.pool)
                .await?
            }
            None => None,
        };
        let Some(mut sql) = posts_page_query(id, q, key) else {
            return Ok(InvestigationPostPage {
                posts: Vec::new(),
                total: 0,
            });
        };
        let rows = sql.build().fetch_all(&self.pool).await?;
        let posts = rows
            .iter()
            .map(|row| {
                let tags: Option<String> = row.try_get("tags")?;
                Ok(InvestigationPost {
                    post: post_from_row(row)?,
                    note: row.try_get("note")?,
                    tags: tags
                        .map(|t| t.split(TAG_SEPARATOR).map(str::to_owned).collect())
                        .unwrap_or_default(),
                    added_at: from_ms(row.try_get("added_at")?),
                    found_by: row.try_get("found_by")?,
                    capture: None,
                    note_by: made_by(row.try_get("note_by_name")?, row.try_get("note_by_key")?),
                    received_tags: from_json(row.try_get("received_tags")?)?,
                    other_notes: from_json(row.try_get("other_notes")?)?,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        let posts = self.with_captures(posts).await?;
        let total = self.investigation_posts_count(id, q).await?;
        Ok(InvestigationPostPage { posts, total })
    }

    /// Each post's capture: the one of the request that brought it into the investigation,
    /// or for a post added on its own, the earliest captured response that found it. One
    /// query per page for each kind.
    async fn with_captures(
        &self,
        mut posts: Vec<InvestigationPost>,
    ) -> Result<Vec<InvestigationPost>> {
        let found_by: Vec<i64> = posts.iter().filter_map(|p| p.found_by).collect();
        let mut by_request: HashMap<i64, CaptureSummary> = HashMap::new();
        for line in self.history_captures(&found_by).await? {
            if let CaptureState::Captured { capture } = line.capture {
                by_request.insert(line.history_id, capture);
            }
        }
        let on_their_own: Vec<String> = posts
            .iter()
            .filter(|p| p.found_by.is_none())
            .map(|p| p.post.id.clone())
            .collect();
        let mut by_post: HashMap<String, CaptureSummary> = HashMap::new();
        for line in self.post_captures(&on_their_own).await? {
            if let Some(capture) = line.capture {
                by_post.insert(line.post_id, capture);
            }
        }
        for post in &mut posts {
            post.capture = match post.found_by {
                Some(history_id) => by_request.get(&history_id).cloned(),
                None => by_post.remove(&post.post.id),
            };
        }
        Ok(posts)
    }

    async fn investigation_posts_count(&self, id: i64, q: &InvestigationPostQuery) -> Result<i64> {
        match posts_count_query(id, q) {
            Some(mut sql) => Ok(sql.build_query_scalar().fetch_one(&self.pool).await?),
            None => Ok(0),
        }
    }

    /// Which investigations hold each item, in the order asked.
    pub async fn investigation_memberships(
        &self,
        items: &[InvestigationItem],
    ) -> Result<Vec<ItemMemberships>> {
        let mut out = Vec::with_capacity(items.len());
        for item in items {
            let ids: Vec<i64> =
                match item {
                    InvestigationItem::Request { history_id } => sqlx::query_scalar(
                        "SELECT investigation_id FROM investigation_requests WHERE history_id = ?
                     ORDER BY investigation_id",
                    )
                    .bind(history_id)
                    .fetch_all(&self.pool)
                    .await?,
                    InvestigationItem::Post { post_id } => {
                        sqlx::query_scalar(
                            "SELECT ip.investigation_id FROM investigation_posts ip
                     JOIN posts p ON p.pk = ip.post_pk WHERE p.id = ? ORDER BY ip.investigation_id",
                        )
                        .bind(post_id)
                        .fetch_all(&self.pool)
                        .await?
                    }
                };
            out.push(ItemMemberships {
                item: item.clone(),
                investigation_ids: ids,
            });
        }
        Ok(out)
    }

    /// The stored text and counts of every post of the investigation, oldest first: what a
    /// still-there check compares the service's fresh copies with.
    pub async fn investigation_post_snapshots(&self, id: i64) -> Result<Vec<PostSnapshot>> {
        let rows = sqlx::query(
            "SELECT p.id, p.text, p.like_count, p.retweet_count, p.reply_count, p.quote_count,
                    p.view_count, p.bookmark_count
             FROM investigation_posts ip JOIN posts p ON p.pk = ip.post_pk
             WHERE ip.investigation_id = ? ORDER BY ip.created_at, ip.post_pk",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(PostSnapshot {
                    id: row.try_get("id")?,
                    text: row.try_get("text")?,
                    like_count: row.try_get("like_count")?,
                    retweet_count: row.try_get("retweet_count")?,
                    reply_count: row.try_get("reply_count")?,
                    quote_count: row.try_get("quote_count")?,
                    view_count: row.try_get("view_count")?,
                    bookmark_count: row.try_get("bookmark_count")?,
                })
            })
            .collect()
    }
}

/// A `LIKE … ESCAPE '\\'` pattern for text starting with `prefix`.
fn prefix_pattern(prefix: &str) -> String {
    let mut out = String::with_capacity(prefix.len() + 1);
    for c in prefix.chars() {
        if matches!(c, '%' | '_' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('%');
    out
}

fn author_filter(q: &InvestigationPostQuery) -> Option<&str> {
    q.author
        .as_deref()
        .map(|a| a.trim().trim_start_matches('@'))
        .filter(|a| !a.is_empty())
}

/// A page of the investigation's posts `q` matches, newest first: after `key` (the time and
/// key of the last post of the page before) when there is one, else after skipping `q.offset`
/// posts; `None` when nothing can match. The page's keys first (sorting only the time and key
/// of each match), then its rows: building whole rows, tags and sources of every match before
/// sorting cost far more.
pub(crate) fn posts_page_query(
    id: i64,
    q: &InvestigationPostQuery,
    key: Option<(i64, i64)>,
) -> Option<QueryBuilder<'_, Sqlite>> {
    let mut sql = QueryBuilder::<Sqlite>::new(format!(
        "SELECT {POST_COLUMNS}, ip.note, ip.added_at, ip.note_by_name, ip.note_by_key,
           (SELECT group_concat(t.tag, char(31)) FROM investigation_tags t
            WHERE t.investigation_id = ip.investigation_id AND t.post_pk = ip.post_pk) AS tags,
           (SELECT json_group_array(json_object('tag', t.tag,
                     'by', json_object('name', t.by_name, 'key', t.by_key)))
            FROM investigation_tags t
            WHERE t.investigation_id = ip.investigation_id AND t.post_pk = ip.post_pk
              AND t.by_key IS NOT NULL) AS received_tags,
           (SELECT json_group_array(json_object('note', o.note,
                     'by', json_object('name', o.by_name, 'key', o.by_key)))
            FROM investigation_other_notes o
            WHERE o.investigation_id = ip.investigation_id AND o.post_pk = ip.post_pk
              AND o.note <> ip.note) AS other_notes,
           (SELECT min(s.history_id) FROM post_sightings s
            JOIN investigation_requests r
              ON r.history_id = s.history_id AND r.investigation_id = ip.investigation_id
                 AND r.how <> 'check'
            WHERE s.post_pk = ip.post_pk) AS found_by
         FROM investigation_posts ip JOIN posts p ON p.pk = ip.post_pk
         WHERE ip.investigation_id = "
    ));
    sql.push_bind(id);
    sql.push(" AND ip.post_pk IN (SELECT ip.post_pk FROM investigation_posts ip");
    push_post_filters(&mut sql, id, q)?;
    // With a key, the index of the investigation's newest starts right there.
    let limit = if q.limit == 0 { 50 } else { q.limit };
    paging::push_newest_page(
        &mut sql,
        ("ip.created_at", "ip.post_pk"),
        key,
        limit,
        q.offset,
    );
    Some(sql)
}

/// The count of the investigation's posts `q` matches; `None` when nothing can match. With no
/// filter (the investigation's first view) it is read off `investigation_post_counts`
/// (migration 0023, kept by triggers): counting a million filed posts read a million index
/// entries, most of a second after a restart.
pub(crate) fn posts_count_query(
    id: i64,
    q: &InvestigationPostQuery,
) -> Option<QueryBuilder<'_, Sqlite>> {
    let unfiltered = q.text.as_deref().is_none_or(|t| t.trim().is_empty())
        && q.tag.as_deref().is_none_or(|t| t.trim().is_empty())
        && author_filter(q).is_none()
        && q.from.is_none()
        && q.to.is_none();
    if unfiltered {
        let mut sql = QueryBuilder::<Sqlite>::new(
            "SELECT COALESCE((SELECT posts FROM investigation_post_counts
                              WHERE investigation_id = ",
        );
        sql.push_bind(id).push("), 0)");
        return Some(sql);
    }
    let mut sql = QueryBuilder::<Sqlite>::new("SELECT count(*) FROM investigation_posts ip");
    push_post_filters(&mut sql, id, q)?;
    Some(sql)
}

/// The WHERE of a page or a count; `None` when the text holds nothing searchable, so nothing
/// can match.
fn push_post_filters(
    sql: &mut QueryBuilder<'_, Sqlite>,
    id: i64,
    q: &InvestigationPostQuery,
) -> Option<()> {
    sql.push(" WHERE ip.investigation_id = ").push_bind(id);
    if let Some(text) = q.text.as_deref().filter(|t| !t.trim().is_empty()) {
        let expr = fts_match_expression(text)?;
        sql.push(" AND ip.post_pk IN (SELECT rowid FROM posts_fts WHERE posts_fts MATCH ")
            .push_bind(expr)
            .push(")");
    }
    if let Some(tag) = q.tag.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
        // Not correlated with the outer row, so SQLite can drive the query from the tag's
        // index entries instead of probing it for every filed post.
        sql.push(
            " AND ip.post_pk IN (SELECT t.post_pk FROM investigation_tags t
               WHERE t.investigation_id = ",
        )
        .push_bind(id)
        .push(" AND t.tag = ")
        .push_bind(tag.to_owned())
        .push(")");
    }
    if let Some(author) = author_filter(q) {
        // Through the archive's author index: the author's posts, then which are filed here.
        sql.push(" AND ip.post_pk IN (SELECT pk FROM posts WHERE author_username = ")
            .push_bind(author.to_owned())
            .push(" COLLATE NOCASE)");
    }
    if let Some(from) = q.from {
        sql.push(" AND ip.created_at >= ").push_bind(to_ms(from));
    }
    if let Some(to) = q.to {
        sql.push(" AND ip.created_at < ").push_bind(to_ms(to));
    }
    Some(())
}

/// Ledger rows (`at` in ms, operation, cost in nanos) summed exactly: in all, per calendar day
/// in `zone`, and per operation, the dearest first.
fn cost_of_ledger_rows(rows: Vec<(i64, String, i64)>, zone: Tz) -> InvestigationCost {
    let mut total = 0i64;
    let mut days: BTreeMap<String, (i64, i64)> = BTreeMap::new();
    let mut operations: BTreeMap<String, (i64, i64)> = BTreeMap::new();
    for (at, operation, nanos) in rows {
        total += nanos;
        let day = local_date(zone, from_ms(at)).format("%Y-%m-%d").to_string();
        let entry = days.entry(day).or_default();
        entry.0 += nanos;
        entry.1 += 1;
        let entry = operations.entry(operation).or_default();
        entry.0 += nanos;
        entry.1 += 1;
    }
    let mut by_operation: Vec<OperationCost> = operations
        .into_iter()
        .map(|(operation, (nanos, requests))| OperationCost {
            operation,
            cost: from_nanos(nanos),
            requests,
        })
        .collect();
    by_operation.sort_by(|a, b| b.cost.cmp(&a.cost).then(a.operation.cmp(&b.operation)));
    InvestigationCost {
        total: from_nanos(total),
        by_day: days
            .into_iter()
            .map(|(day, (nanos, requests))| DayCost {
                day,
                cost: from_nanos(nanos),
                requests,
            })
            .collect(),
        by_operation,
    }
}

/// Who did it, when a colleague did (both columns set by a received case package).
fn made_by(name: Option<String>, key: Option<String>) -> Option<MadeBy> {
    key.map(|key| MadeBy {
        name: name.unwrap_or_default(),
        key,
    })
}

/// A JSON array SQLite built (`json_group_array`), read into its rows.
fn from_json<T: serde::de::DeserializeOwned>(text: Option<String>) -> Result<Vec<T>> {
    match text {
        Some(text) => Ok(serde_json::from_str(&text)?),
        None => Ok(Vec::new()),
    }
}
