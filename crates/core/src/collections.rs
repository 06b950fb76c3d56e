//! Long collections: an X search, a timeline, a post's replies or reposters paged until a
//! number, a date or the end, resumable from the last page saved.
//!
//! * `collections/types.rs`: what crosses IPC (the draft, the source, the target, progress).

mod types;

pub use types::{CollectUntil, Collection, CollectionDraft, CollectionSource, CollectionState};
