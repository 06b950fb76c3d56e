//! Sightline's local store: everything the app must remember, in one SQLite file.
//!
//! * `record`: the writes of one request (history row, result body, ledger row, archived
//!   posts, users and links), streams begun, billed early and finished, recovery at start-up;
//! * `provenance`: each response as received (capture time, service address, operation and
//!   parameters, status, billing headers, app version, SHA-256 of the exact bytes, the bytes
//!   zlib-compressed), never edited; read back per request or batched per page of rows or
//!   posts, and re-hashed on demand. Rows older than it say "captured before provenance".
//!   Every response header as received is kept beside it (`response_headers`, migration 0017,
//!   never edited; captures made before have only their billing headers);
//! * `stamps`: each capture's trusted timestamp (RFC 3161, migration 0015): queued with its
//!   record while a timestamp authority is set, or by "Stamp now" for an investigation;
//!   waiting (the next try), stamped (the authority's token as received, its time, name and
//!   certificates, never edited) or failed (why); the next due read one row at a time;
//! * `history`: reading the history back: the list and its text search, one row, a stored
//!   result body (offline re-open), paging chains, pins and deletes, and the monitor or
//!   collection that sent a request (read from its request id: migration 0012); its count
//!   with no filter but an operation or a status read off the counts migration 0023's
//!   triggers keep; a page read after the row before it (keyset, `paging.rs`'s one rule,
//!   as an investigation's, the archive's in time order, its users' (migration 0029's index)
//!   and links', a monitor's, a collection's and an analysis scope's posts);
//! * `spend`: the exact spend ledger, aggregates in the user's time zone (from roll-ups per
//!   UTC day and running totals per quarter hour and per hour: migrations 0002 and 0026),
//!   learned rates, and the count of answers whose cost could not be read (in no sum); by
//!   monitor and by collection from the ledger rows' own owner (`spend/owners.rs`);
//! * `ledger`: the ledger's writes (a billed request's row, added once; a further charge) and
//!   its rows read back, for export;
//! * `jobs`: requests the service answers with a job (forecasts): the job's id stored with
//!   its cost before it is followed, each later answer replacing it, the final one finishing
//!   the row once, and the jobs still followed, to resume at start-up;
//! * `budget`: daily and monthly limits and the allow / warn / block check;
//! * `archive`: every post, user and link fetched, with full-text search over posts, and a
//!   mark to count exactly which of some posts were first stored after it; its types, writes
//!   and reads are apart in `archive/types.rs`, `write.rs` and `read.rs`;
//! * `media`: media kept (migration 0018): each picture and video of a post queued once,
//!   fetched when due, then kept (by SHA-256, with its PDQ hash, in `media_files`), gone
//!   (404/410, with its time), failed or too large, with the response's status and headers;
//!   the same picture elsewhere, exact and near (PDQ Hamming distance, `media/matching.rs`),
//!   and a scope's most-shared pictures; an investigation's full-view switch (safe view is
//!   the default); a request's posts' media queued in its record's transaction, failed items
//!   retried, and the archived posts read page by page for a later "keep every post's media"
//!   (`media/queue.rs`);
//! * `cache`: ETag + body per GET URL for conditional requests;
//! * `case_packages`: a case as its package carries it (migration 0020): its stable case id,
//!   requests (history rows with their cost text and key label as facts, captures, stamps),
//!   posts, notes, tags, checks and media, each attributed (`None`: this installation), read
//!   for an export; a received package written in one transaction, a new case continuing the
//!   received custody log or a merge by request and post ids that overwrites nothing and
//!   returns every difference; a received request is marked (`received_requests`) and never
//!   gets a ledger row (a trigger refuses one), so it is never in Spend or a budget; every tag
//!   taken off, note removed or written over (migration 0024) and post or request taken out of
//!   the case (0025) is recorded and carried, so a merge brings back nothing removed and takes
//!   off what the colleague removed;
//! * `bundle_exports`: every evidence bundle this installation wrote (migration 0016): when,
//!   its file name, the SHA-256 of its manifest and of the whole file, the signing key's
//!   fingerprint and its investigation; found again by the manifest's hash, never edited;
//! * [`export`]: CSV, JSON Lines and Markdown citations to any writer, every time in UTC and
//!   in the zone the caller names (named as [`zone_names`] names it); forecasts with their own
//!   fields (question, state, probability, forecaster, times, reasoning, job id, cost); every
//!   CSV cell the app writes made by [`export::cell`] or
//!   [`export::id_cell`] (a formula defused, an id kept whole);
//! * `archive_state`: this archive's own state as JSON values by key (table `archive_state`,
//!   migration 0013; it was `settings`): the active investigation, an id that means something
//!   only in this file. The app's settings are not here: they are core's `settings.json`;
//! * `imports`: files of posts from other tools or Sightline's own export (migration 0019):
//!   each import's file (name, SHA-256, size, format), state and resume point, every line's
//!   outcome (imported, already held, not a post, unreadable) with the line as read, and the
//!   import that brought each post ("imported from <file>, not captured by Sightline"); a
//!   batch's posts, outcomes, filing and custody entry in one transaction, never a capture
//!   record, receipt or ledger row;
//! * `investigations`: cases filing requests and posts (by the active investigation, inside
//!   each request's record transaction, or by hand), a notebook, notes and tags per post,
//!   filters, cost from the ledger rows of exactly their requests, and still-there checks;
//!   each change appended to the investigation's custody log in its own transaction; the
//!   count of its posts read off migration 0023's counts;
//! * [`custody`]: the custody log (migration 0014): per investigation, an append-only,
//!   hash-chained list of what was done to it, the rule chaining it ([`custody::entry_hash`],
//!   [`custody::HASH_RULE`]) and its check ([`custody::check_chain`]); the table's triggers
//!   refuse an entry off the chain, and any change or deletion; a deleted investigation's log
//!   stays;
//! * `monitors`: saved searches run on an interval (migration 0007): their state and next
//!   run, the posts each has found (unseen until marked seen), a run's page written with its
//!   new posts in one transaction;
//! * `collections`: long collections: the cursor of the last page recorded and each item
//!   collected once, written with the page in one transaction, to resume after a restart;
//!   a collection's posts, newest first, a page at a time;
//! * `analysis`: counts over stored posts at no cost (activity, heatmap, top lists, network,
//!   conversation trees) for a request's results, an investigation or an Archive query, read
//!   from narrow facts that migration 0008's triggers extract from each post once (and the
//!   whole archive's top lists from tallies that migration 0009's triggers keep, its
//!   network's reply, quote and mention edges from those of 0022 and its accounts' handles
//!   from those of 0028), and the scope's posts
//!   themselves, paged;
//! * `fold`: the one case-folding rule for tags, mentions, cashtags, handles and hosts
//!   (Unicode lower case), in Rust and as the SQL function every connection registers, which
//!   the triggers call (migration 0011 refolded what 0008's ASCII-only `lower()` had stored);
//! * `link_host`: the one rule for a linked site's host (after the scheme, before the path,
//!   query or port, folded, without `www.`), in Rust and as the SQL function the entities' view
//!   calls (migration 0027, which also writes a post's entities in one pass and the tallies by
//!   upserts);
//! * `runs`: the run log of both (outcome, new items, error in words), with each run's cost
//!   from the ledger rows of exactly its requests; a page filed under its owner's
//!   investigation in its own transaction, never into an archived one (`runs/filing.rs`);
//! * `words.rs`: state enums (a run's outcome, a monitor's and a collection's state) stored
//!   as their serde word, their one spelling, read strictly;
//! * [`zone_names`]: the one rule naming a zone beside a local time (`CET`, `GMT+5:30`), on
//!   screen and in every file;
//! * `upgrade`: opening the file in steps: SQLite's check (a damaged file told apart), a
//!   file from a newer Sightline refused before anything is written, a copy made before a
//!   migration that rewrites tables (`upgrade/backup.rs`, which also sets a file aside and
//!   restores a copy), then each pending migration in its own transaction with its progress
//!   told in posts; [`Store::open_read_only`] for a file this build must not migrate;
//! * `check_due`: whether SQLite's check of the whole file is due at an opening
//!   ([`Store::check_due`]): after an unclean close (a marker beside the file, written at
//!   opening and removed by [`Store::close`]), or when the last clean check, whose time the
//!   file keeps, is [`CHECK_EVERY`] old; an upgrade's check counts as one;
//! * `storage`: the file's bytes by part (posts, responses, media, indexes, other, free), read
//!   from SQLite's `dbstat` table, adding up to the file; compacting it in place (`VACUUM`, one
//!   transaction: a quit or crash mid-way leaves the file as it was), with progress and cancel.
//!
//! All writes for one request happen in one transaction ([`Store::record_request`], in
//! `record`, which calls the ledger's and the archive's writes).
//! Times are UTC; money is `rust_decimal::Decimal` (stored as integer nano-dollars; a cost the
//! service states with more digits is rounded half-even to the nano-dollar and its text kept
//! as sent, one that is no number is recorded as unreadable: [`money`], migration 0010).
//!
//! One path per item: the modules are private, and what callers use is re-exported here at
//! the root, once (`sightline_store::StoredPost`, `sightline_store::RecordedPage`). A module
//! stays public only where it is a namespace of free functions whose names read with it:
//! [`export`] (the file writers and CSV cells), [`money`] (nano-dollars), [`zone_names`] (a
//! zone beside a local time), [`backup`] (copies of the file) and [`custody`] (the custody
//! log's chain rule, its check and its file form). Their items, types included,
//! are reached through that module only, never re-exported here.

