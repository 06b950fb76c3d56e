-- Sightline local store, first schema.
-- Conventions: times are INTEGER milliseconds since the Unix epoch (UTC); money is INTEGER
-- nano-dollars (exact and summable in SQL); JSON is stored as TEXT exactly as received.
-- Never edit this file once shipped: add a new numbered migration instead.

-- One row per request the user made.
CREATE TABLE history (
    id            INTEGER PRIMARY KEY,
    request_id    TEXT    NOT NULL UNIQUE,  -- client-generated; a repeat is never recorded twice
    started_at    INTEGER NOT NULL,
    operation     TEXT    NOT NULL,
    params_json   TEXT    NOT NULL,         -- parameters as the user gave them
    key_label     TEXT,                     -- the key's label, never the key
    mode          TEXT    NOT NULL,
    status        TEXT    NOT NULL,         -- running | ok | not_modified | error | cancelled | interrupted
    error_class   TEXT,
    error_message TEXT,
    duration_ms   INTEGER NOT NULL DEFAULT 0,
    result_count  INTEGER NOT NULL DEFAULT 0,
    cost_nanos    INTEGER,
    usage_count   INTEGER,
    service       TEXT,
    currency      TEXT,
    cursor        TEXT,                     -- cursor sent with this request (paged results)
    next_cursor   TEXT,                     -- cursor the response offered for the next page
    parent_id     INTEGER REFERENCES history(id) ON DELETE SET NULL,  -- previous page of a chain
    pinned        INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX history_started ON history(started_at DESC);
CREATE INDEX history_operation_started ON history(operation, started_at DESC);
CREATE INDEX history_status_started ON history(status, started_at DESC);
CREATE INDEX history_parent ON history(parent_id) WHERE parent_id IS NOT NULL;
CREATE INDEX history_pinned ON history(started_at DESC) WHERE pinned = 1;

-- The full body of each result as received, so a past result re-opens without the network.
CREATE TABLE results (
    history_id INTEGER PRIMARY KEY REFERENCES history(id) ON DELETE CASCADE,
    body       TEXT NOT NULL
);

-- Spend ledger: append-only, one row per billed response. Deleting a history row keeps the
-- money it cost (history_id becomes NULL), so totals never shrink.
CREATE TABLE ledger (
    id          INTEGER PRIMARY KEY,
    history_id  INTEGER REFERENCES history(id) ON DELETE SET NULL,
    at          INTEGER NOT NULL,
    service     TEXT    NOT NULL,
    operation   TEXT    NOT NULL,
    key_label   TEXT    NOT NULL,  -- '' when the request had no label
    cost_nanos  INTEGER NOT NULL,
    usage_count INTEGER NOT NULL,
    currency    TEXT    NOT NULL
);
CREATE INDEX ledger_at ON ledger(at, service, cost_nanos, usage_count);
CREATE INDEX ledger_service_at ON ledger(service, at DESC);
CREATE INDEX ledger_history ON ledger(history_id) WHERE history_id IS NOT NULL;

-- Hourly roll-up of the ledger per dimension ('service', 'operation', 'key'), kept by trigger
-- in the same transaction, so per-day series and totals read a few thousand rows, not millions.
CREATE TABLE spend_hourly (
    dim         TEXT    NOT NULL,
    hour        INTEGER NOT NULL,  -- at / 3600000
    value       TEXT    NOT NULL,
    requests    INTEGER NOT NULL,
    usage_count INTEGER NOT NULL,
    cost_nanos  INTEGER NOT NULL,
    PRIMARY KEY (dim, hour, value)
) WITHOUT ROWID;

-- All-time totals per dimension value: the "all time" figures without scanning anything.
CREATE TABLE spend_total (
    dim         TEXT    NOT NULL,
    value       TEXT    NOT NULL,
    requests    INTEGER NOT NULL,
    usage_count INTEGER NOT NULL,
    cost_nanos  INTEGER NOT NULL,
    PRIMARY KEY (dim, value)
) WITHOUT ROWID;

-- Per-day sums of one dimension for one time zone's calendar day, filled on first read.
-- `sums` is JSON: [[value, requests, usage_count, cost_nanos], ...].
CREATE TABLE spend_day_cache (
    zone     TEXT    NOT NULL,
    dim      TEXT    NOT NULL,
    day      TEXT    NOT NULL,  -- YYYY-MM-DD in `zone`
    start_ms INTEGER NOT NULL,
    end_ms   INTEGER NOT NULL,
    sums     TEXT    NOT NULL,
    PRIMARY KEY (zone, dim, day)
) WITHOUT ROWID;
CREATE INDEX spend_day_cache_start ON spend_day_cache(start_ms);

CREATE TRIGGER ledger_rollup AFTER INSERT ON ledger BEGIN
    -- A cached day that this row falls in is now wrong: drop it (a day lasts at most 25 h).
    DELETE FROM spend_day_cache
    WHERE start_ms > NEW.at - 26 * 3600000 AND start_ms <= NEW.at AND end_ms > NEW.at;
    INSERT INTO spend_hourly (dim, hour, value, requests, usage_count, cost_nanos)
    VALUES ('service', NEW.at / 3600000, NEW.service, 1, NEW.usage_count, NEW.cost_nanos),
           ('operation', NEW.at / 3600000, NEW.operation, 1, NEW.usage_count, NEW.cost_nanos),
           ('key', NEW.at / 3600000, NEW.key_label, 1, NEW.usage_count, NEW.cost_nanos)
    ON CONFLICT (dim, hour, value) DO UPDATE SET
        requests = requests + 1,
        usage_count = usage_count + excluded.usage_count,
        cost_nanos = cost_nanos + excluded.cost_nanos;
    INSERT INTO spend_total (dim, value, requests, usage_count, cost_nanos)
    VALUES ('service', NEW.service, 1, NEW.usage_count, NEW.cost_nanos),
           ('operation', NEW.operation, 1, NEW.usage_count, NEW.cost_nanos),
           ('key', NEW.key_label, 1, NEW.usage_count, NEW.cost_nanos)
    ON CONFLICT (dim, value) DO UPDATE SET
        requests = requests + 1,
        usage_count = usage_count + excluded.usage_count,
        cost_nanos = cost_nanos + excluded.cost_nanos;
END;

-- Budgets: a single row.
CREATE TABLE budget (
    id                  INTEGER PRIMARY KEY CHECK (id = 1),
    daily_limit_nanos   INTEGER,
    monthly_limit_nanos INTEGER,
    warn_percent        INTEGER NOT NULL
);

-- Archive of posts, deduplicated by the service's post id; metrics are the latest seen.
-- `pk` is an explicit INTEGER PRIMARY KEY so VACUUM never renumbers the rows the FTS index points at.
CREATE TABLE posts (
    pk              INTEGER PRIMARY KEY,
    id              TEXT    NOT NULL UNIQUE,
    conversation_id TEXT,
    author_id       TEXT,
    author_username TEXT    NOT NULL,
    author_name     TEXT    NOT NULL,
    author_verified INTEGER NOT NULL,
    text            TEXT    NOT NULL,
    lang            TEXT,
    created_at      INTEGER NOT NULL,
    like_count      INTEGER NOT NULL,
    retweet_count   INTEGER NOT NULL,
    reply_count     INTEGER NOT NULL,
    quote_count     INTEGER NOT NULL,
    view_count      INTEGER,
    bookmark_count  INTEGER NOT NULL,
    hashtags        TEXT    NOT NULL,  -- space-separated, without '#'
    url             TEXT,
    raw_json        TEXT    NOT NULL,
    first_seen      INTEGER NOT NULL,
    last_seen       INTEGER NOT NULL
);
CREATE INDEX posts_created ON posts(created_at DESC);
CREATE INDEX posts_author_created ON posts(author_username COLLATE NOCASE, created_at DESC);

-- Which requests found which post.
CREATE TABLE post_sightings (
    post_pk    INTEGER NOT NULL REFERENCES posts(pk) ON DELETE CASCADE,
    history_id INTEGER NOT NULL REFERENCES history(id) ON DELETE CASCADE,
    PRIMARY KEY (post_pk, history_id)
) WITHOUT ROWID;
CREATE INDEX post_sightings_history ON post_sightings(history_id);

-- Full-text index over the searchable post fields; the posts table holds the content.
CREATE VIRTUAL TABLE posts_fts USING fts5(
    text, author_name, author_username, hashtags,
    content = 'posts', content_rowid = 'pk',
    tokenize = 'unicode61 remove_diacritics 2'
);
-- Relevance: a hit in a hashtag or on the author says more about a post than one word among
-- many in its text (columns: text, author name, handle, hashtags). Set as the table's rank so
-- `ORDER BY rank` lets FTS5 sort internally, which is several times faster than bm25() in SQL.
INSERT INTO posts_fts (posts_fts, rank) VALUES ('rank', 'bm25(1.0, 2.0, 2.0, 3.0)');
CREATE TRIGGER posts_fts_insert AFTER INSERT ON posts BEGIN
    INSERT INTO posts_fts (rowid, text, author_name, author_username, hashtags)
    VALUES (NEW.pk, NEW.text, NEW.author_name, NEW.author_username, NEW.hashtags);
END;
CREATE TRIGGER posts_fts_delete AFTER DELETE ON posts BEGIN
    INSERT INTO posts_fts (posts_fts, rowid, text, author_name, author_username, hashtags)
    VALUES ('delete', OLD.pk, OLD.text, OLD.author_name, OLD.author_username, OLD.hashtags);
END;
-- Re-seeing a post mostly refreshes metrics: only re-index when a searchable field changed.
CREATE TRIGGER posts_fts_update AFTER UPDATE ON posts
WHEN OLD.text IS NOT NEW.text OR OLD.author_name IS NOT NEW.author_name
  OR OLD.author_username IS NOT NEW.author_username OR OLD.hashtags IS NOT NEW.hashtags
BEGIN
    INSERT INTO posts_fts (posts_fts, rowid, text, author_name, author_username, hashtags)
    VALUES ('delete', OLD.pk, OLD.text, OLD.author_name, OLD.author_username, OLD.hashtags);
    INSERT INTO posts_fts (rowid, text, author_name, author_username, hashtags)
    VALUES (NEW.pk, NEW.text, NEW.author_name, NEW.author_username, NEW.hashtags);
END;

-- Archive of users, deduplicated by the service's user id.
CREATE TABLE users (
    id              TEXT    PRIMARY KEY,
    username        TEXT    NOT NULL,
    name            TEXT    NOT NULL,
    verified        INTEGER NOT NULL,
    followers_count INTEGER,
    description     TEXT,
    raw_json        TEXT    NOT NULL,
    first_seen      INTEGER NOT NULL,
    last_seen       INTEGER NOT NULL
);
CREATE INDEX users_username ON users(username COLLATE NOCASE);

-- Archive of web and link results, deduplicated by (source, link).
CREATE TABLE links (
    id         INTEGER PRIMARY KEY,
    source     TEXT    NOT NULL,  -- web | youtube | hackernews | reddit | wikipedia | arxiv
    link       TEXT    NOT NULL,
    title      TEXT    NOT NULL,
    snippet    TEXT    NOT NULL,
    score      TEXT,              -- HIGH | MEDIUM | LOW when the service scored it
    first_seen INTEGER NOT NULL,
    last_seen  INTEGER NOT NULL,
    UNIQUE (source, link)
);
CREATE INDEX links_last_seen ON links(last_seen DESC);

CREATE TABLE link_sightings (
    link_id    INTEGER NOT NULL REFERENCES links(id) ON DELETE CASCADE,
    history_id INTEGER NOT NULL REFERENCES history(id) ON DELETE CASCADE,
    PRIMARY KEY (link_id, history_id)
) WITHOUT ROWID;
CREATE INDEX link_sightings_history ON link_sightings(history_id);

-- Conditional-GET cache, keyed by the request URL (the key travels in a header, never here).
CREATE TABLE http_cache (
    url       TEXT    PRIMARY KEY,
    etag      TEXT    NOT NULL,
    body      BLOB    NOT NULL,
    stored_at INTEGER NOT NULL
);

-- App settings as JSON values.
CREATE TABLE settings (
    key        TEXT    PRIMARY KEY,
    value      TEXT    NOT NULL,
    updated_at INTEGER NOT NULL
);
