-- The whole archive's top lists, counted as posts are written rather than when they are asked
-- for. Grouping a million posts' facts read their indexes whole: fast once they are in memory,
-- but over 3 s the first time after a restart, when every page of them comes from disk. These
-- tallies hold one row per account, language and entity, so the whole archive's top lists
-- read a few thousand rows instead.
--
-- Kept by triggers on post_facts and post_entities, which migration 0008's triggers rewrite
-- (delete, then insert) each time a post is stored or seen again, so each tally follows every
-- insert, update and delete of a post. Like 0008's triggers they use no conflict clause (which
-- would give way to the statement that fired them): each adds to a row, then inserts the row
-- if it was not there.

-- Per account (lower-case handle): its posts, their engagement, and its newest post's pk (the
-- post whose spelling of the handle labels it).
CREATE TABLE author_tally (
    author     TEXT    PRIMARY KEY,
    posts      INTEGER NOT NULL,
    engagement INTEGER NOT NULL,
    last_pk    INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE lang_tally (
    lang  TEXT    PRIMARY KEY,
    posts INTEGER NOT NULL
) WITHOUT ROWID;

-- Per (kind, value) of post_entities: the posts naming it.
CREATE TABLE entity_tally (
    kind  INTEGER NOT NULL,
    value TEXT    NOT NULL,
    posts INTEGER NOT NULL,
    PRIMARY KEY (kind, value)
) WITHOUT ROWID;

CREATE TRIGGER post_facts_tally_add AFTER INSERT ON post_facts BEGIN
    UPDATE author_tally
        SET posts = posts + 1, engagement = engagement + NEW.engagement,
            last_pk = max(last_pk, NEW.post_pk)
        WHERE author = NEW.author;
    INSERT INTO author_tally (author, posts, engagement, last_pk)
        SELECT NEW.author, 1, NEW.engagement, NEW.post_pk
        WHERE NOT EXISTS (SELECT 1 FROM author_tally WHERE author = NEW.author);
    UPDATE lang_tally SET posts = posts + 1 WHERE lang = NEW.lang;
    INSERT INTO lang_tally (lang, posts)
        SELECT NEW.lang, 1
        WHERE NEW.lang IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM lang_tally WHERE lang = NEW.lang);
END;

CREATE TRIGGER post_facts_tally_remove AFTER DELETE ON post_facts BEGIN
    UPDATE author_tally
        SET posts = posts - 1, engagement = engagement - OLD.engagement
        WHERE author = OLD.author;
    DELETE FROM author_tally WHERE author = OLD.author AND posts <= 0;
    -- Its newest post gone: the next newest labels it (a post seen again is deleted and
    -- inserted, and its insert puts it back).
    UPDATE author_tally
        SET last_pk = (SELECT max(post_pk) FROM post_facts WHERE author = OLD.author)
        WHERE author = OLD.author AND last_pk = OLD.post_pk;
    UPDATE lang_tally SET posts = posts - 1 WHERE lang = OLD.lang;
    DELETE FROM lang_tally WHERE lang = OLD.lang AND posts <= 0;
END;

CREATE TRIGGER post_entities_tally_add AFTER INSERT ON post_entities BEGIN
    UPDATE entity_tally SET posts = posts + 1 WHERE kind = NEW.kind AND value = NEW.value;
    INSERT INTO entity_tally (kind, value, posts)
        SELECT NEW.kind, NEW.value, 1
        WHERE NOT EXISTS (SELECT 1 FROM entity_tally WHERE kind = NEW.kind AND value = NEW.value);
END;

CREATE TRIGGER post_entities_tally_remove AFTER DELETE ON post_entities BEGIN
    UPDATE entity_tally SET posts = posts - 1 WHERE kind = OLD.kind AND value = OLD.value;
    DELETE FROM entity_tally WHERE kind = OLD.kind AND value = OLD.value AND posts <= 0;
END;

-- The posts stored before: counted once, here.
INSERT INTO author_tally (author, posts, engagement, last_pk)
    SELECT author, count(*), sum(engagement), max(post_pk) FROM post_facts GROUP BY author;
INSERT INTO lang_tally (lang, posts)
    SELECT lang, count(*) FROM post_facts WHERE lang IS NOT NULL GROUP BY lang;
INSERT INTO entity_tally (kind, value, posts)
    SELECT kind, value, count(*) FROM post_entities GROUP BY kind, value;
