#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# uapid branch on real git repositories built here: the split branch's tree
# is `uapid split --in-place`, the headers branch's trees are `uapid
# install`, git fsck is clean, ids are the same across runs and clones,
# amend, rebase and force-push of the source are followed, a foreign
# update of a uapi branch is left alone, and the working tree, the index
# and HEAD are never touched.
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
snapshot() { # snapshot FILE: HEAD, the index, the working tree
	{
		git -C "$R" symbolic-ref HEAD
		git -C "$R" rev-parse HEAD
		sha1sum <"$R/.git/index"
		(cd "$R" && find . -path ./.git -prune -o -type f -print | LC_ALL=C sort | xargs sha1sum)
	} >"$1"
}
# export_tree REV DIR: the tree of REV, as files
export_tree() { rm -rf "$2"; mkdir -p "$2"; git -C "$R" archive "$1" | tar -x -C "$2"; }

R=$WORK/repo
new_tree "$R"
git -C "$R" init -q -b master
git -C "$R" add -A
commit "initial tree"
snapshot "$WORK/snap0"

# --- first creation ------------------------------------------------------------------
# exit 1, as uapid split: the tree has a header that needs coaching (issue 39), named
# in the text, the JSON and the series' last commit
expect_status 1 "$UAPID" branch --arch x86 "$R"
expect_in "$WORK/out" "uapi/split: "
expect_in "$WORK/out" "uapi/headers: "
expect_in "$WORK/out" "uapi/split: 1 header needs coaching, left whole:"
expect_in "$WORK/out" "  include/linux/sample_arch.h"
git -C "$R" log -1 --format=%B uapi/split >"$WORK/body"
expect_in "$WORK/body" "Needs-coaching: include/linux/sample_arch.h"
expect_status 1 "$UAPID" branch --json --arch x86 "$R"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["split"]["needs_coaching"] == ["include/linux/sample_arch.h"], d' \
	"$WORK/out" && pass || fail "branch --json: needs_coaching"
split1=$(git -C "$R" rev-parse uapi/split) headers1=$(git -C "$R" rev-parse uapi/headers)
snapshot "$WORK/snap1"
expect_same "$WORK/snap0" "$WORK/snap1"
git -C "$R" fsck --strict >"$WORK/fsck" 2>&1 && pass || { fail "git fsck"; cat "$WORK/fsck" >&2; }
expect_not_in "$WORK/fsck" "error"
# the series: one commit per split directory, on top of the source
git -C "$R" log --format=%s master..uapi/split >"$WORK/subjects"
expect_in "$WORK/subjects" "UAPI: (Scripted) Disintegrate include/linux"
expect_in "$WORK/subjects" "UAPI: (Scripted) Disintegrate arch/x86/include/asm"
[ "$(git -C "$R" merge-base master uapi/split)" = "$(git -C "$R" rev-parse master)" ] && pass ||
	fail "the split branch is not on top of the source"
git -C "$R" log -1 --format=%B uapi/split >"$WORK/body"
expect_in "$WORK/body" "Source-commit: $(git -C "$R" rev-parse master)"
# its tree is uapid split --in-place
export_tree master "$WORK/inplace"
"$UAPID" split --in-place "$WORK/inplace" >/dev/null 2>&1 || true
export_tree uapi/split "$WORK/splitbr"
diff -r "$WORK/inplace" "$WORK/splitbr" >"$WORK/diff" 2>&1 && pass ||
	{ fail "split branch differs from uapid split --in-place"; head -20 "$WORK/diff" >&2; }
# the headers branch holds uapid install's include/
export_tree master "$WORK/src"
"$UAPID" install --arch x86 "$WORK/src" "$WORK/inst" >/dev/null 2>&1
export_tree uapi/headers "$WORK/hdrbr"
diff -r "$WORK/inst/include" "$WORK/hdrbr/include" >"$WORK/diff" 2>&1 && pass ||
	{ fail "headers branch differs from uapid install"; head -20 "$WORK/diff" >&2; }
git -C "$R" log -1 --format='%an <%ae> %ad|%cn %cd|%s' --date=raw uapi/headers >"$WORK/h"
expect_in "$WORK/h" "A U Thor <author@example.org> 1700000060 +0100|C O Mitter 1700000060 +0100|initial tree"
git -C "$R" reflog show uapi/split >"$WORK/reflog"
expect_in "$WORK/reflog" "uapid: split of"

