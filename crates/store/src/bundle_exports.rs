//! The evidence bundles this installation exported (table `bundle_exports`, migration 0016):
//! when, the file's name, the SHA-256 of its `manifest.json` and of the whole file, the
//! fingerprint of the key that signed it and the investigation it holds. "Verify a bundle"
//! looks a bundle up by its manifest's hash to say it is one this computer wrote.

use chrono::{DateTime, Utc};
use serde::Serialize;
use sqlx::Row;
use ts_rs::TS;

use crate::error::Result;
use crate::time::{from_ms, to_ms};
use crate::Store;

/// One bundle written by this installation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[ts(export)]
pub struct BundleExport {
    /// The row's id (0 before it is recorded).
    pub id: i64,
    /// When the bundle was finished.
    pub exported_at: DateTime<Utc>,
    /// The bundle's file name (no folder: the user may have moved it since).
    pub file_name: String,
    /// SHA-256 of the bundle's `manifest.json`, lower-case hex.
    pub manifest_sha256: String,
    /// SHA-256 of the whole ZIP file, lower-case hex.
    pub file_sha256: String,
    /// The fingerprint of the installation's key that signed the manifest.
    pub installation_fingerprint: String,
    /// The investigation it holds; `None` for a hand-picked selection.
    pub investigation_id: Option<i64>,
}

impl Store {
    /// Records a bundle this installation wrote; returns its id.
    pub async fn record_bundle_export(&self, export: &BundleExport) -> Result<i64> {
        let done = sqlx::query(
            "INSERT INTO bundle_exports (exported_at, file_name, manifest_sha256, file_sha256,
                 installation_fingerprint, investigation_id)
             VALUES (?, ?, ?, ?, ?, ?)",
        )
        .bind(to_ms(export.exported_at))
        .bind(&export.file_name)
        .bind(&export.manifest_sha256)
        .bind(&export.file_sha256)
        .bind(&export.installation_fingerprint)
        .bind(export.investigation_id)
        .execute(&self.pool)
        .await?;
        Ok(done.last_insert_rowid())
    }

    /// The newest bundle this installation exported whose `manifest.json` hashes to
    /// `manifest_sha256` (lower-case hex), if any.
    pub async fn bundle_export_by_manifest(
        &self,
        manifest_sha256: &str,
    ) -> Result<Option<BundleExport>> {
        let row = sqlx::query(
            "SELECT id, exported_at, file_name, manifest_sha256, file_sha256,
                    installation_fingerprint, investigation_id
             FROM bundle_exports WHERE manifest_sha256 = ? ORDER BY id DESC LIMIT 1",
        )
        .bind(manifest_sha256.to_ascii_lowercase())
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(|row| BundleExport {
            id: row.get("id"),
            exported_at: from_ms(row.get("exported_at")),
            file_name: row.get("file_name"),
            manifest_sha256: row.get("manifest_sha256"),
            file_sha256: row.get("file_sha256"),
            installation_fingerprint: row.get("installation_fingerprint"),
            investigation_id: row.get("investigation_id"),
        }))
    }
}

#[cfg(test)]
mod tests {
    use chrono::{TimeZone, Utc};

    use super::BundleExport;
    use crate::test_support::temp_store;

    fn export(manifest: &str, file_name: &str) -> BundleExport {
        BundleExport {
            id: 0,
            exported_at: Utc.with_ymd_and_hms(2026, 11, 27, 21, 30, 0).unwrap(),
            file_name: file_name.into(),
            manifest_sha256: manifest.into(),
            file_sha256: "f".repeat(64),
            installation_fingerprint: "a".repeat(64),
            investigation_id: Some(3),
        }
    }

    #[tokio::test]
    async fn an_export_is_found_by_its_manifest_hash_newest_first_and_never_edited() {
        let (store, _dir) = temp_store().await;
        let manifest = "b".repeat(64);
        store
            .record_bundle_export(&export(&manifest, "first.zip"))
            .await
            .unwrap();
        let id = store
            .record_bundle_export(&export(&manifest, "second.zip"))
            .await
            .unwrap();
        let found = store
            .bundle_export_by_manifest(&manifest.to_uppercase())
            .await
            .unwrap()
            .unwrap();
        assert_eq!(
            found,
            BundleExport {
                id,
                ..export(&manifest, "second.zip")
            }
        );
        assert_eq!(
            store
                .bundle_export_by_manifest(&"c".repeat(64))
                .await
                .unwrap(),
            None
        );
        let edit = sqlx::query("UPDATE bundle_exports SET file_name = 'forged.zip'")
            .execute(&store.pool)
            .await;
        assert!(edit.is_err(), "a record is never edited");
    }
}
