#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# uapid branch's headers branch on a real kernel history: Debian's
# linux-source-6.1 (what the install needs) committed to a scratch
# repository, then a deterministic synthetic history of
# BRANCH_KERNEL_COMMITS (300) first-parent commits on top of it: uapi
# headers edited (a #define, a comment, a struct member), added and
# deleted; kernel-only headers, C files and Kbuild comments edited;
# `#ifdef __KERNEL__` blocks added to uapi headers; an asm header deleted
# that a Kbuild `wildcard` tests (asm/a.out.h takes linux/a.out.h with it)
# and one that `mandatory-y` then wraps; a `generic-y` line; syscall table
# lines; reverts, empty commits, commits touching several files at once, and
# merges of side branches (tests/kernel/kernel-history.sh makes it, for
# bench/api-log.sh too).  `uapid branch --no-split --since BASE` must make
# exactly one headers commit (trailer `Source-commit: C`) for each commit C
# of the first-parent chain whose installed headers differ from its
# parent's, whose tree is those headers under include/, and none for the
# others.  The oracle is `uapid install` on a checkout of every commit.
# ./test.sh --full runs it (not part of make check; it needs
# linux-source-6.1, whose tree comes from tests/kernel/kernel-lib.sh):  top_srcdir=$PWD UAPID=$PWD/build/src/uapid sh tests/kernel/branch-kernel.sh
# BRANCH_KERNEL_COMMITS=N: another length; BRANCH_KERNEL_KEEP=1: keep the scratch directory.
. "${top_srcdir:-.}/tests/lib/lib.sh"

N=${BRANCH_KERNEL_COMMITS:-300}
if [ -n "${BRANCH_KERNEL_KEEP:-}" ]; then # keep the repository and the logs, to look at
	trap - EXIT
	echo "branch-kernel: keeping $WORK"
fi
. "$top_srcdir/tests/kernel/kernel-lib.sh"
ARCH=x86
L61=$(kernel_tree 6.1) # read only: the repository below is a copy

export GIT_AUTHOR_NAME="A U Thor" GIT_AUTHOR_EMAIL=author@example.org
export GIT_COMMITTER_NAME="C O Mitter" GIT_COMMITTER_EMAIL=committer@example.org
export GIT_CONFIG_NOSYSTEM=1 HOME=$WORK
# no background gc --auto while commits are made and read
export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=gc.auto GIT_CONFIG_VALUE_0=0
export LC_ALL=C
# a copy of uapid: the same binary from start to end, even if the build is redone meanwhile;
# and of uapid-full beside it, which it runs for branch and api-log (src/cmd/uapid.c)
if [ -f "$UAPID" ] && [ "$(head -c 4 "$UAPID" | tr -d '\177')" = ELF ]; then
	cp "$UAPID" "$WORK/uapid"
	if [ -f "${UAPID%/*}/uapid-full" ]; then cp "${UAPID%/*}/uapid-full" "$WORK/uapid-full"; fi
	UAPID=$WORK/uapid
fi

. "${top_srcdir:-.}/tests/kernel/kernel-history.sh"

# --- the base: linux-source-6.1 ------------------------------------------------------------
start=$(now)
kh_base "$L61"

