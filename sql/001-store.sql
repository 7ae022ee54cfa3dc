-- SPDX-License-Identifier: GPL-2.0-or-later
-- The daemon's store, version 1: what uapid decided for one kernel tree.
-- Applied once to an empty database; PRAGMA user_version then says 1.

-- Settings and facts about the tree and the outputs (key/value).
CREATE TABLE meta (
	key	TEXT PRIMARY KEY,
	value	TEXT NOT NULL
) WITHOUT ROWID;

-- One row per header below include/ and arch/*/include/ (uapi ones too).
CREATE TABLE headers (
	path		TEXT PRIMARY KEY,	-- tree-relative
	size		INTEGER NOT NULL,
	mtime_ns	INTEGER NOT NULL,
	ino		INTEGER NOT NULL,
	blob		TEXT NOT NULL,		-- git blob id of the content
	exported	INTEGER NOT NULL,	-- listed by its directory's Kbuild
	outcome		TEXT NOT NULL,		-- split, moved, needs-coaching, skipped, unexported, uapi, unreadable
	blocks		TEXT,			-- JSON: the classification, as uapid classify --json
	diagnostics	TEXT,			-- JSON: [{line, severity, message}]
	kernel_blob	TEXT,			-- the split's kernel header, when split
	uapi_blob	TEXT,			-- the split's uapi header, when split or moved
	split_key	TEXT NOT NULL,		-- UD_SPLIT_VERSION and the markers' hash the row was made with
	clock		INTEGER NOT NULL	-- the event that last changed the row
) WITHOUT ROWID;

-- One row per installed header (the plan of the daemon's architecture).
CREATE TABLE installed (
	dst		TEXT PRIMARY KEY,	-- below install/include/
	src		TEXT NOT NULL,		-- tree-relative source, or the generated path
	src_blob	TEXT NOT NULL,		-- git blob id of the text it was installed from
	blob		TEXT,			-- git blob id of the installed text; NULL when it failed
	diagnostics	TEXT,			-- JSON
	clock		INTEGER NOT NULL
) WITHOUT ROWID;

-- Every file the daemon keeps in its state directory, with the blob it must hold:
-- at start-up the files are checked against it and repaired.
CREATE TABLE outputs (
	path	TEXT PRIMARY KEY,		-- relative to the state directory: split/..., install/...
	blob	TEXT NOT NULL,
	owner	TEXT NOT NULL			-- what makes it: a header path, kbuild:DIR, removed, install
) WITHOUT ROWID;

-- Coaching markers: from --markers, from in-source comments, or added over the socket.
CREATE TABLE markers (
	id		INTEGER PRIMARY KEY,
	path		TEXT NOT NULL,
	action		TEXT NOT NULL,
	selector	TEXT,
	occurrence	INTEGER NOT NULL DEFAULT 1,
	why		TEXT,
	origin		TEXT NOT NULL,		-- file, source, socket
	line		INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX markers_path ON markers (path);

-- What happened, in order: the clock clients ask "what changed since" with.
CREATE TABLE events (
	clock	INTEGER PRIMARY KEY AUTOINCREMENT,
	time_ns	INTEGER NOT NULL,
	path	TEXT NOT NULL,			-- tree-relative, or "" for the tree
	-- split (a header's outputs or outcome changed), header (it was split
	-- again, its outputs did not change), install, export, remove, problem, scan
	kind	TEXT NOT NULL,
	detail	TEXT
);
CREATE INDEX events_path ON events (path);

-- What cannot be served, and why (the installer refused the architecture, ...).
CREATE TABLE problems (
	what	TEXT PRIMARY KEY,		-- install, split, watch
	reason	TEXT NOT NULL,
	clock	INTEGER NOT NULL
) WITHOUT ROWID;
