-- Spend's running totals per UTC hour, beside 0002's per quarter hour, for the bounds of local
-- days in a zone whose offset is a whole number of hours (nearly all): a year's per-day series
-- reads the running total at each day's bound, one B-tree seek per service and bound, and with
-- ~96 quarter-hour rows a day each seek was its own page (~730 pages read apart for a year of
-- two services, about 100 ms after a restart). An hour's rows are 24 a day, five days a page.
--
-- `spend_hour_cum`: per UTC hour, the sums from the UTC midnight before it through the end of
-- it (a running total within each UTC day), per service, operation and key label. Kept by its
-- own trigger on the ledger, in the same transaction, as 0002's trigger keeps the quarter
-- hours' (the ledger is append-only: rows are only inserted). Times are floored, as in Rust.

CREATE TABLE spend_hour_cum (
    dim         TEXT    NOT NULL,
    value       TEXT    NOT NULL,
    hour        INTEGER NOT NULL,  -- floor(at / 3600000): hours since the epoch
    requests    INTEGER NOT NULL,  -- sums from the UTC midnight before `hour` to its end
    usage_count INTEGER NOT NULL,
    cost_nanos  INTEGER NOT NULL,
    PRIMARY KEY (dim, value, hour)
) WITHOUT ROWID;

-- A row recorded late (in an earlier hour than others of its UTC day) also adds to the
-- running totals after it; rows usually arrive in time order, so that touches nothing.
CREATE TRIGGER ledger_hour_cum AFTER INSERT ON ledger BEGIN
    INSERT INTO spend_hour_cum (dim, value, hour, requests, usage_count, cost_nanos)
    SELECT k.dim, k.value, k.hour,
           1 + COALESCE(prev.requests, 0),
           NEW.usage_count + COALESCE(prev.usage_count, 0),
           NEW.cost_nanos + COALESCE(prev.cost_nanos, 0)
    FROM (SELECT dim, value,
                 (NEW.at - (((NEW.at % 3600000) + 3600000) % 3600000)) / 3600000 AS hour,
                 (NEW.at - (((NEW.at % 86400000) + 86400000) % 86400000)) / 3600000 AS first
          FROM (SELECT 'service' AS dim, NEW.service AS value
                UNION ALL SELECT 'operation', NEW.operation
                UNION ALL SELECT 'key', NEW.key_label)) AS k
    LEFT JOIN spend_hour_cum AS prev
        ON prev.dim = k.dim AND prev.value = k.value
       AND prev.hour = (SELECT max(m.hour) FROM spend_hour_cum AS m
                        WHERE m.dim = k.dim AND m.value = k.value
                          AND m.hour >= k.first AND m.hour < k.hour)
    WHERE true
    ON CONFLICT (dim, value, hour) DO UPDATE SET
        requests = requests + 1,
        usage_count = usage_count + NEW.usage_count,
        cost_nanos = cost_nanos + NEW.cost_nanos;
    UPDATE spend_hour_cum SET
        requests = requests + 1,
        usage_count = usage_count + NEW.usage_count,
        cost_nanos = cost_nanos + NEW.cost_nanos
    WHERE (dim, value) IN (VALUES ('service', NEW.service), ('operation', NEW.operation),
                                  ('key', NEW.key_label))
      AND hour > (NEW.at - (((NEW.at % 3600000) + 3600000) % 3600000)) / 3600000
      AND hour < (NEW.at - (((NEW.at % 86400000) + 86400000) % 86400000)) / 3600000 + 24;
END;

-- The ledger already there, summed once per dimension, value and hour in its time order
-- (`ledger_at`), then run within each UTC day.
INSERT INTO spend_hour_cum (dim, value, hour, requests, usage_count, cost_nanos)
SELECT dim, value, hour, sum(n) OVER w, sum(u) OVER w, sum(c) OVER w
FROM (SELECT 'service' AS dim, service AS value, at / 3600000 AS hour,
             count(*) AS n, sum(usage_count) AS u, sum(cost_nanos) AS c
      FROM (SELECT service, usage_count, cost_nanos,
                   at - (((at % 3600000) + 3600000) % 3600000) AS at FROM ledger)
      GROUP BY service, hour
      UNION ALL
      SELECT 'operation', operation, at / 3600000 AS hour,
             count(*), sum(usage_count), sum(cost_nanos)
      FROM (SELECT operation, usage_count, cost_nanos,
                   at - (((at % 3600000) + 3600000) % 3600000) AS at FROM ledger)
      GROUP BY operation, hour
      UNION ALL
      SELECT 'key', key_label, at / 3600000 AS hour,
             count(*), sum(usage_count), sum(cost_nanos)
      FROM (SELECT key_label, usage_count, cost_nanos,
                   at - (((at % 3600000) + 3600000) % 3600000) AS at FROM ledger)
      GROUP BY key_label, hour)
WINDOW w AS (PARTITION BY dim, value, (hour - (((hour % 24) + 24) % 24)) ORDER BY hour
             ROWS UNBOUNDED PRECEDING)
ORDER BY dim, value, hour;
