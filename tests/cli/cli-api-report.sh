#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What a person does with an api-diff: --verdict, --header, --symbol, the
# --summary roll-up, one entry per symbol with its conditions, both line
# numbers, long reasons cut in text and whole in --json, --accept FILE
# (accepted breaks, lines that match nothing), the --html page (its
# structure read with python3's html.parser), api-log --html, and
# check-uapi (the kernel's check-uapi.sh options and exit codes) on a small
# git tree.
. "${top_srcdir:-.}/tests/lib/lib.sh"

export GIT_AUTHOR_NAME=A GIT_AUTHOR_EMAIL=a@example.org GIT_COMMITTER_NAME=C
export GIT_COMMITTER_EMAIL=c@example.org GIT_CONFIG_NOSYSTEM=1 HOME=$WORK

# two installed-header directories with planted changes
O=$WORK/old/include/linux N=$WORK/new/include/linux
mkdir -p "$O" "$N"
L=$(printf '%0300d' 0 | tr 0 x)
cat >"$O/a.h" <<EOF
#ifndef _LINUX_A_H
#define _LINUX_A_H
#define A_ONE 1
#define A_TWO 2
#ifdef A_OPT
#define A_MULTI 1
#else
#define A_MULTI 1
#endif
#define A_LONG "$L"
struct a_req {
	int x;
	int y;
};
#endif
EOF
cat >"$N/a.h" <<EOF
#ifndef _LINUX_A_H
#define _LINUX_A_H

#define A_ONE 5
#ifdef A_OPT
#define A_MULTI 2
#else
#define A_MULTI 2
#endif
#define A_LONG "${L}y"
#define A_NEW 7
struct a_req {
	int x;
};
#endif
EOF
printf '#ifndef _LINUX_B_H\n#define _LINUX_B_H\nstruct b_s {\n\tint x;\n};\n#endif\n' >"$O/b.h"
printf '#ifndef _LINUX_B_H\n#define _LINUX_B_H\n#define B_NEW 1\nstruct b_s {\n\tint x;\n\tint more;\n};\n#endif\n' >"$N/b.h"
printf '#ifndef _LINUX_C_H\n#define _LINUX_C_H\n#define C_GONE 1\n#endif\n' >"$O/c.h"
D="$WORK/old $WORK/new"

# --- the text report ---------------------------------------------------------------------
# shellcheck disable=SC2086 # $D: two paths without blanks
expect_status 1 "$UAPID" api-diff $D
cp "$WORK/out" "$WORK/text"
expect_in "$WORK/text" "verdicts: 7 breaking, 1 review, 2 compatible"
expect_in "$WORK/text" "lines: the new header's (the old one's for what was removed"
# a macro alike under two conditions: one entry, its conditions listed
expect_in "$WORK/text" "linux/a.h:8: breaking: macro A_MULTI [if !defined(A_OPT)] [if defined(A_OPT)]: replacement 1 -> 2"
[ "$(grep -c 'A_MULTI' "$WORK/text")" = 1 ] && pass || fail "A_MULTI listed more than once"
# both line numbers where both exist; the old one alone for a removal
expect_in "$WORK/text" "linux/a.h:4 (old 3): breaking: macro A_ONE: replacement 1 -> 5"
expect_in "$WORK/text" "linux/a.h:4: breaking: macro A_TWO: macro removed"
expect_in "$WORK/text" "linux/c.h:1: breaking: header removed"
# a long reason is cut in text
line=$(grep 'macro A_LONG' "$WORK/text")
case $line in *"..."*) pass ;; *) fail "A_LONG's reason not cut: $line" ;; esac
[ "${#line}" -lt 260 ] && pass || fail "A_LONG's line is ${#line} characters"

