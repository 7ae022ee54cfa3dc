-- SPDX-License-Identifier: GPL-2.0-or-later
-- A bounded store (issue 38 B): the installed headers' texts of the API
-- history kept once per content, not once per version (a checkout back and
-- forth between two trees stores nothing new the second time).  The event
-- log and the API versions are trimmed by the daemon (uapid watch
-- --keep-events, --keep-days), off its loop.

-- Each text once.  hash is the store's key for it ("LENGTH:FNV-1a", made by
-- the store; texts of the same hash are compared whole), NULL for the texts
-- carried over from version 4 (found by their content here, once).
CREATE TABLE api_texts (
	id	INTEGER PRIMARY KEY,
	hash	TEXT,
	text	BLOB NOT NULL
);
CREATE INDEX api_texts_hash ON api_texts (hash);

INSERT INTO api_texts (text) SELECT DISTINCT text FROM api_versions WHERE text IS NOT NULL;
CREATE INDEX api_texts_text ON api_texts (text);
CREATE TABLE api_versions_5 (
	path		TEXT NOT NULL,		-- installed name: linux/foo.h
	clock		INTEGER NOT NULL,	-- the event clock of the batch that made it
	fingerprint	TEXT NOT NULL,		-- of its API model: equal means the same API
	text_id		INTEGER REFERENCES api_texts (id),	-- NULL: removed then
	PRIMARY KEY (path, clock)
) WITHOUT ROWID;
INSERT INTO api_versions_5 (path, clock, fingerprint, text_id)
	SELECT v.path, v.clock, v.fingerprint, (SELECT t.id FROM api_texts t WHERE t.text = v.text)
	FROM api_versions v;
DROP INDEX api_texts_text;
DROP TABLE api_versions;
ALTER TABLE api_versions_5 RENAME TO api_versions;
-- "which API changed since CLOCK", and the retention's cut, without a scan
-- (the log's cut reads its clocks, the primary key: no index by age, whose
-- entries would cost a fifth of the log's size)
CREATE INDEX api_versions_clock ON api_versions (clock);
