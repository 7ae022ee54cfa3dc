#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Turns the schema files (sql/NNN-name.sql, given in order) into C: one
# string per file, applied in that order by the store (src/store/store.c).
set -eu
printf '/* Generated from the sql/ schema files by sql/sql2c.sh: do not edit. */\n'
printf '#include "schema.h"\n\nconst char *const ud_schema_sql[] = {\n'
n=0
for f in "$@"; do
	printf '\t/* %s */\n' "$(basename "$f")"
	sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/\t"/' -e 's/$/\\n"/' "$f"
	printf '\t,\n'
	n=$((n + 1))
done
printf '};\n\nconst unsigned ud_schema_count = %d;\n' "$n"