# --- --json: the condition its own field, the reason whole -------------------------------
# shellcheck disable=SC2086
expect_status 1 "$UAPID" api-diff --json $D
python3 - "$WORK/out" "$L" <<'PY' && pass || fail "api-diff --json: condition, whole reason"
import json, sys
d = json.load(open(sys.argv[1]))
multi = sorted(c["condition"] for c in d["changes"] if (c["symbol"] or "").startswith("A_MULTI"))
assert multi == ["!defined(A_OPT)", "defined(A_OPT)"], multi
assert all(c["condition"] is None for c in d["changes"] if "[if " not in (c["symbol"] or "")), d
long = [c for c in d["changes"] if c["symbol"] == "A_LONG"][0]
assert sys.argv[2] + "y" in long["reason"] and "..." not in long["reason"], long
PY

# --- --verdict, --header, --symbol -------------------------------------------------------
# shellcheck disable=SC2086
expect_status 1 "$UAPID" api-diff --verdict breaking $D
expect_not_in "$WORK/out" ": compatible:"
expect_not_in "$WORK/out" ": review:"
expect_in "$WORK/out" "selected: 7 of 10 changes"
# the verdict filter shows less; the exit status still counts every breaking change
# shellcheck disable=SC2086
expect_status 1 "$UAPID" api-diff --verdict review,compatible $D
expect_in "$WORK/out" "linux/b.h:4 (old 3): review: struct b_s: grew at its end"
expect_not_in "$WORK/out" ": breaking:"
# shellcheck disable=SC2086
expect_status 2 "$UAPID" api-diff --verdict braking $D
expect_in "$WORK/err" "--verdict braking: want breaking, review, compatible or accepted"
# --header and --symbol select what the exit status counts
# shellcheck disable=SC2086
expect_status 0 "$UAPID" api-diff --header 'linux/b.h' $D
expect_not_in "$WORK/out" "linux/a.h"
expect_in "$WORK/out" "selected: 2 of 10 changes"
# shellcheck disable=SC2086
expect_status 1 "$UAPID" api-diff --symbol 'A_*' --symbol 'struct b_*' $D
expect_in "$WORK/out" "macro A_ONE"
expect_in "$WORK/out" "struct b_s"
expect_not_in "$WORK/out" "struct a_req"
expect_not_in "$WORK/out" "B_NEW"
# shellcheck disable=SC2086
expect_status 1 "$UAPID" api-diff --json --verdict breaking --header 'linux/a*' $D
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["selected"] == len(d["changes"]) == 6, d
assert {c["verdict"] for c in d["changes"]} == {"breaking"}
assert d["summary"]["breaking"] == 7  # the summary is the whole diff
' "$WORK/out" && pass || fail "--json with filters"

# --- --summary ---------------------------------------------------------------------------
# shellcheck disable=SC2086
expect_status 1 "$UAPID" api-diff --summary $D
grep -E '^linux/a\.h +6 breaking +0 review +1 compatible$' "$WORK/out" >/dev/null && pass ||
	fail "--summary: linux/a.h's line"; grep -q '^linux/a.h' "$WORK/out" || cat "$WORK/out" >&2
grep -E '^linux/b\.h +0 breaking +1 review +1 compatible$' "$WORK/out" >/dev/null && pass ||
	fail "--summary: linux/b.h's line"
grep -E '^linux/c\.h +1 breaking' "$WORK/out" >/dev/null && pass || fail "--summary: linux/c.h's line"
expect_not_in "$WORK/out" "macro A_ONE"
# shellcheck disable=SC2086
expect_status 1 "$UAPID" api-diff --summary --json $D
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
h = {x["header"]: x for x in d["headers"]}
assert list(h) == ["linux/a.h", "linux/b.h", "linux/c.h"], h
assert (h["linux/a.h"]["breaking"], h["linux/a.h"]["compatible"]) == (6, 1), h
assert "changes" not in d
' "$WORK/out" && pass || fail "--summary --json"

