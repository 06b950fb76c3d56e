//! Posts and requests taken out of a case, in a merge (migration 0025): a filing taken out
//! here (or by anyone whose record came here) is not filed again by a package that still
//! carries it; a filing the colleague took out after it came here is taken out here too, in
//! the custody log with who and when, unless this installation wrote a note or put a tag on
//! the post: then it stays, a difference (`post_removed`), never silently dropped. Every
//! record of the package is kept, so both sides carry the same on.

use chrono::SecondsFormat;
use sqlx::SqliteConnection;

use super::removals::{self, who};
use super::{from_ms, By, CaseDifference, CaseReceived, CaseRemoval, RemovedKind};
use crate::custody::{Custody, CustodyAction};
use crate::error::Result;

/// The records a merge goes by: those held here before it, and the package's.
pub(super) struct Unfiled {
    held: Vec<CaseRemoval>,
    theirs: Vec<CaseRemoval>,
}

impl Unfiled {
    /// The records of investigation `id` and of the package (`whose`: its attributions as
    /// stored here).
    pub(super) async fn load(
        conn: &mut SqliteConnection,
        id: i64,
        received: &[CaseRemoval],
        whose: &impl Fn(&Option<By>) -> Option<By>,
    ) -> Result<Self> {
        Ok(Unfiled {
            held: removals::unfiled_of(conn, id).await?,
            theirs: received
                .iter()
                .map(|r| CaseRemoval {
                    by: whose(&r.by),
                    ..r.clone()
                })
                .collect(),
        })
    }

    /// Whether the filing of `item` made at `filed_at` was taken out, here or there.
    pub(super) fn keeps_out(&self, kind: RemovedKind, item: &str, filed_at: i64) -> bool {
        self.held
            .iter()
            .chain(&self.theirs)
            .any(|r| r.takes_off(kind, item, filed_at))
    }

    /// Takes out here what the package's records took out after it came here (the same
    /// filing), then keeps every record of the package.
    pub(super) async fn apply(
        &self,
        conn: &mut SqliteConnection,
        id: i64,
        (from, package): (&By, (&str, &str)),
        custody: &Custody,
        out: &mut CaseReceived,
    ) -> Result<()> {
        let new = self
            .theirs
            .iter()
            .filter(|r| !self.held.iter().any(|h| h.same(r)));
        for removal in new {
            let detail = format!(
                "as {} took it out of the case on {} (case package {})",
                who(&removal.by),
                from_ms(removal.removed_at).to_rfc3339_opts(SecondsFormat::Secs, true),
                package.1
            );
            let ids = match removal.kind {
                RemovedKind::Request => take_out_request(conn, id, removal).await?,
                _ => take_out_post(conn, id, removal, from, out).await?,
            };
            let Some(name) = ids else { continue };
            let action = if removal.kind == RemovedKind::Request {
                CustodyAction::RequestRemoved
            } else {
                CustodyAction::PostRemoved
            };
            let ids = vec![name, format!("package:{}", package.0)];
            custody.append(conn, id, action, ids, &detail).await?;
            out.removed
                .push((removal.what.clone(), removal.clone(), false));
        }
        for removal in &self.theirs {
            removals::record_unfiled(conn, id, removal).await?;
        }
        Ok(())
    }
}

/// Takes out the request's filing when it is the one removed; its name in the log.
async fn take_out_request(
    conn: &mut SqliteConnection,
    id: i64,
    removal: &CaseRemoval,
) -> Result<Option<String>> {
    let done: Option<i64> = sqlx::query_scalar(
        "DELETE FROM investigation_requests WHERE investigation_id = ? AND added_at = ?
             AND history_id = (SELECT id FROM history WHERE request_id = ?)
         RETURNING history_id",
    )
    .bind(id)
    .bind(removal.added_at)
    .bind(&removal.what)
    .fetch_optional(conn)
    .await?;
    Ok(done.map(|history_id| format!("request:{history_id}")))
}

/// Takes out the post's filing when it is the one removed and carries no note or tag written
/// here (then it stays, listed); its name in the log when taken out.
async fn take_out_post(
    conn: &mut SqliteConnection,
    id: i64,
    removal: &CaseRemoval,
    from: &By,
    out: &mut CaseReceived,
) -> Result<Option<String>> {
    let filed: Option<(i64, String, bool, Option<String>)> = sqlx::query_as(
        "SELECT ip.post_pk, ip.note, ip.note_by_key IS NULL,
                (SELECT group_concat(t.tag, ', ') FROM investigation_tags t
                 WHERE t.investigation_id = ip.investigation_id AND t.post_pk = ip.post_pk
                   AND t.by_key IS NULL)
         FROM investigation_posts ip JOIN posts p ON p.pk = ip.post_pk
         WHERE ip.investigation_id = ? AND p.id = ? AND ip.added_at = ?",
    )
    .bind(id)
    .bind(&removal.what)
    .bind(removal.added_at)
    .fetch_optional(&mut *conn)
    .await?;
    let Some((pk, note, note_ours, tags)) = filed else {
        return Ok(None);
    };
    let own_note = note_ours && !note.is_empty();
    if own_note || tags.is_some() {
        let ours = match (own_note, tags) {
            (true, _) => note,
            (false, tags) => format!("Tags: {}", tags.unwrap_or_default()),
        };
        out.differences.push(CaseDifference {
            kind: "post_removed".into(),
            post_id: Some(removal.what.clone()),
            ours,
            ours_by: None,
            theirs: String::new(),
            theirs_by: removal.by.clone().unwrap_or_else(|| from.clone()),
        });
        return Ok(None);
    }
    sqlx::query("DELETE FROM investigation_posts WHERE investigation_id = ? AND post_pk = ?")
        .bind(id)
        .bind(pk)
        .execute(conn)
        .await?;
    Ok(Some(format!("post:{}", removal.what)))
}
