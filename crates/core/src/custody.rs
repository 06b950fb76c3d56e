//! An investigation's custody log as the app uses it. The log itself, its hash rule and its
//! check are the store's ([`sightline_store::custody`]): the store appends each entry inside the
//! write of the change it records (filing, notes, tags, checks, renames, archive, delete). What
//! the app does outside the store is recorded here: a bundle or a web archive exported
//! ([`record`], called by the export once its file is written), and the signing key rotated
//! ([`record_key_rotated`], in every investigation's log: the key is the installation's, and
//! it signs each one's next export).
//!
//! The collector each entry names is "Collected by" from Settings, told to every store the app
//! opens and again whenever Settings change (`state.rs`).

use chrono::Utc;
use serde::Serialize;
use sightline_store::custody::{check_chain, ChainCheck, CustodyAction, CustodyEntry};
use sightline_store::Store;
use ts_rs::TS;

use crate::errors::CommandError;
use crate::state::AppState;

/// Records an action done outside the store in one investigation's log, now, under the
/// collector named in Settings: `ids` as `kind:id` (`file:<bundle name>`, `export:<id>`),
/// `detail` one short line. Call it once the action has succeeded (a bundle is recorded once
/// its file is written); refused for an investigation that no longer exists.
pub async fn record(
    store: &Store,
    investigation_id: i64,
    action: CustodyAction,
    ids: Vec<String>,
    detail: &str,
) -> Result<CustodyEntry, CommandError> {
    Ok(store
        .record_custody(investigation_id, action, ids, detail, Utc::now())
        .await?)
}

/// Records a key rotation in every investigation's log, in each database the app has open
/// (both modes' when both were used): the new key signs every investigation's next export,
/// so each log says when the key changed and to which (`key:<new fingerprint>`, the old one in
/// the detail).
pub async fn record_key_rotated(
    state: &AppState,
    old_fingerprint: Option<&str>,
    new_fingerprint: &str,
) -> Result<(), CommandError> {
    let detail = match old_fingerprint {
        Some(old) => format!("signing key {old} replaced by {new_fingerprint}"),
        None => format!("signing key {new_fingerprint} made"),
    };
    // The current mode's database is opened if Settings was the first screen used; one that
    // cannot be opened (the recovery screen's) has no investigation to tell.
    let _ = state.store().await;
    for store in state.open_stores().await {
        store
            .record_custody_everywhere(
                CustodyAction::KeyRotated,
                vec![format!("key:{new_fingerprint}")],
                &detail,
                Utc::now(),
            )
            .await?;
    }
    Ok(())
}

/// An investigation's log and what its check found, for the "Custody log" view.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct CustodyLog {
    /// Every entry, oldest first.
    pub entries: Vec<CustodyEntry>,
    /// The chain checked over them.
    pub check: ChainCheck,
    /// The check in one plain sentence.
    pub check_words: String,
}

/// An investigation's custody log with its chain checked (a deleted investigation's log is
/// still read: it is kept).
pub async fn log(store: &Store, investigation_id: i64) -> Result<CustodyLog, CommandError> {
    let entries = store.custody_log(investigation_id).await?;
    let check = check_chain(&entries);
    Ok(CustodyLog {
        check_words: check.words(),
        check,
        entries,
    })
}
