-- Investigations: cases that gather requests, posts, notes and tags, and their dated
-- "still there?" checks. Filing never touches history, the archive or the ledger: deleting an
-- investigation drops only its filing, and the money its requests cost stays in the ledger.

CREATE TABLE investigations (
    id          INTEGER PRIMARY KEY,
    name        TEXT    NOT NULL,
    description TEXT    NOT NULL DEFAULT '',
    notebook    TEXT    NOT NULL DEFAULT '',  -- Markdown
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL,
    archived    INTEGER NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX investigations_name ON investigations(name COLLATE NOCASE);

-- The requests filed under an investigation. `how`: 'active' (sent while it was the active
-- investigation) or 'by_hand' ("Add to…"). A deleted history row leaves its filing too.
CREATE TABLE investigation_requests (
    investigation_id INTEGER NOT NULL REFERENCES investigations(id) ON DELETE CASCADE,
    history_id       INTEGER NOT NULL REFERENCES history(id) ON DELETE CASCADE,
    added_at         INTEGER NOT NULL,
    how              TEXT    NOT NULL,
    PRIMARY KEY (investigation_id, history_id)
) WITHOUT ROWID;
CREATE INDEX investigation_requests_history ON investigation_requests(history_id);

-- The posts filed under an investigation, with its own note on each. `created_at` copies the
-- post's time (never changes), so the newest-first page of a large investigation, or one
-- limited to a date range, is read in index order without visiting every post. `by_hand`: the
-- post was added on its own, so taking out a request that also found it leaves it filed.
CREATE TABLE investigation_posts (
    investigation_id INTEGER NOT NULL REFERENCES investigations(id) ON DELETE CASCADE,
    post_pk          INTEGER NOT NULL REFERENCES posts(pk) ON DELETE CASCADE,
    created_at       INTEGER NOT NULL,
    added_at         INTEGER NOT NULL,
    by_hand          INTEGER NOT NULL DEFAULT 0,
    note             TEXT    NOT NULL DEFAULT '',
    PRIMARY KEY (investigation_id, post_pk)
) WITHOUT ROWID;
CREATE INDEX investigation_posts_newest
    ON investigation_posts(investigation_id, created_at DESC, post_pk DESC);
CREATE INDEX investigation_posts_post ON investigation_posts(post_pk);

-- Free-text tags per (investigation, post), compared without case: the first spelling kept.
CREATE TABLE investigation_tags (
    investigation_id INTEGER NOT NULL,
    post_pk          INTEGER NOT NULL,
    tag              TEXT    NOT NULL COLLATE NOCASE,
    PRIMARY KEY (investigation_id, post_pk, tag),
    FOREIGN KEY (investigation_id, post_pk)
        REFERENCES investigation_posts(investigation_id, post_pk) ON DELETE CASCADE
) WITHOUT ROWID;
-- Filter by tag and autocomplete by prefix, both within one investigation.
CREATE INDEX investigation_tags_tag ON investigation_tags(investigation_id, tag, post_pk);

-- "Still there?" checks: when, what the re-fetch cost (from the service's answers) and the
-- history rows of its requests (JSON array of ids).
CREATE TABLE investigation_checks (
    id               INTEGER PRIMARY KEY,
    investigation_id INTEGER NOT NULL REFERENCES investigations(id) ON DELETE CASCADE,
    checked_at       INTEGER NOT NULL,
    cost_nanos       INTEGER NOT NULL,
    history_ids      TEXT    NOT NULL
);
CREATE INDEX investigation_checks_newest ON investigation_checks(investigation_id, checked_at DESC);

-- One line per post checked. `post_id` is the service's id, kept as text so the line stays
-- readable even if the archived copy is later removed. `changes` is JSON:
-- [{"field": ..., "before": ..., "after": ...}, ...].
CREATE TABLE investigation_check_items (
    check_id INTEGER NOT NULL REFERENCES investigation_checks(id) ON DELETE CASCADE,
    post_id  TEXT    NOT NULL,
    outcome  TEXT    NOT NULL,  -- unchanged | changed | gone
    changes  TEXT    NOT NULL,
    PRIMARY KEY (check_id, post_id)
) WITHOUT ROWID;