# --- --accept ----------------------------------------------------------------------------
A=$WORK/accepted
cat >"$A" <<'EOF'
# decided on the list, 2026-12-01
linux/a.h A_ONE value      A_ONE was never used by a released program
linux/a.h A_MULTI *        the two branches moved together
linux/a.h A_TWO removed    folded into A_ONE
linux/a.h A_LONG text      a banner, not an API
linux/a.h struct a_req *   y was reserved, documented as such
linux/c.h - removed        empty since v4.0
linux/b.h struct b_s grew  the size is passed by the caller

linux/gone.h GONE_MACRO value  a decision whose change is gone
EOF
# shellcheck disable=SC2086
expect_status 0 "$UAPID" api-diff --accept "$A" $D
expect_in "$WORK/out" "verdicts: 0 breaking, 0 review, 2 compatible, 8 accepted"
expect_in "$WORK/out" "linux/a.h:4 (old 3): accepted: macro A_ONE: replacement 1 -> 5 [accepted breaking, $A:2: A_ONE was never used by a released program]"
expect_in "$WORK/err" "$A:10: warning: accepted change matches nothing: linux/gone.h GONE_MACRO value a decision whose change is gone"
# --verdict accepted lists the decisions
# shellcheck disable=SC2086
expect_status 0 "$UAPID" api-diff --accept "$A" --verdict accepted $D
expect_in "$WORK/out" "selected: 8 of 10 changes"
# one decision fewer: that break fails again
grep -v 'A_TWO' "$A" >"$A.2"
# shellcheck disable=SC2086
expect_status 1 "$UAPID" api-diff --accept "$A.2" --json $D
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
s = d["summary"]
assert (s["breaking"], s["accepted"]) == (1, 7), s
one = [c for c in d["changes"] if c["symbol"] == "A_ONE"][0]
assert one["verdict"] == "accepted" and one["accepted_from"] == "breaking", one
assert one["accepted_at"].endswith(":2") and one["accepted_because"].startswith("A_ONE was"), one
assert [u["line"] for u in d["accept"]["unmatched"]] == [9], d["accept"]
' "$WORK/out" && pass || fail "--accept --json"
# a decision without its reason is refused, with its line
printf 'linux/a.h A_ONE value\n' >"$A.bad"
# shellcheck disable=SC2086
expect_status 2 "$UAPID" api-diff --accept "$A.bad" $D
expect_in "$WORK/err" "$A.bad:1: want HEADER SYMBOL RULE REASON"
# shellcheck disable=SC2086
expect_status 2 "$UAPID" api-diff --accept "$WORK/no-such-file" $D

# --- --html ------------------------------------------------------------------------------
# shellcheck disable=SC2086
expect_status 1 "$UAPID" api-diff --html "$WORK/report.html" --json $D
cp "$WORK/out" "$WORK/report.json"
cat >"$WORK/page.py" <<'PY'
# page.py PAGE JSON: the page's structure and counts against api-diff --json
import json, sys
from html.parser import HTMLParser

class Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids, self.rows, self.stack, self.errors = {}, [], [], []
        self.external, self.scripts, self.htable_th, self.defs = [], 0, 0, []
        self.in_htable = False
        self.cell = None
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag not in ("meta", "br", "input", "col", "link", "img"):
            self.stack.append(tag)
        if "id" in a:
            self.ids[a["id"]] = a
        if tag == "tr" and "change" in a.get("class", "").split():
            self.rows.append(a["data-verdict"])
        for k in ("src", "href"):
            if k in a and not a[k].startswith("#"):
                self.external.append((tag, a[k]))
        if tag == "link":
            self.external.append((tag, a.get("href")))
        if tag == "script":
            self.scripts += 1
        if tag == "table" and a.get("id") == "htable":
            self.in_htable = True
        if tag == "th" and self.in_htable:
            self.htable_th += 1
        if tag == "pre":
            self.cell = ""
    def handle_endtag(self, tag):
        if tag in ("meta", "br", "input", "col", "link", "img"):
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append("unbalanced </%s> (open: %s)" % (tag, self.stack[-3:]))
        else:
            self.stack.pop()
        if tag == "table":
            self.in_htable = False
        if tag == "pre":
            self.defs.append(self.cell)
            self.cell = None
    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data

