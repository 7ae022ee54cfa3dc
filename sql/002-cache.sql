-- SPDX-License-Identifier: GPL-2.0-or-later
-- Results worth keeping across runs, by what decides them: the branch
-- writer's split and install results per source blob, the commits it made
-- per source commit, and the ref values it last wrote (compare-and-swap).
-- space names the kind of entry; key and value are its own compact text.
--   split        "BLOB SPLITVER MARKERS PATH"  -> "OUTCOME KERNEL-BLOB|- UAPI-BLOB|-"
--   install      "BLOB ARCH RULES DST"         -> "INSTALLED-BLOB" or "-" (failed)
--   split-commit "SOURCE-COMMIT OPTIONS"       -> "SPLIT-COMMIT" or "-" (nothing to split)
--   headers-tip  "REFNAME SOURCE-COMMIT ARCH"  -> "HEADERS-COMMIT" (the tip after it)
--   ref          "REPO REFNAME"                -> "OID" (what uapid last wrote)
CREATE TABLE cache (
	space	TEXT NOT NULL,
	key	TEXT NOT NULL,
	value	TEXT NOT NULL,
	PRIMARY KEY (space, key)
) WITHOUT ROWID;
