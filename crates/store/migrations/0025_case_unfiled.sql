-- Posts and requests taken out of a case, carried between installations (issue 33, merge):
-- a colleague's package made before they saw it must not file them again, and what they took
-- out after it came here is taken out here too. One new table; no row that was there changes.
--
-- `item`: the service's post id, or the request id (the same in every installation);
-- `filed_at`: the filing taken out (its `added_at`, which a received filing keeps), so filing
-- the same item again later is another filing and stays; `by_*` NULL: this installation.
CREATE TABLE investigation_unfiled (
    id               INTEGER PRIMARY KEY,
    investigation_id INTEGER NOT NULL REFERENCES investigations(id) ON DELETE CASCADE,
    kind             TEXT    NOT NULL CHECK (kind IN ('post', 'request')),
    item             TEXT    NOT NULL,
    filed_at         INTEGER NOT NULL,
    removed_at       INTEGER NOT NULL,
    by_name          TEXT,
    by_key           TEXT
);
-- One record per taking out, whoever holds it: the same one received twice is kept once.
CREATE UNIQUE INDEX investigation_unfiled_one ON investigation_unfiled(
    investigation_id, kind, item, filed_at, COALESCE(by_key, ''));
