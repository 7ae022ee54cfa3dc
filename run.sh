#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# ./run.sh [TREE]: install what is missing, build, and run uapid's main job:
# the daemon, `uapid watch`, in the foreground on TREE.  It keeps TREE's
# split (split/) and installed headers (install/include/) current in its
# state directory while TREE changes, and answers on its socket.  Without
# TREE it watches a scratch copy of the sample tree (examples/tree, with
# its markers) that you may edit.  Ctrl-C stops it cleanly.
set -euo pipefail
. "$(dirname "$0")/.ci/setup.sh"

ud_install_deps
ud_build "$UD_BUILD"
uapid=$UD_BUILD/src/uapid
uapictl=$UD_BUILD/src/uapictl
args=()
if [ -n "${1:-}" ]; then
	tree=$1
	[ -d "$tree" ] || { echo "run.sh: $tree: not a directory" >&2; exit 2; }
else
	scratch=$(mktemp -d "${TMPDIR:-/tmp}/uapid-sample.XXXXXX")
	tree=$scratch/tree
	cp -R "$UD_TOP/examples/tree" "$tree"
	args=(--state-dir "$scratch/state" --socket "$scratch/uapid.sock"
		--markers "$UD_TOP/examples/markers")
	echo "run.sh: watching a scratch copy of the sample tree: $tree (edit it)"
fi
paths=$("$uapid" watch --print-paths "${args[@]}" "$tree")
state=$(printf '%s\n' "$paths" | sed -n 's/^state_dir=//p')
sock=$(printf '%s\n' "$paths" | sed -n 's/^socket=//p')
header=$(cd "$tree" && find include -name '*.h' -not -path '*/uapi/*' 2>/dev/null | sort | head -1)
cat <<EOF
==> outputs: $state/split (as uapid split --output writes them)
             $state/install/include (as uapid install writes them, for trees with include/uapi)
    store:   $state/state.db
    socket:  $sock
    From a second terminal, try (uapictl finds the daemon from any path in the tree):
      cd $tree && $uapictl status
      $uapictl headers
      $uapictl watch &   # prints what changes
      echo '/* an edit */' >> $tree/${header:-include/linux/some.h}
      $uapictl classify $tree/${header:-include/linux/some.h}
      $uapictl preview $tree/${header:-include/linux/some.h}
      $uapictl changes --since 1
      sqlite3 $state/state.db 'SELECT clock, path, kind, detail FROM events ORDER BY clock DESC LIMIT 5'
    In Neovim: PATH=$(dirname "$uapictl"):\$PATH nvim --cmd 'set rtp^=$UD_TOP/editors/nvim' $tree/${header:-include/linux/some.h}
    Ctrl-C stops the daemon.
EOF
exec "$uapid" watch "${args[@]}" "$tree"
