-- FTS5 writes the terms it holds in memory out as an index segment when they pass `hashsize`
-- (1 MB by default, about 3,000 posts). An import of 10,000 posts in one statement then made
-- several segments and merged them again; 8 MB keeps a batch of that size in one segment.
-- The memory is only used while a write transaction holds pending terms.
INSERT INTO posts_fts (posts_fts, rank) VALUES ('hashsize', 8388608);
