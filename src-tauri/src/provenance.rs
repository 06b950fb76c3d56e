//! Provenance commands: a response's capture record (never its bytes), its hash checked again,
//! and the capture lines of a page of history rows or posts, one call per page.

use sightline_core::provenance;
use sightline_store::{HistoryCapture, PostCapture, Provenance, ProvenanceCheck};

use crate::surface::define_commands;

define_commands! {
    read provenance_get(history_id: i64) -> Provenance
        = |store| provenance::get(&store, history_id).await;
    read provenance_verify(history_id: i64) -> Option<ProvenanceCheck>
        = |store| provenance::verify(&store, history_id).await;
    read provenance_history(history_ids: Vec<i64>) -> Vec<HistoryCapture>
        = |store| provenance::history_lines(&store, &history_ids).await;
    read provenance_posts(post_ids: Vec<String>) -> Vec<PostCapture>
        = |store| provenance::post_lines(&store, &post_ids).await;
}
