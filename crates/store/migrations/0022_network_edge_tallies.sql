-- The whole archive's network: its reply, quote and mention edges counted as posts are written
-- rather than when they are asked for (as 0009 does for the top lists). Grouping each kind's
-- covering index read it whole: 12.5 s cold for the mention edges of 5,250,000 posts. These
-- tallies hold one row per edge and one per edge weight, so the whole archive's heaviest edges
-- and their number are read off a few thousand rows however many posts there are.
--
-- Kept by triggers on post_facts (replies, quotes) and post_entities (mentions), which 0008's
-- triggers rewrite (delete, then insert) each time a post is stored or seen again, so each edge
-- follows every insert, update and delete of a post. Like 0009's they use no conflict clause:
-- each adds to a row, then inserts the row if it was not there. An account's posts naming
-- itself make no edge, as the network's own count has it.

-- One row per edge: `kind` is the network's word (`reply`, `quote`, `mention`), `source` the
-- author and `target` the account replied to, quoted or mentioned (lower-case handles, as in
-- post_facts), `posts` its weight, `first` and `last` its first and last post's time.
CREATE TABLE edge_tally (
    kind   TEXT    NOT NULL,
    source TEXT    NOT NULL,
    target TEXT    NOT NULL,
    posts  INTEGER NOT NULL,
    first  INTEGER NOT NULL,
    last   INTEGER NOT NULL,
    PRIMARY KEY (kind, source, target)
) WITHOUT ROWID;

-- How many edges of a kind weigh `posts`: the number of edges at least so heavy, which the
-- network shows beside the heaviest, is a sum of a few rows rather than a count of every edge.
CREATE TABLE edge_weights (
    kind  TEXT    NOT NULL,
    posts INTEGER NOT NULL,
    edges INTEGER NOT NULL,
    PRIMARY KEY (kind, posts)
) WITHOUT ROWID;

-- The edges stored before: counted once, here, each from its kind's covering index (0008).
INSERT INTO edge_tally (kind, source, target, posts, first, last)
    SELECT 'reply', author, reply_to_author, count(*), min(created_at), max(created_at)
    FROM post_facts WHERE reply_to_author IS NOT NULL AND reply_to_author <> author
    GROUP BY author, reply_to_author;
INSERT INTO edge_tally (kind, source, target, posts, first, last)
    SELECT 'quote', author, quoted_author, count(*), min(created_at), max(created_at)
    FROM post_facts WHERE quoted_author IS NOT NULL AND quoted_author <> author
    GROUP BY author, quoted_author;
INSERT INTO edge_tally (kind, source, target, posts, first, last)
    SELECT 'mention', author, value, count(*), min(created_at), max(created_at)
    FROM post_entities WHERE kind = 2 AND value <> author
    GROUP BY author, value;
INSERT INTO edge_weights (kind, posts, edges)
    SELECT kind, posts, count(*) FROM edge_tally GROUP BY kind, posts;

-- The heaviest edges of a kind in the order the network lists them, with their times: the
-- network reads the first few thousand entries and stops.
CREATE INDEX edge_tally_heaviest ON edge_tally(kind, posts DESC, source, target, first, last);

-- The whole archive's reposts are not tallied (each reposter counts once a post, whether seen in
-- a timeline or in a reposters list): their timeline half is read off this index of the reposts
-- alone rather than off every post's facts.
CREATE INDEX post_facts_repost_edges ON post_facts(author, reposted_id, reposted_author, created_at)
    WHERE reposted_id IS NOT NULL AND reposted_author IS NOT NULL;

-- edge_weights follows edge_tally.
CREATE TRIGGER edge_tally_weigh_add AFTER INSERT ON edge_tally BEGIN
    UPDATE edge_weights SET edges = edges + 1 WHERE kind = NEW.kind AND posts = NEW.posts;
    INSERT INTO edge_weights (kind, posts, edges)
        SELECT NEW.kind, NEW.posts, 1
        WHERE NOT EXISTS (SELECT 1 FROM edge_weights WHERE kind = NEW.kind AND posts = NEW.posts);
END;

CREATE TRIGGER edge_tally_weigh_remove AFTER DELETE ON edge_tally BEGIN
    UPDATE edge_weights SET edges = edges - 1 WHERE kind = OLD.kind AND posts = OLD.posts;
    DELETE FROM edge_weights WHERE kind = OLD.kind AND posts = OLD.posts AND edges <= 0;
END;

CREATE TRIGGER edge_tally_weigh_change AFTER UPDATE OF kind, posts ON edge_tally
WHEN OLD.kind IS NOT NEW.kind OR OLD.posts IS NOT NEW.posts BEGIN
    UPDATE edge_weights SET edges = edges - 1 WHERE kind = OLD.kind AND posts = OLD.posts;
    DELETE FROM edge_weights WHERE kind = OLD.kind AND posts = OLD.posts AND edges <= 0;
    UPDATE edge_weights SET edges = edges + 1 WHERE kind = NEW.kind AND posts = NEW.posts;
    INSERT INTO edge_weights (kind, posts, edges)
        SELECT NEW.kind, NEW.posts, 1
        WHERE NOT EXISTS (SELECT 1 FROM edge_weights WHERE kind = NEW.kind AND posts = NEW.posts);
