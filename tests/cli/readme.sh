#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The README tells the truth: it is one screen (150 lines at most), every
# doc/ page (and other file) it links exists, and every "$ " command of
# its marked sections (between "<!-- readme.sh: begin -->" and
# "<!-- readme.sh: end -->") runs here, with the output it shows checked
# for its shape: the first line (numbers, hashes and paths aside) and the
# field names ("headers:", "state  ...") of the lines shown.  The sample
# tree's split is compared whole.
#
# The commands run from the source tree with the build's programs first on
# PATH and these paths of the README replaced: /tmp/ by a scratch
# directory, ~/ by a home holding small stand-ins of what a reader has
# (linux-source-6.1 and linux-source-6.12: the mini tree of tests/trees,
# the second with the README's symbols changed and added; linux: a git
# repository of the two, tagged v6.1 and v6.12), build/ by the build
# directory.  A command ending in "&" is a daemon: it runs in the
# background until it is ready (tests/lib/daemon-wait.py) and is stopped
# at the end.  nvim runs headless, until its LSP client has the daemon's
# status.
. "${top_srcdir:-.}/tests/lib/lib.sh"
: "${top_builddir:=$(pwd)}"
top_srcdir=$(cd "$top_srcdir" && pwd)
top_builddir=$(cd "$top_builddir" && pwd)
readme=$top_srcdir/README.md

# --- the page ------------------------------------------------------------------------------
lines=$(wc -l <"$readme")
if [ "$lines" -le 150 ]; then pass; else fail "README.md: $lines lines (at most 150: move the rest to doc/)"; fi
# every relative link target, and every doc/*.md named
{
	grep -o '](\([^) ]*\))' "$readme" | sed -e 's/^](//' -e 's/)$//' -e 's/#.*//' | grep -v '^[a-z]*:'
	grep -o 'doc/[A-Za-z0-9_.-]*\.md' "$readme"
} | sort -u >"$WORK/links" || true
[ -s "$WORK/links" ] && pass || fail "README.md links nothing"
while read -r l; do
	if [ -e "$top_srcdir/$l" ]; then pass; else fail "README.md links $l, which does not exist"; fi
done <"$WORK/links"

# --- the commands ----------------------------------------------------------------------------
# $WORK/cmds/N: a command; $WORK/cmds/N.out: the output the README shows under it
mkdir -p "$WORK/cmds"
python3 - "$readme" "$WORK/cmds" <<'EOF'
import sys
lines = open(sys.argv[1]).read().split("\n")
out, n, inside, cur = sys.argv[2], 0, False, None
def close():
    global cur
    if cur is not None:
        while cur[1] and cur[1][-1] == "":
            cur[1].pop()
        open("%s/%d" % (out, cur[0]), "w").write(cur[2] + "\n")
        open("%s/%d.out" % (out, cur[0]), "w").write("".join(l + "\n" for l in cur[1]))
    cur = None
for l in lines:
    if l.strip() == "<!-- readme.sh: begin -->":
        inside = True
    elif l.strip() == "<!-- readme.sh: end -->":
        close()
        inside = False
    elif not inside:
        continue
    elif l.startswith("    $ "):
        close()
        n += 1
        cur = (n, [], l[6:])
    elif cur is not None and (l.startswith("    ") or l == ""):
        cur[1].append(l[4:])
    else:
        close()
EOF
ncmds=$(find "$WORK/cmds" -type f ! -name '*.out' | wc -l)
[ "$ncmds" -ge 8 ] && pass || fail "README.md: $ncmds commands found in its marked sections"

# --- the stand-ins ---------------------------------------------------------------------------
T=$WORK/t
H=$WORK/home
mkdir -p "$T" "$H" "$WORK/run"
chmod 700 "$WORK/run"
k1=$H/linux-source-6.1
k2=$H/linux-source-6.12
cp -R "$top_srcdir/tests/trees/mini" "$k1"
chmod -R u+w "$k1"
rm -rf "${k1:?}/usr"
iouring() { # the members of struct io_sqring_offsets
	{
		echo '/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */'
		echo '#ifndef _UAPI_LINUX_IO_URING_H'
		echo '#define _UAPI_LINUX_IO_URING_H'
		echo '#include <linux/types.h>'
		echo "struct io_sqring_offsets { $1 };"
		echo 'struct io_uring_params { __u32 sq_entries; struct io_sqring_offsets sq_off; };'
		echo '#endif'
	} >"$2/include/uapi/linux/io_uring.h"
}
iouring '__u32 head; __u32 tail;' "$k1"
cp -R "$k1" "$k2"
iouring '__u32 head; __u32 tail; __u64 user_addr;' "$k2"
printf '%s\n' '/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */' \
	'#ifndef _UAPI_LINUX_EVENTPOLL_H' '#define _UAPI_LINUX_EVENTPOLL_H' \
	"#define EPOLL_IOC_TYPE 0x8A" '#endif' >"$k2/include/uapi/linux/eventpoll.h"
