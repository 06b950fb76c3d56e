-- One case-folding rule for tags, mentions, cashtags, handles and linked hosts (src/fold.rs).
-- Migrations 0008 and 0009 folded them with SQLite's lower(), which lowers ASCII letters only:
-- `#Élections` was stored as `Élections` and `#élections` as itself, so the two were counted
-- apart, and a filter folded in Rust (`élections`) found neither. The views the triggers read
-- from now fold with sightline_fold(), the same rule as Rust's, which the store registers on
-- every connection; then the values stored before that it changes are folded again.

DROP VIEW post_facts_source;
CREATE VIEW post_facts_source AS
SELECT pk AS post_pk, created_at, sightline_fold(author_username) AS author, lang,
    CASE WHEN json_extract(j, '$.user.verified') THEN 2
         WHEN json_extract(j, '$.user.is_blue_verified') THEN 1
         ELSE 0 END AS account_kind,
    like_count AS likes,
    like_count + retweet_count + reply_count + quote_count AS engagement,
    json_extract(j, '$.in_reply_to_status_id') AS reply_to_id,
    sightline_fold(json_extract(j, '$.in_reply_to_screen_name')) AS reply_to_author,
    COALESCE(json_extract(j, '$.quoted_status_id'), json_extract(j, '$.quote.id')) AS quoted_id,
    sightline_fold(json_extract(j, '$.quote.user.username')) AS quoted_author,
    json_extract(j, '$.retweet.id') AS reposted_id,
    sightline_fold(json_extract(j, '$.retweet.user.username')) AS reposted_author
FROM (SELECT *, CASE WHEN json_valid(raw_json) THEN raw_json ELSE '{}' END AS j FROM posts);

DROP VIEW post_entities_source;
CREATE VIEW post_entities_source AS
SELECT 1 AS kind, sightline_fold(ltrim(json_extract(e.value, '$.text'), '#')) AS value,
    p.pk AS post_pk, sightline_fold(p.author_username) AS author, p.created_at
FROM posts p, json_each(CASE WHEN json_valid(p.raw_json) THEN p.raw_json ELSE '{}' END,
                        '$.entities.hashtags') e
WHERE e.type = 'object'
UNION ALL
SELECT 2, sightline_fold(ltrim(json_extract(e.value, '$.screen_name'), '@')), p.pk,
    sightline_fold(p.author_username), p.created_at
FROM posts p, json_each(CASE WHEN json_valid(p.raw_json) THEN p.raw_json ELSE '{}' END,
                        '$.entities.user_mentions') e
WHERE e.type = 'object'
UNION ALL
SELECT 3, sightline_fold(ltrim(json_extract(e.value, '$.text'), '$')), p.pk,
    sightline_fold(p.author_username), p.created_at
FROM posts p, json_each(CASE WHEN json_valid(p.raw_json) THEN p.raw_json ELSE '{}' END,
                        '$.entities.symbols') e
WHERE e.type = 'object'
UNION ALL
-- A link's host, as 0008 takes it (after `scheme://`, before the first `/`, `?`, `#` or
-- `:port`, without `www.`), folded.
SELECT 4, CASE WHEN host.value LIKE 'www.%' THEN substr(host.value, 5) ELSE host.value END, p.pk,
    sightline_fold(p.author_username), p.created_at
FROM posts p,
     json_each(CASE WHEN json_valid(p.raw_json) THEN p.raw_json ELSE '{}' END,
               '$.entities.urls') e,
     json_each(json_array(COALESCE(NULLIF(json_extract(e.value, '$.expanded_url'), ''),
                                   json_extract(e.value, '$.url')))) link,
     json_each(json_array(replace(replace(replace(
         CASE WHEN instr(link.value, '://') > 0
              THEN substr(link.value, instr(link.value, '://') + 3) ELSE link.value END,
         '?', '/'), '#', '/'), ':', '/') || '/')) rest,
     json_each(json_array(sightline_fold(substr(rest.value, 1, instr(rest.value, '/') - 1)))) host
WHERE e.type = 'object' AND link.type = 'text';

