//! Conditional-GET cache: the ETag and body last received for a request URL, so the client can
//! send `If-None-Match` and show the stored copy on a 304. The key is sent in a header and is
//! never part of the URL, so it never reaches this table.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::error::Result;
use crate::time::{from_ms, to_ms};
use crate::Store;

/// A cached response.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct CachedResponse {
    /// The GET URL it answered.
    pub url: String,
    /// The ETag the response carried, sent back to ask whether it changed.
    pub etag: String,
    /// The response body as received.
    pub body: Vec<u8>,
    /// When it was stored.
    pub stored_at: DateTime<Utc>,
}

impl Store {
    /// The cached response for `url`, if any.
    pub async fn cached_response(&self, url: &str) -> Result<Option<CachedResponse>> {
        let row: Option<(String, Vec<u8>, i64)> =
            sqlx::query_as("SELECT etag, body, stored_at FROM http_cache WHERE url = ?")
                .bind(url)
                .fetch_optional(&self.pool)
                .await?;
        Ok(row.map(|(etag, body, stored_at)| CachedResponse {
            url: url.to_owned(),
            etag,
            body,
            stored_at: from_ms(stored_at),
        }))
    }

    /// Stores (or replaces) the response for `url`.
    pub async fn cache_response(
        &self,
        url: &str,
        etag: &str,
        body: &[u8],
        stored_at: DateTime<Utc>,
    ) -> Result<()> {
        sqlx::query(
            "INSERT OR REPLACE INTO http_cache (url, etag, body, stored_at) VALUES (?, ?, ?, ?)",
        )
        .bind(url)
        .bind(etag)
        .bind(body)
        .bind(to_ms(stored_at))
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Drops cached responses stored before `before`; returns how many.
    pub async fn prune_cache(&self, before: DateTime<Utc>) -> Result<u64> {
        let done = sqlx::query("DELETE FROM http_cache WHERE stored_at < ?")
            .bind(to_ms(before))
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected())
    }

    /// Empties the cache.
    pub async fn clear_cache(&self) -> Result<()> {
        sqlx::query("DELETE FROM http_cache")
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::test_support::temp_store;
    use chrono::{TimeZone, Utc};

    #[tokio::test]
    async fn stores_replaces_and_prunes() {
        let (store, _dir) = temp_store().await;
        let url = "https://api.example/twitter/post?id=42";
        assert!(store.cached_response(url).await.unwrap().is_none());
        let t1 = Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap();
        let t2 = Utc.with_ymd_and_hms(2026, 1, 2, 0, 0, 0).unwrap();
        store
            .cache_response(url, "\"v1\"", b"{\"id\":\"42\"}", t1)
            .await
            .unwrap();
        store
            .cache_response(url, "W/\"v2\"", b"{\"id\":\"42\",\"x\":1}", t2)
            .await
            .unwrap();
        let hit = store.cached_response(url).await.unwrap().unwrap();
        assert_eq!(hit.etag, "W/\"v2\"");
        assert_eq!(hit.body, b"{\"id\":\"42\",\"x\":1}");
        assert_eq!(hit.stored_at, t2);

        store
            .cache_response("https://api.example/web?query=a", "e", b"", t1)
            .await
            .unwrap();
        assert_eq!(store.prune_cache(t2).await.unwrap(), 1);
        assert!(store.cached_response(url).await.unwrap().is_some());
        store.clear_cache().await.unwrap();
        assert!(store.cached_response(url).await.unwrap().is_none());
    }
}
