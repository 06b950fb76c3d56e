//! The scope's posts themselves, newest first, a page at a time: what choosing an account in
//! the network or a top list lists. The same scope and filters as every count (`scope.rs`), so
//! the list holds exactly the posts the views counted.

use serde::{Deserialize, Serialize};
use sqlx::{QueryBuilder, Sqlite};
use ts_rs::TS;

use super::scope::push_from;
use super::types::AnalysisScope;
use crate::archive::read::{post_from_row, POST_COLUMNS};
use crate::archive::StoredPost;
use crate::error::Result;
use crate::paging;
use crate::Store;

/// Posts per page when the caller does not say, and the most a page holds.
pub const SCOPE_POSTS_PAGE: u32 = 50;
/// The most posts one page holds.
pub const SCOPE_POSTS_MAX_PAGE: u32 = 200;

/// Which page of a scope's posts.
#[derive(Serialize, Deserialize, TS, Clone, Debug, Default, PartialEq, Eq)]
#[serde(default)]
pub struct ScopePostQuery {
    /// Posts to skip, newest first, when there is no `after` post to page from.
    pub offset: u32,
    /// Posts on the page; 0 means [`SCOPE_POSTS_PAGE`], at most [`SCOPE_POSTS_MAX_PAGE`].
    pub limit: u32,
    /// The last post of the page before (its id): the page is the posts after it, found by
    /// its time (keyset paging) rather than by skipping `offset` posts, which reads every
    /// post skipped. `offset` counts only when that post is gone.
    pub after: Option<String>,
}

/// One page of a scope's posts, newest first, and how many the scope holds in all.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct ScopePostPage {
    /// The page's posts, newest first.
    pub posts: Vec<StoredPost>,
    /// Posts the scope holds in all.
    pub total: i64,
}

impl Store {
    /// The scope's posts as stored, newest first (ties: the later stored first), paged;
    /// `None` when the scope's request or investigation is gone.
    pub async fn analysis_posts(
        &self,
        scope: &AnalysisScope,
        page: &ScopePostQuery,
    ) -> Result<Option<ScopePostPage>> {
        let Some(resolved) = self.resolve_scope(scope).await? else {
            return Ok(None);
        };
        let mut count = QueryBuilder::<Sqlite>::new("SELECT count(*)");
        push_from(&mut count, &resolved);
        let total: i64 = count.build_query_scalar().fetch_one(&self.pool).await?;

        let limit = match page.limit {
            0 => SCOPE_POSTS_PAGE,
            n => n.min(SCOPE_POSTS_MAX_PAGE),
        };
        // The page is cut from the narrow facts rows; only its posts' full rows are read.
        let mut sql = QueryBuilder::<Sqlite>::new(format!(
            "SELECT {POST_COLUMNS} FROM (SELECT f.post_pk AS pk, f.created_at AS at"
        ));
        push_from(&mut sql, &resolved);
        let key: Option<(i64, i64)> = paging::key_of(
            &self.pool,
            "SELECT created_at, post_pk FROM post_facts
             WHERE post_pk = (SELECT pk FROM posts WHERE id = ?)",
            page.after.as_deref(),
        )
        .await?;
        paging::push_newest_rows(
            &mut sql,
            ("f.created_at", "f.post_pk"),
            key,
            limit.into(),
            page.offset.into(),
        );
        sql.push(") AS page JOIN posts p ON p.pk = page.pk ORDER BY page.at DESC, page.pk DESC");
        let rows = sql.build().fetch_all(&self.pool).await?;
        let posts = rows.iter().map(post_from_row).collect::<Result<_>>()?;
        Ok(Some(ScopePostPage { posts, total }))
    }
}

#[cfg(test)]
mod tests;
