-- Substring search over history parameters without reading every row.
--
-- A trigram index (every three characters, case-folded) over `params_json`. External content
-- (the history table keeps the text), no positions and no column sizes: it only narrows the
-- rows to those holding every trigram of the searched text, and the same LIKE as before then
-- decides, so the results are exactly those of a full scan.
CREATE VIRTUAL TABLE history_fts USING fts5(
    params_json,
    content = 'history', content_rowid = 'id',
    tokenize = 'trigram', detail = none, columnsize = 0
);
INSERT INTO history_fts (history_fts) VALUES ('rebuild');

CREATE TRIGGER history_fts_insert AFTER INSERT ON history BEGIN
    INSERT INTO history_fts (rowid, params_json) VALUES (NEW.id, NEW.params_json);
END;
CREATE TRIGGER history_fts_delete AFTER DELETE ON history BEGIN
    INSERT INTO history_fts (history_fts, rowid, params_json)
    VALUES ('delete', OLD.id, OLD.params_json);
END;
CREATE TRIGGER history_fts_update AFTER UPDATE OF params_json ON history
WHEN OLD.params_json IS NOT NEW.params_json
BEGIN
    INSERT INTO history_fts (history_fts, rowid, params_json)
    VALUES ('delete', OLD.id, OLD.params_json);
    INSERT INTO history_fts (rowid, params_json) VALUES (NEW.id, NEW.params_json);
END;
