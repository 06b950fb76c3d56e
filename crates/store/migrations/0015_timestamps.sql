-- Trusted timestamps (RFC 3161): one row per capture (a provenance row) to be stamped by a
-- timestamp authority (TSA) over its SHA-256, enqueued in the capture's own transaction when a
-- TSA is set, or for an investigation's captures when the user asks ("Stamp now").
--
-- * `state`: 'waiting' (to be asked at `next_try_at`), 'stamped' (the token is here) or
--   'failed' (the TSA refused it or answered what is no token: `problem` says why; asked again
--   only when the user asks).
-- * `tsa_url`: the TSA to ask, then the one that was asked last (the one that stamped it).
-- * `attempts`: requests sent for this capture so far.
-- * `problem`: why the last attempt failed (kept while waiting for the next try, too).
-- * `token`: the TSA's reply (a DER TimeStampResp) exactly as received; `stamped_at` the time
--   inside it (the authority's clock, ms UTC), `authority` the name it gives, and
--   `certificates_pem` the certificates it carried. Once stamped, a row is never edited.
-- Deleting a capture (its history row) deletes its stamp with it.
CREATE TABLE stamps (
    history_id       INTEGER PRIMARY KEY REFERENCES provenance(history_id) ON DELETE CASCADE,
    sha256           TEXT    NOT NULL CHECK (length(sha256) = 64),
    state            TEXT    NOT NULL CHECK (state IN ('waiting', 'stamped', 'failed')),
    tsa_url          TEXT    NOT NULL,
    attempts         INTEGER NOT NULL DEFAULT 0,
    next_try_at      INTEGER,            -- ms UTC; set while waiting
    enqueued_at      INTEGER NOT NULL,   -- ms UTC
    problem          TEXT,
    token            BLOB,
    stamped_at       INTEGER,            -- ms UTC, the authority's time
    authority        TEXT,
    certificates_pem TEXT,
    CHECK ((state = 'stamped') = (token IS NOT NULL AND stamped_at IS NOT NULL)),
    CHECK ((state = 'waiting') = (next_try_at IS NOT NULL))
);

-- The stamper reads only the next waiting row (no scan at start-up).
CREATE INDEX stamps_due ON stamps(next_try_at, history_id) WHERE state = 'waiting';

CREATE TRIGGER stamps_token_never_edited BEFORE UPDATE ON stamps
WHEN OLD.state = 'stamped' BEGIN
    SELECT RAISE(ABORT, 'a stamped token is never edited');
END;
