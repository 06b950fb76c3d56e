//! The state of this archive that is not a record: a key/value table (`archive_state`,
//! migration 0013) with JSON values, typed at the edge by the caller. It holds the active
//! investigation (an id that means something only in this database, so it stays with the file
//! rather than in the app's settings, which live in core's `settings.json`).

use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::error::Result;
use crate::time::to_ms;
use crate::Store;

impl Store {
    /// The archive state `key`, decoded from JSON; `None` when it was never set.
    pub async fn archive_state<T: DeserializeOwned>(&self, key: &str) -> Result<Option<T>> {
        let value: Option<String> =
            sqlx::query_scalar("SELECT value FROM archive_state WHERE key = ?")
                .bind(key)
                .fetch_optional(&self.pool)
                .await?;
        Ok(value.map(|v| serde_json::from_str(&v)).transpose()?)
    }

    /// Saves the archive state `key` as JSON.
    pub async fn set_archive_state<T: Serialize + ?Sized>(
        &self,
        key: &str,
        value: &T,
    ) -> Result<()> {
        sqlx::query(
            "INSERT INTO archive_state (key, value, updated_at) VALUES (?, ?, ?)
             ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
        )
        .bind(key)
        .bind(serde_json::to_string(value)?)
        .bind(to_ms(chrono::Utc::now()))
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Removes the archive state `key`; false when it was not set.
    pub async fn remove_archive_state(&self, key: &str) -> Result<bool> {
        let done = sqlx::query("DELETE FROM archive_state WHERE key = ?")
            .bind(key)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }
}

#[cfg(test)]
mod tests {
    use crate::test_support::{database_at, record, temp_store};
    use crate::Store;
    use chrono::Utc;
    use serde::{Deserialize, Serialize};

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Mark {
        dataset: String,
        posts: u32,
    }

    #[tokio::test]
    async fn round_trips_json_values() {
        let (store, _dir) = temp_store().await;
        assert_eq!(store.archive_state::<Mark>("mark").await.unwrap(), None);
        let mark = Mark {
            dataset: "bench".into(),
            posts: 50,
        };
        store.set_archive_state("mark", &mark).await.unwrap();
        assert_eq!(
            store.archive_state::<Mark>("mark").await.unwrap(),
            Some(mark)
        );
        store.set_archive_state("label", "floods").await.unwrap();
        assert_eq!(
            store
                .archive_state::<String>("label")
                .await
                .unwrap()
                .as_deref(),
            Some("floods")
        );
        // A value of the wrong shape is an error, not a silent default.
        assert!(store.archive_state::<u32>("label").await.is_err());
        assert!(store.remove_archive_state("label").await.unwrap());
        assert!(!store.remove_archive_state("label").await.unwrap());
    }

    /// An archive from before migration 0013, its table still called `settings`, keeps its
    /// active investigation: it is read back, and a request recorded after the upgrade is
    /// filed under it.
    #[tokio::test]
    async fn an_archive_from_before_the_rename_keeps_its_active_investigation() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.db");
        let old = database_at(&path, 12).await;
        sqlx::query(
            "INSERT INTO investigations (id, name, created_at, updated_at)
             VALUES (7, 'Floods', 0, 0)",
        )
        .execute(&old)
        .await
        .unwrap();
        // As the previous schema's store wrote it: the id as JSON.
        sqlx::query(
            "INSERT INTO settings (key, value, updated_at)
             VALUES ('active_investigation', '7', 0)",
        )
        .execute(&old)
        .await
        .unwrap();
        old.close().await;

        let store = Store::open(&path).await.unwrap();
        assert_eq!(store.active_investigation().await.unwrap(), Some(7));
        store
            .record_request(&record("after-upgrade", Utc::now()))
            .await
            .unwrap();
        let filed: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM investigation_requests r JOIN history h ON h.id = r.history_id
             WHERE r.investigation_id = 7 AND h.request_id = 'after-upgrade'",
        )
        .fetch_one(&store.pool)
        .await
        .unwrap();
        assert_eq!(filed, 1, "filed under the active investigation");
        let tables: Vec<String> = sqlx::query_scalar(
            "SELECT name FROM sqlite_master WHERE type = 'table'
             AND name IN ('settings', 'archive_state')",
        )
        .fetch_all(&store.pool)
        .await
        .unwrap();
        assert_eq!(tables, ["archive_state"]);
    }
}
