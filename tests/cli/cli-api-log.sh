#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# uapid api-log on a real git repository built here: a tagged history of
# the mini tree with symbols planted at known commits (added; a value, a
# member, a typedef changed; a member added; moved to a header the old one
# includes and to one it does not; removed and added again; added on a side
# branch that is merged; an ioctl whose argument struct changed), with
# release candidates, two tags on one commit, a tag of a stable branch off
# the first-parent chain and tags of another name.  Every change must be
# found, on the right commit, attributed to the earliest release (in
# version order) whose tag contains it, with the verdict `uapid api-diff`
# gives for that commit against its first parent.  Both ways in: the
# headers branch made by `uapid branch`, and api-log's own history where
# there is none; the index is reused, grows by a commit, follows an amend;
# --since, --until, --tags, --json, exit statuses and bad input.  Then the
# daemon (uapid watch --branches): api.log from the index it keeps current
# as the branch grows, `uapictl api --log`, and the editor bridge's hover.
. "${top_srcdir:-.}/tests/lib/lib.sh"
. "${top_srcdir:-.}/tests/lib/daemon-lib.sh"

export GIT_AUTHOR_NAME="A U Thor" GIT_AUTHOR_EMAIL=author@example.org
export GIT_COMMITTER_NAME="C O Mitter" GIT_COMMITTER_EMAIL=committer@example.org
export GIT_CONFIG_NOSYSTEM=1 HOME=$WORK
export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=gc.auto GIT_CONFIG_VALUE_0=0
R=$WORK/repo
P=include/uapi/linux/plant.h
n=0
g() { git -C "$R" "$@"; }
dated() { # dated GIT-ARGS...: a git command that commits, at the date of step $n
	n=$((n + 1))
	GIT_AUTHOR_DATE="@$((1700000000 + n * 86400)) +0100" \
		GIT_COMMITTER_DATE="@$((1700000000 + n * 86400)) +0100" g "$@"
}
commit() { g add -A -f && dated commit -q -m "$1"; }
tag() { g tag -a -m "$1" "$1" "${2:-HEAD}"; }
sub() { # sub FILE SED-EXPRESSION: edits a file of the repository
	sed -i "$2" "$R/$1"
}

cp -R "$top_srcdir/tests/trees/mini" "$R"
chmod -R u+w "$R"
cat >"$R/$P" <<'EOF'
/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
#ifndef _UAPI_LINUX_PLANT_H
#define _UAPI_LINUX_PLANT_H

#include <linux/types.h>

#define PLANT_FLAGS 4
#define PLANT_MOVER 7
#define PLANT_AWAY 8
#define PLANT_GONE 1

typedef __u32 plant_id_t;

struct plant_req {
	__u32 flags;
	__u64 data;
};

struct plant_ops {
	__u32 a;
};

enum plant_mode { PLANT_A, PLANT_B };

#define PLANT_IOC _IOW('P', 1, struct plant_req)

#endif /* _UAPI_LINUX_PLANT_H */
EOF
g init -q -b master
commit "base"
BASE=$(g rev-parse HEAD)
tag v1.0
sub "$P" 's|^#endif /\* _UAPI_LINUX_PLANT_H \*/|#define PLANT_NEW 1\n\n&|'
commit "plant: PLANT_NEW"
C1=$(g rev-parse HEAD)
tag v1.1-rc1
sub "$P" 's|PLANT_FLAGS 4|PLANT_FLAGS 5|'
commit "plant: PLANT_FLAGS is 5"
C2=$(g rev-parse HEAD)
tag v1.1
sub "$P" 's|^#include <linux/types.h>|/* plant: a comment only */\n&|'
commit "plant: a comment (the installed text changes, the API does not)"
C3=$(g rev-parse HEAD)
printf '# a build change\n' >>"$R/Makefile"
commit "build: nothing installed changes"
sub "$P" 's|\t__u64 data;|\t__aligned_u64 data;|'
commit "plant: plant_req.data is __aligned_u64"
C4=$(g rev-parse HEAD)
sub "$P" 's|\t__u32 a;|\t__u32 a;\n\t__u32 b;|'
commit "plant: plant_ops.b"
C5=$(g rev-parse HEAD)
tag v1.2-rc1
g tag release-a
sub "$P" 's|typedef __u32 plant_id_t;|typedef __u64 plant_id_t;|'
commit "plant: plant_id_t is 64 bits"
C6=$(g rev-parse HEAD)
# PLANT_MOVER to a header plant.h includes (programs still see it), PLANT_AWAY to one it does not
printf '#ifndef _UAPI_LINUX_PLANT_MORE_H\n#define _UAPI_LINUX_PLANT_MORE_H\n\n#define PLANT_MOVER 7\n\n#endif\n' \
	>"$R/include/uapi/linux/plant_more.h"