#![deny(missing_docs)]

mod analysis;
mod archive;
mod archive_state;
mod budget;
mod bundle_exports;
mod cache;
mod case_packages;
mod check_due;
mod collections;
pub mod custody;
mod error;
pub mod export;
mod fold;
mod history;
mod imports;
mod investigations;
mod jobs;
mod ledger;
mod link_host;
mod media;
pub mod money;
mod monitors;
mod paging;
mod provenance;
mod record;
mod runs;
mod spend;
mod sql_function;
mod stamps;
mod storage;
mod time;
mod upgrade;
mod words;
pub mod zone_names;

use std::path::Path;
use std::str::FromStr;
use std::sync::{Arc, RwLock};
use std::time::Duration;

use sqlx::pool::PoolConnection;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{Connection, Sqlite, SqliteConnection, SqlitePool};

pub use analysis::{
    ActivityLayer, ActivitySeries, AnalysisScope, Bucket, ConversationNode, ConversationTree,
    CoordinationRow, EdgeKind, Heatmap, MissingReplies, Network, NetworkEdge, NetworkNode,
    NetworkQuery, ScopeFilters, ScopePostPage, ScopePostQuery, ScopeSource, ScopeSummary, StackBy,
    TopEntry, TopKind, TopList, TopLists, TreeRelation, ACTIVITY_LAYERS, NETWORK_EDGE_LIMIT,
    REPLIES_PER_REQUEST, SCOPE_POSTS_MAX_PAGE, SCOPE_POSTS_PAGE, TREE_LIMIT,
};
pub use archive::{
    ranked_matches, ArchiveMark, LinkQuery, LinkSource, NewLink, NewPost, NewUser, PostQuery,
    PostSort, StoredLink, StoredPost, StoredUser, UserQuery, RELEVANCE_WINDOW,
};
pub use budget::{BudgetCheck, BudgetLimits, PeriodCheck, Verdict};
pub use bundle_exports::BundleExport;
pub use cache::CachedResponse;
pub use case_packages::{
    By, CaseCapture, CaseCheck, CaseContents, CaseDifference, CaseFiling, CaseMedia, CaseMediaFile,
    CasePost, CaseReceived, CaseRemoval, CaseRequest, CaseStamp, CaseTag, ReceivedCase,
    RemovedKind,
};
pub use check_due::{CheckDue, CHECK_EVERY, LAST_CLEAN_CHECK};
pub use chrono_tz::{Tz, TZ_VARIANTS};
pub use collections::{CollectionState, NewCollection, StoredCollection};
pub use error::{Result, StoreError};
pub use history::{
    collection_page_request_id, monitor_page_request_id, Billing, HistoryEntry, HistoryQuery,
    OriginKind, RequestOrigin, RequestStatus, StoredResult,
};
pub use imports::{
    BatchCounts, ImportBatch, ImportFormat, ImportLine, ImportLineItem, ImportLineRow,
    ImportOutcome, ImportState, NewImport, PostImportMark, StoredImport,
};
pub use investigations::{
    CheckItem, CheckOutcome, CheckReport, CheckSummary, DayCost, FieldChange, FiledHow,
    FilingChange, InvestigationChanges, InvestigationCost, InvestigationDetail, InvestigationItem,
    InvestigationPost, InvestigationPostPage, InvestigationPostQuery, InvestigationSummary,
    ItemMemberships, MadeBy, OperationCost, OtherNote, PostSnapshot, ReceivedTag, TagCount,
    MAX_NAME_CHARS, MAX_TAG_CHARS,
};
pub use jobs::{FollowedJob, JobState, JOB_FAILED_CLASS};
pub use ledger::LedgerEntry;
pub use media::{
    ArchivedPostRecord, MediaBackfill, MediaCounts, MediaFailure, MediaFile, MediaItemRecord,
    MediaKept, MediaKind, MediaMatch, MediaMatches, MediaState, NewMediaFile, NewMediaItem,
    NextMedia, SharedPicture, PDQ_BYTES, PDQ_MIN_QUALITY,
};
pub use monitors::{FoundPost, MonitorState, NewMonitor, PageItem, RunEnd, StoredMonitor};
pub use provenance::{
    CaptureState, CaptureSummary, HistoryCapture, NewProvenance, PostCapture, Provenance,
    ProvenanceCheck, ProvenanceRecord,
};
pub use record::{Filing, PendingRequest, RecordOutcome, RequestRecord};
pub use runs::{ArchivedInvestigation, PageFiling, RecordedPage, RunOutcome, RunOwner, StoredRun};
pub use spend::{DaySpend, LearnedRate, SpendBreakdown, SpendDimension, SpendLine, SpendTotals};
pub use stamps::{
    CaptureStamp, DueStamp, NewStampToken, NextStamp, StampCounts, StampState, StampToken,
};
pub use storage::{
    disk_room, temporary_folder, CompactStep, Compacted, DatabaseFill, DatabaseSizes, DiskRoom,
    Part,
};
pub use upgrade::{backup, latest_known, Check, Upgrade, UpgradeStep};

