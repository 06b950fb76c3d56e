//! Appending to a custody log, inside the caller's write transaction (so the entry and the
//! change it records are written together, or neither), and reading a log back.

use chrono::{DateTime, Utc};
use sqlx::sqlite::SqliteRow;
use sqlx::{Row, SqliteConnection};

use super::{entry_hash, CustodyAction, CustodyEntry, GENESIS_HASH};
use crate::error::{Result, StoreError};
use crate::time::to_ms;
use crate::Store;

/// Who records and when: what every entry written by one change shares.
#[derive(Debug, Clone)]
pub(crate) struct Custody {
    collector: String,
    at: i64,
}

impl Custody {
    /// The time entries are recorded at, in UTC milliseconds.
    pub(crate) fn at(&self) -> i64 {
        self.at
    }

    /// Appends one entry to `investigation_id`'s log after its last one. The caller holds the
    /// write lock (a transaction begun with `begin_write`), so no other writer can append
    /// between the read of the last entry and this insert.
    pub(crate) async fn append(
        &self,
        conn: &mut SqliteConnection,
        investigation_id: i64,
        action: CustodyAction,
        ids: Vec<String>,
        detail: &str,
    ) -> Result<CustodyEntry> {
        let last: Option<(i64, String)> = sqlx::query_as(
            "SELECT seq, hash FROM custody_log WHERE investigation_id = ?
             ORDER BY seq DESC LIMIT 1",
        )
        .bind(investigation_id)
        .fetch_optional(&mut *conn)
        .await?;
        let (seq, prev_hash) = match last {
            Some((seq, hash)) => (seq + 1, hash),
            None => (1, GENESIS_HASH.to_owned()),
        };
        let mut entry = CustodyEntry {
            seq,
            at: self.at,
            collector: one_line(&self.collector),
            action,
            ids: ids.iter().map(|id| one_line(id)).collect(),
            detail: one_line(detail),
            prev_hash,
            hash: String::new(),
        };
        entry.hash = entry_hash(&entry);
        sqlx::query(
            "INSERT INTO custody_log
                 (investigation_id, seq, at, collector, action, ids, detail, prev_hash, hash)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        )
        .bind(investigation_id)
        .bind(entry.seq)
        .bind(entry.at)
        .bind(&entry.collector)
        .bind(entry.action.as_str())
        .bind(serde_json::to_string(&entry.ids)?)
        .bind(&entry.detail)
        .bind(&entry.prev_hash)
        .bind(&entry.hash)
        .execute(&mut *conn)
        .await?;
        Ok(entry)
    }
}

fn entry_from_row(row: &SqliteRow) -> Result<CustodyEntry> {
    let seq: i64 = row.try_get("seq")?;
    let action: String = row.try_get("action")?;
    let ids: String = row.try_get("ids")?;
    Ok(CustodyEntry {
        seq,
        at: row.try_get("at")?,
        collector: row.try_get("collector")?,
        action: CustodyAction::parse(&action).ok_or_else(|| {
            StoreError::InvalidInput(format!(
                "custody log entry {seq} has an action this Sightline does not know: {action}"
            ))
        })?,
        ids: serde_json::from_str(&ids)?,
        detail: row.try_get("detail")?,
        prev_hash: row.try_get("prev_hash")?,
        hash: row.try_get("hash")?,
    })
}

/// Control characters (a line break in a name) become spaces: an entry is written with
/// none, so any JSON tool writes its canonical form byte for byte as Sightline does.
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

impl Store {
    /// Names the collector every custody entry written from now on records ("Collected by";
    /// `None` or blank: nobody named, recorded as an empty text). The app tells the store at
    /// opening and whenever Settings change; every clone of this store shares it.
    pub fn set_collector(&self, name: Option<&str>) {
        let name = name.map(str::trim).unwrap_or_default().to_owned();
        *self.collector.write().expect("collector lock poisoned") = name;
    }

    /// The collector entries are recorded under now ([`Store::set_collector`]).
    pub fn collector(&self) -> String {
        self.collector
            .read()
            .expect("collector lock poisoned")
            .clone()
    }

    /// What a change made at `now` records: the collector as named now, and the time.
    pub(crate) fn custody(&self, now: DateTime<Utc>) -> Custody {
        self.custody_at(to_ms(now))
    }

    /// [`Store::custody`] for a time in milliseconds.
    pub(crate) fn custody_at(&self, at: i64) -> Custody {
        Custody {
            collector: self.collector(),
            at,
        }
    }

    /// An investigation's custody log, oldest entry first; empty for an id that never had one.
    /// A deleted investigation's log is still here.
    pub async fn custody_log(&self, investigation_id: i64) -> Result<Vec<CustodyEntry>> {
        let rows = sqlx::query(
            "SELECT seq, at, collector, action, ids, detail, prev_hash, hash
             FROM custody_log WHERE investigation_id = ? ORDER BY seq",
        )
        .bind(investigation_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(entry_from_row).collect()
    }

    /// Records an action done outside the store (a bundle or a web archive exported, a
    /// package imported) in one investigation's log, in a transaction of its own. Refused for
    /// an investigation that does not exist (or was deleted: its log is closed).
    pub async fn record_custody(
        &self,
        investigation_id: i64,
        action: CustodyAction,
        ids: Vec<String>,
        detail: &str,
        now: DateTime<Utc>,
    ) -> Result<CustodyEntry> {
        let mut tx = self.begin_write().await?;
        let exists: Option<i64> = sqlx::query_scalar("SELECT id FROM investigations WHERE id = ?")
            .bind(investigation_id)
            .fetch_optional(&mut *tx)
            .await?;
        if exists.is_none() {
            return Err(StoreError::InvalidInput(
                "that investigation no longer exists".into(),
            ));
        }
        let entry = self
            .custody(now)
            .append(&mut tx, investigation_id, action, ids, detail)
            .await?;
        tx.commit().await?;
        Ok(entry)
    }

    /// Records an action that concerns every investigation (the signing key rotated: it signs
    /// each one's next export) in every investigation's log, archived ones too, in one
    /// transaction; how many logs took it.
    pub async fn record_custody_everywhere(
        &self,
        action: CustodyAction,
        ids: Vec<String>,
        detail: &str,
        now: DateTime<Utc>,
    ) -> Result<u64> {
        let mut tx = self.begin_write().await?;
        let investigations: Vec<i64> =
            sqlx::query_scalar("SELECT id FROM investigations ORDER BY id")
                .fetch_all(&mut *tx)
                .await?;
        let custody = self.custody(now);
        for id in &investigations {
            custody
                .append(&mut tx, *id, action, ids.clone(), detail)
                .await?;
        }
        tx.commit().await?;
        Ok(investigations.len() as u64)
    }
}
