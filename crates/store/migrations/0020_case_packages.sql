-- Case packages (issue 33): a case handed to a colleague and opened there, or merged back.
--
-- * Every investigation gets a stable case id (a UUID, the same in every installation that
--   holds the case), backfilled for those made before; a package of a case already held merges
--   into it by this id.
-- * Who did what: a filing, a note, a tag or a check received from a colleague names them
--   (`*_by_name`: "Collected by" in their Settings, `*_by_key`: their signing key's
--   fingerprint). NULL in both: this installation did it.
-- * A request received in a package keeps its history row (its cost text, cost and key label
--   as facts about the case) but never a ledger row: Spend and budgets read the ledger only,
--   so a received request never counts as this installation's spending. `received_requests`
--   marks it, with the package it came in.

ALTER TABLE investigations ADD COLUMN case_id TEXT;

UPDATE investigations SET case_id =
    lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' ||
    substr(lower(hex(randomblob(2))), 2) || '-' ||
    substr('89ab', 1 + (abs(random()) % 4), 1) || substr(lower(hex(randomblob(2))), 2) || '-' ||
    lower(hex(randomblob(6)));

CREATE UNIQUE INDEX investigations_case_id ON investigations(case_id);

-- A new investigation gets its case id as it is made (a received one arrives with its own).
CREATE TRIGGER investigations_case_id_given AFTER INSERT ON investigations
WHEN NEW.case_id IS NULL
BEGIN
    UPDATE investigations SET case_id =
        lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' ||
        substr(lower(hex(randomblob(2))), 2) || '-' ||
        substr('89ab', 1 + (abs(random()) % 4), 1) || substr(lower(hex(randomblob(2))), 2) || '-' ||
        lower(hex(randomblob(6)))
    WHERE id = NEW.id;
END;

ALTER TABLE investigation_requests ADD COLUMN by_name TEXT;
ALTER TABLE investigation_requests ADD COLUMN by_key TEXT;
ALTER TABLE investigation_posts ADD COLUMN by_name TEXT;
ALTER TABLE investigation_posts ADD COLUMN by_key TEXT;
ALTER TABLE investigation_posts ADD COLUMN note_by_name TEXT;
ALTER TABLE investigation_posts ADD COLUMN note_by_key TEXT;
ALTER TABLE investigation_tags ADD COLUMN by_name TEXT;
ALTER TABLE investigation_tags ADD COLUMN by_key TEXT;
ALTER TABLE investigation_checks ADD COLUMN by_name TEXT;
ALTER TABLE investigation_checks ADD COLUMN by_key TEXT;

-- A colleague's note on a post that differs from the one kept here: kept beside it, never
-- over it, and listed as a conflict until someone settles it by editing the note.
CREATE TABLE investigation_other_notes (
    investigation_id INTEGER NOT NULL,
    post_pk          INTEGER NOT NULL,
    by_name          TEXT    NOT NULL,
    by_key           TEXT    NOT NULL,
    note             TEXT    NOT NULL,
    package_sha256   TEXT    NOT NULL,
    received_at      INTEGER NOT NULL,
    PRIMARY KEY (investigation_id, post_pk, by_key),
    FOREIGN KEY (investigation_id, post_pk)
        REFERENCES investigation_posts(investigation_id, post_pk) ON DELETE CASCADE
) WITHOUT ROWID;

-- Requests received in a package: never this installation's spending.
CREATE TABLE received_requests (
    history_id     INTEGER PRIMARY KEY REFERENCES history(id) ON DELETE CASCADE,
    package_sha256 TEXT    NOT NULL CHECK (length(package_sha256) = 64),
    by_name        TEXT    NOT NULL,
    by_key         TEXT    NOT NULL,
    received_at    INTEGER NOT NULL
);

-- A received request never reaches the ledger, whatever writes it later (a forecast's poll
-- billing, a stream's cost): the row would count it as this installation's spending.
CREATE TRIGGER ledger_never_received BEFORE INSERT ON ledger
WHEN NEW.history_id IN (SELECT history_id FROM received_requests)
BEGIN
    SELECT RAISE(ABORT, 'a request received in a case package is never this installation''s spending');
END;

-- Every package opened here: from whom, what it held, and its custody log exactly as received
-- (the colleague's chain, checkable on its own; this installation's log records the import or
-- the merge with the package's SHA-256 and that log's head).
CREATE TABLE case_packages_received (
    id               INTEGER PRIMARY KEY,
    investigation_id INTEGER NOT NULL,
    package_sha256   TEXT    NOT NULL CHECK (length(package_sha256) = 64),
    manifest_sha256  TEXT    NOT NULL,
    received_at      INTEGER NOT NULL,
    merged           INTEGER NOT NULL,
    by_name          TEXT    NOT NULL,
    by_key           TEXT    NOT NULL,
    custody_jsonl    TEXT    NOT NULL,
    custody_head     TEXT    NOT NULL,
    summary_json     TEXT    NOT NULL
);
CREATE INDEX case_packages_received_case ON case_packages_received(investigation_id, received_at);
