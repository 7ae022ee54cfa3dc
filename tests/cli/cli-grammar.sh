#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 39, case 7 (and 6 where no daemon is needed): one grammar of
# options and exit codes for uapid and uapictl.  Every command of both
# programs takes --help, with a paragraph and an example, and its usage is
# its man page's heading; -j is --jobs, -d --state-dir; numeric options
# are checked; the spellings of before still work.
. "${top_srcdir:-.}/tests/lib/lib.sh"

MAN=$top_srcdir/doc/man
# the man page's command headings and entries, markup taken off
sed -n 's/^## //p' "$MAN/uapid.1.scd" >"$WORK/uapid.heads"
sed -n '/^# COMMANDS/,/^# FINDING/p' "$MAN/uapictl.1.scd" | grep -v '^	' | grep . |
	sed 's/\\//g; s/[*]//g; s/_//g' >"$WORK/uapictl.heads"

for cmd in classify split install check watch branch api-diff api-layout api-log check-uapi fix-includes; do
	expect_status 0 "$UAPID" "$cmd" --help
	usage=$(sed -n '1s/^usage: uapid //p' "$WORK/out")
	if grep -qxF -- "$usage" "$WORK/uapid.heads"; then pass; else fail "uapid $cmd --help: '$usage' is no heading of uapid(1)"; fi
	expect_in "$WORK/out" "Example:"
	expect_in "$WORK/out" "  uapid $cmd "
	# a paragraph: at least two lines of prose after the usage
	[ "$(sed -n '3,/^$/p' "$WORK/out" | grep -c .)" -ge 2 ] && pass || fail "uapid $cmd --help: no paragraph"
	# -h too, and after other options
	expect_status 0 "$UAPID" "$cmd" -q -h
	expect_in "$WORK/out" "usage: uapid $cmd"
done
# every command of uapid --help's list was asked above
n=$("$UAPID" --help | grep -c '^  uapid ')
[ "$n" -eq 11 ] && pass || fail "uapid --help lists $n commands, this test 11"

for cmd in status headers classify preview changes marker resplit api watch sockname lsp call; do
	# no daemon is asked: --help answers before
	expect_status 0 "$UAPICTL" --socket "$WORK/none.sock" "$cmd" --help
	sed -n 's/^usage: uapictl //p; s/^       uapictl //p' "$WORK/out" >"$WORK/usages"
	[ -s "$WORK/usages" ] && pass || fail "uapictl $cmd --help: no usage line"
	while IFS= read -r usage; do
		if grep -q -F -x -e "$usage" "$WORK/uapictl.heads" || grep -q -F -e "$usage, " "$WORK/uapictl.heads"; then
			pass
		else
			fail "uapictl $cmd --help: '$usage' is no entry of uapictl(1)"
		fi
	done <"$WORK/usages"
	expect_in "$WORK/out" "Example:"
	sed -n '/^Example:/{n;p;}' "$WORK/out" | grep -q "uapictl.*$cmd" && pass || fail "uapictl $cmd --help: no example"
done
expect_status 0 "$UAPICTL" --help
[ "$(sed -n 's/^  \([a-z][a-z]*\) .*/\1/p' "$WORK/out" | sort -u | wc -l)" -eq 12 ] && pass ||
	fail "uapictl --help lists other commands than the 12 this test asks"

# --- exit codes: usage is 2 in both programs ------------------------------------
expect_status 2 "$UAPID" frob
expect_in "$WORK/err" "unknown command 'frob'"
expect_status 2 "$UAPICTL" --socket "$WORK/none.sock" frob
expect_in "$WORK/err" "unknown command 'frob'"
# a dotted name is a method of the protocol: sent (no daemon here: 3)
expect_status 3 "$UAPICTL" --socket "$WORK/none.sock" markers.list

# --- options ---------------------------------------------------------------------
T=$WORK/tree
cp -R "$top_srcdir/tests/trees/mini" "$T"
chmod -R u+w "$T"
# numeric options are checked: check --jobs abc ran on every core
for bad in abc 0 -1 2x ""; do
	expect_status 2 "$UAPID" check --arch x86 --jobs "$bad" "$T"
	expect_in "$WORK/err" "--jobs: '$bad' is not a number from 1 to 4096"
done
expect_status 2 "$UAPID" check --arch x86 -j abc "$T"
expect_in "$WORK/err" "--jobs: 'abc' is not a number"
expect_status 0 "$UAPID" check --arch x86 -j 2 "$T"
# --json has no short form; the short forms of before still work
expect_status 0 "$UAPID" check --arch x86 -J "$T"
expect_in "$WORK/out" '"headers":'
expect_status 0 "$UAPID" classify -j "$top_srcdir/tests/data/basic/in.h"
expect_in "$WORK/out" '"blocks":'
# -d is --state-dir (api-log's and branch's too): not an unknown option
expect_status 2 "$UAPID" api-log -d "$WORK/state" "$WORK/no-repo" SYMBOL
expect_not_in "$WORK/err" "invalid option"
expect_status 2 "$UAPID" branch -d "$WORK/state" "$WORK/no-repo"
expect_not_in "$WORK/err" "invalid option"
# branch and watch spell the branches one way; the spellings of before work
expect_status 2 "$UAPID" branch --split-branch s --no-headers-branch "$WORK/no-repo"
expect_not_in "$WORK/err" "unrecognized option"
expect_status 2 "$UAPID" branch --split s --no-headers "$WORK/no-repo"
expect_not_in "$WORK/err" "unrecognized option"
expect_status 2 "$UAPID" branch --split-branch - --no-headers-branch "$WORK/no-repo"
expect_in "$WORK/err" "nothing to do"
expect_status 2 "$UAPID" api-log --headers-branch h "$WORK/no-repo" SYMBOL
expect_not_in "$WORK/err" "unrecognized option"
# a bad HEADER to api-layout is named
"$UAPID" install --arch x86 "$T" "$WORK/inst" >/dev/null 2>&1
expect_status 1 "$UAPID" api-layout "$WORK/inst" linux/mini.h linux/no-such.h include/linux/mini.h
expect_in "$WORK/err" "linux/no-such.h: not installed in $WORK/inst"
expect_in "$WORK/err" "include/linux/mini.h: not installed in $WORK/inst"
expect_not_in "$WORK/err" "uapid: linux/mini.h: not installed"
# uapictl marker add: a file that does not exist is refused before any daemon is asked
expect_status 2 "$UAPICTL" --socket "$WORK/none.sock" marker add "$WORK/no-such.h" kernel '#ifdef __KERNEL__'
expect_in "$WORK/err" "no-such.h: No such file or directory"
# uapictl api: --since takes a clock or a revision, as api --log --since does
expect_status 2 "$UAPICTL" --socket "$WORK/none.sock" api --since -3
expect_in "$WORK/err" "not a clock or a revision"
expect_status 2 "$UAPICTL" --socket "$WORK/none.sock" api --since v1 --rev v2
expect_status 3 "$UAPICTL" --socket "$WORK/none.sock" api --since v6.1
finish