printf '#ifndef _UAPI_LINUX_PLANT_AWAY_H\n#define _UAPI_LINUX_PLANT_AWAY_H\n\n#define PLANT_AWAY 8\n\n#endif\n' \
	>"$R/include/uapi/linux/plant_away.h"
sub "$P" '/^#define PLANT_MOVER 7$/d; /^#define PLANT_AWAY 8$/d'
sub "$P" 's|^#include <linux/types.h>|&\n#include <linux/plant_more.h>|'
commit "plant: PLANT_MOVER and PLANT_AWAY move"
C7=$(g rev-parse HEAD)
sub "$P" '/^#define PLANT_GONE 1$/d'
commit "plant: PLANT_GONE goes"
C8=$(g rev-parse HEAD)
tag v1.2
# a side branch, merged: on the first-parent chain only the merge
g checkout -q -b side
sub "$P" 's|^#define PLANT_NEW 1|&\n#define PLANT_SIDE 1|'
commit "side: PLANT_SIDE"
sub "$P" 's|PLANT_SIDE 1|PLANT_SIDE 2|'
commit "side: PLANT_SIDE is 2"
g checkout -q master
dated merge -q --no-ff --no-edit -m "merge side" side
M9=$(g rev-parse HEAD)
sub "$P" 's|^#define PLANT_NEW 1|#define PLANT_GONE 1\n&|'
commit "plant: PLANT_GONE is back"
C10=$(g rev-parse HEAD)
tag v1.3
tag v1.3-rc1
# a stable branch off v1.1, tagged: off the first-parent chain
g checkout -q -b stable v1.1
printf '# stable\n' >>"$R/Makefile"
commit "stable: a fix"
tag v1.1.1
g checkout -q master
[ "$(g rev-list --first-parent --count master)" = 12 ] && pass || fail "the history has $(g rev-list --first-parent --count master) first-parent commits"

# verdict REV SYMBOL: the most severe verdict `uapid api-diff` gives SYMBOL
# from REV's first parent to REV: api-log must give the same, whatever the
# rules that decide it (this file names no verdict of its own)
verdict() {
	"$UAPID" api-diff --json --arch x86 "$R:$1^1" "$R:$1" >"$WORK/verdict.json" || true
	python3 - "$WORK/verdict.json" "$2" <<'EOF'
import json, sys
rank = {"compatible": 0, "review": 1, "breaking": 2}
v = [x["verdict"] for x in json.load(open(sys.argv[1]))["changes"]
     if (x["symbol"] or "").split(" [if ")[0] == sys.argv[2]]
print(max(v, key=lambda x: rank.get(x, -1)) if v else "none")
EOF
}
V_FLAGS=$(verdict "$C2" PLANT_FLAGS) # 4 -> 5
V_ID=$(verdict "$C6" plant_id_t)     # __u32 -> __u64

# --- api-log with no headers branch: a history of its own ------------------------------
all="PLANT_FLAGS PLANT_NEW PLANT_GONE PLANT_SIDE PLANT_MOVER PLANT_AWAY plant_id_t PLANT_IOC"
all="$all PLANT_A"
expect_status 0 "$UAPID" api-log --arch x86 "$R" PLANT_FLAGS
cat "$WORK/out"
expect_in "$WORK/out" "PLANT_FLAGS: present from the start of the history (v1.0); changed in v1.1 ($V_FLAGS)"
g rev-parse -q --verify refs/uapid/api-log/x86 >/dev/null && pass || fail "no refs/uapid/api-log/x86"
g rev-parse -q --verify uapi/headers >/dev/null && fail "api-log made uapi/headers" || pass
[ "$(g rev-parse HEAD)" = "$C10" ] && pass || fail "HEAD moved"
[ -z "$(g status --porcelain)" ] && pass || fail "the working tree changed"
# every symbol, as JSON
# shellcheck disable=SC2086
expect_status 0 "$UAPID" api-log --json --arch x86 "$R" $all "struct plant_req" "struct plant_req.data" \
	"struct plant_ops" "struct plant_ops.b" "enum plant_mode" linux/plant.h linux/plant_more.h
