//! Core's integration tests, one binary (linked once, not once per file): each file is a
//! module, and `support` the set-up they share (a live app against the sandbox, sends,
//! searches, a seeded evidence archive). Run one file's tests with
//! `cargo test -p sightline-core --test core <file>::`.

mod support;

mod analysis;
mod archived_filing;
mod case_package;
mod collection_posts;
mod collections;
mod conversation_parent;
mod coordination;
mod coordination_world;
mod custody;
mod evidence_bundle;
mod evidence_imported;
mod evidence_media;
mod evidence_stamped;
mod evidence_verify;
mod export_folder;
mod first_key;
mod float_costs;
mod forecast;
mod forecast_export;
mod import;
mod investigations;
mod ipc_casing;
mod key_status;
mod kill_mid_stream;
mod media_backfill;
mod media_fetch;
mod media_fixture;
mod media_matches;
mod media_queue;
mod monitor_lookup;
mod monitors;
mod no_runaway;
mod pipeline;
mod provenance;
mod signing;
mod stamper;
mod storage;
mod streaming;
mod timestamps;
mod wacz;
