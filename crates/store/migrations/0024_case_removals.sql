-- Removals carried between installations (issue 33, merge): a tag taken off or a note removed
-- (or written over) in one installation must not come back when a colleague's package, made
-- before they saw the removal, is merged. Two new tables; no row that was there changes.
--
-- * `investigation_tag_times`: when each tag was put on a post (UTC ms), the same in every
--   installation that holds it (a received tag keeps its package's time). A tag with no row
--   here was put on before times were kept (read as 0). With the tag and the post it names
--   one addition: a removal takes off that addition only, so a tag put on again later, here
--   or by a colleague, is another addition and stays.
-- * `investigation_removals`: every removal, kept for good and carried in case packages: what
--   (`tag`: the tag and its addition's time; `note`: the note's whole text, `added_at` 0),
--   when and by whom (`by_*` NULL: this installation). A merge takes off here what a colleague
--   removed after it came here, and brings back nothing removed here. `colleagues_note`: a
--   colleague's note written over with one's own: theirs is taken off nowhere (both notes
--   are kept, a difference), the record only tells a merge that both changed that note.

CREATE TABLE investigation_tag_times (
    investigation_id INTEGER NOT NULL,
    post_pk          INTEGER NOT NULL,
    tag              TEXT    NOT NULL COLLATE NOCASE,
    added_at         INTEGER NOT NULL,
    PRIMARY KEY (investigation_id, post_pk, tag),
    FOREIGN KEY (investigation_id, post_pk, tag)
        REFERENCES investigation_tags(investigation_id, post_pk, tag) ON DELETE CASCADE
) WITHOUT ROWID;

CREATE TABLE investigation_removals (
    id               INTEGER PRIMARY KEY,
    investigation_id INTEGER NOT NULL,
    post_pk          INTEGER NOT NULL,
    kind             TEXT    NOT NULL CHECK (kind IN ('tag', 'note')),
    what             TEXT    NOT NULL,
    added_at         INTEGER NOT NULL,
    removed_at       INTEGER NOT NULL,
    colleagues_note  INTEGER NOT NULL DEFAULT 0,
    by_name          TEXT,
    by_key           TEXT,
    FOREIGN KEY (investigation_id, post_pk)
        REFERENCES investigation_posts(investigation_id, post_pk) ON DELETE CASCADE
);
-- One record per removal, whoever holds it: the same removal received twice is kept once.
CREATE UNIQUE INDEX investigation_removals_one ON investigation_removals(
    investigation_id, post_pk, kind, what, added_at, COALESCE(by_key, ''));