# --- again: nothing changes; another clone elsewhere gives the same ids ----------
expect_status 1 "$UAPID" branch --arch x86 "$R"
expect_in "$WORK/out" "(unchanged)"
expect_in "$WORK/out" "0 commits added"
[ "$(git -C "$R" rev-parse uapi/split uapi/headers)" = "$(printf '%s\n%s' "$split1" "$headers1")" ] &&
	pass || fail "ids changed on a re-run"
git clone -q --no-local "$R" "$WORK/clone"
git -C "$WORK/clone" checkout -q -b master origin/master 2>/dev/null || true
TZ=Asia/Tokyo expect_status 1 "$UAPID" branch --arch x86 --state-dir "$WORK/other-cache" "$WORK/clone"
expect_in "$WORK/out" "cache: 0 hits"
[ "$(git -C "$WORK/clone" rev-parse uapi/split)" = "$split1" ] && pass || fail "split id differs in a clone"
[ "$(git -C "$WORK/clone" rev-parse uapi/headers)" = "$headers1" ] && pass || fail "headers id differs in a clone"
# --one-commit: the same tree in one commit
expect_status 1 "$UAPID" branch --arch x86 --no-headers --one-commit --split uapi/one "$R"
[ "$(git -C "$R" rev-list --count master..uapi/one)" = 1 ] && pass || fail "--one-commit made more than one"
[ "$(git -C "$R" rev-parse uapi/one^{tree})" = "$(git -C "$R" rev-parse uapi/split^{tree})" ] && pass ||
	fail "--one-commit tree differs"

# --- the source moves: a commit, an amend, a rebase, a force-push ----------------------
U=include/uapi/linux/mini.h # an installed header: its edits change the headers branch
printf '#define SAMPLE_EXTRA 7\n' >>"$R/$U"
commit "sample: one more constant"
expect_status 1 "$UAPID" branch --arch x86 "$R"
expect_in "$WORK/out" "1 commit added from 1 source commit"
[ "$(git -C "$R" rev-parse uapi/split~2^)" = "$(git -C "$R" rev-parse master)" ] || \
	[ "$(git -C "$R" merge-base master uapi/split)" = "$(git -C "$R" rev-parse master)" ] && pass ||
	fail "split branch not regenerated on the new head"
[ "$(git -C "$R" rev-parse uapi/headers^)" = "$headers1" ] && pass || fail "headers branch did not grow by one"
git -C "$R" log -1 --format=%B uapi/headers >"$WORK/body"
expect_in "$WORK/body" "sample: one more constant"
expect_in "$WORK/body" "API-change: 0 breaking, 0 review, 1 compatible"
expect_in "$WORK/body" "Source-commit: $(git -C "$R" rev-parse master)"
# a stale ref lock (a git that died): said for what it is (issue 38 F), and once it goes, caught up
printf '#define SAMPLE_LOCKED 8\n' >>"$R/$U"
commit "sample: while a ref lock is stale"
: >"$R/.git/refs/heads/uapi/headers.lock"
set +e
"$UAPID" branch --arch x86 "$R" >"$WORK/out" 2>"$WORK/err"
set -e
expect_in "$WORK/err" "refs/heads/uapi/headers.lock exists (a git command holds it, or one that died left it"
expect_not_in "$WORK/err" "moved meanwhile"
rm "$R/.git/refs/heads/uapi/headers.lock"
expect_status 1 "$UAPID" branch --arch x86 "$R" # 1: the tree has a header that needs coaching
git -C "$R" log -1 --format=%B uapi/headers >"$WORK/body"
expect_in "$WORK/body" "sample: while a ref lock is stale"
# a kernel-only change: the split changes, the installed headers do not
printf '/* kernel-only note */\n' >>"$R/include/linux/sample_ioctl.h"
sed -i 's|^#endif /\* _LINUX_SAMPLE_IOCTL_H \*/|#ifdef __KERNEL__\nint sample_kernel_only;\n#endif\n&|' "$R/include/linux/sample_ioctl.h"
commit "sample: kernel-only change"
h_before=$(git -C "$R" rev-parse uapi/headers)
expect_status 1 "$UAPID" branch --arch x86 "$R"
expect_in "$WORK/out" "0 commits added from 1 source commit"
[ "$(git -C "$R" rev-parse uapi/headers)" = "$h_before" ] && pass || fail "a kernel-only change grew the headers branch"
export_tree master "$WORK/inplace"
"$UAPID" split --in-place "$WORK/inplace" >/dev/null 2>&1 || true
export_tree uapi/split "$WORK/splitbr"
diff -r "$WORK/inplace" "$WORK/splitbr" >/dev/null 2>&1 && pass || fail "split branch after a kernel-only change"
# amend: the headers branch grows on top (it never rewinds), the split follows the new head
printf '#define SAMPLE_AMENDED 1\n' >>"$R/$U"
git -C "$R" commit -q -a --amend --no-edit
expect_status 1 "$UAPID" branch --arch x86 "$R"
expect_in "$WORK/out" "1 commit added from 1 source commit"
git -C "$R" merge-base --is-ancestor "$h_before" uapi/headers && pass || fail "headers branch rewound after an amend"
[ "$(git -C "$R" merge-base master uapi/split)" = "$(git -C "$R" rev-parse master)" ] && pass ||
	fail "split branch not on the amended head"