# --- the oracle, alongside the history ------------------------------------------------------
# `uapid install` on a checkout of each commit of the first-parent chain, in
# a worktree of its own (its own index and HEAD: the history's commits do not
# touch them), reusing one output directory (uapid install rewrites what
# changed and removes stale files; the end checks it against a fresh one);
# the tree id of OUT/include from a fresh index each time.  It reads the
# commit ids on a FIFO as the history makes them, and writes "COMMIT TREE".
W=$WORK/worktree O=$WORK/installed
mkdir -p "$WORK/oracle-objects"
# the oracle's trees go to objects of its own (the repository's are read, never written)
oracle_git() {
	GIT_INDEX_FILE=$WORK/oracle.index GIT_OBJECT_DIRECTORY=$WORK/oracle-objects \
		GIT_ALTERNATE_OBJECT_DIRECTORIES=$R/.git/objects git --git-dir="$R/.git" --work-tree="$O" "$@"
}
oracle_tree() { # the tree id of $O/include, from a fresh index
	rm -f "$WORK/oracle.index"
	(cd "$O" && oracle_git add -A -f include) && oracle_git write-tree
}
oracle() { # stdin: commit ids; stdout: "COMMIT TREE" (TREE "failed" when it could not say)
	set +e # reads to the end whatever fails: the history never writes to a closed FIFO
	o0=$(now) ok=true
	g worktree add -q --detach "$W" "$BASE" 2>>"$WORK/oracle.err" || ok=false
	while read -r c; do
		: >"$WORK/install.err"
		if $ok && git -C "$W" checkout -q --detach "$c" 2>>"$WORK/oracle.err" &&
			"$UAPID" install --arch "$ARCH" "$W" "$O" >/dev/null 2>"$WORK/install.err" &&
			tree=$(oracle_tree 2>>"$WORK/oracle.err"); then
			echo "$c $tree"
		else
			{ echo "$c:"; cat "$WORK/install.err"; } >>"$WORK/oracle.err" 2>/dev/null
			echo "$c failed"
		fi
	done
	secs "$o0" "$(now)" >"$WORK/oracle.time"
}
mkfifo "$WORK/chain.fifo"
oracle <"$WORK/chain.fifo" >"$WORK/oracle-trees" &
opid=$!
exec 3>"$WORK/chain.fifo"
# on any way out: the oracle sees the end of the FIFO and stops before the scratch directory goes
[ -n "${BRANCH_KERNEL_KEEP:-}" ] || trap 'exec 3>&-; wait "$opid" 2>/dev/null || :; rm -rf "$WORK"' EXIT

# --- the history ---------------------------------------------------------------------------
kh_made() { echo "$1" >&3; } # to the oracle
t0=$(now)
kh_history "$N"
t1=$(now)
exec 3>&-
g rev-list --first-parent --reverse "$BASE..master" >"$WORK/chain"
g rev-list --reverse "$BASE..master" >"$WORK/all"
nchain=$(wc -l <"$WORK/chain") nall=$(wc -l <"$WORK/all")
echo "history: $nchain first-parent commits ($nall in all) made in $(secs "$t0" "$t1") s"
[ "$nchain" = "$N" ] && pass || fail "the history has $nchain first-parent commits, want $N"

t0=$(now)
wait "$opid" || true
echo "oracle: $nchain checkouts and uapid install runs in $(cat "$WORK/oracle.time") s, alongside the history (then $(secs "$t0" "$(now)") s more)"
cut -d' ' -f1 "$WORK/oracle-trees" >"$WORK/oracle-chain"
if cmp -s "$WORK/chain" "$WORK/oracle-chain" && ! grep -q ' failed$' "$WORK/oracle-trees"; then pass; else
	fail "the oracle did not get through the chain"
	head -30 "$WORK/oracle.err" >&2
fi
# --- uapid branch: the backfill, then a re-run -----------------------------------------------
snap() { { g rev-parse HEAD; g symbolic-ref HEAD; g status --porcelain=v1 | sha1sum; } >"$1"; }
snap "$WORK/snap0"
t0=$(now)
expect_status 0 "$UAPID" branch --no-split --since "$BASE" --arch "$ARCH" "$R"
t1=$(now)
sed 's/^/  | /' "$WORK/out"
cp "$WORK/out" "$WORK/out1"
backfill=$(secs "$t0" "$t1")
expect_in "$WORK/out1" "from $nchain source commits"
headers1=$(g rev-parse -q --verify uapi/headers) || { fail "no uapi/headers branch"; finish; exit 1; }
nheaders=$(g rev-list --count uapi/headers)
echo "backfill: $nchain source commits in $backfill s: $(echo "$nchain $backfill" | awk '{printf "%.1f", $1 / ($2 > 0 ? $2 : 0.001)}') commits/s, $nheaders headers commits"
t0=$(now)
expect_status 0 "$UAPID" branch --no-split --since "$BASE" --arch "$ARCH" "$R"
t1=$(now)
expect_in "$WORK/out" "0 commits added"
[ "$(g rev-parse uapi/headers)" = "$headers1" ] && pass || fail "the re-run moved uapi/headers"
echo "re-run: $(secs "$t0" "$t1") s, $(grep 'uapi/headers' "$WORK/out")"
snap "$WORK/snap1"
expect_same "$WORK/snap0" "$WORK/snap1"
# one line of history
[ "$(g rev-list --count --min-parents=2 uapi/headers)" = 0 ] && pass || fail "merges in uapi/headers"
[ "$(g rev-list --count --max-parents=0 uapi/headers)" = 1 ] && pass || fail "uapi/headers has more than one root"

