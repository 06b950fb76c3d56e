-- Spend roll-ups that answer any range of local days from a few rows.
--
-- * `spend_daily`: sums per UTC day.
-- * `spend_quarter_cum`: per 15-minute period, the sums from the UTC midnight before it
--   through the end of it (a running total within each UTC day), so the spend of a day up to
--   any quarter hour is one row.
-- Per service, operation and key label, kept by the ledger trigger in the same transaction.
--
-- A range of local days [start, end) is then days[day(start), day(end)) + P(end) - P(start),
-- where P(t) is the spend of t's UTC day before t: the running total at the quarter hour
-- nearest t, corrected by the ledger rows between that quarter hour and t (none for every
-- zone today: all offsets are whole quarter hours). A year of per-operation spend reads about
-- 12 x 365 day rows plus a few running totals, where the hourly roll-up needed ~100,000 rows;
-- a 365-day series about 3 x 365 day rows and 2 x 3 x 366 running totals.
--
-- This replaces `spend_hourly` and `spend_day_cache` (filled on first read, which made reads
-- take the write lock and fsync). Times are floored (also before 1970), as in Rust.

CREATE TABLE spend_daily (
    dim         TEXT    NOT NULL,  -- 'service', 'operation' or 'key'
    day         INTEGER NOT NULL,  -- floor(at / 86400000): UTC days since the epoch
    value       TEXT    NOT NULL,
    requests    INTEGER NOT NULL,
    usage_count INTEGER NOT NULL,
    cost_nanos  INTEGER NOT NULL,
    PRIMARY KEY (dim, day, value)
) WITHOUT ROWID;

CREATE TABLE spend_quarter_cum (
    dim         TEXT    NOT NULL,
    value       TEXT    NOT NULL,
    quarter     INTEGER NOT NULL,  -- floor(at / 900000): 15-minute periods since the epoch
    requests    INTEGER NOT NULL,  -- sums from the UTC midnight before `quarter` to its end
    usage_count INTEGER NOT NULL,
    cost_nanos  INTEGER NOT NULL,
    PRIMARY KEY (dim, value, quarter)
) WITHOUT ROWID;

-- Backfill from the ledger itself (the source of truth), in the migration's transaction.
CREATE TEMP TABLE ledger_keys AS
SELECT l.*,
       (at - (((at % 86400000) + 86400000) % 86400000)) / 86400000 AS day,
       (at - (((at % 900000) + 900000) % 900000)) / 900000 AS quarter
FROM (SELECT at, service, operation, key_label, usage_count, cost_nanos FROM ledger) AS l;

INSERT INTO spend_daily (dim, day, value, requests, usage_count, cost_nanos)
SELECT 'service', day, service, count(*), sum(usage_count), sum(cost_nanos)
FROM temp.ledger_keys GROUP BY day, service;
INSERT INTO spend_daily (dim, day, value, requests, usage_count, cost_nanos)
SELECT 'operation', day, operation, count(*), sum(usage_count), sum(cost_nanos)
FROM temp.ledger_keys GROUP BY day, operation;
INSERT INTO spend_daily (dim, day, value, requests, usage_count, cost_nanos)
SELECT 'key', day, key_label, count(*), sum(usage_count), sum(cost_nanos)
FROM temp.ledger_keys GROUP BY day, key_label;

INSERT INTO spend_quarter_cum (dim, value, quarter, requests, usage_count, cost_nanos)
SELECT 'service', value, quarter, sum(n) OVER w, sum(u) OVER w, sum(c) OVER w
FROM (SELECT service AS value, day, quarter, count(*) AS n, sum(usage_count) AS u,
             sum(cost_nanos) AS c
      FROM temp.ledger_keys GROUP BY service, day, quarter)
WINDOW w AS (PARTITION BY value, day ORDER BY quarter ROWS UNBOUNDED PRECEDING);
INSERT INTO spend_quarter_cum (dim, value, quarter, requests, usage_count, cost_nanos)
SELECT 'operation', value, quarter, sum(n) OVER w, sum(u) OVER w, sum(c) OVER w
FROM (SELECT operation AS value, day, quarter, count(*) AS n, sum(usage_count) AS u,
             sum(cost_nanos) AS c
      FROM temp.ledger_keys GROUP BY operation, day, quarter)
