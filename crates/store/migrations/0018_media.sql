-- Media kept: the pictures and videos attached to archived posts.
--
-- `media_files`: one row per distinct file kept, by the SHA-256 of its bytes (lower-case hex;
-- the file itself lives in the data folder's `media/<first two hex>/<sha256>`). `pdq` is the
-- picture's 256-bit PDQ perceptual hash (32 bytes), NULL when the bytes are no picture this
-- build decodes (a video, a damaged file); `pdq_quality` is PDQ's own 0-100 confidence.
-- A file row is written once, by the first item that keeps it, and never edited.
CREATE TABLE media_files (
    sha256        TEXT    PRIMARY KEY CHECK (length(sha256) = 64 AND sha256 NOT GLOB '*[^0-9a-f]*'),
    size          INTEGER NOT NULL,
    content_type  TEXT    NOT NULL,
    pdq           BLOB    CHECK (pdq IS NULL OR length(pdq) = 32),
    pdq_quality   INTEGER,
    width         INTEGER,
    height        INTEGER,
    first_kept_at INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TRIGGER media_files_never_edited BEFORE UPDATE ON media_files BEGIN
    SELECT RAISE(ABORT, 'a kept media file is never edited');
END;

-- `media_items`: each picture or video of a post (`position` = its place in the post's media,
-- from 0), queued to be fetched and then kept, gone (the link answered 404/410: `fetched_at`
-- is when), failed (given up: `reason`), or too large for the user's limit. `waiting` items are
-- fetched from `next_try_at` on (NULL: at once); `attempts` counts the requests sent. For a
-- video, `poster_url` and `poster_sha256` are its still picture, which carries the PDQ hash.
-- `post_id` is the service's post id (`posts.id`), without a foreign key: a post row is only
-- ever upserted, never deleted, and media may be queued in the same breath as its post.
-- `response_headers`: the media response's headers as received, a JSON array of [name, value].
CREATE TABLE media_items (
    id               INTEGER PRIMARY KEY,
    post_id          TEXT    NOT NULL,
    position         INTEGER NOT NULL,
    kind             TEXT    NOT NULL CHECK (kind IN ('photo', 'video', 'animated_gif')),
    source_url       TEXT    NOT NULL,
    poster_url       TEXT,
    state            TEXT    NOT NULL DEFAULT 'waiting'
                     CHECK (state IN ('waiting', 'kept', 'gone', 'failed', 'too_large')),
    attempts         INTEGER NOT NULL DEFAULT 0,
    next_try_at      INTEGER,
    reason           TEXT,
    http_status      INTEGER,
    response_headers TEXT    CHECK (response_headers IS NULL OR
                                    (json_valid(response_headers) AND json_type(response_headers) = 'array')),
    fetched_at       INTEGER,
    sha256           TEXT    REFERENCES media_files(sha256),
    poster_sha256    TEXT    REFERENCES media_files(sha256),
    queued_at        INTEGER NOT NULL,
    UNIQUE (post_id, position)
);

-- The fetcher's next item: the waiting ones by due time.
CREATE INDEX media_items_due ON media_items (next_try_at, id) WHERE state = 'waiting';
-- Matching: the items (and so the posts) holding a file.
CREATE INDEX media_items_by_file ON media_items (sha256) WHERE sha256 IS NOT NULL;
CREATE INDEX media_items_by_poster ON media_items (poster_sha256) WHERE poster_sha256 IS NOT NULL;

-- Safe view is the default everywhere; a case that needs to see its media plainly says so.
ALTER TABLE investigations ADD COLUMN media_full_view INTEGER NOT NULL DEFAULT 0;
