#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The Debian package, end to end, on this machine (it installs packages: run
# it as root on a Debian machine you may change, as test.sh's full run does):
#  1. builds the source package (dpkg-source) and the .deb
#     (dpkg-buildpackage -us -uc -b) from a scratch copy of the checkout
#     (tracked and untracked files, not what .gitignore ignores), installing
#     the Build-Depends and lintian when they are missing; runs lintian on
#     both: no error, no warning (the informational tags are printed);
#  2. lists the files of /etc /usr /var /opt /srv, installs the .deb with
#     apt-get, checks where everything went, that Neovim loads the plugin
#     without configuration, that `man uapid` works;
#  3. starts uapid@<escaped tree>.service with systemctl where systemd runs
#     as init; elsewhere runs the installed unit's ExecStart by hand as the
#     unit would (its Environment=, StateDirectory=, RuntimeDirectory=,
#     UMask=, a NOTIFY_SOCKET for Type=notify); `uapictl status` from
#     /usr/bin answers for the tree; stops it;
#  4. removes the package (the state stays), purges it, and compares the
#     file lists: nothing of the package is left.
# Whatever fails, the exit trap stops the daemon, purges the package and
# removes the tree.  Exit 77 (with the reason) where it cannot run: not
# root, no dpkg/apt, no debian/ (a release tarball), or uapid already
# installed (or its state left) on this machine.
# DEB_BUILD_OPTIONS defaults to "nocheck": test.sh's make check runs the
# same suites; UD_PACKAGE_CHECK=1 runs them inside the package build too.
# Run: sudo sh tests/cli/package.sh (from the top of a checkout).
. "${top_srcdir:-.}/tests/lib/lib.sh"
. "$top_srcdir/tests/lib/daemon-lib.sh"

skip() {
	echo "package: skipped: $*"
	exit 77
}
[ "$(id -u)" = 0 ] || skip "not root (the test installs and purges the package)"
command -v dpkg >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1 || skip "no dpkg/apt-get: not Debian"
[ -f "$top_srcdir/debian/control" ] || skip "no debian/ in $top_srcdir (a release tarball)"
command -v git >/dev/null 2>&1 || skip "no git to list the checkout's files"
if dpkg-query -W -f='${db:Status-Status}' uapid 2>/dev/null | grep -qv '^not-installed$'; then
	skip "uapid is installed on this machine ($(dpkg-query -W -f='${db:Status-Status}' uapid)); the test would replace it"
fi
[ ! -e /var/lib/uapid ] || skip "/var/lib/uapid exists (another uapid's state): the purge would remove it"

