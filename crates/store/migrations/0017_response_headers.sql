-- Every header of a response, as received, beside its provenance: a JSON array of
-- [name, value] pairs in the order received (names lower-case, as the client reads them;
-- `transfer-encoding` and `content-encoding` renamed `x-sightline-original-…`, since the kept
-- body is the one the client delivered; a value holding the API key replaced by words saying
-- so). Written in the same transaction as the provenance row and never edited; deleting the
-- history row deletes it. Captures made before this migration have no row: of their headers
-- only the billing ones were kept (provenance.billing_headers).
CREATE TABLE response_headers (
    history_id INTEGER PRIMARY KEY REFERENCES history(id) ON DELETE CASCADE,
    headers    TEXT    NOT NULL CHECK (json_valid(headers) AND json_type(headers) = 'array')
);

CREATE TRIGGER response_headers_never_edited BEFORE UPDATE ON response_headers BEGIN
    SELECT RAISE(ABORT, 'response headers are never edited');
END;
