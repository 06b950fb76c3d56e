-- Analysis: what the charts, top lists, network and conversation trees read, taken out of each
-- post's raw JSON once, when the post is written (and for the posts already stored, here), so
-- an aggregate over a million posts reads narrow rows and never parses JSON.

-- One narrow row per post. `author`, `*_author` are lower-case handles (the network's node
-- ids); `account_kind`: 2 verified, 1 blue check only, 0 other; `engagement` is likes +
-- reposts + replies + quotes as last fetched.
CREATE TABLE post_facts (
    post_pk         INTEGER PRIMARY KEY REFERENCES posts(pk) ON DELETE CASCADE,
    created_at      INTEGER NOT NULL,
    author          TEXT    NOT NULL,
    lang            TEXT,
    account_kind    INTEGER NOT NULL,
    likes           INTEGER NOT NULL,
    engagement      INTEGER NOT NULL,
    reply_to_id     TEXT,
    reply_to_author TEXT,
    quoted_id       TEXT,
    quoted_author   TEXT,
    reposted_id     TEXT,
    reposted_author TEXT,
    -- The post's rows of post_entities (below) as one text, each `kind` digit then value,
    -- one to a line: a narrower scope's top lists and mention edges read them with the post
    -- in one pass, rather than seeking each post's rows in post_entities (half their time).
    entities        TEXT
);
CREATE INDEX post_facts_created ON post_facts(created_at);
-- Each index below holds every column its aggregate reads, in the order it groups by, so the
-- whole archive's top lists and edges are read off an index without a sort or a table lookup
-- (an account's posts by time, and its engagement, for the accounts' top lists).
CREATE INDEX post_facts_author ON post_facts(author, created_at, engagement);
CREATE INDEX post_facts_lang ON post_facts(lang);
CREATE INDEX post_facts_reply_edges ON post_facts(author, reply_to_author, created_at)
    WHERE reply_to_author IS NOT NULL;
CREATE INDEX post_facts_quote_edges ON post_facts(author, quoted_author, created_at)
    WHERE quoted_author IS NOT NULL;
CREATE INDEX post_facts_reply_to ON post_facts(reply_to_id) WHERE reply_to_id IS NOT NULL;
CREATE INDEX post_facts_quoted ON post_facts(quoted_id) WHERE quoted_id IS NOT NULL;

-- The tags, mentions, cashtags and linked hosts of each post, lower-case, each once a post.
-- `kind`: 1 hashtag, 2 mention, 3 cashtag, 4 linked domain (host without `www.`).
-- Keyed by (kind, value) first, so a top list reads one kind's rows in value order. The post's
-- author (lower-case) and time are copied here, so the network's mention edges read these rows
-- alone rather than joining each back to its post's facts.
CREATE TABLE post_entities (
    kind       INTEGER NOT NULL,
    value      TEXT    NOT NULL,
    post_pk    INTEGER NOT NULL REFERENCES posts(pk) ON DELETE CASCADE,
    author     TEXT    NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (kind, value, post_pk)
) WITHOUT ROWID;
CREATE INDEX post_entities_post ON post_entities(post_pk, kind);
-- Mention edges, grouped by who mentioned whom.
CREATE INDEX post_entities_mention_edges ON post_entities(kind, author, value, created_at)
    WHERE kind = 2;

-- Both are computed by these two views from `posts`, in one place for the triggers and the
-- backfill below. A record that is not valid JSON (never written by the app) reads as `{}`.
CREATE VIEW post_facts_source AS
SELECT pk AS post_pk, created_at, lower(author_username) AS author, lang,
    CASE WHEN json_extract(j, '$.user.verified') THEN 2
         WHEN json_extract(j, '$.user.is_blue_verified') THEN 1
         ELSE 0 END AS account_kind,
    like_count AS likes,
    like_count + retweet_count + reply_count + quote_count AS engagement,
    json_extract(j, '$.in_reply_to_status_id') AS reply_to_id,
    lower(json_extract(j, '$.in_reply_to_screen_name')) AS reply_to_author,
    COALESCE(json_extract(j, '$.quoted_status_id'), json_extract(j, '$.quote.id')) AS quoted_id,
    lower(json_extract(j, '$.quote.user.username')) AS quoted_author,
    json_extract(j, '$.retweet.id') AS reposted_id,
    lower(json_extract(j, '$.retweet.user.username')) AS reposted_author
