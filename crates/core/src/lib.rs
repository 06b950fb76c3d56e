//! Sightline's application core, without Tauri: what the app does, whichever window drives it.
//!
//! * [`pipeline`]: the one request pipeline — validate, estimate and budget, key, claim the
//!   request id, send, record — with the send step plugged in ([`pipeline::execute`] for plain
//!   requests, [`streaming`] for the live AI answer, [`paging`] for the next page of a list);
//! * [`streaming`]: the streamed AI search on the pipeline; its cost goes on the ledger as soon
//!   as the response headers arrive, and a cancel or a cut keeps what arrived;
//! * [`provenance`]: each response's capture (exact bytes and their SHA-256, status, billing
//!   headers) with its time, service address and app version, recorded with its history row;
//! * [`paging`]: "next page" of reposters and timelines, the cursor chain kept in history;
//! * [`forecast`]: a forecast asked (the billed POST, its job id stored before any poll),
//!   followed with backoff to its answer, stopped without losing it, resumed at start-up (in
//!   demo mode too: the demo service keeps its jobs in the data folder); exported with its own
//!   fields and citation ([`forecast::export`]);
//! * [`estimate`]: the cost of a request from learned rates, and the budget's verdict on it;
//! * `findings`: what an answer found, in the store's terms (posts, users, links, cursor);
//! * [`records`]: History, Archive and Spend reads as the screens page them, offline;
//! * [`import`]: files of posts from twarc2 (raw pages, flattened lines), 4CAT (CSV, NDJSON),
//!   Zeeschuimer and Sightline's own JSON Lines: the whole file hashed first, its format
//!   detected, then read in batches on a thread of its own into the store (every line's
//!   outcome kept, resumable after a cancel or a quit with no line recorded twice), each
//!   tool's record mapped to the service's post record (`import/v2.rs`, `graphql.rs`,
//!   `fourcat.rs`) so imported posts are searched and analysed like fetched ones;
//! * [`investigations`]: cases of requests and posts with notes and tags (filed by the store,
//!   inside each request's record transaction, while one is active), their cost in the
//!   display zone's days, and the "still there?" check of their posts through the pipeline;
//! * [`monitors`]: saved X searches and accounts' posts run on an interval for only what is
//!   new (a window from the newest post seen, posts already found dropped), within the budget
//!   (a block pauses, a warning waits for the user, a 429's wait is honoured), their new posts
//!   stored unseen before any notification; a failed run says why on the monitor, and its
//!   next run waits (the interval, doubled for each failure in a row, at most a day); the
//!   [`monitors::Scheduler`] runs each due monitor once, a long gap caught up with one run;
//! * [`collections`]: long collections paged until a number, a date or the end, each page
//!   under its own request id and written with its cursor, so one resumed after a restart
//!   never fetches a recorded page again; pause, resume, cancel; stopped by the budget or by
//!   a failure, in words;
//! * `runs`: what both share — a page's send (a repeat is a replay; a page that may have
//!   been billed is never sent again), what a failed page means for a run, the backoff, the
//!   run log; [`announce`]: how they tell the window (events, the
//!   desktop notification) without knowing it;
//! * [`analysis`]: analysis at no cost over stored posts (scope summary, activity, heatmap in
//!   any zone, top lists, network; counted by the store), a post's conversation tree and the
//!   paid fetch of what it is missing (replies, the post it answers) through the pipeline,
//!   saying how many replies were new and how many were stored already, and the exports (GEXF, edge CSV, every table as CSV, chart pictures);
//! * [`coordination`]: coordinated behaviour in a scope, as groups, never verdicts: seven
//!   signals (co-post, near-duplicate text, co-link, co-hashtag, co-reply within a window;
//!   co-repost by TF-IDF cosine; fast repost), each an edge between two accounts with the posts
//!   and times behind it; a fused view with weights the user sees; connected groups with a
//!   plain-words reason and a time-shifted baseline; the edge CSV (the QUT toolkit's columns
//!   first) and GEXF; computed on a blocking thread with progress and cancel;
//! * [`export`]: writing history, posts, forecasts and the ledger to a file, atomically;
//! * [`custody`]: each investigation's custody log as the app records into it (a bundle or web
//!   archive exported, the signing key rotated) and shows it with its chain checked; the log,
//!   its hash rule and the entries every change of an investigation appends are the store's
//!   (`sightline_store::custody`);
//! * [`evidence`]: the evidence bundle (a ZIP of responses as received, posts, notes,
//!   provenance, an offline report with each post's collection fields, the custody log, each
//!   capture's timestamp token, a manifest signed with the installation's key, `VERIFY.txt`
//!   and `SHA256SUMS`), each export recorded in the store, and its verification;
//! * [`case_package`]: "Export for a colleague" (an evidence bundle of kind `case-package`
//!   that also carries the case's rows under `case/`, each attributed) and "Open a case
//!   package" (refused unless the verifier's checks all hold; every hash re-checked; a new case
//!   continuing the received custody log, or a merge by request and post ids that overwrites
//!   nothing and lists what differs); received requests never count in Spend;
//! * [`wacz`]: an investigation as a web archive (WACZ 1.1.1: the exchanges as WARC request and
//!   response records, the key left out, each post's card a resource, signed), for
//!   ReplayWeb.page and `wacz validate`;
//! * [`media`]: media kept: the content-addressed media folder ([`media::files`]), SHA-256 and
//!   PDQ hashes with the near-match threshold ([`media::hash`]); what to keep of a post
//!   ([`media::plan`]: the best video variant first, only HTTPS or the service's own host) and
//!   one file fetched with a plain client, streamed, hashed and stopped at the size limit
//!   ([`media::fetch`]); the queue's worker ([`media::worker`]: one at a time, paced, a
//!   doubling hold after failures, resumable, its progress told) and what queues it
//!   ([`media::queue`]: posts filed in an investigation, every archived post by a setting, each
//!   request's in its record's own transaction; "Retry failed"); [`media::backfill`]: that
//!   setting turned on later, the archived posts queued a page at a time, stoppable, resumed;
//! * [`keys`] and [`keychain`]: named API keys, their values in the OS keychain
//!   ([`keychain::SecretStore`], [`keychain::KeyringStore`]), never anywhere else;
//!   [`key_check`] tries a key with the service (one cheap billed call) before trusting it;
//!   [`first_key`] is the first run's key and service address, checked together before either
//!   is kept, each failure named by the field to fix ([`first_key::SetupProblem`]);
//! * [`stamper`]: the stamp queue's worker: while a timestamp authority is set, each waiting
//!   capture's hash is sent to it one at a time, paced, its token stored; after a failure
//!   nothing is asked before a hold that doubles (kept in the rows, so it outlives a restart);
//!   a refusal leaves the capture failed, with why, until "Stamp now"; the public authorities
//!   Settings offers;
//! * [`backoff`]: the background workers' one pace rule (a gap between requests, a hold that
//!   doubles with each failure in a row), set by the stamper and the media fetcher each;
//! * [`signing`]: this installation's Ed25519 signing identity, made at first use, its private
//!   key only in the keychain; sign and verify, the fingerprint, rotation (earlier public keys
//!   kept so what they signed still verifies), the public key's export, "Collected by";
//! * [`timestamps`]: trusted timestamps (RFC 3161): a capture's SHA-256 sent to a timestamp
//!   authority with a plain client (never the service's), the reply kept only when granted for
//!   this hash and nonce, and a stored token checked on its own as `openssl ts -verify` does
//!   (hash, signature, the signing certificate it names, whose chain it is);
//! * [`storage`]: Settings → Storage: the data folder's size by part (the database's from
//!   SQLite's `dbstat`, the media folder's files, the rest), the disk's room and when it is
//!   low, and Compact (the database's free pages given back in one transaction, with progress
//!   and cancel, refused when the disk has too little room; orphaned media files removed);
//! * [`session`], [`state`], [`settings`], [`environment`]: live or demo mode, each mode's
//!   database, the app's settings (`settings.json`, their one home: the database keeps
//!   none), and the `SIGHTLINE_*` overrides;
//! * [`database`]: each mode's database at start-up: opened with its progress for the start
//!   screen (a copy first before an upgrade that rewrites tables; SQLite's check before it,
//!   or otherwise in the background only when due: after an unclean close, with no clean
//!   check recorded, a week after the last), closed at quit, and the recovery screen's ways on when
//!   it cannot be (newer Sightline, damaged, other): read-only, the last copy restored, or a
//!   new archive, the old file always set aside, never deleted;
//! * [`errors`]: the one error every operation returns to the UI ([`errors::CommandError`]);
//! * [`logging`]: the log file a person can send (`<data folder>/logs/`, a file a day, seven
//!   kept): warnings and errors, never the key or a body;
//! * [`external`]: which links may leave the app for the system browser;
//! * `markup`: text made safe in HTML and XML, for the bundle's report and the GEXF network;
//! * `graph_export`: the one GEXF 1.3 writer, for the analysis's network and the coordination
//!   finder's file;
//! * [`zone`]: the display zone ([`zone::time_zone`]): the system's or the one Settings names;
//!   times are shown, Spend's days and budgets counted, and exports' local times written in it.
//!
//! # The crate's face
//!
//! A feature is a public module and its items are named through it (`monitors::create`,
//! `state::AppState`, `zone::time_zone`): each item has one public path, with no re-export at
//! the root or from one feature to another. A module only core itself uses (`findings`,
//! `runs`, `markup`, the bindings export) is private, and so are a feature's own parts
//! (`monitors/run.rs`, `evidence/report.rs`): the feature re-exports what the window needs
//! from them, once. The store's and the service's types are named from `sightline_store` and
//! `sightline_api`, never re-exported here (`sightline_store::MonitorState`, not
//! `monitors::MonitorState`). A test double or a helper for the tests lives in the tests
//! (`tests/support/`), not here.
//! Every public item is documented (`#![deny(missing_docs)]`).
//!
//! Depends on `sightline-api` (the service), `sightline-store` (SQLite) and `sightline-sandbox`
//! (demo mode). It must never depend on Tauri: `src-tauri` adapts it to a window (commands,
//! channels, events, dialogs), and everything here is tested against the sandbox and real
//! SQLite without one. The key never leaves this crate except in the request header.

#![deny(missing_docs)]

pub mod analysis;
pub mod announce;
pub mod backoff;
mod bindings;
pub mod case_package;
pub mod collections;
pub mod coordination;
pub mod custody;
pub mod database;
pub mod environment;
pub mod errors;
pub mod estimate;
pub mod evidence;
pub mod export;
pub mod external;
mod findings;
pub mod first_key;
pub mod forecast;
mod graph_export;
pub mod import;
pub mod investigations;
pub mod key_check;
pub mod keychain;
pub mod keys;
pub mod logging;
mod markup;
pub mod media;
pub mod monitors;
pub mod paging;
pub mod pipeline;
pub mod provenance;
#[cfg(test)]
mod read_back;
pub mod records;
mod runs;
pub mod session;
pub mod settings;
pub mod signing;
pub mod stamper;
pub mod state;
pub mod storage;
pub mod streaming;
pub mod timestamps;
pub mod wacz;
pub mod zone;

/// The service name of our keychain entries: the app identifier, so other apps' entries never clash.
pub const KEYCHAIN_SERVICE: &str = "app.sightline.desktop";
