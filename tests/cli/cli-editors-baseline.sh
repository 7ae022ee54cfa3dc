#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The LSP bridge's API diagnostics against a baseline (issue 39, item 8), on a
# git tree a real `uapid watch` serves: the daemon's api.baseline and
# api.changes {path, text, rev}, `uapictl lsp` driven over pipes
# (tests/lib/lsp-baseline.py: HEAD by default, a tag by didChangeConfiguration,
# initializationOptions and --baseline, an accept file, a revision that does
# not exist, a tree without a repository), then the two editors a kernel
# maintainer uses, for real: Debian's Neovim with editors/nvim
# (tests/lib/nvim/baseline.lua) and Emacs with eglot
# (tests/lib/emacs/baseline.el), each flagging a breaking edit after the save
# and dropping it once it is committed.
. "${top_srcdir:-.}/tests/lib/lib.sh"
export UAPID_ARCH=
. "${top_srcdir:-.}/tests/lib/daemon-lib.sh"

for tool in git nvim emacs; do
	if ! command -v $tool >/dev/null 2>&1; then
		fail "$tool is not installed: this test needs git, Debian's neovim, emacs-nox and elpa-eglot (./test.sh installs them)"
		finish
		exit 1
	fi
done

export XDG_RUNTIME_DIR=$WORK/run XDG_CACHE_HOME=$WORK/cache XDG_STATE_HOME=$WORK/state-home
export HOME=$WORK/home # no user's init files or git configuration
mkdir -m 700 "$XDG_RUNTIME_DIR"
mkdir -p "$HOME"
unset UAPID_SOCKET GIT_DIR GIT_WORK_TREE
# every git this test starts commits (the editors' scripts too): an identity that a
# machine without a configured one (or a host name git cannot make an address of) lacks
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@uapid GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@uapid
G=git

# repo DIR: a fixture tree as a repository, its first commit tagged v1
repo() {
	new_tree "$1"
	$G -C "$1" init -q
	$G -C "$1" add -A
	$G -C "$1" commit -q -m base
	$G -C "$1" tag v1
}
T=$WORK/tree N=$WORK/nogit
repo "$T"
new_tree "$N"
start_daemon "$T" "$WORK/state" "$WORK/d.sock"
D1=$DPID
wait_idle "$WORK/d.sock"
start_daemon "$N" "$WORK/state-n" "$WORK/n.sock"
D2=$DPID
wait_idle "$WORK/n.sock"

# --- the daemon's side --------------------------------------------------------------
# commit_of SOCK REV: the commit api.baseline answers (empty when it does not)
commit_of() {
	"$UAPICTL" --socket "$1" --json call api.baseline "{\"rev\":\"$2\"}" >"$WORK/c.json" 2>&1 || true
	json_field commit <"$WORK/c.json" 2>/dev/null || cat "$WORK/c.json"
}
commit_of "$WORK/d.sock" v1 >"$WORK/c"
[ "$(cat "$WORK/c")" = "$(git -C "$T" rev-parse v1)" ] && pass || fail "api.baseline v1: $(cat "$WORK/c")"
# the branch point: A...B is their merge base, as in `git diff A...B`
side=$(git -C "$T" commit-tree -p v1 -m side 'v1^{tree}') other=$(git -C "$T" commit-tree -p v1 -m other 'v1^{tree}')
git -C "$T" branch side "$side" && git -C "$T" branch other "$other"
for rev in side...other side...; do
	commit_of "$WORK/d.sock" "$rev" >"$WORK/c"
	[ "$(cat "$WORK/c")" = "$(git -C "$T" rev-parse v1)" ] && pass || fail "api.baseline $rev: $(cat "$WORK/c"), not the merge base"
done
if "$UAPICTL" --socket "$WORK/n.sock" call api.baseline '{"rev":"HEAD"}' >"$WORK/e" 2>&1; then
	fail "api.baseline in a tree without a repository answered"
else
	grep -q 'not the top of a git repository' "$WORK/e" && pass || fail "api.baseline's error: $(cat "$WORK/e")"
fi
# a header the baseline does not have yet (saved, not committed)
printf '#ifndef _UAPI_FRESH_H\n#define _UAPI_FRESH_H\n#define FRESH 1\n#endif\n' >"$T/include/uapi/linux/fresh.h"
sleep 0.2
wait_idle "$WORK/d.sock"
python3 - "$UAPICTL" "$WORK/d.sock" "$T" >"$WORK/rpc.out" 2>&1 <<'PY' && pass || { fail "api.changes with text and rev"; cat "$WORK/rpc.out" >&2; }
import json, subprocess, sys
ctl, sock, tree = sys.argv[1:4]
rel = "include/uapi/linux/mini.h"
text = open(tree + "/" + rel).read().replace("\t__u64 addr;\n", "")
def call(params):
    r = subprocess.run([ctl, "--socket", sock, "--json", "call", "api.changes", json.dumps(params)],
                       capture_output=True, text=True)
    return r.returncode, (json.loads(r.stdout) if r.returncode == 0 else r.stderr)
