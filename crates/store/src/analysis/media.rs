//! The scope's most-shared pictures: the scope's posts that hold a kept picture (or a video's
//! kept poster), handed to the media matcher (`media/matching.rs`), which groups exact and near
//! copies and counts the posts holding each group. The same scope as every count (`scope.rs`).

use sqlx::{QueryBuilder, Sqlite};

use super::scope::push_from;
use super::types::AnalysisScope;
use crate::error::Result;
use crate::media::SharedPicture;
use crate::Store;

impl Store {
    /// The pictures held by more than one post of the scope, most posts first, at most
    /// `limit`; near copies (PDQ within `max_distance` bits) count as one picture. `None` when
    /// the scope's request or investigation is gone.
    pub async fn analysis_shared_media(
        &self,
        scope: &AnalysisScope,
        max_distance: u32,
        limit: usize,
    ) -> Result<Option<Vec<SharedPicture>>> {
        let Some(resolved) = self.resolve_scope(scope).await? else {
            return Ok(None);
        };
        // Only the scope's posts holding a kept file are handed on: a whole archive's scope
        // is mostly posts without media.
        let mut sql =
            QueryBuilder::<Sqlite>::new("SELECT p.id FROM posts p JOIN (SELECT f.post_pk AS pk");
        push_from(&mut sql, &resolved);
        sql.push(
            ") AS s ON s.pk = p.pk WHERE EXISTS (SELECT 1 FROM media_items m
                 WHERE m.post_id = p.id AND m.state = 'kept')",
        );
        let post_ids: Vec<String> = sql.build_query_scalar().fetch_all(&self.pool).await?;
        Ok(Some(
            self.most_shared_media(&post_ids, max_distance, limit)
                .await?,
        ))
    }
}
