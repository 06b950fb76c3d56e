-- Any cost the service states is recorded (issue 28).
--
-- A service that computes in binary floating point writes `0.00010499999999999999` for 7 units
-- at 0.015 per 1,000; the ledger sums integer nano-dollars, so such a cost is rounded half-even
-- to the nano-dollar (crates/store/src/money.rs) and its text is kept here exactly as received.
-- A cost that is not a number at all is still a charge: it is marked unreadable, with its
-- text, and 0 nano-dollars that no sum may take for its value: Spend counts these answers as
-- unknown (a count beside the totals), learned rates leave them out.
--
-- Columns added at the end of a table change no row already written (SQLite rewrites none):
-- rows from before this migration hold NULL text and are readable.

ALTER TABLE history ADD COLUMN cost_text TEXT;                           -- as the service wrote it
ALTER TABLE history ADD COLUMN cost_unreadable INTEGER NOT NULL DEFAULT 0; -- 1: no amount could be read
ALTER TABLE ledger ADD COLUMN cost_text TEXT;
ALTER TABLE ledger ADD COLUMN cost_unreadable INTEGER NOT NULL DEFAULT 0;

-- Counting the unknown ones of any range reads only them.
CREATE INDEX ledger_unreadable ON ledger(at) WHERE cost_unreadable = 1;

-- The ledger stays append-only, its new columns included.
DROP TRIGGER ledger_no_update;
CREATE TRIGGER ledger_no_update
BEFORE UPDATE OF at, service, operation, key_label, cost_nanos, usage_count, currency,
                 cost_text, cost_unreadable ON ledger
BEGIN
    SELECT RAISE(ABORT, 'the spend ledger is append-only');
END;