END;

-- Replies and quotes. A post's edge gone: its last post removes the edge; otherwise it is one
-- lighter, and its first or last time, if it was this post's, is read again off the kind's
-- covering index (one step down it). An edge to the author itself is never stored, so the
-- statements naming one change nothing.
CREATE TRIGGER post_facts_edges_add AFTER INSERT ON post_facts
WHEN NEW.reply_to_author IS NOT NULL OR NEW.quoted_author IS NOT NULL BEGIN
    UPDATE edge_tally
        SET posts = posts + 1, first = min(first, NEW.created_at), last = max(last, NEW.created_at)
        WHERE kind = 'reply' AND source = NEW.author AND target = NEW.reply_to_author;
    INSERT INTO edge_tally (kind, source, target, posts, first, last)
        SELECT 'reply', NEW.author, NEW.reply_to_author, 1, NEW.created_at, NEW.created_at
        WHERE NEW.reply_to_author <> NEW.author
          AND NOT EXISTS (SELECT 1 FROM edge_tally WHERE kind = 'reply'
                          AND source = NEW.author AND target = NEW.reply_to_author);
    UPDATE edge_tally
        SET posts = posts + 1, first = min(first, NEW.created_at), last = max(last, NEW.created_at)
        WHERE kind = 'quote' AND source = NEW.author AND target = NEW.quoted_author;
    INSERT INTO edge_tally (kind, source, target, posts, first, last)
        SELECT 'quote', NEW.author, NEW.quoted_author, 1, NEW.created_at, NEW.created_at
        WHERE NEW.quoted_author <> NEW.author
          AND NOT EXISTS (SELECT 1 FROM edge_tally WHERE kind = 'quote'
                          AND source = NEW.author AND target = NEW.quoted_author);
END;

CREATE TRIGGER post_facts_edges_remove AFTER DELETE ON post_facts
WHEN OLD.reply_to_author IS NOT NULL OR OLD.quoted_author IS NOT NULL BEGIN
    DELETE FROM edge_tally
        WHERE kind = 'reply' AND source = OLD.author AND target = OLD.reply_to_author
          AND posts <= 1;
    UPDATE edge_tally
        SET posts = posts - 1,
            first = CASE WHEN first = OLD.created_at THEN
                (SELECT min(created_at) FROM post_facts
                 WHERE author = OLD.author AND reply_to_author = OLD.reply_to_author)
                ELSE first END,
            last = CASE WHEN last = OLD.created_at THEN
                (SELECT max(created_at) FROM post_facts
                 WHERE author = OLD.author AND reply_to_author = OLD.reply_to_author)
                ELSE last END
        WHERE kind = 'reply' AND source = OLD.author AND target = OLD.reply_to_author;
    DELETE FROM edge_tally
        WHERE kind = 'quote' AND source = OLD.author AND target = OLD.quoted_author
          AND posts <= 1;
    UPDATE edge_tally
        SET posts = posts - 1,
            first = CASE WHEN first = OLD.created_at THEN
                (SELECT min(created_at) FROM post_facts
                 WHERE author = OLD.author AND quoted_author = OLD.quoted_author)
                ELSE first END,
            last = CASE WHEN last = OLD.created_at THEN
                (SELECT max(created_at) FROM post_facts
                 WHERE author = OLD.author AND quoted_author = OLD.quoted_author)
                ELSE last END
        WHERE kind = 'quote' AND source = OLD.author AND target = OLD.quoted_author;
END;

