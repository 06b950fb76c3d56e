-- Every evidence bundle this installation wrote: when, under which file name, the SHA-256 of
-- its manifest.json and of the whole ZIP, the fingerprint of the key that signed it, and the
-- investigation it holds (none for a hand-picked selection). "Verify a bundle" finds a bundle
-- here by its manifest's hash to say it matches one this computer exported. Rows are only
-- added: a trigger refuses edits (a deleted investigation keeps its exports, by plain id).
CREATE TABLE bundle_exports (
    id INTEGER PRIMARY KEY,
    exported_at INTEGER NOT NULL,
    file_name TEXT NOT NULL,
    manifest_sha256 TEXT NOT NULL,
    file_sha256 TEXT NOT NULL,
    installation_fingerprint TEXT NOT NULL,
    investigation_id INTEGER
);

CREATE INDEX bundle_exports_by_manifest ON bundle_exports (manifest_sha256);

CREATE TRIGGER bundle_exports_never_edited
BEFORE UPDATE ON bundle_exports
BEGIN
    SELECT RAISE(ABORT, 'a bundle export record is never edited');
END;
