-- The archive's users, most recently fetched first, a page at a time by key (after the last user
-- of the page before, `paging.rs`): this index lists them in that order (ties in the order they
-- were stored, the service's order within one answer), so a page reads its own rows, not every
-- user before it and not a sort of them all. The links' list already has its index
-- (links_last_seen, 0001).
CREATE INDEX users_last_seen ON users(last_seen DESC);
