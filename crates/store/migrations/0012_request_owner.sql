-- Which monitor or collection sent a request (issue 35): History names it, Spend sums by it.
--
-- A monitor's or a collection's page is sent under a request id that names its owner
-- (`monitor-<id>-run-…`, `collection-<id>-page-…`: `monitor_page_request_id` and
-- `collection_page_request_id` in crates/store/src/history.rs), and every page has one,
-- failed ones included (a run's `run_requests` lists only the pages recorded with a
-- result). So the history row's owner is read out of its
-- request id: a virtual column, nothing stored, every row from before this migration included.
-- SQLite's CAST takes the leading digits of `12-run-3-…`.
ALTER TABLE history ADD COLUMN monitor_id INTEGER GENERATED ALWAYS AS (
    CASE WHEN request_id GLOB 'monitor-[0-9]*-run-*'
         THEN CAST(substr(request_id, 9) AS INTEGER) END) VIRTUAL;
ALTER TABLE history ADD COLUMN collection_id INTEGER GENERATED ALWAYS AS (
    CASE WHEN request_id GLOB 'collection-[0-9]*-page-*'
         THEN CAST(substr(request_id, 12) AS INTEGER) END) VIRTUAL;

-- The ledger keeps the owner on its own row (copied from the history row as it is written:
-- crates/store/src/ledger.rs), so a deleted history row leaves its money with its monitor.
-- No foreign key: a deleted monitor's or collection's spend stays, under its old id.
ALTER TABLE ledger ADD COLUMN monitor_id INTEGER;
ALTER TABLE ledger ADD COLUMN collection_id INTEGER;
UPDATE ledger SET
    monitor_id = (SELECT h.monitor_id FROM history h WHERE h.id = ledger.history_id),
    collection_id = (SELECT h.collection_id FROM history h WHERE h.id = ledger.history_id)
WHERE history_id IS NOT NULL;

-- Spend by monitor or collection reads only their rows.
CREATE INDEX ledger_monitor ON ledger(monitor_id, at) WHERE monitor_id IS NOT NULL;
CREATE INDEX ledger_collection ON ledger(collection_id, at) WHERE collection_id IS NOT NULL;

-- The ledger stays append-only, its owner included.
DROP TRIGGER ledger_no_update;
CREATE TRIGGER ledger_no_update
BEFORE UPDATE OF at, service, operation, key_label, cost_nanos, usage_count, currency,
                 cost_text, cost_unreadable, monitor_id, collection_id ON ledger
BEGIN
    SELECT RAISE(ABORT, 'the spend ledger is append-only');
END;