# rebase: two commits rewritten, both looked at
base=$(git -C "$R" rev-parse master)
printf '#define SAMPLE_R1 1\n' >>"$R/$U"; commit "r1"
printf '#define SAMPLE_R2 2\n' >>"$R/$U"; commit "r2"
expect_status 1 "$UAPID" branch --arch x86 "$R"
expect_in "$WORK/out" "2 commits added from 2 source commits"
git -C "$R" reset -q --hard "$base"
printf '#define SAMPLE_R1 10\n' >>"$R/$U"; commit "r1 (rewritten)"
printf '#define SAMPLE_R2 20\n' >>"$R/$U"; commit "r2 (rewritten)"
expect_status 1 "$UAPID" branch --arch x86 "$R"
expect_in "$WORK/out" "2 commits added from 2 source commits"
export_tree master "$WORK/src"; rm -rf "$WORK/inst"
"$UAPID" install --arch x86 "$WORK/src" "$WORK/inst" >/dev/null 2>&1
export_tree uapi/headers "$WORK/hdrbr"
diff -r "$WORK/inst/include" "$WORK/hdrbr/include" >/dev/null 2>&1 && pass || fail "headers branch after a rebase"
# force-push back to an older head: the split follows from the cache, nothing added
git -C "$R" update-ref refs/heads/master "$base"
git -C "$R" reset -q --hard "$base"
expect_status 1 "$UAPID" branch --arch x86 "$R"
expect_in "$WORK/out" "0 commits added"
expect_in "$WORK/out" "cache: "
[ "$(git -C "$R" merge-base master uapi/split)" = "$base" ] && pass || fail "split branch after a force-push"

# --- a commit whose headers cannot be installed: skipped, said so; the next ones go on ---
printf '#ifdef CONFIG_LEAK\n#define LEAKED 1\n#endif\n' >>"$R/$U"
commit "leak a CONFIG_ symbol"
expect_status 1 "$UAPID" branch --arch x86 "$R"
expect_in "$WORK/out" "1 source commit skipped, their headers cannot be installed"
expect_in "$WORK/out" "leaks CONFIG_LEAK to user space"
git -C "$R" revert --no-edit HEAD >/dev/null
expect_status 1 "$UAPID" branch --arch x86 "$R"
expect_in "$WORK/out" "from 1 source commit looked at"
expect_not_in "$WORK/out" "skipped"
base=$(git -C "$R" rev-parse master)