WINDOW w AS (PARTITION BY value, day ORDER BY quarter ROWS UNBOUNDED PRECEDING);
INSERT INTO spend_quarter_cum (dim, value, quarter, requests, usage_count, cost_nanos)
SELECT 'key', value, quarter, sum(n) OVER w, sum(u) OVER w, sum(c) OVER w
FROM (SELECT key_label AS value, day, quarter, count(*) AS n, sum(usage_count) AS u,
             sum(cost_nanos) AS c
      FROM temp.ledger_keys GROUP BY key_label, day, quarter)
WINDOW w AS (PARTITION BY value, day ORDER BY quarter ROWS UNBOUNDED PRECEDING);

DROP TABLE temp.ledger_keys;
DROP TRIGGER ledger_rollup;
DROP TABLE spend_day_cache;
DROP TABLE spend_hourly;

-- Same transaction as the ledger row: the roll-ups can never disagree with the ledger.
-- A row recorded late (in an earlier quarter hour than others of its UTC day) also adds to
-- the running totals after it; rows usually arrive in time order, so that touches nothing.
CREATE TRIGGER ledger_rollup AFTER INSERT ON ledger BEGIN
    INSERT INTO spend_daily (dim, day, value, requests, usage_count, cost_nanos)
    SELECT dim, (NEW.at - (((NEW.at % 86400000) + 86400000) % 86400000)) / 86400000, value,
           1, NEW.usage_count, NEW.cost_nanos
    FROM (SELECT 'service' AS dim, NEW.service AS value
          UNION ALL SELECT 'operation', NEW.operation
          UNION ALL SELECT 'key', NEW.key_label)
    WHERE true
    ON CONFLICT (dim, day, value) DO UPDATE SET
        requests = requests + 1,
        usage_count = usage_count + excluded.usage_count,
        cost_nanos = cost_nanos + excluded.cost_nanos;

    INSERT INTO spend_quarter_cum (dim, value, quarter, requests, usage_count, cost_nanos)
    SELECT k.dim, k.value, k.quarter,
           1 + COALESCE(prev.requests, 0),
           NEW.usage_count + COALESCE(prev.usage_count, 0),
           NEW.cost_nanos + COALESCE(prev.cost_nanos, 0)
    FROM (SELECT dim, value,
                 (NEW.at - (((NEW.at % 900000) + 900000) % 900000)) / 900000 AS quarter,
                 (NEW.at - (((NEW.at % 86400000) + 86400000) % 86400000)) / 900000 AS first
          FROM (SELECT 'service' AS dim, NEW.service AS value
                UNION ALL SELECT 'operation', NEW.operation
                UNION ALL SELECT 'key', NEW.key_label)) AS k
    LEFT JOIN spend_quarter_cum AS prev
        ON prev.dim = k.dim AND prev.value = k.value
       AND prev.quarter = (SELECT max(m.quarter) FROM spend_quarter_cum AS m
                           WHERE m.dim = k.dim AND m.value = k.value
                             AND m.quarter >= k.first AND m.quarter < k.quarter)
    WHERE true
    ON CONFLICT (dim, value, quarter) DO UPDATE SET
        requests = requests + 1,
        usage_count = usage_count + NEW.usage_count,
        cost_nanos = cost_nanos + NEW.cost_nanos;
    UPDATE spend_quarter_cum SET
        requests = requests + 1,
        usage_count = usage_count + NEW.usage_count,
        cost_nanos = cost_nanos + NEW.cost_nanos
    WHERE (dim, value) IN (VALUES ('service', NEW.service), ('operation', NEW.operation),
                                  ('key', NEW.key_label))
      AND quarter > (NEW.at - (((NEW.at % 900000) + 900000) % 900000)) / 900000
      AND quarter < (NEW.at - (((NEW.at % 86400000) + 86400000) % 86400000)) / 900000 + 96;

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
