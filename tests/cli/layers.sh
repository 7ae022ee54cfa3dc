#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The house's rules, read from the sources (doc/hacking.md says why):
# - includes go down the layers only: a file of src/LAYER or
#   include/uapid/LAYER includes uapid/OTHER/ headers of the layers below
#   it (the table below), and a private header ("x.h", no folder) only from
#   its own folder;
# - no source over 800 lines and no function over 150 lines, but those
#   tests/cli/layers.allow names with a reason (an entry that no longer
#   applies fails too, so the list only shrinks).
. "${top_srcdir:-.}/tests/lib/lib.sh"
cd "$top_srcdir"

# layer: the layers it may include (its own always)
allowed() {
	case $1 in
	util) echo "" ;;
	core) echo "util" ;;
	api) echo "util core" ;;
	io) echo "util core" ;;
	proto) echo "util core api" ;;
	store) echo "util core" ;;
	history) echo "util core api io proto store" ;;
	daemon) echo "util core api io proto store history" ;;
	client) echo "util proto" ;;
	cmd) echo "util core api io proto store history daemon client" ;;
	*) echo "?" ;;
	esac
}

for dir in src/* include/uapid/*; do
	layer=${dir##*/}
	ok=$(allowed "$layer")
	if [ "$ok" = "?" ]; then
		fail "$dir: a folder of no layer (add it to tests/cli/layers.sh and doc/hacking.md)"
		continue
	fi
	for f in "$dir"/*.[ch]; do
		[ -f "$f" ] || continue
		grep -n '^#include "' "$f" | while IFS= read -r line; do
			n=${line%%:*}
			inc=$(printf '%s\n' "$line" | sed 's/^[0-9]*:#include "\([^"]*\)".*/\1/')
			case $inc in
			uapid/*/*)
				to=${inc#uapid/}
				to=${to%%/*}
				case " $layer $ok " in
				*" $to "*) ;;
				*) echo "$f:$n: $layer includes $inc: up the layers" ;;
				esac
				;;
			*/*) echo "$f:$n: $inc: a path into another folder" ;;
			config.h) ;;
			*) [ -f "${f%/*}/$inc" ] || echo "$f:$n: $inc: not beside it" ;;
			esac
		done
	done
done >"$WORK/includes"
if [ -s "$WORK/includes" ]; then
	fail "includes against the layers:"
	cat "$WORK/includes" >&2
else
	pass
fi

allow=tests/cli/layers.allow
git ls-files 'src/*.c' 'src/*.h' 'include/*.h' 2>/dev/null >"$WORK/sources" ||
	find src include -name '*.[ch]' | sort >"$WORK/sources"
[ -s "$WORK/sources" ] || find src include -name '*.[ch]' | sort >"$WORK/sources"
while read -r f; do
	lines=$(wc -l <"$f")
	listed=$(grep -c "^file $f " "$allow" || :)
	if [ "$lines" -gt 800 ] && [ "$listed" = 0 ]; then
		fail "$f: $lines lines (over 800: split it by job, or name it in $allow with the reason)"
	elif [ "$lines" -le 800 ] && [ "$listed" != 0 ]; then
		fail "$allow: $f has $lines lines now: take its entry out"
	else
		pass
	fi
	# functions: a definition's name line, its body from "{" to "}" in column 0
	awk -v f="$f" '/^[A-Za-z_][A-Za-z0-9_]*\(/ { name = $0; sub(/\(.*/, "", name) }
		/^\{/ { start = FNR }
		/^\}/ { if (start) { if (FNR - start - 1 > 150) print f, name, FNR - start - 1; start = 0 } }' "$f"
done <"$WORK/sources" >"$WORK/long"
while read -r f name n; do
	if grep -q "^function $f $name " "$allow"; then pass; else
		fail "$f: $name() has $n lines (over 150: split it, or name it in $allow with the reason)"
	fi
done <"$WORK/long"
grep '^function ' "$allow" | while read -r _ f name _; do
	grep -q "^$f $name " "$WORK/long" || echo "$allow: $f $name() is 150 lines or fewer now: take its entry out"
done >"$WORK/stale"
if [ -s "$WORK/stale" ]; then fail "$(cat "$WORK/stale")"; else pass; fi
grep '^file ' "$allow" | while read -r _ f _; do
	[ -f "$f" ] || echo "$allow: $f is no more: take its entry out"
done >"$WORK/gone"
if [ -s "$WORK/gone" ]; then fail "$(cat "$WORK/gone")"; else pass; fi
finish