# --- someone else moves a uapi branch: left alone, said so, never overwritten --------
snapshot "$WORK/snap2"
git -C "$R" update-ref refs/heads/uapi/split "$base"
expect_status 1 "$UAPID" branch --arch x86 "$R"
expect_in "$WORK/out" "uapi/split: left alone: refs/heads/uapi/split was moved by someone else"
[ "$(git -C "$R" rev-parse uapi/split)" = "$base" ] && pass || fail "a foreign update was overwritten"
git -C "$R" branch -q uapi/mine "$base"
expect_status 1 "$UAPID" branch --arch x86 --headers uapi/mine --no-split "$R"
expect_in "$WORK/out" "exists (at"
expect_in "$WORK/out" "was not written by uapid"
git -C "$R" update-ref -d refs/heads/uapi/split
expect_status 1 "$UAPID" branch --arch x86 "$R"
[ "$(git -C "$R" merge-base master uapi/split)" = "$base" ] && pass || fail "split branch not made again after delete"
# the headers branch too, although the cache has seen every commit of the source:
hdr_before=$(git -C "$R" rev-parse uapi/headers)
git -C "$R" update-ref -d refs/heads/uapi/headers
expect_status 1 "$UAPID" branch --arch x86 "$R"
expect_in "$WORK/out" "1 commit added from 1 source commit looked at"
# made as a first run makes it (the source head alone): the same installed tree
[ "$(git -C "$R" rev-parse 'uapi/headers^{tree}' 2>/dev/null)" = "$(git -C "$R" rev-parse "$hdr_before^{tree}")" ] &&
	pass || fail "headers branch not made again (the same tree) after delete"
snapshot "$WORK/snap3"
expect_same "$WORK/snap2" "$WORK/snap3"
git -C "$R" fsck --strict >/dev/null 2>&1 && pass || fail "git fsck at the end"

# --- a synthetic history: one headers commit per commit that changed installed output ---
H=$WORK/hist
new_tree "$H"
git -C "$H" init -q -b master && git -C "$H" add -A
R=$H commit "base"
first=$(git -C "$H" rev-parse HEAD)
i=0 changed=0
while [ $i -lt 24 ]; do
	i=$((i + 1))
	case $((i % 4)) in
	0) printf '#define SAMPLE_H%d %d\n' $i $i >>"$H/include/uapi/linux/mini.h"
	   # and what gives the next commit another install plan (the backfill then
	   # plans anew, instead of installing only the changed headers)
	   case $i in
	   4) printf '#define ADDED4 1\n' >"$H/include/uapi/linux/added4.h" &&
		   git -C "$H" add include/uapi/linux/added4.h ;;
	   8) printf '#define ADDED4_MORE 1\n' >>"$H/include/uapi/linux/added4.h" ;;
	   12) printf '#define SAMPLE_KVM 1\n' >"$H/arch/x86/include/uapi/asm/kvm.h" && # Kbuild's wildcard
		   git -C "$H" add arch/x86/include/uapi/asm/kvm.h ;;
	   16) printf 'no-export-headers += linux/added4.h\n' >>"$H/include/uapi/Kbuild" ;;
	   20) git -C "$H" rm -q include/uapi/Kbuild include/uapi/linux/added4.h ;;
	   esac ;;
	1) printf '#define SAMPLE_T%d %d\n' $i $i >>"$H/include/linux/sample_types.h" ;; # split only
	2) printf '/* a comment %d */\n' $i >>"$H/include/uapi/linux/types.h" ;;
	3) printf 'int kernel_only_%d;\n' $i >>"$H/include/linux/sample_kernel.h" && git -C "$H" add "$H/include/linux/sample_kernel.h" ;;
	esac
	R=$H commit "edit $i"
done
expect_status 0 "$UAPID" branch --arch x86 --no-split --since "$first" "$H"
expect_in "$WORK/out" "from 24 source commits"
# the oracle: uapid install on every source commit, compared with the one before
prev=
expected=0
for c in $(git -C "$H" rev-list --reverse "$first"..master); do
	rm -rf "$WORK/s" "$WORK/i"; mkdir -p "$WORK/s"
	git -C "$H" archive "$c" | tar -x -C "$WORK/s"
	"$UAPID" install --arch x86 "$WORK/s" "$WORK/i" >/dev/null 2>&1
	sum=$(cd "$WORK/i/include" && find . -type f | LC_ALL=C sort | xargs sha1sum | sha1sum)
	if [ "$sum" != "$prev" ]; then
		expected=$((expected + 1))
		# its headers commit has exactly this tree
		hc=$(git -C "$H" log --format=%H --grep="^Source-commit: $c\$" uapi/headers)
		if [ -n "$hc" ]; then
			rm -rf "$WORK/b"; mkdir -p "$WORK/b"
			git -C "$H" archive "$hc" | tar -x -C "$WORK/b"
			diff -r "$WORK/i/include" "$WORK/b/include" >/dev/null 2>&1 && pass || fail "headers commit for $c differs from uapid install"
		else
			fail "no headers commit for $c, whose installed headers changed"
		fi
	fi
	prev=$sum
