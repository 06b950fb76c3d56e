-- The custody log: per investigation, an append-only, hash-chained list of everything done to
-- it (src/custody.rs holds the rule). `seq` counts from 1 within each investigation; `at` is
-- UTC milliseconds; `collector` is "Collected by" at the time; `action` a CustodyAction word;
-- `ids` a JSON array of texts (`post:<id>`, `request:<history id>`...); `hash` the SHA-256 of
-- the entry's canonical form, which includes `prev_hash`, the hash of the entry before.
--
-- No foreign key to investigations: deleting an investigation must not take its log with it.
-- The deletion is recorded as the log's last entry and the log stays, so what was done to a
-- case, and that it was deleted, can still be shown.
CREATE TABLE custody_log (
    investigation_id INTEGER NOT NULL,
    seq              INTEGER NOT NULL CHECK (seq >= 1),
    at               INTEGER NOT NULL,
    collector        TEXT    NOT NULL,
    action           TEXT    NOT NULL,
    ids              TEXT    NOT NULL,
    detail           TEXT    NOT NULL,
    prev_hash        TEXT    NOT NULL,
    hash             TEXT    NOT NULL,
    PRIMARY KEY (investigation_id, seq)
) WITHOUT ROWID;

-- An entry must follow the last one of its investigation (the next seq, that entry's hash as
-- its prev_hash) and carry its own hash (sightline_custody_hash, the store's rule). Appends
-- take SQLite's write lock, so two writers cannot both add the same seq.
CREATE TRIGGER custody_log_appends_only BEFORE INSERT ON custody_log
WHEN NEW.seq IS NOT COALESCE((SELECT max(seq) FROM custody_log
                              WHERE investigation_id = NEW.investigation_id), 0) + 1
  OR NEW.prev_hash IS NOT COALESCE((SELECT hash FROM custody_log
                                    WHERE investigation_id = NEW.investigation_id
                                    ORDER BY seq DESC LIMIT 1),
                                   '0000000000000000000000000000000000000000000000000000000000000000')
  OR NEW.hash IS NOT sightline_custody_hash(NEW.prev_hash, NEW.seq, NEW.at, NEW.collector,
                                            NEW.action, NEW.ids, NEW.detail)
BEGIN
    SELECT RAISE(ABORT, 'custody log: an entry must follow the last one (the next number and its hash) and carry its own hash');
END;

CREATE TRIGGER custody_log_no_update BEFORE UPDATE ON custody_log
BEGIN
    SELECT RAISE(ABORT, 'custody log: entries cannot be changed; the log is append-only');
END;

CREATE TRIGGER custody_log_no_delete BEFORE DELETE ON custody_log
BEGIN
    SELECT RAISE(ABORT, 'custody log: entries cannot be deleted; the log is append-only');
END;

-- A deleted investigation's log stays: its id is never given to a new investigation, whose
-- log would otherwise continue the old one's chain.
CREATE TRIGGER investigations_id_not_reused AFTER INSERT ON investigations
WHEN EXISTS (SELECT 1 FROM custody_log WHERE investigation_id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'this investigation id belongs to a deleted investigation''s custody log');
END;

-- Investigations made before this migration: their log begins now, with one entry that says
-- so. Nothing done before is invented.
INSERT INTO custody_log
    (investigation_id, seq, at, collector, action, ids, detail, prev_hash, hash)
SELECT i.id, 1, t.at, '', 'log_started', '[]', t.detail, t.zeros,
       sightline_custody_hash(t.zeros, 1, t.at, '', 'log_started', '[]', t.detail)
FROM investigations i,
     (SELECT CAST(unixepoch('subsec') * 1000 AS INTEGER) AS at,
             '0000000000000000000000000000000000000000000000000000000000000000' AS zeros,
             'The custody log began here; what was done to this investigation before was not recorded.' AS detail) t
ORDER BY i.id;