cp "$WORK/out" "$WORK/own.json"
"$UAPID" api-log --arch x86 "$R" PLANT_GONE PLANT_AWAY 'struct plant_ops.b' linux/plant_more.h
# api-diff's verdict for each commit against its first parent
for c in $C1 $C2 $C3 $C4 $C5 $C6 $C7 $C8 $M9 $C10; do
	"$UAPID" api-diff --json --arch x86 "$R:$c^1" "$R:$c" >"$WORK/diff-$c.json" || true
done
# the installed plant.h of C10, for line numbers
"$UAPID" install --arch x86 "$R" "$WORK/inst" >/dev/null 2>&1
check_history() { # check_history JSON: every planted change, its release, commit, verdict
	python3 - "$1" "$WORK" "$WORK/inst/include/linux/plant.h" <<EOF && pass || fail "api-log's history of the planted symbols ($1)"
import json, sys
answer = json.load(open(sys.argv[1]))
work, plant = sys.argv[2], open(sys.argv[3]).read().split("\n")
c = dict(BASE="$BASE", C1="$C1", C2="$C2", C3="$C3", C4="$C4", C5="$C5", C6="$C6", C7="$C7",
         C8="$C8", M9="$M9", C10="$C10")
name = {v: k for k, v in c.items()}
rank = {"compatible": 0, "review": 1, "breaking": 2}
bad = []

def api_diff_verdict(commit, symbol, headers):
    """The most severe verdict api-diff gives the symbol (or its header, added or removed whole)."""
    d = json.load(open(f"{work}/diff-{commit}.json"))
    v = [x["verdict"] for x in d["changes"]
         if (x["symbol"] or "").split(" [if ")[0] == symbol
         or (x["symbol"] is None and x["header"] in headers)]
    return max(v, key=lambda x: rank.get(x, -1)) if v else None

# symbol -> [(release, commit, what, change, header)], oldest first
want = {
    "PLANT_FLAGS": [("v1.0", "BASE", "present", "present", "linux/plant.h"),
                    ("v1.1", "C2", "changed", "value 4 -> 5", "linux/plant.h")],
    "PLANT_NEW": [("v1.1-rc1", "C1", "added", "added", "linux/plant.h")],
    "PLANT_GONE": [("v1.0", "BASE", "present", "present", "linux/plant.h"),
                   ("v1.2", "C8", "removed", "removed", "linux/plant.h"),
                   ("v1.3-rc1", "C10", "added", "added", "linux/plant.h")],
    "PLANT_SIDE": [("v1.3-rc1", "M9", "added", "added", "linux/plant.h")],
    "PLANT_MOVER": [("v1.0", "BASE", "present", "present", "linux/plant.h"),
                    ("v1.2", "C7", "moved", "moved to linux/plant_more.h", "linux/plant.h")],
    "PLANT_AWAY": [("v1.0", "BASE", "present", "present", "linux/plant.h"),
                   ("v1.2", "C7", "moved", "moved to linux/plant_away.h", "linux/plant.h")],
    "plant_id_t": [("v1.0", "BASE", "present", "present", "linux/plant.h"),
                   ("v1.2", "C6", "changed", "'__u32 plant_id_t' -> '__u64 plant_id_t'", "linux/plant.h")],
    # its request number holds sizeof(struct plant_req), whose member was retyped
    "PLANT_IOC": [("v1.0", "BASE", "present", "present", "linux/plant.h"),
                  ("v1.2-rc1", "C4", "changed", None, "linux/plant.h")],
    "PLANT_A": [("v1.0", "BASE", "present", "present", "linux/plant.h")],
    "struct plant_req": [("v1.0", "BASE", "present", "present", "linux/plant.h"),
                         ("v1.2-rc1", "C4", "changed", "member data retyped __u64 -> __aligned_u64", "linux/plant.h")],
    "struct plant_req.data": [("v1.0", "BASE", "present", "present", "linux/plant.h"),
                              ("v1.2-rc1", "C4", "changed", "member data retyped __u64 -> __aligned_u64", "linux/plant.h")],
    "struct plant_ops": [("v1.0", "BASE", "present", "present", "linux/plant.h"),
                         ("v1.2-rc1", "C5", "changed", "member b added at the end", "linux/plant.h")],
    "struct plant_ops.b": [("v1.2-rc1", "C5", "added", "member b added at the end", "linux/plant.h")],
    "enum plant_mode": [("v1.0", "BASE", "present", "present", "linux/plant.h")],
    "linux/plant_more.h": [("v1.2", "C7", "added", "header added", "linux/plant_more.h")],
}
summaries = {
    "PLANT_FLAGS": "present from the start of the history (v1.0); changed in v1.1 ($V_FLAGS)",
    "PLANT_NEW": "first in v1.1-rc1",
    "PLANT_GONE": "present from the start of the history (v1.0); removed in v1.2; added again in v1.3-rc1",
    "PLANT_SIDE": "first in v1.3-rc1",
    "struct plant_ops.b": "first in v1.2-rc1",
}
got = {a["symbol"]: a for a in answer["symbols"]}
for sym, lines in want.items():
    a = got.get(sym)
    if a is None:
        bad.append(f"{sym}: not answered")
        continue
    if not a["found"]:
        bad.append(f"{sym}: not found")
    h = a["history"]
    have = [(e["release"], name.get(e["commit"], e["commit"]), e["what"], e["change"], e["header"]) for e in h]
    if [x[:3] + ((x[3],) if l[3] else ()) + (x[4],) for x, l in zip(have, lines)] != \
            [l[:3] + ((l[3],) if l[3] else ()) + (l[4],) for l in lines] or len(have) != len(lines):
        bad.append(f"{sym}: history {have}, want {lines}")
        continue
    for e, l in zip(h, lines):
        if e["what"] == "present":
            if e["verdict"] is not None:
                bad.append(f"{sym}: a verdict for present")
            continue
        if "." in sym:
            continue  # a member's verdict: below
        headers = {e["header"]} | ({e["moved"]["to"], e["moved"]["from"]} if "moved" in e else set())
        s = None if e["kind"] == "header" else e["symbol"].split(" [if ")[0]
        want_v = api_diff_verdict(e["commit"], s, headers)
        if e["verdict"] != want_v:
            bad.append(f"{sym} at {name[e['commit']]}: verdict {e['verdict']}, api-diff says {want_v}")
    if sym in summaries and a["summary"] != summaries[sym]:
        bad.append(f"{sym}: summary '{a['summary']}', want '{summaries[sym]}'")
# header:line points at the symbol in the installed header
e = got["PLANT_GONE"]["history"][-1]
if not plant[e["line"] - 1].startswith("#define PLANT_GONE"):
    bad.append(f"PLANT_GONE line {e['line']}: {plant[e['line'] - 1]!r}")
# a member's own verdict is api-diff's for that member's change
for sym, commit in (("struct plant_req.data", "C4"), ("struct plant_ops.b", "C5")):
    e = got[sym]["history"][-1]
    d = json.load(open(f"{work}/diff-{c[commit]}.json"))
    member = sym.split(".")[1]
    v = [x["verdict"] for x in d["changes"] if x["symbol"] == sym.split(".")[0] and f" {member}" in x["reason"]]
    if not v or e["verdict"] != max(v, key=lambda x: rank.get(x, -1)):
        bad.append(f"{sym}: verdict {e['verdict']}, api-diff's for the member {v}")
# the comment-only commit and the build commit changed no symbol
for a in answer["symbols"]:
    for e in a["history"]:
        if name.get(e["commit"]) in ("C3",):
            bad.append(f"{a['symbol']}: a line for the comment-only commit")
if answer["index"]["steps"] < 10:
    bad.append(f"index: {answer['index']}")
for b in bad:
    print("  |", b, file=sys.stderr)
sys.exit(1 if bad else 0)
EOF
}
check_history "$WORK/own.json"