FROM (SELECT *, CASE WHEN json_valid(raw_json) THEN raw_json ELSE '{}' END AS j FROM posts);

CREATE VIEW post_entities_source AS
SELECT 1 AS kind, lower(ltrim(json_extract(e.value, '$.text'), '#')) AS value, p.pk AS post_pk,
    lower(p.author_username) AS author, p.created_at
FROM posts p, json_each(CASE WHEN json_valid(p.raw_json) THEN p.raw_json ELSE '{}' END,
                        '$.entities.hashtags') e
WHERE e.type = 'object'
UNION ALL
SELECT 2, lower(ltrim(json_extract(e.value, '$.screen_name'), '@')), p.pk,
    lower(p.author_username), p.created_at
FROM posts p, json_each(CASE WHEN json_valid(p.raw_json) THEN p.raw_json ELSE '{}' END,
                        '$.entities.user_mentions') e
WHERE e.type = 'object'
UNION ALL
SELECT 3, lower(ltrim(json_extract(e.value, '$.text'), '$')), p.pk,
    lower(p.author_username), p.created_at
FROM posts p, json_each(CASE WHEN json_valid(p.raw_json) THEN p.raw_json ELSE '{}' END,
                        '$.entities.symbols') e
WHERE e.type = 'object'
UNION ALL
-- A link's host: after `scheme://`, before the first `/`, `?`, `#` or `:port`, without `www.`.
-- Each step is a one-value json_each rather than a subquery, so the arm stays one flat join
-- that a `WHERE post_pk = ?` reaches (a nested subquery here made every insert scan posts).
SELECT 4, CASE WHEN host.value LIKE 'www.%' THEN substr(host.value, 5) ELSE host.value END, p.pk,
    lower(p.author_username), p.created_at
FROM posts p,
     json_each(CASE WHEN json_valid(p.raw_json) THEN p.raw_json ELSE '{}' END,
               '$.entities.urls') e,
     json_each(json_array(COALESCE(NULLIF(json_extract(e.value, '$.expanded_url'), ''),
                                   json_extract(e.value, '$.url')))) link,
     json_each(json_array(replace(replace(replace(
         CASE WHEN instr(link.value, '://') > 0
              THEN substr(link.value, instr(link.value, '://') + 3) ELSE link.value END,
         '?', '/'), '#', '/'), ':', '/') || '/')) rest,
     json_each(json_array(lower(substr(rest.value, 1, instr(rest.value, '/') - 1)))) host
WHERE e.type = 'object' AND link.type = 'text';

-- `post_facts.entities` of each post, from its rows of post_entities, one to a line. Tags,
-- handles and hosts hold no line break; one inside a value is written as a space, so that
-- each entity stays one line.
CREATE VIEW post_entity_lines AS
SELECT post_pk, group_concat(kind || replace(value, char(10), ' '), char(10)) AS entity_lines
FROM post_entities GROUP BY post_pk;

-- Each post's entities are written before its facts, which copy them (`entities`).
-- Each trigger deletes, then inserts: a conflict clause (OR REPLACE, OR IGNORE) inside a
-- trigger gives way to the statement that fired it, and posts are written by upserts, which
-- may fire the insert trigger for a post already stored.
CREATE TRIGGER post_facts_insert AFTER INSERT ON posts BEGIN
    DELETE FROM post_entities WHERE post_pk = NEW.pk;
    INSERT INTO post_entities (kind, value, post_pk, author, created_at)
        SELECT DISTINCT kind, value, post_pk, author, created_at FROM post_entities_source
        WHERE post_pk = NEW.pk AND value IS NOT NULL AND value <> '';
    DELETE FROM post_facts WHERE post_pk = NEW.pk;
    INSERT INTO post_facts SELECT s.*, (SELECT entity_lines FROM post_entity_lines
                                        WHERE post_pk = NEW.pk)
        FROM post_facts_source s WHERE s.post_pk = NEW.pk;
END;

-- A post seen again: its metrics (engagement) and perhaps its entities changed.
CREATE TRIGGER post_facts_update AFTER UPDATE ON posts
WHEN OLD.raw_json IS NOT NEW.raw_json OR OLD.like_count IS NOT NEW.like_count
  OR OLD.retweet_count IS NOT NEW.retweet_count OR OLD.reply_count IS NOT NEW.reply_count
  OR OLD.quote_count IS NOT NEW.quote_count OR OLD.lang IS NOT NEW.lang
  OR OLD.author_username IS NOT NEW.author_username OR OLD.created_at IS NOT NEW.created_at