p = Page()
p.feed(open(sys.argv[1]).read())
p.close()
d = json.load(open(sys.argv[2]))
s = d["summary"]
assert not p.errors, p.errors[:5]
assert not p.stack or p.stack == ["html"] or not p.stack, p.stack
assert not p.external, p.external          # self-contained: nothing fetched
assert p.scripts == 1, p.scripts           # one inline script
for v in ("breaking", "review", "compatible"):
    assert int(p.ids["n-" + v]["data-n"]) == s[v], (v, p.ids["n-" + v], s)
    assert p.rows.count(v) == sum(c["verdict"] == v for c in d["changes"]), (v, p.rows)
if "accepted" in s:
    assert int(p.ids["n-accepted"]["data-n"]) == s["accepted"]
    assert p.rows.count("accepted") == s["accepted"]
assert len(p.rows) == len(d["changes"])
assert p.htable_th == 6, p.htable_th       # header, four verdicts, changes
assert "htable" in p.ids and "summary" in p.ids and "changes" in p.ids
for want in sys.argv[3:]:
    assert any(want in x for x in p.defs), (want, p.defs)
PY
python3 "$WORK/page.py" "$WORK/report.html" "$WORK/report.json" "#define A_ONE 1" "#define A_ONE 5" \
	"int y;" && pass || fail "--html: the page's structure and counts"
grep -q '<script src\|<link\|http://\|https://\|@import\|url(' "$WORK/report.html" &&
	fail "--html: the page fetches something" || pass
# with accepted breaks: their count and rows
# shellcheck disable=SC2086
expect_status 0 "$UAPID" api-diff --accept "$A" --html "$WORK/acc.html" --json $D
cp "$WORK/out" "$WORK/acc.json"
python3 "$WORK/page.py" "$WORK/acc.html" "$WORK/acc.json" && pass || fail "--html with --accept"
expect_in "$WORK/acc.html" "id=\"n-accepted\" data-n=\"8\""
# written atomically: an unwritable place fails, whole, with nothing left behind
mkdir "$WORK/ro" && chmod 555 "$WORK/ro"
if [ "$(id -u)" != 0 ]; then
	# shellcheck disable=SC2086
	expect_status 2 "$UAPID" api-diff --html "$WORK/ro/r.html" $D
	[ -z "$(ls -A "$WORK/ro")" ] && pass || fail "--html left a file behind"
fi
# shellcheck disable=SC2086
expect_status 2 "$UAPID" api-diff --html "$WORK/no-dir/r.html" $D
expect_no_file "$WORK/no-dir"
ls -A "$WORK" | grep -q '^\.' && fail "a temporary file left in $WORK" || pass

# --- api-log --html: a symbol's history as a timeline -------------------------------------
R=$WORK/repo
cp -R "$top_srcdir/tests/trees/mini" "$R"
chmod -R u+w "$R"
g() { git -C "$R" "$@"; }
g init -q -b master && g add -A -f && g commit -q -m base && g tag -a -m v1.0 v1.0
printf '#define MINI_LOGGED 1\n' >>"$R/include/uapi/linux/mini.h"
g commit -q -a -m "mini: MINI_LOGGED" && g tag -a -m v1.1 v1.1
sed -i 's/^#define MINI_LOGGED 1$/#define MINI_LOGGED 2/' "$R/include/uapi/linux/mini.h"
g commit -q -a -m "mini: MINI_LOGGED is 2" && g tag -a -m v1.2 v1.2
expect_status 0 "$UAPID" api-log --quiet --arch x86 --html "$WORK/log.html" "$R" MINI_LOGGED
expect_in "$WORK/out" "MINI_LOGGED:"
python3 - "$WORK/log.html" <<'PY' && pass || fail "api-log --html: the timeline"
import sys
from html.parser import HTMLParser
class P(HTMLParser):
    def __init__(self):
        super().__init__(); self.events = []; self.rel = None; self.ext = []
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "li" and "event" in a.get("class", ""):
            self.events.append([a["class"], ""])
        if tag in ("script", "link", "img") and ("src" in a or "href" in a):
            self.ext.append(tag)
    def handle_data(self, d):
        if self.events:
            self.events[-1][1] += d