/// The embedded schema migrations (see `migrations/`).
static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// How long a writer waits for another writer before giving up.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// The write connection's page cache, 256 MiB (negative: in KiB), filled only as writes touch
/// pages. Importing 1,000,000 posts (a 4.3 GB file), the `import` bench: 369.6 s with every
/// write on the pool's 32 MiB connections in turn, 360.1 s on one connection of 32 MiB, 335.8 s
/// with this (system time 91 s -> 65 s), peak memory 368 -> 444 MiB.
const WRITER_CACHE: &str = "-262144";

/// The write connection is closed this long after the last write, giving its cache back.
const WRITER_IDLE: Duration = Duration::from_secs(60);

/// A handle to the database. Cheap to clone; all clones share its connections: a pool for
/// reads and one connection for write transactions.
#[derive(Clone, Debug)]
pub struct Store {
    pool: SqlitePool,
    /// The one connection write transactions take ([`Store::begin_write`]). SQLite lets one
    /// connection write at a time anyway; what this adds is a page cache that stays warm from
    /// one write to the next. The pool hands out its least recently used connection, and a
    /// connection's cache is dropped whole when another has written since: so each write
    /// (an import's batch of posts, say) read every index page it touched again from the OS.
    /// Its cache is larger ([`WRITER_CACHE`]); it is opened at the first write and closed
    /// [`WRITER_IDLE`] after the last, so a store only read holds no more memory.
    writer: SqlitePool,
    /// "Collected by", as the custody log records it ([`Store::set_collector`]).
    collector: Arc<RwLock<String>>,
    /// The open marker and whether the whole file's check is due (`check_due`).
    opened: Arc<check_due::Opened>,
}