TREEDIR=
DPID=
NPID=
INST=
started_unit=
made_run=
cleanup() {
	code=$?
	set +e
	if [ -n "$DPID" ]; then kill -TERM "$DPID" 2>/dev/null && wait "$DPID"; fi
	[ -n "$NPID" ] && kill "$NPID" 2>/dev/null
	[ -n "$started_unit" ] && systemctl stop "$started_unit" "uapid@$INST.socket" 2>/dev/null
	if dpkg-query -W -f='${db:Status-Status}' uapid 2>/dev/null | grep -qv '^not-installed$'; then
		echo "package: purging uapid after a failure" >&2
		DEBIAN_FRONTEND=noninteractive dpkg --purge uapid >/dev/null
	fi
	rm -rf /var/lib/uapid
	[ -n "$INST" ] && rm -rf "/run/uapid/$INST"
	[ -n "$made_run" ] && rmdir /run/uapid 2>/dev/null
	[ -n "$TREEDIR" ] && rm -rf "$TREEDIR"
	rm -rf "$WORK"
	exit $code
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

say() { printf 'package: %s\n' "$*"; }
# check_cmd DESCRIPTION CMD...: CMD succeeds (its output in $WORK/out, $WORK/err)
check_cmd() {
	d=$1
	shift
	if "$@" >"$WORK/out" 2>"$WORK/err"; then pass; else
		fail "$d: $*"
		sed 's/^/  | /' "$WORK/out" "$WORK/err" | tail -20 >&2
	fi
}

# --- 1. build ---------------------------------------------------------------------------
S=$WORK/src
mkdir -p "$S/uapid"
(cd "$top_srcdir" && git ls-files -z --cached --others --exclude-standard |
	tar --null -T - --ignore-failed-read -cf - 2>/dev/null) | tar -C "$S/uapid" -xf -
# an index of the copy, to see afterwards what the build left beside the sources
(cd "$S/uapid" && git init -q . && git add -A)
if ! (cd "$S/uapid" && dpkg-checkbuilddeps) >/dev/null 2>&1 || ! command -v lintian >/dev/null 2>&1; then
	say "installing the Build-Depends and lintian"
	apt-get update -qq
	(cd "$S/uapid" && DEBIAN_FRONTEND=noninteractive apt-get build-dep -y -qq ./ >/dev/null)
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends lintian >/dev/null
fi
version=$(cd "$S/uapid" && dpkg-parsechangelog -S Version)
arch=$(dpkg --print-architecture)
say "dpkg-source -b, then dpkg-buildpackage -us -uc -b (uapid $version)"
(cd "$S" && dpkg-source -b uapid >"$WORK/source.log" 2>&1) || { cat "$WORK/source.log" >&2; exit 1; }
opts=nocheck
[ "${UD_PACKAGE_CHECK:-0}" = 1 ] && opts=
start=$(date +%s)
if ! (cd "$S/uapid" && DEB_BUILD_OPTIONS="$opts parallel=$(nproc)" dpkg-buildpackage -us -uc -b) \
	>"$WORK/build.log" 2>&1; then
	tail -60 "$WORK/build.log" >&2
	fail "dpkg-buildpackage"
	finish
	exit 1
fi
deb=$S/uapid_${version}_$arch.deb
say "built in $(($(date +%s) - start)) s: ${deb##*/} $(stat -c %s "$deb") bytes," \
	"Installed-Size $(dpkg-deb -f "$deb" Installed-Size) KiB"
# the build changes no source and leaves nothing .gitignore does not cover
(cd "$S/uapid" && git diff --name-status && git ls-files --others --exclude-standard) >"$WORK/status"
if [ -s "$WORK/status" ]; then
	fail "the package build leaves the source tree unclean for git:"
	sed 's/^/  | /' "$WORK/status" >&2
else
	pass
fi

# lintian: no error, no warning; the info (I:), pedantic (P:) and experimental (X:)
# tags are printed, and an override would be too
lintian -I -E --pedantic --show-overrides --fail-on error,warning \
	"$S/uapid_${version}_$arch.changes" "$S/uapid_$version.dsc" >"$WORK/lintian" 2>&1 &&
	pass || fail "lintian reports errors or warnings"
grep -v '^running with root privileges' "$WORK/lintian" | sed 's/^/lintian: /'
say "lintian: $(grep -c '^E:' "$WORK/lintian") errors, $(grep -c '^W:' "$WORK/lintian") warnings," \
	"$(grep -c '^[IPX]:' "$WORK/lintian") info/pedantic/experimental tags"

# --- 2. install ---------------------------------------------------------------------------
# The system's files, but for the package manager's own records and caches; the
# tree (under /srv: the unit's PrivateTmp= would hide /tmp) is the user's.
TREEDIR=$(mktemp -d /srv/uapid-package.XXXXXX)
chmod 755 "$TREEDIR"
snapshot() {
	find /etc /usr /var /opt /srv -xdev \( -path /var/lib/dpkg -o -path /var/lib/apt \
		-o -path /var/cache/apt -o -path /var/cache/debconf -o -path /var/cache/man \
		-o -path /var/log -o -path /var/tmp -o -path "$TREEDIR" -o -path "$WORK" \) -prune \
		-o -printf '%p %y %m\n' | LC_ALL=C sort >"$1"
}
snapshot "$WORK/before"
say "apt-get install ./${deb##*/}"
check_cmd "apt-get install" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	--no-install-recommends "$deb"
unitdir=$(pkg-config --variable=systemdsystemunitdir systemd)
dpkg -L uapid >"$WORK/files"
for f in /usr/bin/uapid /usr/bin/uapictl /usr/libexec/uapid/uapid-full "$unitdir/uapid@.service" "$unitdir/uapid@.socket" \
	/usr/share/man/man1/uapid.1.gz /usr/share/man/man1/uapictl.1.gz \
	/usr/share/man/man7/uapid-protocol.7.gz /usr/share/man/man8/uapid@.service.8.gz \
	/usr/share/bash-completion/completions/uapid /usr/share/bash-completion/completions/uapictl \
	/usr/share/nvim/site/pack/dist-bundle/start/uapid/plugin/uapid.lua \
	/usr/share/nvim/site/pack/dist-bundle/start/uapid/lua/uapid.lua \
	/usr/share/doc/uapid/copyright /usr/share/doc/uapid/editors/README.md.gz; do
	if grep -qx -- "$f" "$WORK/files" && [ -f "$f" ]; then pass; else fail "not installed: $f"; fi
done
unit=$unitdir/uapid@.service
expect_in "$unit" "ExecStart=/usr/bin/uapid watch"

# man finds the pages by name, and renders them
for p in "uapid" "uapictl" "7 uapid-protocol" "8 uapid@.service"; do
	# shellcheck disable=SC2086 # section and name
	check_cmd "man $p" env MANWIDTH=80 man $p
	[ -s "$WORK/out" ] && pass || fail "man $p printed nothing"
done
MANWIDTH=80 man uapid >"$WORK/man" 2>&1 || true
expect_in "$WORK/man" "uapid watch"

# bash-completion loads the completions by command name
bash -c '. /usr/share/bash-completion/bash_completion; _completion_loader uapictl
	_completion_loader uapid; complete -p uapid uapictl' >"$WORK/comp" 2>&1 || true
expect_in "$WORK/comp" " uapid"
expect_in "$WORK/comp" " uapictl"

# Neovim, with an empty home and no configuration, loads the plugin from the
# package's pack directory; g:loaded_uapid = 1 before it opts out
nvhome=$WORK/nvhome
mkdir -p "$nvhome"
nvim_q() {
	env -i HOME="$nvhome" PATH=/usr/bin:/bin TERM=dumb nvim --headless "$@" \
		-c 'lua io.stdout:write(string.format("loaded=%s cmd=%d from=%s\n", tostring(vim.g.loaded_uapid), vim.fn.exists(":UapidStatus"), table.concat(vim.api.nvim_get_runtime_file("plugin/uapid.lua", true), ",")))' \
		-c 'qa!' 2>&1
}
if command -v nvim >/dev/null 2>&1; then
	nvim_q >"$WORK/nvim"
	sed 's/^/nvim: /' "$WORK/nvim"
	expect_in "$WORK/nvim" "loaded=1 cmd=2 from=/usr/share/nvim/site/pack/dist-bundle/start/uapid/plugin/uapid.lua"
	nvim_q --cmd 'let g:loaded_uapid = 1' >"$WORK/nvim-off"
	expect_in "$WORK/nvim-off" "loaded=1 cmd=0"
else
	fail "nvim is not installed (a Build-Depends of the test suite)"
fi

# --- 3. the unit ------------------------------------------------------------------------------
TREE=$TREEDIR/linux
new_tree "$TREE"
INST=$(systemd-escape --path "$TREE")
SOCK=/run/uapid/$INST/uapid.sock
if [ -d /run/systemd/system ]; then
	say "systemd runs: systemctl start uapid@$INST.service"
	started_unit=uapid@$INST.service
	check_cmd "systemctl start" systemctl start "$started_unit"
	check_cmd "unit active" systemctl is-active "$started_unit"
else
	say "no systemd as init: the ExecStart of $unit by hand, as the unit would run it"
	# specifiers (%f the unescaped path, %i the instance, %t /run), then ${VAR}
	# from Environment= (one word each, as systemd expands them); the values
	# go through the environment, so the backslashes of an escaped instance
	# (\x2d for each "-" of the path) stay as they are
	subst() { # subst FROM TO: every FROM in stdin becomes TO
		FROM=$1 TO=$2 awk '{ out = ""; while ((i = index($0, ENVIRON["FROM"])) > 0) {
			out = out substr($0, 1, i - 1) ENVIRON["TO"]; $0 = substr($0, i + length(ENVIRON["FROM"])) }
			print out $0 }'
	}
	value() { sed -n "s/^$1=//p" "$unit" | subst %f "$TREE" | subst %i "$INST" | subst %t /run; }
	env_lines=$(value Environment)
	exec_line=$(value ExecStart)
	state=/var/lib/$(value StateDirectory)
	runtime=/run/$(value RuntimeDirectory)
	umask_unit=$(value UMask)
	case "$exec_line$env_lines" in *'"'* | *"'"* | *'\'*)
		fail "unit lines with quotes: this test does not parse them: $exec_line" ;;
	esac
	if printf '%s\n' "$exec_line" "$env_lines" "$state" "$runtime" | grep -q '%[a-zA-Z%]'; then
		fail "a specifier this test does not expand: $exec_line $env_lines $state $runtime"
	fi
	for kv in $env_lines; do
		k=${kv%%=*} v=${kv#*=}
		exec_line=$(printf '%s\n' "$exec_line" | subst "\${$k}" "$v")
	done
	say "ExecStart: $exec_line"
	say "STATE_DIRECTORY=$state RUNTIME_DIRECTORY=$runtime UMask=$umask_unit"
	[ -d /run/uapid ] || made_run=1
	mkdir -p "$state" "$runtime"
	# Type=notify: a socket that records what the daemon tells systemd
	python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
with open(sys.argv[2], "a") as log:
    while True:
        log.write(s.recv(4096).decode() + "\n")
        log.flush()
' "$WORK/notify.sock" "$WORK/notify.log" &
	NPID=$!
	i=0
	while [ ! -S "$WORK/notify.sock" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	: >"$WORK/notify.log"
	# shellcheck disable=SC2086 # the unit's words
	(
		cd /
		umask "$umask_unit"
		for kv in $env_lines; do export "${kv?}"; done
		export STATE_DIRECTORY="$state" RUNTIME_DIRECTORY="$runtime" \
			NOTIFY_SOCKET="$WORK/notify.sock" WATCHDOG_USEC=60000000
		exec $exec_line
	) >"$WORK/daemon.log" 2>&1 &
	DPID=$!
	i=0
	while ! grep -qx 'READY=1' "$WORK/notify.log" && [ $i -lt 1200 ]; do
		kill -0 "$DPID" 2>/dev/null || break
		sleep 0.1
		i=$((i + 1))
	done
	if grep -qx 'READY=1' "$WORK/notify.log"; then pass; else
		fail "no READY=1 from the daemon"
		tail -20 "$WORK/daemon.log" >&2
	fi
fi
# the installed client finds the system instance with no option but the tree
check_cmd "uapictl sockname" /usr/bin/uapictl sockname "$TREE/include/linux"
expect_in "$WORK/out" "$SOCK"
check_cmd "uapictl status" /usr/bin/uapictl --tree "$TREE" status
sed 's/^/uapictl status: /' "$WORK/out"
expect_in "$WORK/out" "$TREE"
/usr/bin/uapictl --tree "$TREE" --json status >"$WORK/status.json" 2>&1 || true
if [ "$(json_field ready <"$WORK/status.json" 2>/dev/null)" = true ]; then pass; else
	fail "uapictl --json status: not ready"
	sed 's/^/  | /' "$WORK/status.json" >&2
fi
# the outputs are where the unit says, in the state directory
for f in state.db split install/include/linux/mini.h; do
	[ -e "/var/lib/uapid/$INST/$f" ] && pass || fail "no /var/lib/uapid/$INST/$f"
done
# the plugin, from the package, finds the instance through the installed uapictl
if command -v nvim >/dev/null 2>&1; then
	env -i HOME="$nvhome" PATH=/usr/bin:/bin nvim --headless \
		-c "lua io.stdout:write('tree=' .. tostring((require('uapid').find('$TREE/include/linux/sample_types.h') or {}).tree) .. '\n')" \
		-c 'qa!' >"$WORK/nvim-find" 2>&1
	expect_in "$WORK/nvim-find" "tree=$TREE"
fi
if [ -n "$started_unit" ]; then
	check_cmd "systemctl stop" systemctl stop "$started_unit"
	started_unit=
else
	kill -TERM "$DPID"
	set +e
	wait "$DPID"
	code=$?
	set -e
	DPID=
	[ "$code" = 0 ] && pass || fail "daemon exit $code after SIGTERM"
	expect_in "$WORK/notify.log" "STOPPING=1"
	kill "$NPID" 2>/dev/null || true
	NPID=
	# what systemd does when the service stops: the runtime directory goes
	rm -rf "$runtime"
	[ -n "$made_run" ] && rmdir /run/uapid
fi

# --- 4. remove, purge -------------------------------------------------------------------------
say "apt-get remove uapid, then apt-get purge uapid"
check_cmd "apt-get remove" env DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq uapid
for f in /usr/bin/uapid /usr/bin/uapictl "$unit" /usr/share/nvim/site/pack/dist-bundle/start/uapid; do
	expect_no_file "$f"
done
[ -f "/var/lib/uapid/$INST/state.db" ] && pass || fail "remove took the state (only purge should)"
check_cmd "apt-get purge" env DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq uapid
[ "$(dpkg-query -W -f='${db:Status-Status}' uapid 2>/dev/null || echo not-installed)" = not-installed ] &&
	pass || fail "uapid still known to dpkg after purge"
expect_no_file /var/lib/uapid
snapshot "$WORK/after"
# a file another package brought meanwhile (apt run by someone else) is not ours
LC_ALL=C comm -3 "$WORK/before" "$WORK/after" >"$WORK/left"
while IFS= read -r line; do
	p=${line#"${line%%[! 	]*}"}
	p=${p% * *}
	if owner=$(dpkg-query -S "$p" 2>/dev/null); then
		echo "package: changed meanwhile, owned by ${owner%%:*}: $p"
	else
		fail "left on the system after purge: $line"
	fi
done <"$WORK/left"
[ -s "$WORK/left" ] || say "after purge: /etc /usr /var /opt /srv as before ($(wc -l <"$WORK/before") paths)"
finish
