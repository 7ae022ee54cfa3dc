#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# uapictl's commands against a real `uapid watch`: human output, --json,
# discovery from a path in the tree, exit codes, colour only on a terminal.
. "${top_srcdir:-.}/tests/lib/lib.sh"
export UAPID_ARCH=
. "${top_srcdir:-.}/tests/lib/daemon-lib.sh"

T=$WORK/tree S=$WORK/state K=$WORK/d.sock
new_tree "$T"
# discovery looks in $XDG_RUNTIME_DIR/uapid: a private one for the test
export XDG_RUNTIME_DIR=$WORK/run
mkdir -m 700 "$XDG_RUNTIME_DIR"
unset UAPID_SOCKET

# --- no daemon: exit 3 with a hint; usage: exit 2 ------------------------------
expect_status 3 "$UAPICTL" --tree "$T" status
expect_in "$WORK/err" "no uapid daemon found for"
expect_in "$WORK/err" "hint: start one with \`uapid watch TREE\`"
expect_status 3 "$UAPICTL" --socket "$WORK/none.sock" status
expect_in "$WORK/err" "cannot connect to $WORK/none.sock"
expect_status 3 "$UAPICTL" sockname "$T/include/linux"
expect_status 2 "$UAPICTL" --socket "$K" --tree "$T" status
expect_status 2 "$UAPICTL" classify
expect_in "$WORK/err" "usage: uapictl classify"
expect_status 2 "$UAPICTL" changes --since yesterday
expect_in "$WORK/err" "--since 'yesterday' is not a clock"
expect_status 2 "$UAPICTL" marker frob
expect_status 2 "$UAPICTL" --timeout never status
expect_status 0 "$UAPICTL" --help
expect_in "$WORK/out" "exit status: 0 ok, 1 the input needs attention"
expect_in "$WORK/out" "3 no daemon reachable"

start_daemon "$T" "$S" "$K"
wait_idle "$K"

# --- discovery: from any path inside the tree, with no configuration ---------------
ln -s "$K" "$WORK/elsewhere.sock" # not used: discovery must find the published link
cd "$T/include/linux"
expect_status 0 "$UAPICTL" sockname
id_sock=$(cat "$WORK/out")
case $id_sock in "$XDG_RUNTIME_DIR"/uapid/tree-*.sock) pass ;; *) fail "sockname gave $id_sock" ;; esac
[ "$(readlink "$id_sock")" = "$K" ] && pass || fail "$id_sock does not lead to $K"
expect_status 0 "$UAPICTL" sockname "$T/include/linux/not-yet-written.h"
expect_in "$WORK/out" "$id_sock"
expect_status 0 "$UAPICTL" --json sockname
expect_in "$WORK/out" "\"tree\": \"$T\""
expect_status 0 "$UAPICTL" status
cd "$WORK"
[ "$(stat -c %a "$XDG_RUNTIME_DIR/uapid")" = 700 ] && pass || fail "runtime dir not 0700"

# --- status --------------------------------------------------------------------
expect_status 0 "$UAPICTL" --tree "$T" status
expect_in "$WORK/out" "tree        $T"
expect_in "$WORK/out" "1 need coaching"
expect_in "$WORK/out" "watch       "
expect_in "$WORK/out" "problems    split: 1 header needs coaching"
expect_not_in "$WORK/out" "$(printf '\033')"
expect_status 0 "$UAPICTL" --tree "$T" --json status
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["ready"] and d["counts"]["needs_coaching"]==1' \
	"$WORK/out" && pass || fail "status --json"
# colour on a terminal only
# (TERM and NO_COLOR set here: the environment may have no TERM, as a package build)
env -u NO_COLOR TERM=xterm script -qec "$UAPICTL --tree $T status" /dev/null >"$WORK/tty" 2>&1 || true
grep -q "$(printf '\033')\[" "$WORK/tty" && pass || fail "no colour on a terminal"
NO_COLOR=1 TERM=xterm script -qec "$UAPICTL --tree $T status" /dev/null >"$WORK/tty" 2>&1 || true
grep -q "$(printf '\033')\[" "$WORK/tty" && fail "colour despite NO_COLOR" || pass

