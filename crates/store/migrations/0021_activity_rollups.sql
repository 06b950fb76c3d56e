-- The whole archive's activity and heatmap, counted as posts are written rather than when they
-- are asked for (as 0009 does for the top lists). Grouping ten million posts' facts by time
-- reads every one of them; these roll-ups hold one row per quarter hour and language, and per
-- quarter hour and account kind, so a year of the whole archive is a few hundred thousand rows
-- at most however many posts it holds.
--
-- Quarter hours in UTC, not hours: every zone's offset since 1980 is a whole number of quarter
-- hours (Kolkata +5:30, Kathmandu +5:45, Chatham +12:45) and it changes on a quarter hour, so a
-- quarter hour falls whole into one local hour and one local day in any zone. Rust checks that
-- for the zone and span asked (`analysis/aggregates.rs`) and counts the posts themselves for a
-- zone that breaks it (a local mean time before 1980).
--
-- `created_at` is the quarter hour's start (Unix milliseconds, rounded down), so the same SQL
-- puts a roll-up row or a post on the zone's clock. `lang` is as the activity chart keys it
-- (no language as `none`). Kept by triggers on post_facts, which 0008's triggers rewrite
-- (delete, then insert) each time a post is stored or seen again; like 0009's they use no
-- conflict clause: each adds to a row, then inserts it if it was not there, and a row whose
-- count falls to nothing is deleted, so the roll-ups hold exactly what a count would find.

CREATE TABLE activity_by_lang (
    created_at INTEGER NOT NULL,
    lang       TEXT    NOT NULL,
    posts      INTEGER NOT NULL,
    engagement INTEGER NOT NULL,
    PRIMARY KEY (created_at, lang)
) WITHOUT ROWID;

CREATE TABLE activity_by_kind (
    created_at   INTEGER NOT NULL,
    account_kind INTEGER NOT NULL,
    posts        INTEGER NOT NULL,
    engagement   INTEGER NOT NULL,
    PRIMARY KEY (created_at, account_kind)
) WITHOUT ROWID;

CREATE TRIGGER post_facts_activity_add AFTER INSERT ON post_facts BEGIN
    UPDATE activity_by_lang
        SET posts = posts + 1, engagement = engagement + NEW.engagement
        WHERE created_at = NEW.created_at - (NEW.created_at % 900000 + 900000) % 900000
          AND lang = COALESCE(NEW.lang, 'none');
    INSERT INTO activity_by_lang (created_at, lang, posts, engagement)
        SELECT NEW.created_at - (NEW.created_at % 900000 + 900000) % 900000,
               COALESCE(NEW.lang, 'none'), 1, NEW.engagement
        WHERE NOT EXISTS (SELECT 1 FROM activity_by_lang
            WHERE created_at = NEW.created_at - (NEW.created_at % 900000 + 900000) % 900000
              AND lang = COALESCE(NEW.lang, 'none'));
    UPDATE activity_by_kind
        SET posts = posts + 1, engagement = engagement + NEW.engagement
        WHERE created_at = NEW.created_at - (NEW.created_at % 900000 + 900000) % 900000
          AND account_kind = NEW.account_kind;
    INSERT INTO activity_by_kind (created_at, account_kind, posts, engagement)
        SELECT NEW.created_at - (NEW.created_at % 900000 + 900000) % 900000,
               NEW.account_kind, 1, NEW.engagement
        WHERE NOT EXISTS (SELECT 1 FROM activity_by_kind
            WHERE created_at = NEW.created_at - (NEW.created_at % 900000 + 900000) % 900000
              AND account_kind = NEW.account_kind);
END;

CREATE TRIGGER post_facts_activity_remove AFTER DELETE ON post_facts BEGIN
    UPDATE activity_by_lang
        SET posts = posts - 1, engagement = engagement - OLD.engagement
        WHERE created_at = OLD.created_at - (OLD.created_at % 900000 + 900000) % 900000
          AND lang = COALESCE(OLD.lang, 'none');
    DELETE FROM activity_by_lang
        WHERE created_at = OLD.created_at - (OLD.created_at % 900000 + 900000) % 900000
          AND lang = COALESCE(OLD.lang, 'none') AND posts <= 0;
    UPDATE activity_by_kind
        SET posts = posts - 1, engagement = engagement - OLD.engagement
        WHERE created_at = OLD.created_at - (OLD.created_at % 900000 + 900000) % 900000
          AND account_kind = OLD.account_kind;
    DELETE FROM activity_by_kind
        WHERE created_at = OLD.created_at - (OLD.created_at % 900000 + 900000) % 900000
          AND account_kind = OLD.account_kind AND posts <= 0;
END;

-- The posts stored before: counted once, here, in one pass over their facts in time order
-- (post_facts_created), each roll-up written in its key's order.
INSERT INTO activity_by_lang (created_at, lang, posts, engagement)
    SELECT created_at - (created_at % 900000 + 900000) % 900000 AS quarter,
           COALESCE(lang, 'none') AS key, count(*), sum(engagement)
    FROM post_facts GROUP BY quarter, key ORDER BY quarter, key;
INSERT INTO activity_by_kind (created_at, account_kind, posts, engagement)
    SELECT created_at - (created_at % 900000 + 900000) % 900000 AS quarter,
           account_kind, count(*), sum(engagement)
    FROM post_facts GROUP BY quarter, account_kind ORDER BY quarter, account_kind;