BEGIN
    DELETE FROM post_entities WHERE post_pk = NEW.pk;
    INSERT INTO post_entities (kind, value, post_pk, author, created_at)
        SELECT DISTINCT kind, value, post_pk, author, created_at FROM post_entities_source
        WHERE post_pk = NEW.pk AND value IS NOT NULL AND value <> '';
    DELETE FROM post_facts WHERE post_pk = NEW.pk;
    INSERT INTO post_facts SELECT s.*, (SELECT entity_lines FROM post_entity_lines
                                        WHERE post_pk = NEW.pk)
        FROM post_facts_source s WHERE s.post_pk = NEW.pk;
END;

INSERT INTO post_entities (kind, value, post_pk, author, created_at)
    SELECT DISTINCT kind, value, post_pk, author, created_at FROM post_entities_source
    WHERE value IS NOT NULL AND value <> '';
INSERT INTO post_facts SELECT s.*, l.entity_lines
    FROM post_facts_source s LEFT JOIN post_entity_lines l ON l.post_pk = s.post_pk;

-- A sighting of a post the request found only inside another (the post one of its results
-- quotes or reposts): 1; such a post is archived and traced to the request, but is not one of
-- the results it showed, which a request's analysis scope counts alone. Written by the app
-- from each answer's structure. For the sightings stored before, it is read off the posts: a
-- post that another post of the same request quotes or reposts was found inside it (one that
-- was also a result in its own right, rarer, counts as nested too).
ALTER TABLE post_sightings ADD COLUMN nested INTEGER NOT NULL DEFAULT 0;
-- A request's results are read off the index alone.
DROP INDEX post_sightings_history;
CREATE INDEX post_sightings_history ON post_sightings(history_id, nested);
UPDATE post_sightings SET nested = 1
WHERE (post_pk, history_id) IN (
    SELECT inner_post.pk, outer_sighting.history_id
    FROM post_sightings outer_sighting
        JOIN post_facts f ON f.post_pk = outer_sighting.post_pk
        JOIN posts inner_post ON inner_post.id IN (f.quoted_id, f.reposted_id)
    WHERE inner_post.pk <> outer_sighting.post_pk);

-- Who reposted which post, from every reposters list fetched (one row per list that named
-- them; the network counts each reposter once per post). Written with the list's stored body.
CREATE TABLE post_reposters (
    post_id    TEXT    NOT NULL,
    reposter   TEXT    NOT NULL,  -- lower-case handle
    label      TEXT    NOT NULL,  -- the handle as the list spelt it
    history_id INTEGER NOT NULL REFERENCES history(id) ON DELETE CASCADE,
    PRIMARY KEY (post_id, reposter, history_id)
) WITHOUT ROWID;
CREATE INDEX post_reposters_history ON post_reposters(history_id);
-- A reposter's handle as a list spelt it, for a network node seen only there.
CREATE INDEX post_reposters_reposter ON post_reposters(reposter);

CREATE VIEW post_reposters_source AS
SELECT json_extract(h.params_json, '$.id') AS post_id,
       lower(json_extract(u.value, '$.username')) AS reposter,
       json_extract(u.value, '$.username') AS label, h.id AS history_id
FROM history h JOIN results r ON r.history_id = h.id,
     json_each(CASE WHEN json_valid(r.body) THEN r.body ELSE '{}' END, '$.users') u
WHERE h.operation = 'twitter_retweeters' AND json_valid(h.params_json)
  AND u.type = 'object' AND json_extract(u.value, '$.username') IS NOT NULL
  AND json_extract(h.params_json, '$.id') IS NOT NULL;

CREATE TRIGGER post_reposters_insert AFTER INSERT ON results BEGIN
    DELETE FROM post_reposters WHERE history_id = NEW.history_id;
    INSERT INTO post_reposters
        SELECT post_id, reposter, min(label), history_id FROM post_reposters_source
        WHERE history_id = NEW.history_id GROUP BY post_id, reposter, history_id;
END;

INSERT INTO post_reposters
    SELECT post_id, reposter, min(label), history_id FROM post_reposters_source
    GROUP BY post_id, reposter, history_id;