p = P(); p.feed(open(sys.argv[1]).read())
assert not p.ext, p.ext
assert len(p.events) == 2, p.events
assert "v1.1" in p.events[0][1] and "v1.2" in p.events[1][1], p.events
assert "v-breaking" in p.events[1][0] and "1 -> 2" in p.events[1][1], p.events
PY

# --- contrib/uapi-gate.sh --accept: an accepted break passes the gate ---------------------
gate() { sh "$top_srcdir/contrib/uapi-gate.sh" --uapid "$UAPID" --base v1.1 --head v1.2 "$@"; }
expect_status 1 gate "$R"
expect_in "$WORK/out" "result: FAIL (1 breaking change)"
printf '# the gate\nlinux/mini.h MINI_LOGGED value  nothing released used it\nlinux/mini.h MINI_NOT_THERE value  stale\n' >"$WORK/gate.accept"
expect_status 0 gate --accept "$WORK/gate.accept" "$R"
expect_in "$WORK/out" "api-diff 0 breaking, 0 review, 0 compatible; headers 1 changed, 0 added, 0 removed; 1 accepted"
expect_in "$WORK/out" "accepted (not failing):"
expect_in "$WORK/out" "MINI_LOGGED: replacement 1 -> 2 [$WORK/gate.accept:2: nothing released used it]"
expect_in "$WORK/out" "accepted lines that match nothing (remove them?):"
expect_in "$WORK/out" "$WORK/gate.accept:3: linux/mini.h MINI_NOT_THERE value stale"
expect_in "$WORK/out" "result: PASS (userspace API compatible)"
expect_status 2 gate --accept "$WORK/no-such-accept" "$R"

# --- the daemon's api.changes: {"accept": the file's text} -------------------------------
. "$top_srcdir/tests/lib/daemon-lib.sh"
T=$WORK/tree S=$WORK/state SOCK=$WORK/d.sock
new_tree "$T"
start_daemon "$T" "$S" "$SOCK"
c1=$("$UAPICTL" --socket "$SOCK" --json status | json_field clock)
sed -i 's/#define MINI_PLAIN_API 1/#define MINI_PLAIN_API 2/' "$T/include/uapi/linux/mini.h"
wait_idle "$SOCK"
acc=$(printf '# d\nlinux/mini.h MINI_PLAIN_API value  decided\nlinux/x.h X value  stale\n' |
	python3 -c 'import json,sys; print(json.dumps(sys.stdin.read()))')
expect_status 0 "$UAPICTL" --socket "$SOCK" call api.changes \
	"{\"since\": $c1, \"accept\": $acc, \"accept_name\": \"api.accept\"}"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
ch = [c for c in d["changes"] if (c["symbol"] or "").startswith("MINI_PLAIN_API")]
assert ch and all(c["verdict"] == "accepted" and c["accepted_from"] == "breaking" for c in ch), ch
assert d["summary"]["breaking"] == 0 and d["summary"]["accepted"] == len(ch), d["summary"]
assert d["accept"]["unmatched"] == [{"line": 3, "text": "linux/x.h X value stale"}], d["accept"]
assert all(c["accepted_at"] == "api.accept:2" for c in ch), ch
' "$WORK/out" && pass || { fail "api.changes with accept"; cat "$WORK/out" >&2; }
expect_status 1 "$UAPICTL" --socket "$SOCK" call api.changes "{\"since\": $c1, \"accept\": \"linux/mini.h X\"}"
expect_in "$WORK/err" "accept:1: want HEADER SYMBOL RULE REASON"
stop_daemon

