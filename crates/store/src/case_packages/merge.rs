//! A received post's note and tags merged into the one filed here, removals respected both
//! ways (see `removals.rs`):
//!
//! * a note or tag addition removed here (or written over) is not brought back by a package
//!   that still carries it;
//! * a note or tag addition the colleague removed after it came here is taken off here too,
//!   recorded in the custody log with who removed it and when, and returned;
//! * a note one side removed while the other rewrote it (both started from the same text) is
//!   a difference (`note_removed`): the rewritten note is kept, neither silently dropped nor
//!   silently brought back;
//! * two notes written differently are both kept (theirs beside ours) and listed, as before,
//!   also when one wrote over the other's: only one's own note written over gives way;
//! * the same tag put on by both is one tag, named after whoever put it on first.
//!
//! Every removal record of the package is then kept here too, so both installations hold the
//! same records after an exchange and carry them on.

use chrono::SecondsFormat;
use sqlx::SqliteConnection;

use super::removals::{self, who};
use super::{from_ms, By, CaseDifference, CasePost, CaseReceived, CaseRemoval, RemovedKind};
use crate::custody::{Custody, CustodyAction};
use crate::error::Result;
use crate::investigations::logged::{post as post_name, text_summary};

/// One received post being merged into the one filed here.
pub(super) struct Merging<'a> {
    /// The investigation.
    pub id: i64,
    /// The post's key here.
    pub pk: i64,
    /// The post as the package holds it.
    pub post: &'a CasePost,
    /// Removals held here before this package.
    pub held: &'a [CaseRemoval],
    /// The package's removals, attributed as stored here.
    pub theirs: &'a [CaseRemoval],
    /// Who signed the package.
    pub from: &'a By,
    /// The package's SHA-256 and file name, for the custody log.
    pub package: (&'a str, &'a str),
    /// The custody log's writer.
    pub custody: &'a Custody,
}

impl Merging<'_> {
    /// The package's removals this installation did not hold yet.
    fn new_removals(&self) -> impl Iterator<Item = &CaseRemoval> {
        self.theirs
            .iter()
            .filter(|r| !self.held.iter().any(|h| h.same(r)))
    }

    async fn log(
        &self,
        conn: &mut SqliteConnection,
        action: CustodyAction,
        detail: String,
    ) -> Result<()> {
        let ids = vec![
            post_name(&self.post.id),
            format!("package:{}", self.package.0),
        ];
        let detail = format!("{detail} (case package {})", self.package.1);
        self.custody
            .append(conn, self.id, action, ids, &detail)
            .await?;
        Ok(())
    }
}

fn when(ms: i64) -> String {
    from_ms(ms).to_rfc3339_opts(SecondsFormat::Secs, true)
}

fn split(by: &Option<By>) -> (Option<&str>, Option<&str>) {
    (
        by.as_ref().map(|b| b.name.as_str()),
        by.as_ref().map(|b| b.key.as_str()),
    )
}

async fn set_note(
    conn: &mut SqliteConnection,
    m: &Merging<'_>,
    note: &str,
    by: &Option<By>,
) -> Result<()> {
    let (name, key) = if note.is_empty() {
        (None, None)
    } else {
        split(by)
    };
    sqlx::query(
        "UPDATE investigation_posts SET note = ?, note_by_name = ?, note_by_key = ?
         WHERE investigation_id = ? AND post_pk = ?",
    )
    .bind(note)
    .bind(name)
    .bind(key)
    .bind(m.id)
    .bind(m.pk)
    .execute(conn)
    .await?;
    Ok(())
}

