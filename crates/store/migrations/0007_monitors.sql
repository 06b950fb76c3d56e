-- Monitors (saved X searches or accounts' posts, run on an interval for what is new) and long
-- collections (a list paged on until a number, a date or the end), with one run log for both.
-- Like investigations, they only point at history: the requests they send are recorded,
-- billed and archived as any other, and their cost is read from the ledger rows of exactly
-- their requests.

CREATE TABLE monitors (
    id               INTEGER PRIMARY KEY,
    name             TEXT    NOT NULL,
    target_json      TEXT    NOT NULL,  -- what it watches, as the core's MonitorTarget
    interval_minutes INTEGER NOT NULL,
    cap              INTEGER NOT NULL,  -- most new posts a run asks for
    investigation_id INTEGER REFERENCES investigations(id) ON DELETE SET NULL,
    state            TEXT    NOT NULL,  -- active | paused | needs_confirmation
    state_reason     TEXT,              -- why paused or waiting, in words
    next_run_at      INTEGER,           -- ms; a due monitor runs once, however late
    window_end       INTEGER,           -- ms; where the next run's window begins
    created_at       INTEGER NOT NULL,
    updated_at       INTEGER NOT NULL
);
CREATE INDEX monitors_due ON monitors(state, next_run_at);

-- The posts each monitor has found: one row per (monitor, post), so a post it has seen is
-- never new to it again. `seen` = 0 until the user marks it seen; the badge counts these.
-- `created_at` copies the post's time for the newest-first list.
CREATE TABLE monitor_posts (
    monitor_id INTEGER NOT NULL REFERENCES monitors(id) ON DELETE CASCADE,
    post_id    TEXT    NOT NULL,
    created_at INTEGER NOT NULL,
    found_at   INTEGER NOT NULL,
    run_id     INTEGER,
    seen       INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (monitor_id, post_id)
) WITHOUT ROWID;
CREATE INDEX monitor_posts_newest ON monitor_posts(monitor_id, created_at DESC);
CREATE INDEX monitor_posts_unseen ON monitor_posts(seen, monitor_id) WHERE seen = 0;

CREATE TABLE collections (
    id                 INTEGER PRIMARY KEY,
    name               TEXT    NOT NULL,
    source_json        TEXT    NOT NULL,  -- the core's CollectionSource
    until_json         TEXT    NOT NULL,  -- the core's CollectUntil
    investigation_id   INTEGER REFERENCES investigations(id) ON DELETE SET NULL,
    state              TEXT    NOT NULL,  -- running | paused | done | cancelled | stopped_by_budget | failed
    stop_reason        TEXT,
    needs_confirmation INTEGER NOT NULL DEFAULT 0,
    cursor             TEXT,              -- where the next page continues (NULL: from the top)
    pages              INTEGER NOT NULL DEFAULT 0,  -- pages recorded; the next page's number
    attempt            INTEGER NOT NULL DEFAULT 0,  -- bumped when a page's request failed
    created_at         INTEGER NOT NULL,
    updated_at         INTEGER NOT NULL
);

-- Each item (a post id, or a user id for reposters) counted once per collection.
CREATE TABLE collection_items (
    collection_id INTEGER NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
    item_id       TEXT    NOT NULL,
    PRIMARY KEY (collection_id, item_id)
) WITHOUT ROWID;

-- The run log of monitors and collections (exactly one owner). A run not finished (a crash,
-- or a budget warning waiting for the user) keeps its window and paging, to go on from there.
CREATE TABLE runs (
    id            INTEGER PRIMARY KEY,
    monitor_id    INTEGER REFERENCES monitors(id) ON DELETE CASCADE,
    collection_id INTEGER REFERENCES collections(id) ON DELETE CASCADE,
    started_at    INTEGER NOT NULL,
    finished_at   INTEGER,
    outcome       TEXT    NOT NULL,  -- the core's RunOutcome
    new_items     INTEGER NOT NULL DEFAULT 0,
    error         TEXT,              -- in plain words
    window_start  INTEGER,           -- ms (monitors): posts from here on are asked for
    window_end    INTEGER,           -- ms (monitors): the next run's window starts here
    cursor        TEXT,              -- the page this run continues from (monitors)
    pages         INTEGER NOT NULL DEFAULT 0,
    attempt       INTEGER NOT NULL DEFAULT 0,
    CHECK ((monitor_id IS NULL) <> (collection_id IS NULL))
);
CREATE INDEX runs_monitor ON runs(monitor_id, id DESC) WHERE monitor_id IS NOT NULL;
CREATE INDEX runs_collection ON runs(collection_id, id DESC) WHERE collection_id IS NOT NULL;

-- The history rows of each run's requests: its cost is the ledger's rows for them. No
-- foreign key to history: deleting a history row keeps the ledger's money (history_id set
-- NULL there), and the run log keeps its line.
CREATE TABLE run_requests (
    run_id     INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    history_id INTEGER NOT NULL,
    PRIMARY KEY (run_id, history_id)
) WITHOUT ROWID;
