#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Compare `uapid api-diff` with an oracle: libabigail's abidiff run the way the
# kernel's scripts/check-uapi.sh runs it.
#
#   bench/api-oracle.sh OLD NEW
#
# OLD and NEW are installed-header directories holding include/ (what
# `make headers_install` or `uapid install --arch x86 TREE OUT` writes).
#
# 1. `uapid api-diff --json OLD NEW`, timed.
# 2. For every header installed in both (asm-generic/ left out, as check-uapi
#    does: its types are seen through the asm/ headers that include them),
#    check-uapi's compile of each version into a shared object with debug info
#      printf 'int f(void) { return 0; }\n' | gcc -shared -nostdlib -fPIC -x c -O0
#          -std=c90 -fno-eliminate-unused-debug-types -g -I DIR/include -include HEADER -
#    and abidiff on the two objects, $JOBS at a time (xargs -P), timed.
#    check-uapi gives up on a header that does not compile that way (the
#    kernel's no-header-test list); here both versions are retried, in the
#    same mode, with -std=gnu11, then with libc headers included first
#    (stddef.h stdint.h sys/types.h time.h; then also sys/socket.h
#    netinet/in.h sys/time.h signal.h), and the mode is reported.  abidiff
#    runs as check-uapi runs it (--non-reachable-types) plus --harmless and
#    --redundant, without check-uapi's suppressions, so that it reports every
#    type change it sees (CHECK_UAPI_SUPPRESSIONS=1 adds check-uapi's
#    suppression file).  Headers removed in NEW are listed.
# 3. Attribution, timed apart (not part of the oracle's time): abidw
#    --load-all-types on the objects abidiff found changes in, for the header
#    each type is defined in and the shape of its definition (what tells a
#    change in a type's own definition from one that comes through a type it
#    uses).  bench/api-oracle.py then reads abidiff's reports, the abidw
#    output and uapid's JSON and prints the comparison (see its docstring).
#
# Environment: UAPID (default: build/src/uapid beside this script), ABIDIFF,
# ABIDW, CC (default gcc), JOBS (default 2), SUBSAMPLE=N (check every Nth
# common header only), PLANTED=FILE (a manifest from
# bench/api-oracle-plant.py: also score both tools against the planted
# edits), CHECK_UAPI_SUPPRESSIONS=1, REPORT_JSON=FILE (the comparison as
# JSON), KEEP=1 (keep the work directory and say where).  Runs under nice.
#
# Exit 0 when the comparison ran (whatever it found), 2 on usage errors or
# missing tools, 1 when a step failed.

set -eu
set -o pipefail

me=api-oracle
here=$(cd "$(dirname "$0")" && pwd)

die() { printf '%s: %s\n' "$me" "$*" >&2; exit 2; }