# --- the check: the headers branch against the oracle ---------------------------------------
t0=$(now)
subject() { sed -n "s/^$1 //p" "$WORK/subjects"; }
g log --format='%H %s' master >"$WORK/subjects"
# the headers branch's commits, oldest first: "source-commit tree"
g log --reverse --format='%(trailers:key=Source-commit,valueonly,separator=%x2C) %T' uapi/headers >"$WORK/branch-list"
: >"$WORK/expected-list"
prev='' changed=0
while read -r c tree; do
	[ "$tree" != failed ] || continue
	hc=$(g log --format=%H --grep="^Source-commit: $c\$" uapi/headers)
	if [ "$tree" != "$prev" ]; then
		changed=$((changed + 1))
		echo "$c $tree" >>"$WORK/expected-list"
		case $hc in
		"") fail "no headers commit for $c, whose installed headers changed ($(subject "$c"))" ;;
		*[!0-9a-f]*) fail "$(echo "$hc" | wc -l) headers commits for $c ($(subject "$c"))" ;;
		*)  got=$(g rev-parse "$hc^{tree}")
		    if [ "$got" = "$tree" ]; then
			    pass
		    else
			    fail "headers commit $hc for $c ($(subject "$c")) has tree $got, uapid install gives $tree"
			    oracle_git diff-tree -r --name-status "$tree" "$got" | head -10 | sed 's/^/  | /' >&2
		    fi ;;
		esac
	else
		[ -z "$hc" ] && pass ||
			fail "headers commit $hc for $c, which changes no installed header ($(subject "$c"))"
	fi
	prev=$tree
done <"$WORK/oracle-trees"
# commits off the chain (the side branches' own) have none
grep -v -x -F -f "$WORK/chain" "$WORK/all" >"$WORK/off-chain" || true
while read -r c; do
	hc=$(g log --format=%H --grep="^Source-commit: $c\$" uapi/headers)
	[ -z "$hc" ] && pass || fail "headers commit $hc for $c, which is off the first-parent chain"
done <"$WORK/off-chain"
# the same, as one list: order, extras, trees
if diff "$WORK/expected-list" "$WORK/branch-list" >"$WORK/diff"; then pass; else
	fail "uapi/headers (+) differs from the oracle (-): source commit and tree, oldest first"
	head -20 "$WORK/diff" >&2
fi
# each headers commit has its source commit's subject, author and committer, dates included
meta='%s|%an <%ae> %ad|%cn <%ce> %cd'
cut -d' ' -f1 "$WORK/expected-list" | g log --no-walk=unsorted --stdin --format="$meta" >"$WORK/meta-want"
g log --reverse --format="$meta" uapi/headers >"$WORK/meta-got"
if diff "$WORK/meta-want" "$WORK/meta-got" >"$WORK/diff"; then pass; else
	fail "headers commits (+) without their source commits' (-) subject, author or committer"
	head -10 "$WORK/diff" >&2
fi
got=$(g rev-list --count uapi/headers)
[ "$got" = "$changed" ] && pass || fail "uapi/headers has $got commits, the oracle $changed"
[ "$N" -lt 50 ] || { [ "$changed" -gt $((N / 4)) ] && [ "$changed" -lt $((N * 9 / 10)) ]; } && pass ||
	fail "the history should mix changes and no-changes ($changed of $N change the installed headers)"
# the reused output directory is what a fresh install gives
"$UAPID" install --arch "$ARCH" "$W" "$WORK/fresh" >/dev/null 2>&1 || fail "uapid install on the head"
diff -r "$O/include" "$WORK/fresh/include" >"$WORK/diff" 2>&1 && pass ||
	{ fail "the oracle's reused output differs from a fresh install"; head "$WORK/diff" >&2; }
[ "$(g rev-parse 'uapi/headers^{tree}')" = "$prev" ] && pass || fail "the headers branch's tip is not the head's install"
g worktree remove --force "$W"
g fsck --strict --no-progress >"$WORK/fsck" 2>&1 && pass || { fail "git fsck"; head -20 "$WORK/fsck" >&2; }
expect_not_in "$WORK/fsck" "error"
echo "check: $(secs "$t0" "$(now)") s"