done
got=$(git -C "$H" rev-list --count uapi/headers)
[ "$got" = "$expected" ] && pass || fail "headers branch has $got commits, want $expected"
[ "$expected" -gt 6 ] && [ "$expected" -lt 24 ] && pass || fail "the history should mix changes and no-changes ($expected)"
# --- across the split: a 3.6 tree, then a 3.7-style one; each commit installed its own way
S=$WORK/split-history
mkdir -p "$S"
cp -a "$top_srcdir/tests/trees/mini36/." "$S/"
chmod -R u+w "$S"
git -C "$S" init -q -b master && git -C "$S" add -A
R=$S commit "Kernel base 3.6"
pre=$(git -C "$S" rev-parse HEAD)
expect_status 0 "$UAPID" branch --arch x86 --no-split "$S"
expect_in "$WORK/out" "1 commit added"
git -C "$S" rm -q -r include arch scripts Makefile
cp -a "$top_srcdir/tests/trees/mini3x/." "$S/"
chmod -R u+w "$S"
git -C "$S" add -A
R=$S commit "Upgrade to the split"
expect_status 0 "$UAPID" branch --arch x86 --no-split "$S"
expect_in "$WORK/out" "1 commit added"
[ "$(git -C "$S" rev-list --count uapi/headers)" = 2 ] && pass || fail "across the split: not one headers commit per release"
# the first is the 3.6 install (as the real 3.6 make writes it), the second the 3.x one
hc=$(git -C "$S" log --format=%H --grep="^Source-commit: $pre\$" uapi/headers)
rm -rf "$WORK/b" && mkdir -p "$WORK/b" && git -C "$S" archive "$hc" | tar -x -C "$WORK/b"
diff -r "$top_srcdir/tests/expected/presplit/mini36/x86" "$WORK/b/include" >"$WORK/diff" 2>&1 && pass ||
	{ fail "the 3.6 headers commit differs from the 3.6 install"; cat "$WORK/diff" >&2; }
rm -rf "$WORK/b" "$WORK/i" && mkdir -p "$WORK/b" && git -C "$S" archive uapi/headers | tar -x -C "$WORK/b"
"$UAPID" install --arch x86 "$top_srcdir/tests/trees/mini3x" "$WORK/i" >/dev/null 2>&1
diff -r -x .uapid-install "$WORK/i/include" "$WORK/b/include" >"$WORK/diff" 2>&1 && pass ||
	{ fail "the split headers commit differs from uapid install"; cat "$WORK/diff" >&2; }

