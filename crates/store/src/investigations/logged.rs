//! What the investigation writes append to each investigation's custody log ([`crate::custody`]),
//! in the transaction of the change itself: ids named the way an outside reader can find them
//! (`post:<the service's id>`, `request:<history id>`), and a user's text (a note, the
//! notebook) summed up by its length and SHA-256 rather than copied into the log.

use std::collections::BTreeMap;

use sha2::{Digest, Sha256};
use sqlx::SqliteConnection;

use crate::custody::{Custody, CustodyAction};
use crate::error::Result;

/// A post as the log names it.
pub(crate) fn post(id: &str) -> String {
    format!("post:{id}")
}

/// A request (its history row) as the log names it.
pub(super) fn request(history_id: i64) -> String {
    format!("request:{history_id}")
}

/// A user's text in a log entry: its length and SHA-256, or that it was emptied.
pub(crate) fn text_summary(text: &str) -> String {
    if text.is_empty() {
        return "now empty".into();
    }
    let hash: String = Sha256::digest(text.as_bytes())
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect();
    let chars = text.chars().count();
    format!("now {chars} characters, SHA-256 {hash}")
}

/// The service's ids of stored posts, by their keys, in the order given.
async fn post_ids(conn: &mut SqliteConnection, pks: &[i64]) -> Result<Vec<String>> {
    let rows: Vec<(i64, String)> =
        sqlx::query_as("SELECT pk, id FROM posts WHERE pk IN (SELECT value FROM json_each(?))")
            .bind(serde_json::to_string(pks)?)
            .fetch_all(&mut *conn)
            .await?;
    let ids: BTreeMap<i64, String> = rows.into_iter().collect();
    Ok(pks
        .iter()
        .filter_map(|pk| ids.get(pk))
        .map(|id| post(id))
        .collect())
}

/// Appends one `action` entry (posts added or taken out) per investigation among `filed`
/// (investigation, post key) pairs; nothing for none.
pub(super) async fn posts(
    conn: &mut SqliteConnection,
    custody: &Custody,
    action: CustodyAction,
    filed: &[(i64, i64)],
    detail: &str,
) -> Result<()> {
    let mut by_investigation: BTreeMap<i64, Vec<i64>> = BTreeMap::new();
    for (investigation_id, pk) in filed {
        by_investigation
            .entry(*investigation_id)
            .or_default()
            .push(*pk);
    }
    for (investigation_id, pks) in by_investigation {
        let ids = post_ids(conn, &pks).await?;
        let count = ids.len();
        let detail = format!(
            "{count} {}, {detail}",
            if count == 1 { "post" } else { "posts" }
        );
        custody
            .append(conn, investigation_id, action, ids, &detail)
            .await?;
    }
    Ok(())
}