/// Merges the package's note (`theirs_by`: who wrote it, as stored here) into the one held
/// (`ours`, written by `ours_by`).
pub(super) async fn note(
    conn: &mut SqliteConnection,
    m: &Merging<'_>,
    (ours, ours_by): (String, Option<By>),
    theirs_by: Option<By>,
    out: &mut CaseReceived,
) -> Result<()> {
    let theirs = &m.post.note;
    if *theirs == ours {
        return Ok(());
    }
    // Removed or written over here: a package made before it saw that does not bring it back.
    if !theirs.is_empty()
        && m.held
            .iter()
            .any(|r| r.takes_off(RemovedKind::Note, theirs, 0))
    {
        return Ok(());
    }
    // They removed or wrote over the note held here, after it came here: theirs takes its
    // place, as it did there.
    let superseded = m
        .new_removals()
        .find(|r| !ours.is_empty() && r.takes_off(RemovedKind::Note, &ours, 0))
        .cloned();
    if let Some(removal) = superseded {
        set_note(conn, m, theirs, &theirs_by).await?;
        let detail = format!(
            "{}, as {} removed the note held here on {}",
            text_summary(theirs),
            who(&removal.by),
            when(removal.removed_at)
        );
        m.log(conn, CustodyAction::NoteChanged, detail).await?;
        out.notes_added += u32::from(!theirs.is_empty());
        out.removed
            .push((m.post.id.clone(), removal, !theirs.is_empty()));
        return Ok(());
    }
    // Both changed the same note since they last exchanged it: one removed it, the other
    // wrote it anew. The new text is kept, and the difference listed.
    let same_start = m.new_removals().find(|r| {
        r.kind == RemovedKind::Note
            && m.held
                .iter()
                .any(|h| h.names(RemovedKind::Note, &r.what, 0))
    });
    let remover = |r: &CaseRemoval| r.by.clone().unwrap_or_else(|| m.from.clone());
    if theirs.is_empty() {
        if let Some(removal) = same_start {
            out.differences.push(CaseDifference {
                kind: "note_removed".into(),
                post_id: Some(m.post.id.clone()),
                ours,
                ours_by,
                theirs: String::new(),
                theirs_by: remover(removal),
            });
        }
        return Ok(());
    }
    if ours.is_empty() {
        set_note(conn, m, theirs, &theirs_by).await?;
        out.notes_added += 1;
        if same_start.is_some() {
            out.differences.push(CaseDifference {
                kind: "note_removed".into(),
                post_id: Some(m.post.id.clone()),
                ours,
                ours_by: None,
                theirs: theirs.clone(),
                theirs_by: theirs_by.unwrap_or_else(|| m.from.clone()),
            });
        }
        return Ok(());
    }
    if let Some(theirs_by) = theirs_by {
        // Both wrote a note and they differ: theirs is kept beside ours.
        super::posts::other_note(
            conn,
            m.id,
            m.pk,
            &theirs_by,
            theirs,
            m.package.0,
            m.custody.at(),
        )
        .await?;
        out.differences.push(CaseDifference {
            kind: "note".into(),
            post_id: Some(m.post.id.clone()),
            ours,
            ours_by,
            theirs: theirs.clone(),
            theirs_by,
        });
    }
    Ok(())
}

/// Takes off here the tag additions the package's sender (or anyone before them) removed,
/// keeps every removal record of the package, then puts on the package's tags that no removal
/// took off.
pub(super) async fn tags(
    conn: &mut SqliteConnection,
    m: &Merging<'_>,
    whose: &impl Fn(&Option<By>) -> Option<By>,
    out: &mut CaseReceived,
) -> Result<()> {
    for removal in m.theirs.iter().filter(|r| r.kind == RemovedKind::Tag) {
        let held = removals::tag_added_at(conn, m.id, m.pk, &removal.what).await?;
        if held != Some(removal.added_at) {
            continue;
        }
        sqlx::query(
            "DELETE FROM investigation_tags WHERE investigation_id = ? AND post_pk = ? AND tag = ?",
        )
        .bind(m.id)
        .bind(m.pk)
        .bind(&removal.what)
        .execute(&mut *conn)
        .await?;
        let detail = format!(
            "\u{201c}{}\u{201d}, as {} took it off on {}",
            removal.what,
            who(&removal.by),
            when(removal.removed_at)
        );
        m.log(conn, CustodyAction::TagRemoved, detail).await?;
        out.removed
            .push((m.post.id.clone(), removal.clone(), false));
    }
    for removal in m.theirs {
        removals::record(conn, m.id, m.pk, removal).await?;
    }
    for tag in &m.post.tags {
        let removed = m
            .held
            .iter()
            .chain(m.theirs)
            .any(|r| r.takes_off(RemovedKind::Tag, &tag.tag, tag.added_at));
        if removed {
            continue;
        }
        let by = whose(&tag.by);
        let (name, key) = split(&by);
        match removals::tag_added_at(conn, m.id, m.pk, &tag.tag).await? {
            None => {
                sqlx::query(
                    "INSERT INTO investigation_tags (investigation_id, post_pk, tag, by_name,
                         by_key) VALUES (?, ?, ?, ?, ?)",
                )
                .bind(m.id)
                .bind(m.pk)
                .bind(&tag.tag)
                .bind(name)
                .bind(key)
                .execute(&mut *conn)
                .await?;
                removals::set_tag_time(conn, m.id, m.pk, &tag.tag, tag.added_at).await?;
                out.tags_added += 1;
            }
            // Put on by both: one tag, named after whoever put it on first, on both sides.
            Some(held) if tag.added_at < held => {
                sqlx::query(
                    "UPDATE investigation_tags SET by_name = ?, by_key = ?
                     WHERE investigation_id = ? AND post_pk = ? AND tag = ?",
                )
                .bind(name)
                .bind(key)
                .bind(m.id)
                .bind(m.pk)
                .bind(&tag.tag)
                .execute(&mut *conn)
                .await?;
                removals::set_tag_time(conn, m.id, m.pk, &tag.tag, tag.added_at).await?;
            }
            Some(_) => {}
        }
    }
    Ok(())
}
