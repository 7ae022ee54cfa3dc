#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# contrib/uapi-gate.sh on a real git repository built here: a compatible
# series passes, a changed value fails naming the symbol, --allow-breaking
# reports it and passes, a series touching no header passes at once, usage
# errors exit 2, check errors fail, and the working tree, the index, HEAD
# and the worktree list are the same after every run.
. "${top_srcdir:-.}/tests/lib/lib.sh"

GATE=$top_srcdir/contrib/uapi-gate.sh
export GIT_AUTHOR_NAME="A U Thor" GIT_AUTHOR_EMAIL=author@example.org
export GIT_COMMITTER_NAME="C O Mitter" GIT_COMMITTER_EMAIL=committer@example.org
export GIT_CONFIG_NOSYSTEM=1 HOME=$WORK
unset UAPID_ARCH
gate() { sh "$GATE" --uapid "$UAPID" "$@"; }
snapshot() { # snapshot FILE: HEAD, the index, the working tree, the worktrees
	{
		git -C "$R" symbolic-ref -q HEAD || echo detached
		git -C "$R" rev-parse HEAD
		sha1sum <"$R/.git/index"
		git -C "$R" status --porcelain --untracked-files=all
		(cd "$R" && find . -path ./.git -prune -o -type f -print | LC_ALL=C sort | xargs sha1sum)
		git -C "$R" worktree list --porcelain
		ls "$R/.git/worktrees" 2>/dev/null || true
	} >"$1"
}
same_as_before() { # same_as_before WHAT: the snapshot taken before is unchanged
	snapshot "$WORK/snap-after"
	if cmp -s "$WORK/snap-before" "$WORK/snap-after"; then pass; else
		fail "$1 changed the repository"; diff -u "$WORK/snap-before" "$WORK/snap-after" >&2 || true
	fi
}
# series NAME: a branch NAME from master, checked out
series() { git -C "$R" checkout -q -b "$1" master; }

R=$WORK/repo
# the mini tree as it is (its usr/include/Makefile's no-header-test list included)
mkdir -p "$R"
cp -R "$top_srcdir/tests/trees/mini/." "$R/"
chmod -R u+w "$R"
U=include/uapi/linux/mini.h
git -C "$R" init -q -b master
git -C "$R" add -A -f
git -C "$R" commit -q -m "base tree"
printf 'mini tree\n' >"$R/README"
git -C "$R" add README && git -C "$R" commit -q -m "a README"

# --- (a) a series adding a #define: compatible, exit 0 -------------------------------------
series add-define
printf '#define MINI_GATE_ADDED 1\n' >>"$R/$U"
git -C "$R" commit -q -a -m "mini: a new constant"
printf '/* more words */\n' >>"$R/README"
git -C "$R" commit -q -a -m "README: more words"
# uncommitted edits and an untracked file: the gate looks at commits, and leaves them alone
printf 'local edit\n' >>"$R/README"
printf 'scratch\n' >"$R/scratch.txt"
snapshot "$WORK/snap-before"
expect_status 0 gate --report "$WORK/report-a" "$R"
same_as_before "a passing run"
expect_in "$WORK/out" "2 commits; base: merge-base with master"
expect_in "$WORK/out" "mini: a new constant"
expect_in "$WORK/out" "architectures: x86"
expect_in "$WORK/out" "x86: compatible"
expect_in "$WORK/out" "api-diff 0 breaking, 0 review, 1 compatible"
expect_in "$WORK/out" "check 15 headers, 0 errors"
expect_in "$WORK/out" "result: PASS (userspace API compatible)"
expect_same "$WORK/out" "$WORK/report-a"
git -C "$R" checkout -q -- README && rm "$R/scratch.txt"

# --- (b) a series changing a value: breaking, exit 1, the symbol named ----------------------
series change-value
sed -i 's/^#define MINI_PLAIN_API 1$/#define MINI_PLAIN_API 2/' "$R/$U"
git -C "$R" commit -q -a -m "mini: MINI_PLAIN_API is 2 now"
snapshot "$WORK/snap-before"
expect_status 1 gate --report "$WORK/report-b" "$R"
same_as_before "a failing run"
expect_in "$WORK/out" "x86: BREAKING"
expect_in "$WORK/out" "api-diff 1 breaking"
expect_in "$WORK/out" "breaking changes:"
expect_in "$WORK/out" "linux/mini.h:"
expect_in "$WORK/out" ": MINI_PLAIN_API"
expect_in "$WORK/out" "replacement 1 -> 2"
expect_in "$WORK/out" "result: FAIL (1 breaking change)"
expect_same "$WORK/out" "$WORK/report-b"
# the same change seen on more architectures: listed once per list, counted once
expect_status 1 gate --arch arm64,riscv "$R"
expect_in "$WORK/out" "architectures: x86 arm64 riscv"
expect_in "$WORK/out" "arm64: BREAKING"
expect_in "$WORK/out" "breaking changes: 1, the same as x86"
expect_in "$WORK/out" "result: FAIL (1 breaking change)"
# an explicit --base/--head, from outside the repository; no temporary file left
mkdir "$WORK/tmp"
(cd "$WORK" && TMPDIR=$WORK/tmp expect_status 1 gate --base master --head change-value "$R")
expect_in "$WORK/out" "base: master"
expect_in "$WORK/out" ": MINI_PLAIN_API"
[ -z "$(ls "$WORK/tmp")" ] && pass || { fail "temporary files left"; ls -la "$WORK/tmp" >&2; }
# many breaking changes: at most 20 listed, then "and N more"
series many
i=0
while [ $i -lt 25 ]; do printf '#define MINI_MANY_%02d %d\n' $i $i >>"$R/$U"; i=$((i + 1)); done
git -C "$R" commit -q -a -m "mini: 25 constants"
sed -i 's/^\(#define MINI_MANY_[0-9]*\) \([0-9]*\)$/\1 1\2/' "$R/$U"
git -C "$R" commit -q -a -m "mini: 25 constants change"
expect_status 1 gate --base many~1 "$R"
expect_in "$WORK/out" "api-diff 25 breaking"
expect_in "$WORK/out" "    and 5 more"
[ "$(grep -c ': MINI_MANY_' "$WORK/out")" = 20 ] && pass || fail "not 20 breaking changes listed"