impl Store {
    /// Opens (creating if missing) the database file at `path`: checks it, refuses one from a
    /// newer Sightline, and applies pending migrations (see `upgrade`; no copy is made). The
    /// check counts as a clean one ([`Store::check_due`]).
    pub async fn open(path: impl AsRef<Path>) -> Result<Self> {
        Self::open_upgrading(path, &Upgrade::default()).await
    }

    /// [`Store::open`], copying the file into `upgrade.backups` before a migration that rewrites
    /// tables and telling each step to `upgrade.progress` (the app's start screen). Once open,
    /// the store marks the file open until [`Store::close`] and says whether the whole file's
    /// check is due ([`Store::check_due`]).
    pub async fn open_upgrading(path: impl AsRef<Path>, upgrade: &Upgrade) -> Result<Self> {
        let path = path.as_ref();
        // Looked at before anything opens the file: this opening writes its own marker.
        let left_open = check_due::left_open(path);
        let options = Self::file_options(path);
        let checked = upgrade::prepare(&options, path, upgrade).await?;
        let store = Self::pool(options).await?;
        Ok(store.opened_at(path, left_open, checked).await)
    }

    /// Opens an existing database file read-only, as it is: no check, no migration, and every
    /// write refused by SQLite ([`StoreError::is_read_only`]). For a file from a newer
    /// Sightline or a damaged one, whose records the user still wants to read.
    pub async fn open_read_only(path: impl AsRef<Path>) -> Result<Self> {
        let options = SqliteConnectOptions::new()
            .filename(path.as_ref())
            .read_only(true)
            .foreign_keys(true)
            .busy_timeout(BUSY_TIMEOUT)
            .pragma("cache_size", "-32768")
            .pragma("temp_store", "memory");
        Self::pool(options).await
    }

