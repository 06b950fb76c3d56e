//! App settings: a key/value table with JSON values, typed at the edge by the caller.

use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::error::Result;
use crate::time::to_ms;
use crate::Store;

impl Store {
    /// The setting `key`, decoded from JSON; `None` when it was never set.
    pub async fn setting<T: DeserializeOwned>(&self, key: &str) -> Result<Option<T>> {
        let value: Option<String> = sqlx::query_scalar("SELECT value FROM settings WHERE key = ?")
            .bind(key)
            .fetch_optional(&self.pool)
            .await?;
        Ok(value.map(|v| serde_json::from_str(&v)).transpose()?)
    }

    /// Saves the setting `key` as JSON.
    pub async fn set_setting<T: Serialize + ?Sized>(&self, key: &str, value: &T) -> Result<()> {
        sqlx::query(
            "INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)
             ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
        )
        .bind(key)
        .bind(serde_json::to_string(value)?)
        .bind(to_ms(chrono::Utc::now()))
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Removes the setting `key`; false when it was not set.
    pub async fn remove_setting(&self, key: &str) -> Result<bool> {
        let done = sqlx::query("DELETE FROM settings WHERE key = ?")
            .bind(key)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }
}

#[cfg(test)]
mod tests {
    use crate::test_support::temp_store;
    use serde::{Deserialize, Serialize};

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Prefs {
        theme: String,
        page_size: u32,
    }

    #[tokio::test]
    async fn round_trips_json_values() {
        let (store, _dir) = temp_store().await;
        assert_eq!(store.setting::<Prefs>("prefs").await.unwrap(), None);
        let prefs = Prefs {
            theme: "dark".into(),
            page_size: 50,
        };
        store.set_setting("prefs", &prefs).await.unwrap();
        assert_eq!(store.setting::<Prefs>("prefs").await.unwrap(), Some(prefs));
        store.set_setting("tz", "Europe/Paris").await.unwrap();
        assert_eq!(
            store.setting::<String>("tz").await.unwrap().as_deref(),
            Some("Europe/Paris")
        );
        // A value of the wrong shape is an error, not a silent default.
        assert!(store.setting::<u32>("tz").await.is_err());
        assert!(store.remove_setting("tz").await.unwrap());
        assert!(!store.remove_setting("tz").await.unwrap());
    }
}
