-- SPDX-License-Identifier: GPL-2.0-or-later
-- The history of each userspace API symbol (uapid api-log): a headers
-- branch read commit by commit, what changed in each symbol at each of its
-- commits, and where the source's commits and tags stand on its
-- first-parent chain.  One index per headers branch of a repository.
CREATE TABLE api_log (
	id	INTEGER PRIMARY KEY,
	key	TEXT NOT NULL UNIQUE,	-- the repository's git directory and the headers ref
	version	INTEGER NOT NULL,	-- the api-log rules it was made with: another is made again
	headers	TEXT,			-- the last headers commit read (NULL: none yet)
	source	TEXT			-- the newest commit of the chain (the headers tip's source)
);

-- The source's first-parent chain, from the oldest source commit indexed (0).
CREATE TABLE api_log_chain (
	log	INTEGER NOT NULL REFERENCES api_log (id) ON DELETE CASCADE,
	commit_id TEXT NOT NULL,
	pos	INTEGER NOT NULL,
	PRIMARY KEY (log, commit_id)
) WITHOUT ROWID;
CREATE UNIQUE INDEX api_log_chain_pos ON api_log_chain (log, pos);

-- One step per headers commit whose source commit is on the chain, oldest first.
CREATE TABLE api_log_steps (
	log	INTEGER NOT NULL REFERENCES api_log (id) ON DELETE CASCADE,
	step	INTEGER NOT NULL,	-- 1, 2, ...
	pos	INTEGER NOT NULL,	-- of its source commit on the chain
	source	TEXT NOT NULL,		-- the source commit (Source-commit: trailer)
	headers	TEXT NOT NULL,		-- the headers commit
	time	INTEGER NOT NULL,	-- the source commit's committer date (seconds, UTC)
	tz	INTEGER NOT NULL,	-- and its time zone (minutes east of UTC)
	PRIMARY KEY (log, step)
) WITHOUT ROWID;

-- What changed in a symbol at a step, with api-diff's verdict and reason.
-- The first step has every symbol as it was then ("present").  A symbol of a
-- header added or removed whole is "added" or "removed" with the header's
-- verdict (implied = 1); one removed from a header and added to another at
-- the same step "moved".  Rows with a member describe one member of a record.
CREATE TABLE api_log_changes (
	log	INTEGER NOT NULL REFERENCES api_log (id) ON DELETE CASCADE,
	step	INTEGER NOT NULL,
	name	TEXT NOT NULL,		-- as the model names it ("FOO", "struct foo"); "" for the header
	member	TEXT NOT NULL,		-- "" for the symbol itself
	symbol	TEXT NOT NULL,		-- with its conditions ("FOO [if defined(X)]")
	kind	TEXT NOT NULL,		-- macro, enum constant, struct, ...; "header"
	header	TEXT NOT NULL,		-- where it is (installed name); for "moved", where it was
	line	INTEGER NOT NULL,
	moved_to TEXT,			-- "moved": the header it went to
	moved_line INTEGER,
	what	TEXT NOT NULL,		-- present, added, removed, changed, moved
	verdict	TEXT,			-- compatible, review, breaking (NULL for present)
	change	TEXT NOT NULL,		-- in a few words: "value 4 -> 5"
	reason	TEXT NOT NULL,		-- api-diff's reason ("" for present)
	members	TEXT,			-- present or added records and enums: their members, space-separated
	implied	INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX api_log_by_name ON api_log_changes (log, name, step);
CREATE INDEX api_log_by_header ON api_log_changes (log, header, step);
CREATE INDEX api_log_by_moved_to ON api_log_changes (log, moved_to) WHERE moved_to IS NOT NULL;

-- Where each tag stands: the newest chain commit it contains (pos; -1: none).
CREATE TABLE api_log_tags (
	log	INTEGER NOT NULL REFERENCES api_log (id) ON DELETE CASCADE,
	name	TEXT NOT NULL,		-- v5.4 (refs/tags/ left out)
	target	TEXT NOT NULL,		-- the commit it names
	pos	INTEGER NOT NULL,
	PRIMARY KEY (log, name)
) WITHOUT ROWID;