# --- api-log on the same history: every planted symbol, at its commit -----------------------
# Each `#define UAPID_TEST_*` and struct member the history planted that the
# headers branch shows installed at its commit (not one planted inside
# `#ifdef __KERNEL__`, or in a header deleted in the same commit) must have
# that commit as the first of its history, "added" (or "present", in the
# headers branch's first commit: where the history starts); the kernel-only ones
# (UAPID_KERNEL_ONLY_*) are not found.  The index is built from the headers
# branch.
t0=$(now)
python3 - "$WORK" "$R" "$ARCH" "$UAPID" "$N" >"$WORK/apilog.check" 2>&1 <<'EOF' && pass || fail "api-log on the kernel history"
import json, re, subprocess, sys
work, repo, arch, uapid, n = sys.argv[1:]
git = lambda *a: subprocess.run(["git", "-C", repo, *a], capture_output=True, text=True).stdout
chain = open(f"{work}/chain").read().split()
heads = {}  # source commit -> its headers commit
for l in git("log", "--format=%H %(trailers:key=Source-commit,valueonly)", "uapi/headers").splitlines():
    h, _, c = l.partition(" ")
    if c.strip():
        heads[c.strip()] = h
# the history api-log reads starts at the headers branch's first commit: what it holds is "present"
first = git("log", "--max-parents=0", "--format=%(trailers:key=Source-commit,valueonly)",
            "uapi/headers").strip()
def installed(path):
    for p in ("include/uapi/", "arch/x86/include/uapi/"):
        if path.startswith(p):
            return path[len(p):]
    return None
ask, want, skipped = [], {}, 0
for line in open(f"{work}/edits"):
    i, what = line.rstrip("\n").split(": ", 1)
    c = chain[int(i) - 1]
    planted = [(m[0], m[1], "#define " + m[0] + " ")
               for m in re.findall(r"define (UAPID_TEST_\w+) in ([\w./-]+\.h)", what)]
    for m, f in re.findall(r"member (uapid_member_\w+) added at the end of the first struct in ([\w./-]+\.h)", what):
        struct = None
        for t in git("show", f"{c}:{f}").splitlines():
            s = re.match(r"struct (\w+) \{$", t)
            struct = s.group(1) if s else struct
            if t == f"\t__u32 {m};":
                break
        planted.append((f"struct {struct}.{m}", f, f"\t__u32 {m};"))
    for sym, f, text in planted:
        inst = installed(f)
        h = heads.get(c)
        if f"deleted {f}" in what or inst is None or h is None or \
                text not in git("show", f"{h}:include/{inst}"):
            skipped += 1
            continue
        ask.append(sym)
        want[sym] = c
r = subprocess.run([uapid, "api-log", "--json", "--quiet", "--arch", arch, repo, *ask],
                   capture_output=True, text=True)
answer = json.loads(r.stdout)
bad = []
for a in answer["symbols"]:
    h = a["history"]
    c = want[a["symbol"]]
    if not a["found"] or not h or h[0]["what"] != ("present" if c == first else "added") or \
            h[0]["commit"] != c:
        bad.append(f"{a['symbol']}: planted in {c[:12]}, api-log says {[(e['commit'][:12], e['what']) for e in h]}")
print(f"{len(ask)} planted symbols asked ({skipped} not installed at their commit), "
      f"{len(ask) - len(bad)} at their commit; index: {answer['index']['steps']} steps")
for b in bad[:20]:
    print("  |", b)
sys.exit(1 if bad or len(ask) < max(1, int(n) // 10) else 0)
EOF
cat "$WORK/apilog.check"
# a kernel-only define is no userspace API
k=$(grep -oh 'UAPID_KERNEL_ONLY_[0-9_]*' "$R/include/linux/"*.h "$R/arch/x86/include/asm/"*.h 2>/dev/null | head -1)
if [ -n "$k" ]; then
	expect_status 1 "$UAPID" api-log --arch "$ARCH" "$R" "$k"
	expect_in "$WORK/out" "$k: not in the userspace API in this range"
	echo "api-log of the kernel-only $k: $(tail -1 "$WORK/out")"
fi
echo "api-log: $(secs "$t0" "$(now)") s"

echo "source commits: $nchain on the first-parent chain, $nall in all (master $(g rev-parse master))"
echo "headers commits: $nheaders, uapi/headers $(g rev-parse uapi/headers) (the oracle: $changed of $nchain change the installed headers)"
echo "backfill: $backfill s, $(echo "$nchain $backfill" | awk '{printf "%.1f", $1 / ($2 > 0 ? $2 : 0.001)}') commits/s"
echo "oracle: $(cat "$WORK/oracle.time") s ($nchain checkouts and uapid install runs, alongside the history)"
echo "total: $(secs "$start" "$(now)") s$([ -r /proc/loadavg ] && echo ", load average $(cut -d' ' -f1-3 /proc/loadavg)")"
finish
