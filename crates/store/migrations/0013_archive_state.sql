-- The store's key/value table holds the state of this archive (which investigation is active:
-- an id that means something only in this file), not the app's settings, which live in
-- settings.json in the data folder (crates/core/src/settings.rs). It is named for what it
-- holds; renaming keeps every row, so an upgraded archive keeps its active investigation.
ALTER TABLE settings RENAME TO archive_state;