# the repository: the two trees as two tagged commits
repo=$H/linux
g() { git -C "$repo" -c user.name=readme -c user.email=readme@example.org "$@" >/dev/null; }
mkdir "$repo"
g init -q
cp -R "$k1/." "$repo/"
g add -A
GIT_AUTHOR_DATE='@1670803200 +0000' GIT_COMMITTER_DATE='@1670803200 +0000' g commit -q -m 'Linux 6.1'
g tag v6.1
(cd "$repo" && git ls-files -z | xargs -0 rm -f)
cp -R "$k2/." "$repo/"
g add -A
GIT_AUTHOR_DATE='@1732406400 +0000' GIT_COMMITTER_DATE='@1732406400 +0000' g commit -q -m 'Linux 6.12'
g tag v6.12

# shape LINE: whitespace runs as one space, paths as P, hashes as H, numbers as N
shape() {
	printf '%s\n' "$1" | awk '{
		for (i = 1; i <= NF; i++) {
			if ($i ~ /\//) $i = "P"
			else if ($i ~ /^[0-9a-f]+$/ && length($i) >= 7 && $i ~ /[a-f]/) $i = "H"
			else gsub(/[0-9]+/, "N", $i)
		}
		print
	}'
}
# fields FILE: the names the lines open with ("headers:", "state       ...")
fields() {
	sed -n -e 's/^\([a-z][a-z ]*[a-z]\):\( .*\)\{0,1\}$/\1/p' -e 's/^\([a-z][a-z]*\)  .*/\1/p' "$1" | sort -u
}
# the README's paths, as they are here
local_paths() {
	sed -e "s|/tmp/|$T/|g" -e "s|~/|$H/|g" -e "s#\(^\| \)build/#\1$top_builddir/#g"
}

export PATH="$top_builddir/src:$PATH" HOME="$H" XDG_RUNTIME_DIR="$WORK/run"
unset XDG_STATE_HOME UAPID_SOCKET || true
DPID=
i=0
while [ "$i" -lt "$ncmds" ]; do
	i=$((i + 1))
	shown=$(cat "$WORK/cmds/$i")
	cmd=$(printf '%s\n' "$shown" | local_paths)
	local_paths <"$WORK/cmds/$i.out" >"$WORK/want"
	case $cmd in
	*'&')
		# a daemon: in the background until ready
		(cd "$top_srcdir" && exec sh -c "exec ${cmd%&}") &
		DPID=$!
		tree=${cmd%%&*}
		tree=$(printf '%s\n' "${tree%% 2>*}" | awk '{print $NF}')
		sock=$(uapid watch --print-paths "$tree" | sed -n 's/^socket=//p')
		if python3 "$top_srcdir/tests/lib/daemon-wait.py" "$sock" ready "$DPID"; then pass; else
			fail "$shown: the daemon did not get ready"
		fi
		continue
		;;
	nvim\ *)
		if ! command -v nvim >/dev/null 2>&1; then
			fail "nvim is not installed: the README's editor step needs Debian's neovim (./test.sh installs it)"
			continue
		fi
		# the LSP client attached, then the daemon's status through it
		cat >"$WORK/status.lua" <<'LUA'
vim.wait(60000, function()
  local c = vim.lsp.buf_get_clients(0)[1]
  return c ~= nil and c.initialized
end, 20)
vim.cmd('UapidStatus')
vim.wait(60000, function() return vim.g.uapid_status ~= nil end, 20)
io.stdout:write('\nstatus tree: ' .. tostring(vim.g.uapid_status and vim.g.uapid_status.tree) .. '\n')
vim.cmd('qa!')
LUA
		(cd "$top_srcdir" && sh -c "timeout 120 nvim --headless -i NONE ${cmd#nvim } -c 'luafile $WORK/status.lua'") \
			>"$WORK/got" 2>&1 </dev/null || true
		expect_in "$WORK/got" "status tree: $T/tree"
		continue
		;;
	esac
	(cd "$top_srcdir" && MANWIDTH=80 sh -c "$cmd") >"$WORK/got" 2>&1 </dev/null || true
	case $shown in
	*examples/tree)
		# the sample tree's output whole (stdout and stderr in either order)
		sort "$WORK/want" >"$WORK/want.sorted"
		sort "$WORK/got" >"$WORK/got.sorted"
		if cmp -s "$WORK/want.sorted" "$WORK/got.sorted"; then pass; else
			fail "$shown: not the output README.md shows"
			diff -u "$WORK/want.sorted" "$WORK/got.sorted" >&2 || true
		fi
		continue
		;;
	esac
	if [ ! -s "$WORK/want" ]; then
		if [ -s "$WORK/got" ]; then fail "$shown: prints what README.md does not show"; sed 's/^/  | /' "$WORK/got" >&2; else pass; fi
		continue
	fi
	w=$(shape "$(head -1 "$WORK/want")")
	g1=$(shape "$(head -1 "$WORK/got")")
	if [ "$w" = "$g1" ]; then pass; else
		fail "$shown: first line '$g1', README.md shows '$w'"
		sed 's/^/  | /' "$WORK/got" >&2
	fi
	fields "$WORK/want" >"$WORK/want.fields"
	fields "$WORK/got" >"$WORK/got.fields"
	missing=$(comm -23 "$WORK/want.fields" "$WORK/got.fields" | tr '\n' ' ')
	if [ -z "$missing" ]; then pass; else fail "$shown: no field $missing in its output"; fi
done
if [ -n "$DPID" ]; then
	kill -TERM "$DPID" 2>/dev/null || true
	wait "$DPID" 2>/dev/null || true
fi
# copies of a read-only source tree (make distcheck) are read-only too
chmod -R u+w "$WORK"
finish