[ $# -eq 2 ] || { sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
OLD=$(cd "$1" 2>/dev/null && pwd) || die "no such directory: $1"
NEW=$(cd "$2" 2>/dev/null && pwd) || die "no such directory: $2"
[ -d "$OLD/include" ] || die "$OLD has no include/ (want an installed-header directory)"
[ -d "$NEW/include" ] || die "$NEW has no include/ (want an installed-header directory)"

UAPID=${UAPID:-$here/../build/src/uapid}
ABIDIFF=${ABIDIFF:-abidiff}
ABIDW=${ABIDW:-abidw}
CC=${CC:-gcc}
JOBS=${JOBS:-2}
SUBSAMPLE=${SUBSAMPLE:-1}
[ -x "$UAPID" ] || die "uapid not found at $UAPID (make -C build, or set UAPID)"
command -v "$ABIDIFF" >/dev/null 2>&1 ||
	die "abidiff not found (Debian: apt-get install abigail-tools; or set ABIDIFF)"
command -v "$ABIDW" >/dev/null 2>&1 ||
	die "abidw not found (Debian: apt-get install abigail-tools; or set ABIDW)"
command -v "$CC" >/dev/null 2>&1 || die "C compiler $CC not found"
command -v python3 >/dev/null 2>&1 || die "python3 not found"
[ -f "$here/api-oracle.py" ] || die "$here/api-oracle.py is missing"
case $JOBS in '' | *[!0-9]* | 0) die "JOBS must be a positive number" ;; esac
case $SUBSAMPLE in '' | *[!0-9]* | 0) die "SUBSAMPLE must be a positive number" ;; esac
if [ -n "${PLANTED:-}" ] && [ ! -f "$PLANTED" ]; then die "no such manifest: $PLANTED"; fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/api-oracle.XXXXXX")
cleanup() {
	if [ "${KEEP:-0}" = 1 ]; then
		printf '%s: work directory kept: %s\n' "$me" "$WORK" >&2
	else
		rm -rf "$WORK"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

now() { date +%s.%N; }
elapsed() { python3 -c 'import sys; print("%.2f" % (float(sys.argv[2]) - float(sys.argv[1])))' "$1" "$2"; }

# --- 1. uapid ---------------------------------------------------------------
printf '%s: uapid api-diff --json %s %s\n' "$me" "$OLD" "$NEW" >&2
t0=$(now)
rc=0
nice -n 10 "$UAPID" api-diff --json "$OLD" "$NEW" >"$WORK/uapid.json" 2>"$WORK/uapid.err" || rc=$?
t1=$(now)
if [ "$rc" -gt 1 ]; then
	cat "$WORK/uapid.err" >&2
	printf '%s: uapid api-diff failed (exit %d)\n' "$me" "$rc" >&2
	exit 1
fi
uapid_time=$(elapsed "$t0" "$t1")

# --- 2. the oracle: compile + abidiff per header ------------------------------
(cd "$OLD/include" && find . -name '*.h' \( -type f -o -type l \) -printf '%P\n') | LC_ALL=C sort >"$WORK/old.list"
(cd "$NEW/include" && find . -name '*.h' \( -type f -o -type l \) -printf '%P\n') | LC_ALL=C sort >"$WORK/new.list"
LC_ALL=C comm -23 "$WORK/old.list" "$WORK/new.list" >"$WORK/removed.list"
LC_ALL=C comm -13 "$WORK/old.list" "$WORK/new.list" >"$WORK/added.list"
LC_ALL=C comm -12 "$WORK/old.list" "$WORK/new.list" | grep -v '^asm-generic/' |
	awk -v n="$SUBSAMPLE" '(NR - 1) % n == 0' >"$WORK/check.list" || true
[ -s "$WORK/check.list" ] || die "no headers in common between $OLD and $NEW"

SUPPR=
if [ "${CHECK_UAPI_SUPPRESSIONS:-0}" = 1 ]; then
	# scripts/check-uapi.sh's gen_suppressions (6.12), without --ignore-ambiguous
	SUPPR=$WORK/suppressions
	{
		printf '[suppress_type]\n  type_kind = enum\n  changed_enumerators_regexp = '
		printf '%s' '.*_AFTER_LAST$,.*_CNT$,.*_COUNT$,.*_END$,.*_LAST$,.*_MASK$,.*_MAX$,.*_MAX_BIT$,'
		printf '%s' '.*_MAX_BPF_ATTACH_TYPE$,.*_MAX_ID$,.*_MAX_SHIFT$,.*_NBITS$,.*_NETDEV_NUMHOOKS$,'
		printf '%s' '.*_NFT_META_IIFTYPE$,.*_NL80211_ATTR$,.*_NLDEV_NUM_OPS$,.*_NUM$,.*_NUM_ELEMS$,'
		printf '%s\n' '.*_NUM_IRQS$,.*_SIZE$,.*_TLSMAX$,^MAX_.*,^NUM_.*'
		for p in '.*end$' '.*pad$' '.*pad[0-9]?$' '.*pad_[0-9]?$' '.*padding$' '.*padding[0-9]?$' \
			'.*padding_[0-9]?$' '.*res$' '.*resv$' '.*resv[0-9]?$' '.*resv_[0-9]?$' '.*reserved$' \
			'.*reserved[0-9]?$' '.*reserved_[0-9]?$' '.*rsvd[0-9]?$' '.*unused$'; do
			printf '[suppress_type]\n  type_kind = struct\n  has_data_member_inserted_at = offset_of_first_data_member_regexp(%s)\n' "$p"
		done
	} >"$SUPPR"
fi

mkdir -p "$WORK/res" "$WORK/obj/old" "$WORK/obj/new"

# One header: compile both versions in the first mode both compile in, then abidiff.
# Writes res/KEY.status ("mode=M abidiff=RC" or "fail=old|new|both") and res/KEY.abidiff.
oracle_one() {
	local h=$1 key mode rc o n
	key=$(printf '%s' "$h" | sed 's|/|%|g')
	o=$WORK/obj/old/$key.so
	n=$WORK/obj/new/$key.so
	compile() { # DIR MODE OUT
		local dir=$1 m=$2 out=$3
		local -a extra=()
		case $m in
		c90) extra=(-std=c90) ;;
		gnu11) extra=(-std=gnu11) ;;
		libc) extra=(-std=gnu11 -include stddef.h -include stdint.h -include sys/types.h -include time.h) ;;
		net) extra=(-std=gnu11 -include stddef.h -include stdint.h -include sys/types.h
			-include sys/socket.h -include netinet/in.h -include sys/time.h -include signal.h) ;;
		esac
		printf 'int f(void) { return 0; }\n' |
			"$CC" -shared -nostdlib -fPIC -o "$out" -x c -O0 "${extra[@]}" \
				-fno-eliminate-unused-debug-types -g "-I$dir/include" -include "$dir/include/$h" - \
				>/dev/null 2>&1
	}
	local okold=0 oknew=0 tries=0 t0 t1 t2
	t0=$EPOCHREALTIME
	mode=
	for m in c90 gnu11 libc net; do
		tries=$((tries + 1))
		local a=0 b=0
		compile "$OLD" "$m" "$o" && a=1
		compile "$NEW" "$m" "$n" && b=1
		[ $a = 1 ] && okold=1
		[ $b = 1 ] && oknew=1
		if [ $a = 1 ] && [ $b = 1 ]; then
			mode=$m
			break
		fi
	done
	t1=$EPOCHREALTIME
	if [ -z "$mode" ]; then
		rm -f "$o" "$n"
		if [ $okold = 1 ]; then
			echo "fail=new tries=$tries compile_s=$t0/$t1" >"$WORK/res/$key.status"
		elif [ $oknew = 1 ]; then
			echo "fail=old tries=$tries compile_s=$t0/$t1" >"$WORK/res/$key.status"
		else
			echo "fail=both tries=$tries compile_s=$t0/$t1" >"$WORK/res/$key.status"
		fi
		return 0
	fi
	rc=0
	"$ABIDIFF" --non-reachable-types --harmless --redundant ${SUPPR:+--suppressions "$SUPPR"} \
		"$o" "$n" >"$WORK/res/$key.abidiff" 2>"$WORK/res/$key.abidiff.err" || rc=$?
	t2=$EPOCHREALTIME
	echo "mode=$mode abidiff=$rc tries=$tries compile_s=$t0/$t1 abidiff_s=$t1/$t2" >"$WORK/res/$key.status"
	# keep the objects only when abidiff saw a change (for the attribution step)
	if [ "$rc" = 0 ]; then rm -f "$o" "$n"; fi
	return 0
}
export -f oracle_one
export OLD NEW WORK CC ABIDIFF ABIDW SUPPR

