-- SPDX-License-Identifier: GPL-2.0-or-later
-- A smaller log (issue 38): the event log and the API versions are most of
-- what grows, and each of their rows repeated its path's text (and an
-- event its kind's and detail's), which an index by path repeated again.
-- Now they name them by an integer, through one table of names; an
-- event's time is in seconds (the retention's unit); a fingerprint is its
-- 64 bits.  Nothing asked the log by path: its index by path goes.  The
-- API texts, the most of the store, are kept compressed (zlib) from now on,
-- each against the version before it.

-- Every name the log and the API history use: tree-relative and installed
-- paths, event kinds and details.  The upkeep removes the ones no row uses.
CREATE TABLE names (
	id	INTEGER PRIMARY KEY,
	name	TEXT NOT NULL UNIQUE
);
INSERT OR IGNORE INTO names (name) SELECT path FROM events;
INSERT OR IGNORE INTO names (name) SELECT kind FROM events;
INSERT OR IGNORE INTO names (name) SELECT detail FROM events WHERE detail IS NOT NULL;
INSERT OR IGNORE INTO names (name) SELECT path FROM api_versions;

-- The clock never goes back: the sequence is carried over as it was.
CREATE TEMP TABLE events_seq AS SELECT seq FROM sqlite_sequence WHERE name = 'events';
CREATE TABLE events_6 (
	clock	INTEGER PRIMARY KEY AUTOINCREMENT,
	time	INTEGER NOT NULL,	-- seconds since the epoch (UTC)
	path	INTEGER NOT NULL,	-- names.id: tree-relative, or "" for the tree
	-- names.id: split (a header's outputs or outcome changed), header (it was
	-- split again, its outputs did not change), install, export, remove, problem, scan
	kind	INTEGER NOT NULL,
	detail	INTEGER			-- names.id, or NULL
);
INSERT INTO events_6 (clock, time, path, kind, detail)
	SELECT e.clock, e.time_ns / 1000000000, p.id, k.id, d.id FROM events e
	JOIN names p ON p.name = e.path JOIN names k ON k.name = e.kind
	LEFT JOIN names d ON d.name = e.detail;
DROP TABLE events;
ALTER TABLE events_6 RENAME TO events;
DELETE FROM sqlite_sequence WHERE name IN ('events', 'events_6');
INSERT INTO sqlite_sequence (name, seq) SELECT 'events',
	MAX(COALESCE((SELECT seq FROM temp.events_seq), 0), COALESCE((SELECT MAX(clock) FROM events), 0));
DROP TABLE temp.events_seq;

CREATE TABLE api_versions_6 (
	path		INTEGER NOT NULL,	-- names.id: installed name, linux/foo.h
	clock		INTEGER NOT NULL,	-- the event clock of the batch that made it
	-- of its API model, equal meaning the same API: its 64 bits, or the text
	-- of one that is no 16 hex digits (no type: stored as given); NULL: removed
	fingerprint,
	text_id		INTEGER,		-- api_texts.id; NULL: removed then
	PRIMARY KEY (path, clock)
) WITHOUT ROWID;
INSERT INTO api_versions_6 (path, clock, fingerprint, text_id)
	SELECT n.id, v.clock, CASE WHEN v.text_id IS NULL THEN NULL ELSE v.fingerprint END, v.text_id
	FROM api_versions v JOIN names n ON n.name = v.path;
DROP TABLE api_versions;
ALTER TABLE api_versions_6 RENAME TO api_versions;
CREATE INDEX api_versions_clock ON api_versions (clock);

-- How a text is kept: 0 as it is (the texts of version 5), 1 compressed (a
-- zlib stream), 2 compressed with the text of base as zlib's dictionary (a
-- version of the same header before it: a few hundred bytes for an edit).
-- A base is of coding 0 or 1, and stays while a text names it.
ALTER TABLE api_texts ADD COLUMN coding INTEGER NOT NULL DEFAULT 0;
ALTER TABLE api_texts ADD COLUMN base INTEGER;
