//! Investigations: cases that gather requests and posts, a Markdown notebook, a note and
//! free-text tags per post, and dated "still there?" checks. Filing is a link beside
//! history, the archive and the ledger, never a copy: deleting an investigation removes its
//! filing only, and the money its requests cost stays in the ledger.
//!
//! Types are in `investigations/types.rs`.

mod types;

pub use types::{
    CheckItem, CheckOutcome, CheckReport, CheckSummary, DayCost, FieldChange, FiledHow,
    FilingChange, InvestigationChanges, InvestigationCost, InvestigationDetail, InvestigationItem,
    InvestigationPost, InvestigationPostPage, InvestigationPostQuery, InvestigationSummary,
    ItemMemberships, OperationCost, TagCount,
};
