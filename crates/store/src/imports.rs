//! Imports (migration 0019): files of posts collected by other tools or exported by Sightline,
//! read into the archive a batch of lines at a time. Every line's outcome is kept (imported,
//! already held, not a post, unreadable, with its number and the line as read), every post an
//! import brought is linked to it ([`Store::import_for_posts`]: "imported from <file,
//! SHA-256>, not captured by Sightline"), and an import stopped part-way resumes from the line
//! and byte its last batch recorded.
//!
//! Imported posts go into `posts` like any other (so the full-text index, the analysis facts
//! and tallies take them through their triggers), but a post already held is never touched: it
//! keeps its own copy and capture. No capture record, receipt or ledger row is ever written for
//! an import. Filed in an investigation, each batch's newly filed posts are one custody log
//! entry, in the batch's transaction.
//!
//! * `imports/types.rs`: what goes in and comes out, and the stored words;
//! * `imports/write.rs`: starting, a batch, resuming, cancelling, finishing;
//! * `imports/read.rs`: the imports, a page of outcomes, the outcomes as CSV, the marks.

mod read;
mod types;
mod write;

pub use types::{
    ImportBatch, ImportFormat, ImportLine, ImportLineItem, ImportLineRow, ImportOutcome,
    ImportState, NewImport, PostImportMark, StoredImport,
};
pub use write::BatchCounts;

#[cfg(test)]
mod tests;