DROP VIEW post_reposters_source;
CREATE VIEW post_reposters_source AS
SELECT json_extract(h.params_json, '$.id') AS post_id,
       sightline_fold(json_extract(u.value, '$.username')) AS reposter,
       json_extract(u.value, '$.username') AS label, h.id AS history_id
FROM history h JOIN results r ON r.history_id = h.id,
     json_each(CASE WHEN json_valid(r.body) THEN r.body ELSE '{}' END, '$.users') u
WHERE h.operation = 'twitter_retweeters' AND json_valid(h.params_json)
  AND u.type = 'object' AND json_extract(u.value, '$.username') IS NOT NULL
  AND json_extract(h.params_json, '$.id') IS NOT NULL;

-- The values stored before that the new rule changes. Only a value holding a character
-- beyond printable ASCII can change (lower() folded the others already), so the GLOB, checked
-- in C, spares the function call on all others. Each changed entity row is taken out and put
-- back folded (a post naming one tag in two spellings keeps one row); 0009's triggers move the
-- tallies with each row.
CREATE TEMP TABLE refold_entities AS
    SELECT kind, value, post_pk, author, created_at FROM post_entities
    WHERE (value GLOB '*[^ -~]*' AND value <> sightline_fold(value))
       OR (author GLOB '*[^ -~]*' AND author <> sightline_fold(author));
DELETE FROM post_entities
    WHERE (kind, value, post_pk) IN (SELECT kind, value, post_pk FROM temp.refold_entities);
INSERT OR IGNORE INTO post_entities (kind, value, post_pk, author, created_at)
    SELECT kind, sightline_fold(value), post_pk, sightline_fold(author), created_at
    FROM temp.refold_entities;
-- Their posts' facts carry the entities as text (post_entity_lines' lines): written again
-- from each post's rows, read by its index.
UPDATE post_facts
    SET entities = (SELECT group_concat(e.kind || replace(e.value, char(10), ' '), char(10))
                    FROM post_entities e WHERE e.post_pk = post_facts.post_pk)
    WHERE post_pk IN (SELECT post_pk FROM temp.refold_entities);
DROP TABLE temp.refold_entities;

-- Facts naming a handle spelt with a capital beyond ASCII (rare: X handles are ASCII): taken
-- out again from the post, as 0008's triggers do, so the accounts' tallies follow.
CREATE TEMP TABLE refold_facts (post_pk INTEGER PRIMARY KEY);
INSERT INTO temp.refold_facts
    SELECT post_pk FROM post_facts
    WHERE (author GLOB '*[^ -~]*' AND author <> sightline_fold(author))
       OR (reply_to_author GLOB '*[^ -~]*' AND reply_to_author <> sightline_fold(reply_to_author))
       OR (quoted_author GLOB '*[^ -~]*' AND quoted_author <> sightline_fold(quoted_author))
       OR (reposted_author GLOB '*[^ -~]*'
           AND reposted_author <> sightline_fold(reposted_author));
DELETE FROM post_facts WHERE post_pk IN (SELECT post_pk FROM temp.refold_facts);
INSERT INTO post_facts
    SELECT s.*, (SELECT group_concat(e.kind || replace(e.value, char(10), ' '), char(10))
                 FROM post_entities e WHERE e.post_pk = s.post_pk)
    FROM temp.refold_facts r JOIN post_facts_source s ON s.post_pk = r.post_pk;
DROP TABLE temp.refold_facts;

-- Reposters lists naming a handle with a capital beyond ASCII: read again from their bodies.
CREATE TEMP TABLE refold_lists (history_id INTEGER PRIMARY KEY);
INSERT OR IGNORE INTO temp.refold_lists
    SELECT history_id FROM post_reposters
    WHERE reposter GLOB '*[^ -~]*' AND reposter <> sightline_fold(reposter);
DELETE FROM post_reposters WHERE history_id IN (SELECT history_id FROM temp.refold_lists);
INSERT INTO post_reposters
    SELECT post_id, reposter, min(label), history_id FROM post_reposters_source
    WHERE history_id IN (SELECT history_id FROM temp.refold_lists)
    GROUP BY post_id, reposter, history_id;
DROP TABLE temp.refold_lists;