-- 0008's triggers never edit a post's facts in place; were a row edited, its old edges go and
-- its new ones come, as above.
CREATE TRIGGER post_facts_edges_change
AFTER UPDATE OF author, created_at, reply_to_author, quoted_author ON post_facts BEGIN
    DELETE FROM edge_tally
        WHERE kind = 'reply' AND source = OLD.author AND target = OLD.reply_to_author
          AND posts <= 1;
    UPDATE edge_tally
        SET posts = posts - 1,
            first = CASE WHEN first = OLD.created_at THEN
                (SELECT min(created_at) FROM post_facts
                 WHERE author = OLD.author AND reply_to_author = OLD.reply_to_author)
                ELSE first END,
            last = CASE WHEN last = OLD.created_at THEN
                (SELECT max(created_at) FROM post_facts
                 WHERE author = OLD.author AND reply_to_author = OLD.reply_to_author)
                ELSE last END
        WHERE kind = 'reply' AND source = OLD.author AND target = OLD.reply_to_author;
    DELETE FROM edge_tally
        WHERE kind = 'quote' AND source = OLD.author AND target = OLD.quoted_author
          AND posts <= 1;
    UPDATE edge_tally
        SET posts = posts - 1,
            first = CASE WHEN first = OLD.created_at THEN
                (SELECT min(created_at) FROM post_facts
                 WHERE author = OLD.author AND quoted_author = OLD.quoted_author)
                ELSE first END,
            last = CASE WHEN last = OLD.created_at THEN
                (SELECT max(created_at) FROM post_facts
                 WHERE author = OLD.author AND quoted_author = OLD.quoted_author)
                ELSE last END
        WHERE kind = 'quote' AND source = OLD.author AND target = OLD.quoted_author;
    UPDATE edge_tally
        SET posts = posts + 1, first = min(first, NEW.created_at), last = max(last, NEW.created_at)
        WHERE kind = 'reply' AND source = NEW.author AND target = NEW.reply_to_author;
    INSERT INTO edge_tally (kind, source, target, posts, first, last)
        SELECT 'reply', NEW.author, NEW.reply_to_author, 1, NEW.created_at, NEW.created_at
        WHERE NEW.reply_to_author <> NEW.author
          AND NOT EXISTS (SELECT 1 FROM edge_tally WHERE kind = 'reply'
                          AND source = NEW.author AND target = NEW.reply_to_author);
    UPDATE edge_tally
        SET posts = posts + 1, first = min(first, NEW.created_at), last = max(last, NEW.created_at)
        WHERE kind = 'quote' AND source = NEW.author AND target = NEW.quoted_author;
    INSERT INTO edge_tally (kind, source, target, posts, first, last)
        SELECT 'quote', NEW.author, NEW.quoted_author, 1, NEW.created_at, NEW.created_at
        WHERE NEW.quoted_author <> NEW.author
          AND NOT EXISTS (SELECT 1 FROM edge_tally WHERE kind = 'quote'
                          AND source = NEW.author AND target = NEW.quoted_author);
END;

-- Mentions (post_entities of kind 2), the same way.
CREATE TRIGGER post_entities_edges_add AFTER INSERT ON post_entities
WHEN NEW.kind = 2 AND NEW.value <> NEW.author BEGIN
    UPDATE edge_tally
        SET posts = posts + 1, first = min(first, NEW.created_at), last = max(last, NEW.created_at)
        WHERE kind = 'mention' AND source = NEW.author AND target = NEW.value;
    INSERT INTO edge_tally (kind, source, target, posts, first, last)
        SELECT 'mention', NEW.author, NEW.value, 1, NEW.created_at, NEW.created_at
        WHERE NOT EXISTS (SELECT 1 FROM edge_tally WHERE kind = 'mention'
                          AND source = NEW.author AND target = NEW.value);
END;

CREATE TRIGGER post_entities_edges_remove AFTER DELETE ON post_entities
WHEN OLD.kind = 2 AND OLD.value <> OLD.author BEGIN
    DELETE FROM edge_tally
        WHERE kind = 'mention' AND source = OLD.author AND target = OLD.value AND posts <= 1;
    UPDATE edge_tally
        SET posts = posts - 1,
            first = CASE WHEN first = OLD.created_at THEN
                (SELECT min(created_at) FROM post_entities
                 WHERE kind = 2 AND author = OLD.author AND value = OLD.value)
                ELSE first END,
            last = CASE WHEN last = OLD.created_at THEN
                (SELECT max(created_at) FROM post_entities
                 WHERE kind = 2 AND author = OLD.author AND value = OLD.value)
                ELSE last END
        WHERE kind = 'mention' AND source = OLD.author AND target = OLD.value;
END;

CREATE TRIGGER post_entities_edges_change
AFTER UPDATE OF kind, value, author, created_at ON post_entities
WHEN (OLD.kind = 2 AND OLD.value <> OLD.author) OR (NEW.kind = 2 AND NEW.value <> NEW.author)
BEGIN
    DELETE FROM edge_tally
        WHERE OLD.kind = 2 AND kind = 'mention' AND source = OLD.author AND target = OLD.value
          AND posts <= 1;
    UPDATE edge_tally
        SET posts = posts - 1,
            first = CASE WHEN first = OLD.created_at THEN
                (SELECT min(created_at) FROM post_entities
                 WHERE kind = 2 AND author = OLD.author AND value = OLD.value)
                ELSE first END,
            last = CASE WHEN last = OLD.created_at THEN
                (SELECT max(created_at) FROM post_entities
                 WHERE kind = 2 AND author = OLD.author AND value = OLD.value)
                ELSE last END
        WHERE OLD.kind = 2 AND kind = 'mention' AND source = OLD.author AND target = OLD.value;
    UPDATE edge_tally
        SET posts = posts + 1, first = min(first, NEW.created_at), last = max(last, NEW.created_at)
        WHERE NEW.kind = 2 AND kind = 'mention' AND source = NEW.author AND target = NEW.value;
    INSERT INTO edge_tally (kind, source, target, posts, first, last)
        SELECT 'mention', NEW.author, NEW.value, 1, NEW.created_at, NEW.created_at
        WHERE NEW.kind = 2 AND NEW.value <> NEW.author
          AND NOT EXISTS (SELECT 1 FROM edge_tally WHERE kind = 'mention'
                          AND source = NEW.author AND target = NEW.value);
END;
