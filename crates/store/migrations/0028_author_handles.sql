-- Each account's handle as spelt in its newest stored post, kept beside its tally (0009) rather
-- than read from that post when asked. The whole archive's network labels up to 10,000 accounts:
-- one seek into the posts per account, each a page of its own in a large archive, was 1.6 s of
-- the network's 2.9 s cold at ten million posts. This table is a few pages per thousand accounts.
--
-- `author` is the lower-case handle (post_facts.author); `pk` the newest post's pk (as
-- author_tally.last_pk); `handle` that post's author_username. Kept by triggers on post_facts,
-- which 0008's triggers rewrite (delete, then insert) each time a post is stored or seen again,
-- so a new spelling in a post seen again replaces the old one.
CREATE TABLE author_handles (
    author TEXT    PRIMARY KEY,
    pk     INTEGER NOT NULL,
    handle TEXT    NOT NULL
) WITHOUT ROWID;

INSERT INTO author_handles (author, pk, handle)
    SELECT t.author, t.last_pk, p.author_username
    FROM author_tally t CROSS JOIN posts p ON p.pk = t.last_pk;

-- A post stored: its spelling labels the account when it is the account's newest.
CREATE TRIGGER post_facts_handle_add AFTER INSERT ON post_facts BEGIN
    INSERT INTO author_handles (author, pk, handle)
        SELECT NEW.author, NEW.post_pk, p.author_username FROM posts p WHERE p.pk = NEW.post_pk
        ON CONFLICT (author) DO UPDATE SET pk = excluded.pk, handle = excluded.handle
        WHERE excluded.pk >= author_handles.pk;
END;

-- The newest post gone: the next newest labels the account; none left, the row goes.
CREATE TRIGGER post_facts_handle_remove AFTER DELETE ON post_facts BEGIN
    UPDATE author_handles SET pk = newest.pk, handle = newest.author_username
        FROM (SELECT p.pk, p.author_username FROM posts p
              WHERE p.pk = (SELECT max(post_pk) FROM post_facts WHERE author = OLD.author)) newest
        WHERE author_handles.author = OLD.author AND author_handles.pk = OLD.post_pk;
    DELETE FROM author_handles WHERE author = OLD.author AND pk = OLD.post_pk;
END;