    /// Opens a database file brought up to migration `version` only, as a Sightline of that
    /// version left it: for tests and benchmarks of upgrades. Writes that need a later
    /// migration's tables fail. No open marker is written and no check is due.
    pub async fn open_at_version(path: impl AsRef<Path>, version: i64) -> Result<Self> {
        upgrade::migrate_to(path.as_ref(), version).await?;
        Self::pool(Self::file_options(path.as_ref())).await
    }

    fn file_options(path: &Path) -> SqliteConnectOptions {
        SqliteConnectOptions::new()
            .filename(path)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            // FULL: a committed request survives power loss too, not just a process crash.
            .synchronous(SqliteSynchronous::Full)
            .foreign_keys(true)
            .busy_timeout(BUSY_TIMEOUT)
            // The default 2 MB page cache makes every index insert into a large archive a
            // read from the OS; 32 MB per connection keeps the hot index pages in memory.
            .pragma("cache_size", "-32768")
            .pragma("temp_store", "memory")
    }

    async fn pool(options: SqliteConnectOptions) -> Result<Self> {
        let pool = SqlitePoolOptions::new()
            .max_connections(4)
            .min_connections(1)
            .after_connect(|conn, _| Box::pin(register_functions(conn)))
            .connect_with(options.clone())
            .await?;
        let writer = SqlitePoolOptions::new()
            .max_connections(1)
            .min_connections(0)
            .idle_timeout(WRITER_IDLE)
            .after_connect(|conn, _| Box::pin(register_functions(conn)))
            .connect_lazy_with(options.pragma("cache_size", WRITER_CACHE));
        Ok(Self::over(pool, writer))
    }

    /// A store over open pools (the same one twice where there is one connection), with no
    /// collector named yet.
    fn over(pool: SqlitePool, writer: SqlitePool) -> Self {
        Self {
            pool,
            writer,
            collector: Arc::default(),
            opened: Arc::default(),
        }
    }

    /// Opens a private in-memory database (for unit tests of callers; nothing persists).
    pub async fn open_in_memory() -> Result<Self> {
        let options = SqliteConnectOptions::from_str("sqlite::memory:")?.foreign_keys(true);
        // One connection kept forever: closing it would drop the in-memory database.
        let pool = SqlitePoolOptions::new()
            .max_connections(1)
            .min_connections(1)
            .idle_timeout(None)
            .max_lifetime(None)
            .after_connect(|conn, _| Box::pin(register_functions(conn)))
            .connect_with(options)
            .await?;
        MIGRATOR.run(&pool).await?;
        Ok(Self::over(pool.clone(), pool))
    }

    /// Runs `PRAGMA quick_check` (see `upgrade::check`) on one of the pool's connections:
    /// `["ok"]`, or its first findings. For a store opened with [`Check::BeforeMigrating`], when
    /// [`Store::check_due`] says. An `ok` is recorded in the file as its last
    /// clean check, and nothing is due after it.
    ///
    /// The check reads every page once: with the pool's 32 MiB cache it would leave that much
    /// memory held for as long as the app runs (a large archive's idle footprint). So it runs
    /// with a 2 MiB cache and its connection is closed after, never returned to the pool.
    pub async fn quick_check(&self) -> Result<Vec<String>> {
        let mut conn = self.pool.acquire().await?.detach();
        sqlx::query("PRAGMA cache_size = -2048")
            .execute(&mut conn)
            .await?;
        let report = upgrade::check(&mut conn).await;
        if let Err(error) = conn.close().await {
            tracing::warn!(%error, "the check's connection did not close cleanly");
        }
        if matches!(&report, Ok(lines) if lines == &["ok"]) {
            self.check_passed().await;
        }
        report
    }

