#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 39, case 4, and issue 38, E: refs are uapid's by what they hold.
# Every commit uapid writes carries "Written-by: uapid (...)"; a moved
# repository, another --state-dir, an emptied branches.db adopt such refs
# and go on from their history; a ref holding something else is left
# alone with a hint that is true.
. "${top_srcdir:-.}/tests/lib/lib.sh"
. "${top_srcdir:-.}/tests/lib/daemon-lib.sh"

export GIT_AUTHOR_NAME="A U Thor" GIT_AUTHOR_EMAIL=author@example.org
export GIT_COMMITTER_NAME="C O Mitter" GIT_COMMITTER_EMAIL=committer@example.org
export GIT_CONFIG_NOSYSTEM=1 HOME=$WORK
n=0
commit() { # commit MESSAGE: a commit with a date of its own, in order
	n=$((n + 1))
	GIT_AUTHOR_DATE="@$((1700000000 + n * 60)) +0100" GIT_COMMITTER_DATE="@$((1700000000 + n * 60)) +0100" \
		git -C "$R" commit -q -a -m "$1"
}
U=include/uapi/linux/mini.h
# (the tree's sample_arch.h needs coaching: uapid branch exits 1, as uapid split)
R=$WORK/repo
new_tree "$R"
git -C "$R" init -q -b master
git -C "$R" add -A
commit "initial tree"
printf '#define REFS_ONE 1\n' >>"$R/$U"
commit "one"

# --- the trailer ----------------------------------------------------------------------
expect_status 1 "$UAPID" branch --arch x86 --since master~1 "$R"
git -C "$R" log -1 --format=%B uapi/headers >"$WORK/body"
expect_in "$WORK/body" "Written-by: uapid (headers, x86)"
git -C "$R" log -1 --format=%B uapi/split >"$WORK/body"
expect_in "$WORK/body" "Written-by: uapid (split)"
nh=$(git -C "$R" rev-list --count uapi/headers)

# --- a moved repository: its refs are still uapid's, and the history goes on -----------
mv "$R" "$WORK/moved"
R=$WORK/moved
printf '#define REFS_TWO 2\n' >>"$R/$U"
commit "two"
expect_status 1 "$UAPID" branch --arch x86 "$R"
expect_not_in "$WORK/out" "left alone"
expect_in "$WORK/out" "1 commit added"
[ "$(git -C "$R" rev-list --count uapi/headers)" -eq $((nh + 1)) ] && pass ||
	fail "the moved repository's headers branch did not grow by one"

# --- an emptied branches.db (what its "damaged" message advises) disowns nothing ------
: >"$R/.git/uapid/branches.db"
printf '#define REFS_THREE 3\n' >>"$R/$U"
commit "three"
printf '#define REFS_FOUR 4\n' >>"$R/$U"
commit "four"
expect_status 1 "$UAPID" branch --arch x86 "$R"
expect_not_in "$WORK/out" "left alone"
# rebuilt from the branch's trailers: both new commits, not the source head alone
expect_in "$WORK/out" "2 commits added from 2 source commits looked at"
[ "$(git -C "$R" rev-list --count uapi/headers)" -eq $((nh + 3)) ] && pass ||
	fail "the headers branch lost or skipped history after branches.db was emptied"
# api-log answers from the branch as it is now, not a stale one
expect_status 0 "$UAPID" api-log --arch x86 "$R" REFS_FOUR
expect_in "$WORK/out" "REFS_FOUR: first"

# --- another --state-dir (a colleague, a CI runner): api-log's own history adopted ----
R=$WORK/plain
new_tree "$R"
git -C "$R" init -q -b master
git -C "$R" add -A
commit "initial tree"
printf '#define PLAIN_ONE 1\n' >>"$R/$U"
commit "plain one"
expect_status 0 "$UAPID" api-log --arch x86 --state-dir "$WORK/s1" "$R" PLAIN_ONE
git -C "$R" rev-parse -q --verify refs/uapid/api-log/x86 >/dev/null && pass || fail "no api-log history ref"
expect_status 0 "$UAPID" api-log --arch x86 --state-dir "$WORK/s2" "$R" PLAIN_ONE
expect_not_in "$WORK/err" "left alone"
expect_not_in "$WORK/err" "--since REV"
expect_in "$WORK/out" "PLAIN_ONE: first"

# --- a ref that holds something else: left alone, with a hint that is true ------------
git -C "$R" branch -q mine master
expect_status 1 "$UAPID" branch --arch x86 --no-split-branch --headers-branch mine "$R"
expect_in "$WORK/out" "was not written by uapid (its commit has no 'Written-by: uapid' trailer)"
expect_not_in "$WORK/out" "delete it"
[ "$(git -C "$R" rev-parse mine)" = "$(git -C "$R" rev-parse master)" ] && pass || fail "a foreign ref was moved"
# uapid's, for another use (another architecture): said so, left alone
git -C "$R" update-ref refs/heads/other-arch refs/uapid/api-log/x86
expect_status 1 "$UAPID" branch --arch arm64 --no-split-branch --headers-branch other-arch --state-dir "$WORK/s3" "$R"
expect_in "$WORK/out" "holds what uapid (headers, x86) wrote, another use than this one"

# --- issue 39, case 3: nothing written unless the whole update succeeds ---------------
B=$WORK/noinstall
mkdir -p "$B"
cp -R "$top_srcdir/examples/tree/." "$B/"
R=$B
git -C "$R" init -q -b master
git -C "$R" add -A
commit "a tree without an install script"
# the headers cannot be installed: exit 2, and no ref moved (the split series was written)
expect_status 2 "$UAPID" branch --arch x86 "$R"
expect_in "$WORK/err" "uapid does not know how this tree installs its headers"
git -C "$R" for-each-ref >"$WORK/refs"
expect_not_in "$WORK/refs" "refs/heads/uapi/"
# the split branch alone: written, and what it left whole is named, exit 1 as split
expect_status 1 "$UAPID" branch --arch x86 --no-headers-branch "$R"
expect_in "$WORK/out" "header needs coaching, left whole:"
git -C "$R" rev-parse -q --verify refs/heads/uapi/split >/dev/null && pass || fail "no split branch"
finish
