//! A run's page filed under its owner's investigation, in the page's own transaction, by the
//! one rule for archived investigations (see [`crate::record`]): nothing is filed under an
//! archived investigation. The page itself (its history row and charge, written before, its
//! new items and its run-log line, written with this) is kept whatever the filing says.

use sqlx::SqliteConnection;

use super::RunOwner;
use crate::custody::Custody;
use crate::error::Result;
use crate::investigations::file_run_page;
use crate::Store;

/// An archived investigation a monitor or a collection is set to file into.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArchivedInvestigation {
    /// The investigation's id.
    pub id: i64,
    /// Its name, to say which one in words.
    pub name: String,
}

/// Where a run's page was filed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PageFiling {
    /// Its owner files into no investigation.
    NoInvestigation,
    /// Filed under the owner's investigation, with the posts it found.
    Filed {
        /// The investigation it was filed under.
        investigation_id: i64,
    },
    /// The owner's investigation is archived: the page is kept but filed nowhere, and its
    /// owner should stop (the core pauses it, saying why).
    Refused(ArchivedInvestigation),
}

/// What one page written into its run did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordedPage {
    /// The items new to the owner (posts, or users for reposters), in the page's order.
    pub new_items: Vec<String>,
    /// Where the page was filed.
    pub filing: PageFiling,
}

/// The owner's investigation: its id, name and whether it is archived.
async fn investigation_of(
    conn: &mut SqliteConnection,
    owner: RunOwner,
) -> Result<Option<(i64, String, bool)>> {
    let (sql, id) = match owner {
        RunOwner::Monitor(id) => (
            "SELECT i.id, i.name, i.archived FROM monitors o
             JOIN investigations i ON i.id = o.investigation_id WHERE o.id = ?",
            id,
        ),
        RunOwner::Collection(id) => (
            "SELECT i.id, i.name, i.archived FROM collections o
             JOIN investigations i ON i.id = o.investigation_id WHERE o.id = ?",
            id,
        ),
    };
    Ok(sqlx::query_as(sql).bind(id).fetch_optional(conn).await?)
}

/// Files a page's request (and the posts it found) under its owner's investigation unless that
/// one is archived; in the caller's transaction.
pub(crate) async fn file_page(
    conn: &mut SqliteConnection,
    owner: RunOwner,
    history_id: i64,
    custody: &Custody,
) -> Result<PageFiling> {
    Ok(match investigation_of(conn, owner).await? {
        None => PageFiling::NoInvestigation,
        Some((id, name, true)) => PageFiling::Refused(ArchivedInvestigation { id, name }),
        Some((id, _, false)) => {
            let sent_by = match owner {
                RunOwner::Monitor(owner) => format!("a page of monitor {owner}"),
                RunOwner::Collection(owner) => format!("a page of collection {owner}"),
            };
            file_run_page(conn, id, history_id, custody.at(), &sent_by, custody).await?;
            PageFiling::Filed {
                investigation_id: id,
            }
        }
    })
}

impl Store {
    /// The investigation `owner` files into, when it is archived: asked before a page is sent,
    /// so nothing is sent (or billed) for an investigation that takes nothing.
    pub async fn archived_investigation_of(
        &self,
        owner: RunOwner,
    ) -> Result<Option<ArchivedInvestigation>> {
        let mut conn = self.pool.acquire().await?;
        Ok(match investigation_of(&mut conn, owner).await? {
            Some((id, name, true)) => Some(ArchivedInvestigation { id, name }),
            _ => None,
        })
    }
}