# --- headers -------------------------------------------------------------------
expect_status 0 "$UAPICTL" --tree "$T" headers
expect_in "$WORK/out" "needs-coaching  exported    include/linux/sample_arch.h"
expect_in "$WORK/out" "moved           exported    include/linux/sample_types.h"
expect_status 0 "$UAPICTL" --tree "$T" headers --outcome moved --prefix include/linux/
expect_not_in "$WORK/out" "split "
expect_in "$WORK/out" "include/linux/sample_forward.h"
expect_status 0 "$UAPICTL" --tree "$T" --json headers --prefix arch/
python3 -c 'import json,sys; h=json.load(open(sys.argv[1]))["headers"]; assert h and all(x["path"].startswith("arch/") for x in h)' \
	"$WORK/out" && pass || fail "headers --prefix --json"
expect_status 1 "$UAPICTL" --tree "$T" headers --outcome nonsense
expect_in "$WORK/err" "outcome"

# --- classify, preview -------------------------------------------------------------
# an error diagnostic is exit 1, as uapid classify says it (issue 39)
expect_status 1 "$UAPICTL" classify "$T/include/linux/sample_arch.h"
expect_in "$WORK/out" "          5  kernel     __KERNEL__ directive"
expect_in "$WORK/out" "sample_arch.h:5: error: #elif in a __KERNEL__ conditional"
expect_status 1 "$UAPID" classify "$T/include/linux/sample_arch.h"
expect_status 1 "$UAPICTL" --json classify "$T/include/linux/sample_arch.h"
# preview --uapi of a header that needs coaching: said, exit 1 (it printed nothing, exit 0)
expect_status 1 "$UAPICTL" preview --uapi "$T/include/linux/sample_arch.h"
expect_in "$WORK/err" "include/linux/sample_arch.h: needs-coaching: the split gives no text until it is decided"
expect_in "$WORK/out" "sample_arch.h:5: error: #elif in a __KERNEL__ conditional"
expect_in "$WORK/err" "hint: a coaching marker decides it"
expect_status 1 "$UAPICTL" preview "$T/include/linux/sample_arch.h"
# a marker for a file that does not exist is refused
expect_status 2 "$UAPICTL" --tree "$T" marker add "$T/include/linux/no-such.h" kernel '#ifdef __KERNEL__'
expect_in "$WORK/err" "no-such.h: No such file or directory"
# an unsaved buffer on stdin
printf '#ifndef _X_H\n#define _X_H\n#define U 1\n#ifdef __KERNEL__\nint k;\n#endif\n#endif\n' >"$WORK/buf.h"
expect_status 0 sh -c "\"$UAPICTL\" classify --stdin \"$T/include/linux/sample_arch.h\" <\"$WORK/buf.h\""
expect_in "$WORK/out" "          5  kernel"
expect_not_in "$WORK/out" "error"
expect_status 1 "$UAPICTL" --tree "$T" classify "$WORK/buf.h"
expect_in "$WORK/err" "not inside the watched tree"
expect_status 0 "$UAPICTL" preview "$T/include/linux/sample_ioctl.h"
expect_in "$WORK/out" "==> kernel: include/linux/sample_ioctl.h <=="
expect_in "$WORK/out" "==> uapi: include/uapi/linux/sample_ioctl.h <=="
expect_in "$WORK/out" "==> installed: linux/sample_ioctl.h <=="
expect_status 0 "$UAPICTL" preview --uapi "$T/include/linux/sample_ioctl.h"
head -c 2 "$WORK/out" | grep -q . && pass || fail "preview --uapi printed nothing"
expect_not_in "$WORK/out" "==>"
expect_in "$WORK/out" "_UAPI_LINUX_SAMPLE_IOCTL_H"
expect_status 2 "$UAPICTL" preview --uapi --kernel "$T/include/linux/sample_ioctl.h"

# --- changes, watch --------------------------------------------------------------
"$UAPICTL" --tree "$T" --json status | json_field clock >"$WORK/clock"
c0=$(cat "$WORK/clock")
"$UAPICTL" --tree "$T" watch >"$WORK/watch.out" 2>&1 &
WPID=$!
# subscribed once it says so: a change made before would not be told
i=0
while ! grep -q "watching from clock" "$WORK/watch.out" && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
printf '\n#define SAMPLE_MORE 2\n' >>"$T/include/linux/sample_ioctl.h"
wait_idle "$K"
expect_status 0 "$UAPICTL" --tree "$T" changes --since "$c0"
expect_in "$WORK/out" "include/linux/sample_ioctl.h"
expect_not_in "$WORK/out" "sample_types.h"
expect_not_in "$WORK/out" "fresh instance"
expect_status 0 "$UAPICTL" --tree "$T" changes --since 999999
expect_in "$WORK/out" "fresh instance"
i=0
while ! grep -q "sample_ioctl.h" "$WORK/watch.out" && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
expect_in "$WORK/watch.out" "watching from clock"
expect_in "$WORK/watch.out" "changed: include/linux/sample_ioctl.h"
kill -INT "$WPID"
wait "$WPID" && pass || fail "uapictl watch did not end cleanly on SIGINT"