rc, r = call({"path": rel, "text": text, "rev": "v1"})
head = subprocess.run(["git", "-C", tree, "rev-parse", "v1"], capture_output=True, text=True).stdout.strip()
assert rc == 0 and r["baseline"] == {"rev": "v1", "commit": head, "present": True}, r
assert [(c["symbol"], c["verdict"], c["new_line"]) for c in r["changes"]] == [("struct mini_req", "breaking", 8)], r
# a header the baseline does not have: added, nothing breaking
rc, r = call({"path": "include/uapi/linux/fresh.h", "rev": "v1",
              "text": open(tree + "/include/uapi/linux/fresh.h").read().replace("1", "2")})
assert rc == 0 and r["baseline"]["present"] is False and r["summary"]["breaking"] == 0, r
assert [c["what"] for c in r["changes"]] == ["added"], r
rc, r = call({"path": rel, "text": text, "rev": "no-such-rev"})
assert rc == 1 and "no-such-rev" in r, r
PY

# uapictl api --accept: the same accept file for the saved tree against HEAD
sed -i '/__u64 addr;/d' "$T/include/uapi/linux/mini.h"
sleep 0.2
wait_idle "$WORK/d.sock"
expect_status 1 "$UAPICTL" --socket "$WORK/d.sock" api
grep -q 'breaking: struct mini_req: member addr removed' "$WORK/out" && pass || fail "uapictl api: $(cat "$WORK/out")"
printf '%s\n' 'linux/mini.h struct mini_req member-removed addr was never used' \
	'linux/gone.h GONE value left over' >"$WORK/accepted"
expect_status 0 "$UAPICTL" --socket "$WORK/d.sock" api --accept "$WORK/accepted"
grep -q '0 breaking.*1 accepted' "$WORK/out" && grep -q 'accepted: struct mini_req' "$WORK/out" && pass ||
	fail "uapictl api --accept: $(cat "$WORK/out")"
grep -q "$WORK/accepted:2: warning: accepted change matches nothing: linux/gone.h GONE" "$WORK/err" && pass ||
	fail "uapictl api --accept: no warning of the line that matches nothing: $(cat "$WORK/err")"
expect_status 2 "$UAPICTL" --socket "$WORK/d.sock" api --accept "$WORK/no-such-file"
git -C "$T" checkout -q -- include/uapi/linux/mini.h
sleep 0.2
wait_idle "$WORK/d.sock"

# --- uapictl lsp over pipes ---------------------------------------------------------------
python3 "$top_srcdir/tests/lib/lsp-baseline.py" "$UAPICTL" "$T" "$N" >"$WORK/lsp.out" 2>&1 && pass || {
	fail "the scripted LSP client against a baseline"
	grep -v '^ok' "$WORK/lsp.out" >&2
}
grep -q '^0 failed' "$WORK/lsp.out" && pass || fail "the scripted client did not finish"
stop_daemon # the tree without a repository's (D2)
DPID=$D1
stop_daemon

# --- Neovim and Emacs, each on a fresh repository ------------------------------------------
F=include/uapi/linux/mini.h
for editor in nvim emacs; do
	rm -rf "$T" "$WORK/state"
	repo "$T"
	start_daemon "$T" "$WORK/state" "$WORK/d.sock"
	wait_idle "$WORK/d.sock"
	if [ $editor = nvim ]; then
		PATH=$(dirname "$UAPICTL"):$PATH UAPID_TEST_FILE=$T/$F timeout 120 nvim --headless -u NONE -i NONE \
			--cmd "set rtp^=$top_srcdir/editors/nvim" --cmd 'runtime plugin/uapid.lua' \
			-c "luafile $top_srcdir/tests/lib/nvim/baseline.lua" >"$WORK/$editor.out" 2>&1 </dev/null
	else
		UAPID_TEST_FILE=$T/$F UAPICTL=$UAPICTL timeout 120 emacs --batch -l "$top_srcdir/tests/lib/emacs/baseline.el" \
			>"$WORK/$editor.out" 2>&1 </dev/null
	fi && pass || {
		fail "$editor: a breaking edit flagged against HEAD after the save"
		cat "$WORK/$editor.out" >&2
	}
	grep -q '^0 failed' "$WORK/$editor.out" && pass || fail "the $editor test did not finish"
	[ "$(git -C "$T" log --format=%s -1)" = "drop mini_req.addr" ] && pass || fail "$editor: the commit was not made"
	stop_daemon
done
finish