# --- (c) --allow-breaking: the change still reported, exit 0 --------------------------------
git -C "$R" checkout -q change-value
expect_status 0 gate --allow-breaking "$R"
expect_in "$WORK/out" ": MINI_PLAIN_API"
expect_in "$WORK/out" "result: PASS with --allow-breaking (1 breaking change, allowed)"

# --- check errors fail, also with --allow-breaking -------------------------------------------
series check-error
sed -i 's|^#include <linux/compiler.h>$|&\n#include <linux/not_exported.h>|' "$R/$U"
git -C "$R" commit -q -a -m "mini: include a private header"
snapshot "$WORK/snap-before"
expect_status 1 gate --allow-breaking "$R"
same_as_before "a run with check errors"
expect_in "$WORK/out" "check errors:"
expect_in "$WORK/out" "include/uapi/linux/mini.h:7: included file 'linux/not_exported.h' is not exported"
expect_in "$WORK/out" "result: FAIL ("
# an architecture's own header: that architecture, not x86
series arch-only
printf '#define __NR_gate_test 999\n' >>"$R/arch/arm64/include/uapi/asm/unistd.h"
git -C "$R" commit -q -a -m "arm64: a syscall number"
expect_status 0 gate --arch riscv "$R"
expect_in "$WORK/out" "architectures: arm64"
expect_not_in "$WORK/out" "x86:"
expect_in "$WORK/out" "arm64: compatible"

# --- (d) a series touching no header: passes at once ---------------------------------------
series readme-only
printf 'docs only\n' >>"$R/README"
mkdir -p "$R/drivers/misc" "$R/arch/x86/kernel"
printf 'int gate_driver;\n' >"$R/drivers/misc/gate.c"
printf 'int gate_arch;\n' >"$R/arch/x86/kernel/gate.c"
git -C "$R" add -A && git -C "$R" commit -q -m "docs and code only"
snapshot "$WORK/snap-before"
expect_status 0 gate --report "$WORK/report-d" "$R"
same_as_before "a run with nothing to check"
expect_in "$WORK/out" "no userspace API touched: none of the 3 changed files"
expect_in "$WORK/out" "result: PASS"
expect_not_in "$WORK/out" "x86:"
expect_same "$WORK/out" "$WORK/report-d"
# an empty series: nothing to check either
expect_status 0 gate --base HEAD "$R"
expect_in "$WORK/out" "no userspace API touched"

# --- (e) usage errors: exit 2, nothing run ---------------------------------------------------
snapshot "$WORK/snap-before"
expect_status 2 gate
expect_in "$WORK/err" "no REPO given"
expect_status 2 gate --frobnicate "$R"
expect_in "$WORK/err" "unknown option: --frobnicate"
expect_status 2 gate --base "$R"
expect_in "$WORK/err" "no REPO given"
expect_status 2 gate "$R" "$WORK"
expect_status 2 gate --base no-such-rev "$R"
expect_in "$WORK/err" "no-such-rev: unknown revision"
expect_status 2 gate --head no-such-rev "$R"
expect_status 2 gate "$WORK/nowhere"
mkdir "$WORK/plain"
expect_status 2 gate "$WORK/plain"
expect_in "$WORK/err" "not a git working tree"
expect_status 2 gate --arch 'x86;rm' "$R"
expect_in "$WORK/err" "bad architecture name"
expect_status 2 sh "$GATE" --uapid "$WORK/no-uapid" "$R"
expect_status 2 gate --report "" "$R"
# no --base and neither master nor origin/master
git init -q -b main "$WORK/nomaster"
git -C "$WORK/nomaster" commit -q --allow-empty -m init
expect_status 2 gate "$WORK/nomaster"
expect_in "$WORK/err" "give --base"
expect_status 0 sh "$GATE" --help
expect_in "$WORK/out" "usage: uapi-gate.sh"
same_as_before "usage errors"

# --- (f) nothing left behind: no worktree registered ------------------------------------------
git -C "$R" worktree list >"$WORK/worktrees"
[ "$(wc -l <"$WORK/worktrees")" = 1 ] && pass || { fail "a worktree is left registered"; cat "$WORK/worktrees" >&2; }
[ ! -d "$R/.git/worktrees" ] || [ -z "$(ls "$R/.git/worktrees")" ] && pass || fail "left in .git/worktrees"
# (the worktree list and the temporary directory after a run: above, with each snapshot)
# origin/master is preferred to master
git clone -q "$R" "$WORK/clone"
git -C "$WORK/clone" checkout -q -b topic origin/change-value
git -C "$WORK/clone" branch -q -f master topic
expect_status 1 gate "$WORK/clone"
expect_in "$WORK/out" "base: merge-base with origin/master"
finish