# --- check-uapi: the kernel's check-uapi.sh options, on a small git tree -----------------
K=$WORK/k
cp -R "$top_srcdir/tests/trees/mini" "$K"
chmod -R u+w "$K"
k() { git -C "$K" "$@"; }
k init -q -b master && k add -A -f && k commit -q -m base
printf '#define MINI_CHECKED 1\nstruct mini_chk { int a; };\n' >>"$K/include/uapi/linux/mini.h"
k commit -q -a -m "mini: an addition"
cu() { (cd "$K" && ARCH=x86 "$UAPID" check-uapi "$@"); }
# a clean tree: HEAD against HEAD^1, an addition only
expect_status 0 cu
expect_in "$WORK/out" "Checking changes to UAPI headers between HEAD^1 and HEAD..."
expect_in "$WORK/out" "UAPI headers compatible with x86 appear to be backwards compatible"
expect_status 0 cu -v
expect_in "$WORK/out" "No ABI differences detected in linux/mini.h from HEAD^1 -> HEAD"
# a dirty tree: against HEAD; a value changed fails (1), as do its log and -q's silence
sed -i 's/^#define MINI_CHECKED 1$/#define MINI_CHECKED 2/' "$K/include/uapi/linux/mini.h"
expect_status 1 cu -l "$WORK/check.log"
expect_in "$WORK/err" "==== ABI differences detected in linux/mini.h from HEAD -> dirty tree ===="
expect_in "$WORK/err" "breaking: macro MINI_CHECKED: replacement 1 -> 2"
expect_in "$WORK/err" "error - 1/"
expect_in "$WORK/err" "UAPI headers compatible with x86 appear _not_ to be backwards compatible"
expect_in "$WORK/err" "Failure summary saved to $WORK/check.log"
expect_in "$WORK/check.log" "Generated by \"uapid check-uapi -l $WORK/check.log\" from git ref"
expect_in "$WORK/check.log" "breaking: macro MINI_CHECKED"
expect_status 1 cu -q
[ ! -s "$WORK/out" ] && [ ! -s "$WORK/err" ] && pass || fail "check-uapi -q printed something"
# an ambiguous change (a struct grown at its end): fails, unless -i
k checkout -q -- .
sed -i 's/^struct mini_chk { int a; };$/struct mini_chk { int a; int b; };/' "$K/include/uapi/linux/mini.h"
expect_status 1 cu
expect_in "$WORK/err" "review: struct mini_chk: grew at its end"
expect_status 0 cu -i
k commit -q -a -m "mini: mini_chk grew"
# refs: -b and -p; a removed header
expect_status 1 cu -b HEAD -p HEAD~1
expect_status 0 cu -b HEAD~1 -p HEAD~2
expect_status 0 cu -b HEAD -p HEAD~2
k rm -q include/uapi/linux/mini_old.h && k commit -q -m "mini_old.h: gone"
expect_status 1 cu -i
expect_in "$WORK/err" "==== UAPI header linux/mini_old.h was removed between HEAD^1 and HEAD ===="
# prerequisites: exit 2
expect_status 2 cu -p no-such-ref
expect_in "$WORK/err" "error - invalid git reference \"no-such-ref\""
expect_status 2 cu -b HEAD -p HEAD
expect_in "$WORK/err" "are the same reference"
expect_status 2 cu -b HEAD~2 -p HEAD
expect_in "$WORK/err" "is not an ancestor of base ref"
set +e
(cd "$K" && ARCH=nosuch "$UAPID" check-uapi) >"$WORK/out" 2>"$WORK/err"
rc=$?
set -e
[ "$rc" = 2 ] && pass || fail "ARCH=nosuch: exit $rc"
expect_in "$WORK/err" "ARCH \"nosuch\" is not a subdirectory under arch/"
rm -rf "$K/.git"
expect_status 2 cu
expect_in "$WORK/err" "requires the kernel tree to be initialized with Git"
expect_status 2 cu -x

finish
