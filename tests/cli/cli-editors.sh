#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The editor integration against a real `uapid watch`: `uapictl lsp` driven
# by a scripted LSP client over pipes (tests/lib/lsp-client.py), then Debian's
# Neovim, headless, with editors/nvim (tests/lib/nvim/test.lua).
. "${top_srcdir:-.}/tests/lib/lib.sh"
export UAPID_ARCH=
. "${top_srcdir:-.}/tests/lib/daemon-lib.sh"

if ! command -v nvim >/dev/null 2>&1; then
	fail "nvim is not installed: the editor test needs Debian's neovim (./test.sh installs it)"
	finish
	exit 1
fi

T=$WORK/tree S=$WORK/state K=$WORK/d.sock
new_tree "$T"
export XDG_RUNTIME_DIR=$WORK/run XDG_CACHE_HOME=$WORK/cache XDG_STATE_HOME=$WORK/state-home
mkdir -m 700 "$XDG_RUNTIME_DIR"
unset UAPID_SOCKET
mkdir -p "$WORK/lonely/include/linux"
start_daemon "$T" "$S" "$K"
wait_idle "$K"

# --- the bridge, over pipes ---------------------------------------------------------
if python3 "$top_srcdir/tests/lib/lsp-client.py" "$UAPICTL" "$T" "$WORK/lonely" >"$WORK/lsp.out" 2>&1; then
	pass
else
	fail "scripted LSP client"
	grep -v '^ok' "$WORK/lsp.out" >&2
fi
wait_idle "$K"

# --- Neovim ------------------------------------------------------------------------
cp "$top_srcdir/examples/tree/include/linux/sample_arch.h" "$T/include/linux/sample_arch.h"
wait_idle "$K"
PATH=$(dirname "$UAPICTL"):$PATH UAPID_TEST_FILE=$T/include/linux/sample_arch.h \
	UAPID_TEST_UAPI_FILE=$T/include/uapi/linux/mini.h UAPID_TEST_IOCTL_FILE=$T/include/linux/sample_ioctl.h \
	timeout 120 nvim --headless -u NONE -i NONE --cmd "set rtp^=$top_srcdir/editors/nvim" \
	--cmd 'runtime plugin/uapid.lua' -c "luafile $top_srcdir/tests/lib/nvim/test.lua" \
	>"$WORK/nvim.out" 2>&1 </dev/null && pass || {
	fail "Neovim test"
	cat "$WORK/nvim.out" >&2
}
grep -q '^0 failed' "$WORK/nvim.out" && pass || fail "the Neovim test did not finish"

# the bridge exits with the editor; the daemon saw clients come and go
"$UAPICTL" --socket "$K" --json status | json_field clients.connected >"$WORK/conn"
[ "$(cat "$WORK/conn")" = 1 ] && pass || fail "clients left connected: $(cat "$WORK/conn")"
stop_daemon
finish