# the text form: one aligned line per change, then the summary
expect_status 0 "$UAPID" api-log --arch x86 "$R" PLANT_GONE
sed 's/^/  | /' "$WORK/out"
expect_in "$WORK/out" "v1.0      2023-11-15  $(echo "$BASE" | cut -c1-12)  linux/plant.h:"
expect_in "$WORK/out" "removed"
expect_in "$WORK/out" "PLANT_GONE: present from the start of the history (v1.0); removed in v1.2; added again in v1.3-rc1"
[ "$(wc -l <"$WORK/out")" = 4 ] && pass || fail "PLANT_GONE: 3 lines and a summary"

# --- the index is reused, grows, follows an amend ---------------------------------------
db=$R/.git/uapid/branches.db
counts() { python3 -c 'import sqlite3,sys; d=sqlite3.connect(sys.argv[1])
print(*[d.execute(q).fetchone()[0] for q in ("select count(*) from api_log_steps", "select count(*) from api_log_changes", "select coalesce(max(rowid),0) from api_log_changes")])' "$db"; }
c_before=$(counts)
expect_status 0 "$UAPID" api-log --arch x86 "$R" PLANT_FLAGS
[ "$(counts)" = "$c_before" ] && pass || fail "a second question changed the index ($c_before -> $(counts))"
sub "$P" 's|PLANT_FLAGS 5|PLANT_FLAGS 6|'
sub "$P" 's|^#define PLANT_NEW 1|&\n#define PLANT_LATE 1|'
commit "plant: PLANT_FLAGS is 6, PLANT_LATE"
C11=$(g rev-parse HEAD)
V_FLAGS11=$(verdict "$C11" PLANT_FLAGS) # 5 -> 6
expect_status 0 "$UAPID" api-log --arch x86 "$R" PLANT_FLAGS
expect_in "$WORK/out" "unreleased  "
line=$(grep -n '^#define PLANT_FLAGS' "$WORK/inst/include/linux/plant.h" | cut -d: -f1)
expect_in "$WORK/out" "$(echo "$C11" | cut -c1-12)  linux/plant.h:$line  $V_FLAGS11  value 5 -> 6"
expect_in "$WORK/out" "PLANT_FLAGS: present from the start of the history (v1.0); changed in v1.1 ($V_FLAGS), unreleased ($V_FLAGS11)"
expect_status 0 "$UAPID" api-log --arch x86 "$R" PLANT_LATE
expect_in "$WORK/out" "PLANT_LATE: first, not yet released"
set -- $c_before
set -- $(counts) "$1" "$3"
[ "$1" = $(($4 + 1)) ] && pass || fail "one commit more: steps $4 -> $1"
python3 -c 'import sqlite3,sys; d=sqlite3.connect(sys.argv[1])
old = d.execute("select count(*) from api_log_changes where rowid <= ?", (int(sys.argv[2]),)).fetchone()[0]
sys.exit(0 if old > 0 and d.execute("select count(*) from api_log_changes where step < (select max(step) from api_log_steps)").fetchone()[0] == old else 1)' "$db" "$5" &&
	pass || fail "the index grew by rewriting what it had"
# an amend: the change it replaces is gone from the history
sub "$P" 's|PLANT_FLAGS 6|PLANT_FLAGS 7|'
g add -A && GIT_COMMITTER_DATE="@1800000000 +0000" g commit -q --amend --no-edit
V_FLAGS11=$(verdict HEAD PLANT_FLAGS) # 5 -> 7
expect_status 0 "$UAPID" api-log --arch x86 "$R" PLANT_FLAGS
expect_in "$WORK/out" "value 5 -> 7"
expect_not_in "$WORK/out" "value 5 -> 6"
expect_not_in "$WORK/out" "$(echo "$C11" | cut -c1-12)"
[ "$(counts | cut -d' ' -f1)" = "$1" ] && pass || fail "after an amend: $(counts | cut -d' ' -f1) steps, want $1"

# --- the range and the releases ------------------------------------------------------------
expect_status 0 "$UAPID" api-log --arch x86 --since v1.1 "$R" PLANT_FLAGS
expect_not_in "$WORK/out" "value 4 -> 5"
expect_in "$WORK/out" "PLANT_FLAGS: present at v1.1; changed in unreleased ($V_FLAGS11)"
expect_status 0 "$UAPID" api-log --arch x86 --until v1.1-rc1 "$R" PLANT_FLAGS
expect_in "$WORK/out" "PLANT_FLAGS: present from the start of the history (v1.0)"
[ "$(wc -l <"$WORK/out")" = 2 ] && pass || fail "--until v1.1-rc1: the present line alone"
expect_status 1 "$UAPID" api-log --arch x86 --until v1.0 "$R" PLANT_NEW
expect_in "$WORK/out" "PLANT_NEW: not in the userspace API in this range"
expect_status 1 "$UAPID" api-log --arch x86 --since v1.2 --until v1.2 "$R" PLANT_GONE
expect_status 0 "$UAPID" api-log --arch x86 --since "$C1" --until "$C8" "$R" PLANT_GONE
expect_in "$WORK/out" "PLANT_GONE: present at $C1; removed in v1.2"
# the stable branch's tag contains v1.1 and what came before it, by its merge base
expect_status 0 "$UAPID" api-log --arch x86 --tags 'v1.1.*' "$R" PLANT_FLAGS PLANT_NEW plant_id_t
expect_in "$WORK/out" "PLANT_FLAGS: present from the start of the history (v1.1.1); changed in v1.1.1 ($V_FLAGS)"
expect_in "$WORK/out" "PLANT_NEW: first in v1.1.1"
expect_in "$WORK/out" "plant_id_t: present from the start of the history (v1.1.1); changed in unreleased ($V_ID)"
expect_status 0 "$UAPID" api-log --arch x86 --tags 'release-*' "$R" plant_id_t 'struct plant_ops.b'
expect_in "$WORK/out" "plant_id_t: present from the start of the history (release-a); changed in unreleased ($V_ID)"
expect_in "$WORK/out" "struct plant_ops.b: first in release-a"
# an --until off the chain: what its merge base holds
expect_status 0 "$UAPID" api-log --arch x86 --until v1.1.1 "$R" PLANT_FLAGS
expect_in "$WORK/out" "PLANT_FLAGS: present from the start of the history (v1.0); changed in v1.1 ($V_FLAGS)"

# --- the same history from a headers branch `uapid branch` made ---------------------------
git clone -q --no-local "$R" "$WORK/clone"
git -C "$WORK/clone" reset -q --hard "$C10"
expect_status 0 "$UAPID" branch --no-split --arch x86 --source "$BASE" "$WORK/clone"
expect_status 0 "$UAPID" branch --no-split --arch x86 "$WORK/clone"
git -C "$WORK/clone" tag -a -m v1.0 v1.0 "$BASE" 2>/dev/null || true
# shellcheck disable=SC2086
expect_status 0 "$UAPID" api-log --json --arch x86 "$WORK/clone" $all "struct plant_req" \
	"struct plant_req.data" "struct plant_ops" "struct plant_ops.b" "enum plant_mode" \
	linux/plant.h linux/plant_more.h
cp "$WORK/out" "$WORK/branch.json"
check_history "$WORK/branch.json"
python3 - "$WORK/own.json" "$WORK/branch.json" <<'EOF' && pass || fail "the headers branch and api-log's own history give different answers"
import json, sys
def strip(path):
    a = json.load(open(path))
    for s in a["symbols"]:
        for e in s["history"]:
            e.pop("headers_commit")
        for k in ("first", "last_change"):
            if s[k]:
                s[k].pop("headers_commit")
    return a["symbols"]
sys.exit(0 if strip(sys.argv[1]) == strip(sys.argv[2]) else 1)
EOF
expect_in "$WORK/branch.json" '"headers_branch": "refs/heads/uapi/headers"'
git -C "$WORK/clone" rev-parse -q --verify refs/uapid/api-log/x86 >/dev/null && fail "api-log made its own history beside uapi/headers" || pass

# --- the daemon: api.log, kept current as the headers branch grows --------------------------
S=$WORK/state K=$WORK/d.sock
expect_status 0 "$UAPID" branch --no-split --arch x86 --source "$BASE" "$R"
start_daemon "$R" "$S" "$K" --branches
# api_log_steps N: until the follower is idle with N steps in its index
api_log_steps() {
	i=0
	while [ $i -lt 300 ]; do
		st=$(status_json "$K") || st=
		if [ -n "$st" ] && [ "$(echo "$st" | json_field branches.busy)" = false ] &&
			[ "$(echo "$st" | json_field branches.api_log.steps)" -ge "$1" ]; then
			return 0
		fi
		sleep 0.1
		i=$((i + 1))
	done
	fail "the daemon's api-log index did not reach $1 steps: $(status_json "$K")"
}
api_log_steps 12
# shellcheck disable=SC2086
expect_status 0 "$UAPICTL" --socket "$K" --json api --log $all "struct plant_req" "struct plant_ops.b"
cp "$WORK/out" "$WORK/daemon.json"
# shellcheck disable=SC2086
expect_status 0 "$UAPID" api-log --json --arch x86 --headers uapi/headers "$R" $all "struct plant_req" \
	"struct plant_ops.b"
python3 -c 'import json,sys; a,b=(json.load(open(p)) for p in sys.argv[1:]); sys.exit(0 if a == b else 1)' \
	"$WORK/daemon.json" "$WORK/out" && pass || fail "api.log and uapid api-log differ"
expect_status 0 "$UAPICTL" --socket "$K" api --log PLANT_GONE
expect_in "$WORK/out" "PLANT_GONE: present from the start of the history (v1.0); removed in v1.2; added again in v1.3-rc1"
expect_in "$WORK/out" "$(echo "$C8" | cut -c1-12)  linux/plant.h:"
expect_status 1 "$UAPICTL" --socket "$K" api --log NO_SUCH_SYMBOL
expect_in "$WORK/out" "NO_SUCH_SYMBOL: not in the userspace API in this range"
expect_status 0 "$UAPICTL" --socket "$K" api --log --since v1.2 --tags 'v1.*' PLANT_GONE
expect_in "$WORK/out" "PLANT_GONE: added again in v1.3-rc1"
expect_status 1 "$UAPICTL" --socket "$K" call api.log '{"symbols": []}'
expect_in "$WORK/err" "-32602"
expect_in "$WORK/err" '"symbol" must be a string (or "symbols" an array of 1 to 64)'
expect_status 1 "$UAPICTL" --socket "$K" call api.log '{"symbol": "struct 9"}'
expect_in "$WORK/err" "-32602"
expect_in "$WORK/err" "not a symbol"
expect_status 1 "$UAPICTL" --socket "$K" call api.log '{"symbol": "PLANT_GONE", "since": "no-such-rev"}'
expect_in "$WORK/err" "no-such-rev"
# a commit while it runs: the branch grows, and the index with it
sub "$P" 's|^#define PLANT_NEW 1|&\n#define PLANT_LIVE 1|'
commit "plant: PLANT_LIVE, while the daemon runs"
api_log_steps 13
expect_status 0 "$UAPICTL" --socket "$K" api --log PLANT_LIVE
expect_in "$WORK/out" "PLANT_LIVE: first, not yet released"
expect_in "$WORK/out" "$(g rev-parse HEAD | cut -c1-12)"

# --- the editor: hover on a symbol of a uapi header tells its history ------------------------
line_of() { grep -n "$1" "$R/$P" | head -1 | cut -d: -f1; }
python3 - "$UAPICTL" "$R/$P" "$(($(line_of '^#define PLANT_FLAGS') - 1))" \
	"$(($(line_of '^#define PLANT_NEW') - 1))" "$(($(line_of '^struct plant_ops') - 1))" \
	"$(echo "$BASE" | cut -c1-8)" "$(echo "$C1" | cut -c1-8)" "$V_FLAGS11" >"$WORK/hover.out" 2>&1 <<'EOF' &&
import json, os, subprocess, sys
uapictl, path, l_flags, l_new, l_ops, base, c1, v_flags = sys.argv[1:]
p = subprocess.Popen([uapictl, "--timeout", "10", "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
def send(m):
    m["jsonrpc"] = "2.0"
    b = json.dumps(m).encode()
    p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(b) + b)
    p.stdin.flush()
def read():
    h = b""
    while not h.endswith(b"\r\n\r\n"):
        c = p.stdout.read(1)
        assert c, "the bridge closed its output"
        h += c
    n = [l for l in h.split(b"\r\n") if l.lower().startswith(b"content-length")][0]
    return json.loads(p.stdout.read(int(n.split(b":")[1])))
def request(i, method, params):
    send({"id": i, "method": method, "params": params})
    while True:
        m = read()
        if m.get("id") == i:
            return m["result"]
uri = "file://" + path
request(1, "initialize", {"processId": os.getpid(), "capabilities": {}})
send({"method": "initialized", "params": {}})
send({"method": "textDocument/didOpen", "params": {"textDocument": {
    "uri": uri, "languageId": "c", "version": 1, "text": open(path).read()}}})
def hover(line, char):
    r = request(2, "textDocument/hover", {"textDocument": {"uri": uri},
                                         "position": {"line": int(line), "character": char}})
    return r["contents"]["value"] if r else ""
bad = []
h = hover(l_flags, 10)  # on PLANT_FLAGS
if "there since the history's start, v1.0 (commit %s)" % base not in h or \
        "; last changed in commit" not in h or "not yet released (%s)" % v_flags not in h:
    bad.append("PLANT_FLAGS: %r" % h)
h = hover(l_new, 9)  # on PLANT_NEW
if "since v1.1-rc1 (commit %s)" % c1 not in h:
    bad.append("PLANT_NEW: %r" % h)
h = hover(l_ops, 9)  # on plant_ops, after "struct "
if "v1.0" not in h or "last changed in v1.2-rc1" not in h:  # its verdict is api-diff's
    bad.append("struct plant_ops: %r" % h)
h = hover(l_ops, 0)  # on "struct": the word is the tag, no symbol
if "userspace API" in h:
    bad.append("on 'struct': %r" % h)
request(3, "shutdown", None)
send({"method": "exit"})
p.wait(10)
print("\n".join(bad))
sys.exit(1 if bad else 0)
EOF
	pass || { fail "hover on a uapi header's symbols"; cat "$WORK/hover.out" >&2; }
stop_daemon

# --- exit statuses and bad input -----------------------------------------------------------
expect_status 1 "$UAPID" api-log --arch x86 "$R" NO_SUCH_SYMBOL
expect_in "$WORK/out" "NO_SUCH_SYMBOL: not in the userspace API in this range"
expect_status 1 "$UAPID" api-log --arch x86 "$R" PLANT_FLAGS NO_SUCH_SYMBOL
expect_status 1 "$UAPID" api-log --json --arch x86 "$R" NO_SUCH_SYMBOL
python3 -c 'import json,sys; a=json.load(open(sys.argv[1]))["symbols"][0]; sys.exit(0 if a["found"] is False and a["history"] == [] else 1)' \
	"$WORK/out" && pass || fail "--json: not found"
expect_status 2 "$UAPID" api-log --arch x86 "$R" "struct 9bad"
expect_in "$WORK/err" "not a symbol"
expect_status 2 "$UAPID" api-log --arch x86 "$R" "PLANT_FLAGS.member"
expect_in "$WORK/err" "struct NAME.MEMBER"
expect_status 2 "$UAPID" api-log --arch x86 --since no-such-rev "$R" PLANT_FLAGS
expect_in "$WORK/err" "--since no-such-rev"
expect_status 2 "$UAPID" api-log --arch x86 --headers no/such "$R" PLANT_FLAGS
expect_in "$WORK/err" "refs/heads/no/such: no such branch"
expect_status 2 "$UAPID" api-log --arch x86 "$WORK/nowhere" PLANT_FLAGS
expect_in "$WORK/err" "not a git repository"
expect_status 2 "$UAPID" api-log --json --arch x86 "$WORK/nowhere" PLANT_FLAGS
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert "not a git repository" in r["error"], r' \
	"$WORK/out" && pass || fail "--json: the failure as JSON"
expect_status 2 "$UAPID" api-log --arch x86 "$R"
"$UAPID" api-log --arch x86 "$R" linux/plant.h "struct plant_req" >"$WORK/show" 2>&1; [ -n "${API_LOG_SHOW:-}" ] && cat "$WORK/show"

# --- a shallow clone: tags at its boundary placed without a leak (issue 38 F) -------------------
# libgit2 1.5's merge base leaked 64 bytes each time its walk met the boundary (apilog-chain.c);
# checked under valgrind where it is installed and the build is not AddressSanitizer's
FULL=${UAPID_FULL:-${UAPID%/*}/uapid-full}
if command -v valgrind >/dev/null 2>&1 && ! grep -q __asan_init "$FULL"; then
	R2=$WORK/shallow-src
	cp -R "$top_srcdir/tests/trees/mini" "$R2"
	chmod -R u+w "$R2"
	printf '#ifndef _P\n#define _P\n#define PLANT_FLAGS 1\n#endif\n' >"$R2/$P"
	R=$R2
	g init -q -b master
	# one date for all (as a rebase or a fast series makes): no commit is older than the
	# chain's first, so every tag is looked for through the merge base
	same() { GIT_AUTHOR_DATE="@1700000000 +0000" GIT_COMMITTER_DATE="@1700000000 +0000" g "$@"; }
	g add -A -f && same commit -q -m base
	for i in 2 3 4 5 6; do
		sub "$P" "s/PLANT_FLAGS .*/PLANT_FLAGS $i/"
		same commit -q -a -m "flags $i"
	done
	# a topic merged: the clone's boundary is met by the merge base's walk from its tag
	g checkout -q -b topic HEAD~2
	printf '/* topic */\n' >>"$R2/$P"
	same commit -q -a -m topic
	tag v1.2
	g checkout -q master
	same merge -q --no-edit topic >/dev/null
	tag v1.0 master~3
	tag v1.1 master~2
	git clone -q --depth 3 "file://$R2" "$WORK/shallow" 2>/dev/null
	R=$WORK/shallow
	[ -f "$R/.git/shallow" ] && pass || fail "the clone is not shallow"
	expect_status 0 valgrind -q --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=9 \
		"$FULL" api-log --arch x86 "$R" PLANT_FLAGS
	expect_in "$WORK/out" "v1.1"
else
	echo "cli-api-log.sh: the shallow clone's leak check needs valgrind and a build without ASan" >&2
fi
finish
