//! What the coordination finder (core's `coordination`) reads of a scope: per post only its
//! id, author, time, text, expanded links, hashtags, the post it answers and the post it
//! reposts (with that post's time, when stored), a page at a time in `post_pk` order so a
//! million-post scope is never held as JSON; and the reposters lists of the scope's posts.
//!
//! A post's expanded links are taken out of its raw JSON by SQLite, and only for the posts
//! whose entities name a linked host (`post_facts.entities`), so most rows never touch it.

use sqlx::{QueryBuilder, Sqlite};

use super::scope::{entity_lines, push_from, Resolved, HASHTAG};
use super::types::AnalysisScope;
use crate::error::Result;
use crate::Store;

/// One post as the coordination finder reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CoordinationRow {
    /// The post's row in the archive: pages are cut after it.
    pub pk: i64,
    /// The service's post id.
    pub id: String,
    /// The author's handle, folded (the network's node id).
    pub author: String,
    /// When it was written, in Unix milliseconds.
    pub at_ms: i64,
    /// The text as written.
    pub text: String,
    /// Its links, expanded (the `t.co` form when the service gave no other), each once.
    pub links: Vec<String>,
    /// Its hashtags, folded, without `#`, each once.
    pub hashtags: Vec<String>,
    /// The post it answers.
    pub reply_to_id: Option<String>,
    /// The post it reposts.
    pub repost_of: Option<String>,
    /// When the reposted post was written (Unix ms), when it is stored.
    pub repost_of_at_ms: Option<i64>,
}

/// One page's row, as SQLite hands it back.
type PageRow = (
    i64,
    String,
    String,
    i64,
    String,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<i64>,
    Option<String>,
);

impl Store {
    /// How many posts the scope holds; `None` when its source is gone.
    pub async fn coordination_post_count(&self, scope: &AnalysisScope) -> Result<Option<i64>> {
        let Some(resolved) = self.resolve_scope(scope).await? else {
            return Ok(None);
        };
        let mut count = QueryBuilder::<Sqlite>::new("SELECT count(*)");
        push_from(&mut count, &resolved);
        Ok(Some(
            count.build_query_scalar().fetch_one(&self.pool).await?,
        ))
    }

    /// Up to `limit` of the scope's posts after the row `after_pk`, in row order (start with
    /// 0; the next page starts after the last row's `pk`); `None` when the scope's source is
    /// gone. An empty page is the end.
    pub async fn coordination_page(
        &self,
        scope: &AnalysisScope,
        after_pk: i64,
        limit: u32,
    ) -> Result<Option<Vec<CoordinationRow>>> {
        let Some(resolved) = self.resolve_scope(scope).await? else {
            return Ok(None);
        };
        // The page is cut from the narrow facts rows, then only its posts' rows are read;
        // links only for a post whose entities name a host (kind 4, see `scope.rs`).
        let mut sql = QueryBuilder::<Sqlite>::new(
            "SELECT f.post_pk, p.id, f.author, f.created_at, p.text, f.entities, f.reply_to_id,
                    f.reposted_id, o.created_at,
                    CASE WHEN f.entities LIKE '4%' OR instr(f.entities, char(10) || '4') > 0
                         THEN (SELECT group_concat(COALESCE(NULLIF(json_extract(e.value,
                                  '$.expanded_url'), ''), json_extract(e.value, '$.url')),
                                  char(10))
                               FROM json_each(CASE WHEN json_valid(p.raw_json) THEN p.raw_json
                                              ELSE '{}' END, '$.entities.urls') e
                               WHERE e.type = 'object') END
             FROM (SELECT f.post_pk AS pk",
        );
        push_from(&mut sql, &resolved);
        sql.push(" AND f.post_pk > ")
            .push_bind(after_pk)
            .push(" ORDER BY f.post_pk LIMIT ")
            .push_bind(i64::from(limit.max(1)))
            .push(
                ") AS page CROSS JOIN post_facts f ON f.post_pk = page.pk
                 CROSS JOIN posts p ON p.pk = page.pk
                 LEFT JOIN posts o ON o.id = f.reposted_id ORDER BY page.pk",
            );
        let rows: Vec<PageRow> = sql.build_query_as().fetch_all(&self.pool).await?;
        Ok(Some(rows.into_iter().map(row).collect()))
    }

    /// `(post id, reposter)` of every reposters list fetched for one of the scope's posts,
    /// each pair once, with the post's time (Unix ms); `None` when the scope's source is gone.
    pub async fn coordination_reposters(
        &self,
        scope: &AnalysisScope,
    ) -> Result<Option<Vec<(String, String, i64)>>> {
        let Some(resolved) = self.resolve_scope(scope).await? else {
            return Ok(None);
        };
        let mut sql = QueryBuilder::<Sqlite>::new("");
        push_reposters(&mut sql, &resolved);
        Ok(Some(sql.build_query_as().fetch_all(&self.pool).await?))
    }
}

/// The query [`Store::coordination_reposters`] runs, pushed onto `sql`: its own function so the
/// plan test (`coordination/tests.rs`) asks SQLite how it runs exactly this SQL.
fn push_reposters(sql: &mut QueryBuilder<'_, Sqlite>, resolved: &Resolved) {
    // `+pf.post_pk`: without it SQLite carries the scope's list over to `rp`'s index and
    // probes it once per listed post for every reposter row (a 100,000-post scope with
    // 10,000 reposters ran for minutes; with it, a lookup per row: 0.2 s).
    sql.push(
        "SELECT DISTINCT r.post_id, r.reposter, pf.created_at FROM post_reposters r
         CROSS JOIN posts rp ON rp.id = r.post_id
         CROSS JOIN post_facts pf ON pf.post_pk = rp.pk
         WHERE +pf.post_pk IN (SELECT f.post_pk",
    );
    push_from(sql, resolved);
    sql.push(")");
}

fn row(
    (pk, id, author, at_ms, text, entities, reply_to_id, repost_of, repost_of_at_ms, links): PageRow,
) -> CoordinationRow {
    let hashtags = entity_lines(entities.as_deref())
        .filter(|(kind, _)| *kind == HASHTAG)
        .map(|(_, tag)| tag.to_owned())
        .collect();
    let mut links: Vec<String> = links
        .unwrap_or_default()
        .split('\n')
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect();
    links.sort_unstable();
    links.dedup();
    CoordinationRow {
        pk,
        id,
        author,
        at_ms,
        text,
        links,
        hashtags,
        reply_to_id,
        repost_of,
        repost_of_at_ms,
    }
}

#[cfg(test)]
mod tests;