nheaders=$(wc -l <"$WORK/check.list")
printf '%s: compiling and diffing %d headers, %d at a time\n' "$me" "$nheaders" "$JOBS" >&2
t0=$(now)
nice -n 10 xargs -a "$WORK/check.list" -d '\n' -n 1 -P "$JOBS" bash -c 'oracle_one "$1"' oracle ||
	{ printf '%s: the compile/abidiff step failed\n' "$me" >&2; exit 1; }
t1=$(now)
oracle_time=$(elapsed "$t0" "$t1")

# --- 3. attribution: where each type is defined --------------------------------
t0=$(now)
(cd "$WORK/obj" && find old new -name '*.so' -printf '%p\n') | LC_ALL=C sort >"$WORK/abidw.list"
if [ -s "$WORK/abidw.list" ]; then
	nice -n 10 xargs -a "$WORK/abidw.list" -d '\n' -n 1 -P "$JOBS" bash -c \
		'"$ABIDW" --load-all-types --no-corpus-path --out-file "$WORK/obj/$1.abi" "$WORK/obj/$1" || echo "$1" >>"$WORK/abidw.failed"' abidw ||
		{ printf '%s: abidw failed\n' "$me" >&2; exit 1; }
fi
t1=$(now)
attr_time=$(elapsed "$t0" "$t1")
[ ! -s "$WORK/abidw.failed" ] || printf '%s: abidw failed on %s objects (their types are attributed by name only)\n' \
	"$me" "$(wc -l <"$WORK/abidw.failed")" >&2

# --- 4. compare ---------------------------------------------------------------
python3 "$here/api-oracle.py" --work "$WORK" --old "$OLD" --new "$NEW" \
	--uapid-time "$uapid_time" --oracle-time "$oracle_time" --attr-time "$attr_time" \
	--jobs "$JOBS" --subsample "$SUBSAMPLE" --uapid-exit "$rc" \
	${PLANTED:+--planted "$PLANTED"} ${REPORT_JSON:+--json "$REPORT_JSON"} \
	${SUPPR:+--suppressions}