# --- markers ---------------------------------------------------------------------
expect_status 0 "$UAPICTL" marker add "$T/include/linux/sample_arch.h" kernel '#ifdef __KERNEL__' --why "legacy is kernel-only"
expect_in "$WORK/out" "added; include/linux/sample_arch.h is split again"
id=$(sed -n 's/^marker \([0-9]*\) added.*/\1/p' "$WORK/out")
wait_idle "$K"
expect_status 0 "$UAPICTL" --tree "$T" marker list
expect_in "$WORK/out" "include/linux/sample_arch.h kernel '#ifdef __KERNEL__'"
expect_in "$WORK/out" "# legacy is kernel-only"
expect_status 0 "$UAPICTL" --tree "$T" headers --prefix include/linux/sample_arch.h
expect_in "$WORK/out" "split"
expect_file "$S/split/include/uapi/linux/sample_arch.h"
expect_status 1 "$UAPICTL" --tree "$T" marker add "$T/include/linux/sample_arch.h" frobnicate
expect_in "$WORK/err" "invalid params"
expect_status 0 "$UAPICTL" --tree "$T" marker rm "$id"
wait_idle "$K"
expect_status 0 "$UAPICTL" --tree "$T" headers --prefix include/linux/sample_arch.h
expect_in "$WORK/out" "needs-coaching"
expect_status 1 "$UAPICTL" --tree "$T" marker rm "$id"
expect_in "$WORK/err" "names no marker"

# --- api: symbol-level userspace API changes since a clock ---------------------------------
c1=$("$UAPICTL" --tree "$T" --json status | json_field clock)
sed -i 's/#define MINI_PLAIN_API 1/#define MINI_PLAIN_API 2/' "$T/include/uapi/linux/mini.h"
printf '#define MINI_NEW_API 1\n' >>"$T/include/uapi/linux/mini.h"
wait_idle "$K"
# a breaking change is exit 1, as uapid api-diff says it (issue 39)
expect_status 1 "$UAPICTL" --tree "$T" api --since "$c1"
expect_in "$WORK/out" "1 header changed, 0 added, 0 removed: 1 breaking, 0 review, 1 compatible"
expect_in "$WORK/out" ": breaking: macro MINI_PLAIN_API"
expect_in "$WORK/out" "replacement 1 -> 2"
expect_in "$WORK/out" ": compatible: macro MINI_NEW_API: macro added"
expect_status 1 "$UAPICTL" --tree "$T" --json api --since "$c1"
expect_in "$WORK/out" '"breaking": 1'
expect_status 0 "$UAPICTL" --tree "$T" --json api --since 999999
expect_in "$WORK/out" '"fresh_instance": true'
expect_status 2 "$UAPICTL" --tree "$T" api --since 1 --rev HEAD
expect_status 1 "$UAPICTL" --tree "$T" api --rev HEAD
expect_in "$WORK/err" "error -32000"

# --- resplit, raw form -------------------------------------------------------------
expect_status 0 "$UAPICTL" --tree "$T" resplit "$T/include/linux/sample_types.h"
expect_in "$WORK/out" "1 path queued"
expect_status 0 "$UAPICTL" --tree "$T" resplit
expect_in "$WORK/out" "every header queued"
wait_idle "$K"
expect_status 0 "$UAPICTL" --tree "$T" headers '{"outcome":"moved"}'
expect_in "$WORK/out" '"outcome": "moved"'
expect_status 0 "$UAPICTL" --tree "$T" call markers.list
expect_in "$WORK/out" '"markers": []'
expect_status 1 "$UAPICTL" --tree "$T" no.such.method
expect_in "$WORK/err" "error -32601"
expect_status 2 "$UAPICTL" --tree "$T" call status '"scalar"'

stop_daemon
[ -e "$id_sock" ] && fail "the discovery link outlived the daemon" || pass
finish
