-- SPDX-License-Identifier: GPL-2.0-or-later
-- The userspace API as the daemon has seen it: each version of each
-- installed header whose API model (src/core/api.c) changed, at the clock it
-- was made, so "which API changed since CLOCK" has an answer.
CREATE TABLE api_versions (
	path		TEXT NOT NULL,		-- installed name: linux/foo.h
	clock		INTEGER NOT NULL,	-- the event clock of the batch that made it
	fingerprint	TEXT NOT NULL,		-- of its API model: equal means the same API
	text		BLOB,			-- the installed text; NULL: removed then
	PRIMARY KEY (path, clock)
) WITHOUT ROWID;