    /// Runs `PRAGMA integrity_check`; `Ok(())` when SQLite reports `ok`.
    pub async fn integrity_check(&self) -> Result<Vec<String>> {
        let rows: Vec<(String,)> = sqlx::query_as("PRAGMA integrity_check")
            .fetch_all(&self.pool)
            .await?;
        Ok(rows.into_iter().map(|(line,)| line).collect())
    }

    /// Copies the write-ahead log into the main file and truncates it (e.g. before a backup).
    pub async fn checkpoint(&self) -> Result<()> {
        sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Closes the pool. `PRAGMA optimize` first refreshes the planner's statistics where they
    /// are stale, as SQLite advises at close; then the write-ahead log is folded into the file
    /// and truncated, since the last connection's own checkpoint is skipped whenever another
    /// connection of the pool still has the file open as it closes. Last, the open marker is
    /// removed: the next opening knows the file was closed cleanly (`check_due`).
    pub async fn close(&self) {
        self.writer.close().await;
        for pragma in ["PRAGMA optimize", "PRAGMA wal_checkpoint(TRUNCATE)"] {
            if let Err(error) = sqlx::query(pragma).execute(&self.pool).await {
                tracing::debug!(%error, pragma, "failed at close");
            }
        }
        self.pool.close().await;
        self.opened.closed();
    }

    /// Starts a write transaction on the writer's connection that takes the write lock at
    /// once, so it queues behind a write elsewhere (a statement run on the pool) on the busy
    /// timeout instead of failing on a read-to-write upgrade; two of these queue for the
    /// connection itself.
    pub(crate) async fn begin_write(&self) -> Result<WriteTx> {
        let mut conn = self.writer.acquire().await?;
        sqlx::query("BEGIN IMMEDIATE").execute(&mut *conn).await?;
        Ok(WriteTx {
            conn,
            committed: false,
        })
    }
}

/// The store's SQL functions, registered on every connection: the folding rule (`fold.rs`) and
/// the custody log's hash ([`custody`]), which the schema calls, and the PDQ distance the media
/// matcher calls (`media/distance.rs`), each through `sql_function.rs`.
pub(crate) async fn register_functions(
    conn: &mut SqliteConnection,
) -> std::result::Result<(), sqlx::Error> {
    fold::register(conn).await?;
    link_host::register(conn).await?;
    media::register_functions(conn).await?;
    custody::register(conn).await
}

/// A write transaction on one of the pool's connections, kept here rather than with sqlx's
/// `Transaction`: when SQLite fails a COMMIT (a full disk while writing the log), it rolls the
/// transaction back itself, but sqlx still counts it as open, and that connection then refuses
/// every later transaction ("begin_with at non-zero transaction depth"). A write that does not
/// commit closes its connection instead of returning it to the pool: closing rolls back
/// whatever SQLite still holds, and the pool opens a fresh connection when it needs one.
pub(crate) struct WriteTx {
    conn: PoolConnection<Sqlite>,
    committed: bool,
}

impl WriteTx {
    pub(crate) async fn commit(mut self) -> Result<()> {
        sqlx::query("COMMIT").execute(&mut *self.conn).await?;
        self.committed = true;
        Ok(())
    }
}

impl Drop for WriteTx {
    fn drop(&mut self) {
        if !self.committed {
            self.conn.close_on_drop();
        }
    }
}

impl std::ops::Deref for WriteTx {
    type Target = SqliteConnection;
    fn deref(&self) -> &SqliteConnection {
        &self.conn
    }
}

impl std::ops::DerefMut for WriteTx {
    fn deref_mut(&mut self) -> &mut SqliteConnection {
        &mut self.conn
    }
}

#[cfg(test)]
mod plan_tests;
#[cfg(test)]
mod test_support;

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn opens_creates_and_reopens() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nested-name.db");
        let store = Store::open(&path).await.unwrap();
        assert!(path.exists());
        let mode: (String,) = sqlx::query_as("PRAGMA journal_mode")
            .fetch_one(&store.pool)
            .await
            .unwrap();
        assert_eq!(mode.0, "wal");
        let fk: (i64,) = sqlx::query_as("PRAGMA foreign_keys")
            .fetch_one(&store.pool)
            .await
            .unwrap();
        assert_eq!(fk.0, 1);
        store.close().await;
        let again = Store::open(&path).await.unwrap();
        assert_eq!(again.integrity_check().await.unwrap(), vec!["ok"]);
    }

    #[tokio::test]
    async fn close_leaves_no_write_ahead_log_behind() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("closing.db");
        let store = Store::open(&path).await.unwrap();
        sqlx::query("CREATE TABLE filler (text TEXT)")
            .execute(&store.pool)
            .await
            .unwrap();
        for _ in 0..200 {
            sqlx::query("INSERT INTO filler VALUES (hex(randomblob(2000)))")
                .execute(&store.pool)
                .await
                .unwrap();
        }
        store.close().await;
        let wal = dir.path().join("closing.db-wal");
        let left = std::fs::metadata(&wal).map(|m| m.len()).unwrap_or(0);
        assert_eq!(left, 0, "{} bytes of log left after close", left);
    }

    #[tokio::test]
    async fn every_write_takes_the_one_writer_connection_with_its_cache() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("writes.db")).await.unwrap();
        // A temporary table lives on its connection only: the next write sees it.
        let mut first = store.begin_write().await.unwrap();
        sqlx::query("CREATE TEMP TABLE writer_mark (n INTEGER)")
            .execute(&mut *first)
            .await
            .unwrap();
        let cache: i64 = sqlx::query_scalar("PRAGMA cache_size")
            .fetch_one(&mut *first)
            .await
            .unwrap();
        assert_eq!(cache.to_string(), WRITER_CACHE);
        // A second write waits for the first, then runs on the same connection.
        let waiting = {
            let store = store.clone();
            tokio::spawn(async move {
                let mut second = store.begin_write().await.unwrap();
                sqlx::query("INSERT INTO writer_mark VALUES (2)")
                    .execute(&mut *second)
                    .await
                    .unwrap();
                second.commit().await.unwrap();
            })
        };
        tokio::time::sleep(Duration::from_millis(100)).await;
        assert!(!waiting.is_finished(), "two writes at once");
        sqlx::query("INSERT INTO writer_mark VALUES (1)")
            .execute(&mut *first)
            .await
            .unwrap();
        first.commit().await.unwrap();
        waiting.await.unwrap();
        // Not one of the readers': their connections never had the table.
        let on_pool = sqlx::query("SELECT count(*) FROM writer_mark")
            .fetch_one(&store.pool)
            .await;
        assert!(on_pool.is_err(), "a reader shares the writer's connection");
        let mut third = store.begin_write().await.unwrap();
        let n: i64 = sqlx::query_scalar("SELECT count(*) FROM writer_mark")
            .fetch_one(&mut *third)
            .await
            .unwrap();
        assert_eq!(n, 2);
    }

    #[test]
    fn ipc_types_carry_money_as_strings() {
        use ts_rs::TS;
        let cfg = ts_rs::Config::default();
        for (decl, field) in [
            (Billing::decl(&cfg), "cost: string"),
            (SpendTotals::decl(&cfg), "all_time: string"),
            (SpendLine::decl(&cfg), "cost: string"),
            (PeriodCheck::decl(&cfg), "remaining: string"),
            (LearnedRate::decl(&cfg), "rate_per_1000: string"),
        ] {
            assert!(decl.contains(field), "{decl}");
        }
        let limits = BudgetLimits::decl(&cfg);
        assert!(limits.contains("daily: string | null"), "{limits}");
        let entry = HistoryEntry::decl(&cfg);
        assert!(entry.contains("billing: Billing | null"), "{entry}");
    }

    #[tokio::test]
    async fn fts5_is_available() {
        let store = Store::open_in_memory().await.unwrap();
        let n: (i64,) = sqlx::query_as("SELECT count(*) FROM posts_fts")
            .fetch_one(&store.pool)
            .await
            .unwrap();
        assert_eq!(n.0, 0);
    }
}
