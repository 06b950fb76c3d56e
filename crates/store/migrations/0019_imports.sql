-- Imports: files of posts collected by other tools (twarc2, 4CAT, Zeeschuimer) or exported by
-- Sightline, read line by line into the archive. Every line's outcome is kept, and every post
-- an import brought is linked to it, so any screen can say "imported from <file, SHA-256>, not
-- captured by Sightline". Imported posts get no capture record, receipt or ledger row: they
-- were not fetched by this installation. Only new, empty tables: no copy needed before it.

-- One row per import. `file_sha256` is of the whole file, computed before the first line is
-- read; `lines_done` and `offset_done` (bytes) say where a cancelled or interrupted import
-- resumes, written in the same transaction as the lines they count.
CREATE TABLE imports (
    id               INTEGER PRIMARY KEY,
    file_name        TEXT    NOT NULL,
    file_sha256      TEXT    NOT NULL,
    file_size        INTEGER NOT NULL,
    format           TEXT    NOT NULL,  -- twarc2_pages | twarc2_flat | fourcat_csv | fourcat_ndjson | zeeschuimer | sightline_jsonl | dmrc_csv
    investigation_id INTEGER REFERENCES investigations(id) ON DELETE SET NULL,  -- NULL: the archive alone
    state            TEXT    NOT NULL,  -- running | cancelled | done | failed
    error            TEXT,              -- why a failed import stopped, in words
    lines_done       INTEGER NOT NULL DEFAULT 0,
    offset_done      INTEGER NOT NULL DEFAULT 0,
    imported         INTEGER NOT NULL DEFAULT 0,
    already_held     INTEGER NOT NULL DEFAULT 0,
    not_a_post       INTEGER NOT NULL DEFAULT 0,
    unreadable       INTEGER NOT NULL DEFAULT 0,
    started_at       INTEGER NOT NULL,
    finished_at      INTEGER
);
CREATE INDEX imports_sha256 ON imports(file_sha256);

-- Every line's outcome: one row per post a line holds (`item` its place: a twarc2 page holds
-- up to a hundred), one row for a line holding none. `outcome`: imported | already_held |
-- not_a_post | unreadable. `source` is the line exactly as read (on its first row only).
CREATE TABLE import_lines (
    import_id INTEGER NOT NULL REFERENCES imports(id) ON DELETE CASCADE,
    line      INTEGER NOT NULL,  -- 1-based, as an editor numbers it
    item      INTEGER NOT NULL,
    outcome   TEXT    NOT NULL,
    post_id   TEXT,
    reason    TEXT    NOT NULL DEFAULT '',
    source    TEXT,
    PRIMARY KEY (import_id, line, item)
);  -- a rowid table: a row carries its line's text, too wide to sit in a key's b-tree
CREATE INDEX import_lines_outcome ON import_lines(import_id, outcome, line, item);

-- The import that brought each post into the archive (a post already held when an import read
-- it keeps its own origin and is not linked).
CREATE TABLE post_imports (
    post_pk   INTEGER PRIMARY KEY REFERENCES posts(pk) ON DELETE CASCADE,
    import_id INTEGER NOT NULL REFERENCES imports(id) ON DELETE CASCADE,
    line      INTEGER NOT NULL
);
CREATE INDEX post_imports_import ON post_imports(import_id);
