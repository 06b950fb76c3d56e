-- Provenance: for every response received, what it was and where and when it came from,
-- recorded in the same transaction as its history row and never edited afterwards.
--
-- * `sha256` is of the exact bytes received (the body as sent; every byte of a stream, up to a
--   cut); `body` holds those bytes, zlib-compressed, so the hash can be re-checked at any time.
--   zlib (flate2, pure Rust, already linked by the app) because JSON shrinks five- to tenfold
--   at its fastest level, which keeps recording a search cheap, and every reader has it.
-- * `billing_headers` is a JSON object of the billing headers as written on the response.
-- * `from_cache` = 1 for a 304: the hash is of the stored body the answer re-used.
-- Deleting a history row deletes its provenance with it; nothing else may change a row.
CREATE TABLE provenance (
    history_id      INTEGER PRIMARY KEY REFERENCES history(id) ON DELETE CASCADE,
    captured_at     INTEGER NOT NULL,  -- ms UTC, when the response was received
    service_url     TEXT    NOT NULL,  -- the service address the session used
    operation       TEXT    NOT NULL,
    params_json     TEXT    NOT NULL,
    response_url    TEXT    NOT NULL,  -- the URL that answered (never holds the key)
    http_status     INTEGER NOT NULL,
    billing_headers TEXT    NOT NULL,
    app_version     TEXT    NOT NULL,
    sha256          TEXT    NOT NULL CHECK (length(sha256) = 64),
    body_size       INTEGER NOT NULL,
    body            BLOB    NOT NULL,
    from_cache      INTEGER NOT NULL
);

CREATE TRIGGER provenance_never_edited BEFORE UPDATE ON provenance BEGIN
    SELECT RAISE(ABORT, 'provenance is never edited');
END;

-- The requests recorded before provenance was kept, listed at migration time so that they say
-- "captured before provenance was kept" rather than show an invented hash. A list rather than a
-- first id: history ids are re-used once the newest rows are deleted, and a later row must
-- never pass for an old one.
CREATE TABLE provenance_before (
    history_id INTEGER PRIMARY KEY REFERENCES history(id) ON DELETE CASCADE
) WITHOUT ROWID;
INSERT INTO provenance_before (history_id) SELECT id FROM history;
