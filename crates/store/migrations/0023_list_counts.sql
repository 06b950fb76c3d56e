-- How many rows History and an investigation's posts hold, counted as rows are written rather
-- than when a screen opens (as 0009 counts posts by language). History's first view showed the
-- count of every request: `count(*)` read a whole index of the history, 0.8 s cold for
-- 1,000,000 requests; an investigation of 1,000,000 posts read its million index entries
-- twice (its row in the list, its page's total), 0.7 s cold each. These tables hold one row per
-- operation and status, and one per investigation.
--
-- Like 0009's tallies they use no conflict clause: each trigger adds to a row, then inserts it
-- if it was not there, and a row whose count falls to nothing is deleted, so the tables hold
-- exactly what a count would find. Upserts that find the row already there fire the update
-- triggers, not the insert ones, so a post filed again is not counted twice.

-- Requests by operation and status: History's count with no filter is their sum, with only
-- an operation or a status filter the sum of its rows.
CREATE TABLE history_counts (
    operation TEXT    NOT NULL,
    status    TEXT    NOT NULL,
    requests  INTEGER NOT NULL,
    PRIMARY KEY (operation, status)
) WITHOUT ROWID;

CREATE TRIGGER history_counts_add AFTER INSERT ON history BEGIN
    UPDATE history_counts SET requests = requests + 1
        WHERE operation = NEW.operation AND status = NEW.status;
    INSERT INTO history_counts (operation, status, requests)
        SELECT NEW.operation, NEW.status, 1
        WHERE NOT EXISTS (SELECT 1 FROM history_counts
            WHERE operation = NEW.operation AND status = NEW.status);
END;

CREATE TRIGGER history_counts_remove AFTER DELETE ON history BEGIN
    UPDATE history_counts SET requests = requests - 1
        WHERE operation = OLD.operation AND status = OLD.status;
    DELETE FROM history_counts
        WHERE operation = OLD.operation AND status = OLD.status AND requests <= 0;
END;

-- A request that finishes changes its status (running, then ok or error); one recorded again
-- may change its operation.
CREATE TRIGGER history_counts_move AFTER UPDATE OF operation, status ON history
WHEN OLD.operation IS NOT NEW.operation OR OLD.status IS NOT NEW.status BEGIN
    UPDATE history_counts SET requests = requests - 1
        WHERE operation = OLD.operation AND status = OLD.status;
    DELETE FROM history_counts
        WHERE operation = OLD.operation AND status = OLD.status AND requests <= 0;
    UPDATE history_counts SET requests = requests + 1
        WHERE operation = NEW.operation AND status = NEW.status;
    INSERT INTO history_counts (operation, status, requests)
        SELECT NEW.operation, NEW.status, 1
        WHERE NOT EXISTS (SELECT 1 FROM history_counts
            WHERE operation = NEW.operation AND status = NEW.status);
END;

-- Posts filed in each investigation: its row in the list and its posts' total with no filter.
-- An investigation deleted takes its posts with it (a cascade, which fires the delete trigger).
CREATE TABLE investigation_post_counts (
    investigation_id INTEGER PRIMARY KEY,
    posts            INTEGER NOT NULL
);

CREATE TRIGGER investigation_post_counts_add AFTER INSERT ON investigation_posts BEGIN
    UPDATE investigation_post_counts SET posts = posts + 1
        WHERE investigation_id = NEW.investigation_id;
    INSERT INTO investigation_post_counts (investigation_id, posts)
        SELECT NEW.investigation_id, 1
        WHERE NOT EXISTS (SELECT 1 FROM investigation_post_counts
            WHERE investigation_id = NEW.investigation_id);
END;

CREATE TRIGGER investigation_post_counts_remove AFTER DELETE ON investigation_posts BEGIN
    UPDATE investigation_post_counts SET posts = posts - 1
        WHERE investigation_id = OLD.investigation_id;
    DELETE FROM investigation_post_counts
        WHERE investigation_id = OLD.investigation_id AND posts <= 0;
END;

-- The rows already there: counted once, here. History is read in its own order (NOT INDEXED):
-- through an index on the operation its rows come in random order, 5.3 s cold against 1.1 s for
-- 1,000,000 requests; the investigations' posts off the index of their newest, 0.8 s.
INSERT INTO history_counts (operation, status, requests)
    SELECT operation, status, count(*) FROM history NOT INDEXED GROUP BY operation, status;
INSERT INTO investigation_post_counts (investigation_id, posts)
    SELECT investigation_id, count(*) FROM investigation_posts GROUP BY investigation_id;
