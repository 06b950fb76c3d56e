-- Daily roll-up of the ledger, beside the hourly one, so long ranges read days instead of hours.
--
-- A range of local days is summed as whole UTC days from `spend_daily` plus, at each edge, the
-- hours (and the part of an hour) between the local boundary and the nearest UTC midnight,
-- added or taken away. A year of per-operation spend is then about 12 x 365 day rows and a
-- few dozen hour rows, where the hourly roll-up alone needed about 100,000 rows.
-- Exact for every zone and DST day: the edges are read at hour and millisecond precision.
--
-- With it, no sum needs a cache any more: `spend_day_cache` (filled on first read, which made
-- reads take the write lock and fsync) goes, and the trigger no longer deletes from it.

CREATE TABLE spend_daily (
    dim         TEXT    NOT NULL,  -- 'service', 'operation' or 'key'
    day         INTEGER NOT NULL,  -- at / 86400000 (UTC days since the epoch)
    value       TEXT    NOT NULL,
    requests    INTEGER NOT NULL,
    usage_count INTEGER NOT NULL,
    cost_nanos  INTEGER NOT NULL,
    PRIMARY KEY (dim, day, value)
) WITHOUT ROWID;

-- Backfill from the ledger itself (the source of truth), in the same transaction as the
-- migration: a database opened mid-way never sees a half-filled roll-up.
INSERT INTO spend_daily (dim, day, value, requests, usage_count, cost_nanos)
SELECT 'service', at / 86400000, service, count(*), sum(usage_count), sum(cost_nanos)
FROM ledger GROUP BY 2, 3;
INSERT INTO spend_daily (dim, day, value, requests, usage_count, cost_nanos)
SELECT 'operation', at / 86400000, operation, count(*), sum(usage_count), sum(cost_nanos)
FROM ledger GROUP BY 2, 3;
INSERT INTO spend_daily (dim, day, value, requests, usage_count, cost_nanos)
SELECT 'key', at / 86400000, key_label, count(*), sum(usage_count), sum(cost_nanos)
FROM ledger GROUP BY 2, 3;

DROP TRIGGER ledger_rollup;
DROP TABLE spend_day_cache;

-- Same transaction as the ledger row: the roll-ups can never disagree with the ledger.
CREATE TRIGGER ledger_rollup AFTER INSERT ON ledger BEGIN
    INSERT INTO spend_hourly (dim, hour, value, requests, usage_count, cost_nanos)
    VALUES ('service', NEW.at / 3600000, NEW.service, 1, NEW.usage_count, NEW.cost_nanos),
           ('operation', NEW.at / 3600000, NEW.operation, 1, NEW.usage_count, NEW.cost_nanos),
           ('key', NEW.at / 3600000, NEW.key_label, 1, NEW.usage_count, NEW.cost_nanos)
    ON CONFLICT (dim, hour, value) DO UPDATE SET
        requests = requests + 1,
        usage_count = usage_count + excluded.usage_count,
        cost_nanos = cost_nanos + excluded.cost_nanos;
    INSERT INTO spend_daily (dim, day, value, requests, usage_count, cost_nanos)
    VALUES ('service', NEW.at / 86400000, NEW.service, 1, NEW.usage_count, NEW.cost_nanos),
           ('operation', NEW.at / 86400000, NEW.operation, 1, NEW.usage_count, NEW.cost_nanos),
           ('key', NEW.at / 86400000, NEW.key_label, 1, NEW.usage_count, NEW.cost_nanos)
    ON CONFLICT (dim, day, value) DO UPDATE SET
        requests = requests + 1,
        usage_count = usage_count + excluded.usage_count,
        cost_nanos = cost_nanos + excluded.cost_nanos;
    INSERT INTO spend_total (dim, value, requests, usage_count, cost_nanos)
    VALUES ('service', NEW.service, 1, NEW.usage_count, NEW.cost_nanos),
           ('operation', NEW.operation, 1, NEW.usage_count, NEW.cost_nanos),
           ('key', NEW.key_label, 1, NEW.usage_count, NEW.cost_nanos)
    ON CONFLICT (dim, value) DO UPDATE SET
        requests = requests + 1,
        usage_count = usage_count + excluded.usage_count,
        cost_nanos = cost_nanos + excluded.cost_nanos;
END;

-- The ledger is append-only (money spent stays spent; a deleted history row only loses its
-- link, `history_id`): refuse anything that would make the roll-ups disagree with it.
CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger BEGIN
    SELECT RAISE(ABORT, 'the spend ledger is append-only');
END;
CREATE TRIGGER ledger_no_update
BEFORE UPDATE OF at, service, operation, key_label, cost_nanos, usage_count, currency ON ledger
BEGIN
    SELECT RAISE(ABORT, 'the spend ledger is append-only');
END;