# --- the daemon: uapid watch --branches follows commits as they are made ----------------
D=$WORK/drepo
new_tree "$D"
git -C "$D" init -q -b master && git -C "$D" add -A
R=$D commit "daemon base"
K=$WORK/d.sock
branches_field() { status_json "$K" | json_field "branches.$1" 2>/dev/null; }
wait_branches() { # wait_branches WHAT: until the follower is idle after WHAT updates
	i=0
	while [ $i -lt 100 ]; do
		if [ "$(branches_field busy)" = false ] && [ "$(branches_field updates)" -ge "$1" ] 2>/dev/null; then
			return 0
		fi
		sleep 0.1
		i=$((i + 1))
	done
	fail "branch follower not idle after $1 updates ($(status_json "$K" | json_field branches))"
}
start_daemon "$D" "$WORK/dstate" "$K" --branches
wait_branches 1
[ "$(branches_field split_commit)" = "$(git -C "$D" rev-parse uapi/split)" ] && pass || fail "status: split_commit"
[ "$(branches_field headers_commit)" = "$(git -C "$D" rev-parse uapi/headers)" ] && pass || fail "status: headers_commit"
[ "$(branches_field source)" = "$(git -C "$D" rev-parse master)" ] && pass || fail "status: source"
"$UAPICTL" --socket "$K" --json watch >"$WORK/notes" 2>&1 &
WPID=$!
# subscribed once the daemon counts it: a commit made before would not be told
i=0
until [ "$(status_json "$K" | json_field clients.subscribed 2>/dev/null)" -ge 1 ] 2>/dev/null || [ $i -ge 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
h0=$(git -C "$D" rev-parse uapi/headers)
printf '#define DAEMON_EDIT 1\n' >>"$D/include/uapi/linux/mini.h"
R=$D commit "mini: a constant, seen by the daemon"
wait_branches 2
[ "$(git -C "$D" rev-parse uapi/headers^)" = "$h0" ] && pass || fail "the daemon did not add a headers commit"
[ "$(git -C "$D" merge-base master uapi/split)" = "$(git -C "$D" rev-parse master)" ] && pass ||
	fail "the daemon did not regenerate the split branch"
git -C "$D" log -1 --format=%s uapi/headers >"$WORK/subject"
expect_in "$WORK/subject" "mini: a constant, seen by the daemon"
i=0
while ! grep -q '"branches"' "$WORK/notes" && [ $i -lt 30 ]; do sleep 0.1; i=$((i + 1)); done
grep '"branches"' "$WORK/notes" | grep -q "\"headers_commit\":\"$(git -C "$D" rev-parse uapi/headers)\"" &&
	pass || { fail "no changed notification with the new headers commit"; cat "$WORK/notes" >&2; }
kill "$WPID" 2>/dev/null || true
wait "$WPID" 2>/dev/null || true
# a checkout of another branch: HEAD moves, the branches follow it
git -C "$D" checkout -q -b topic
printf '#define DAEMON_TOPIC 1\n' >>"$D/include/uapi/linux/mini.h"
R=$D commit "topic: another constant"
wait_branches 3
[ "$(branches_field source)" = "$(git -C "$D" rev-parse topic)" ] && pass || fail "the follower did not follow HEAD to topic"
[ "$(git -C "$D" merge-base topic uapi/split)" = "$(git -C "$D" rev-parse topic)" ] && pass ||
	fail "split branch not on topic"
# someone else moves the headers branch: left alone, said so in status
git -C "$D" update-ref refs/heads/uapi/headers "$h0"
printf '#define DAEMON_AFTER 1\n' >>"$D/include/uapi/linux/mini.h"
R=$D commit "topic: after the foreign move"
wait_branches 4
[ "$(git -C "$D" rev-parse uapi/headers)" = "$h0" ] && pass || fail "the daemon overwrote a foreign update"
status_json "$K" | json_field branches.refused >"$WORK/refused"
expect_in "$WORK/refused" "was moved by someone else"
"$UAPICTL" --socket "$K" status >"$WORK/st"
expect_in "$WORK/st" "branches: uapi/split"
[ -z "$(git -C "$D" status --porcelain)" ] && pass || fail "the working tree or index changed"
# a stale index.lock (a git that died): the follower says so once, not silently forever (issue 38 F)
: >"$D/.git/index.lock"
touch -d '-10 minutes' "$D/.git/index.lock"
# a commit that needs no index: the follower has an update due, and waits for the lock
git -C "$D" update-ref refs/heads/topic "$(git -C "$D" commit-tree -p topic -m "topic: while locked" "topic^{tree}")"
i=0
while ! grep -q "index.lock is [0-9]* s old: not updated until it goes" "$WORK/daemon.log" && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
expect_in "$WORK/daemon.log" "branches: $D/.git/index.lock is"
rm "$D/.git/index.lock"
wait_branches 5 # the update done once the lock went: retried every 200 ms meanwhile
[ "$(grep -c "index.lock is [0-9]* s old: not updated" "$WORK/daemon.log")" = 1 ] && pass ||
	fail "the stale lock is not said exactly once"
[ "$(branches_field source)" = "$(git -C "$D" rev-parse topic)" ] && pass || fail "the follower did not catch up after the lock"
stop_daemon
git -C "$D" fsck --strict >/dev/null 2>&1 && pass || fail "git fsck after the daemon"
finish
