//! Investigations: cases that gather requests and posts, a Markdown notebook, a note and
//! free-text tags per post, and dated "still there?" checks. Filing is a link beside
//! history, the archive and the ledger, never a copy: deleting an investigation removes its
//! filing only, and the money its requests cost stays in the ledger.
//!
//! * `investigations/types.rs`: what crosses IPC (summaries, detail, posts, filters, checks);
//! * `investigations/write.rs`: create, change, archive, delete; the active investigation (a
//!   setting) and the filing it does inside each request's record transaction
//!   ([`crate::record`] calls it), so a request is never recorded without its filing (a
//!   still-there check's re-fetch is filed under its investigation alone, and files none of
//!   the posts it fetches: [`crate::record::Filing`]); filing by hand; a post's note and tags;
//! * `investigations/read.rs`: the list, the detail (cost from the ledger rows of exactly its
//!   requests, by day in a given zone and by operation, summed the same way for any set of
//!   history rows, as an evidence bundle of a selection asks; tag counts; latest check), a page of
//!   posts under text / tag / author / date filters, tag suggestions, memberships;
//! * `investigations/checks.rs`: still-there checks and their per-post lines as stored.

mod checks;
pub(crate) mod logged;
pub(crate) mod read;
mod types;
mod write;

pub use types::{
    CheckItem, CheckOutcome, CheckReport, CheckSummary, DayCost, FieldChange, FiledHow,
    FilingChange, InvestigationChanges, InvestigationCost, InvestigationDetail, InvestigationItem,
    InvestigationPost, InvestigationPostPage, InvestigationPostQuery, InvestigationSummary,
    ItemMemberships, MadeBy, OperationCost, OtherNote, PostSnapshot, ReceivedTag, TagCount,
};
pub(crate) use write::{file_begun, file_recorded, file_run_page};
pub use write::{MAX_NAME_CHARS, MAX_TAG_CHARS};

#[cfg(test)]
mod tests;
