#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The service's first promise, tree by tree: uapid watch's split/ and
# install/include/ equal, byte for byte, what `uapid split --output` and
# `uapid install` write for the tree as it is, after the start and after
# every step of a scripted sequence (a Kbuild entry added and removed, an
# exported header renamed, deleted, made unexported, an exported file not
# named *.h, a symlink, a directory created and moved; on the install side
# a uapi header added, edited, renamed, made unexported, a file not named
# *.h, a symlink, a directory moved), and after git checkouts between two
# versions; the store must say what is there after each (storecheck.py).
#
# The trees: examples/tree, tests/trees/* (those that are trees), and the
# two halves together (tests/lib/daemon-lib.sh), with git checkouts between two
# commits of a repository built here; that is the make check part.  With
# UD_KERNELS or UD_KERNEL_6_1 set (the full tier), the pre-split ground-truth
# trees $UD_KERNELS/linux-3.6, -3.7 and -3.8 (default ~/kernels; skipped
# with a message when absent); when asked,
# a linux-source-6.1 tree (UD_KERNEL_6_1=DIR, an unpacked tree, or
# UD_KERNEL_6_1=deb for Debian's linux-source-6.1) and a git checkout
# between two real releases (UD_LINUX_GIT=REPO with UD_LINUX_REVS="OLD NEW",
# e.g. the linux-3.6-custom mirror's "c5ea898e7f30 c0917ce1"; or
# UD_LINUX_GIT=deb: a repository made here of Debian's linux-source-6.1
# and 6.12, one commit each): the full test tier's part (test.sh:
# UD_KERNEL_6_1=deb UD_LINUX_GIT=deb, on the trees it extracted once for
# the run, tests/kernel/kernel-lib.sh; run alone, they are extracted here).
#
#   sh tests/cli/daemon-vs-batch.sh                 # make check's trees
#   UD_KERNELS=/work/kernels UD_KERNEL_6_1=/work/kernels/linux-source-6.1 \
#   UD_LINUX_GIT=/work/.mirror/a94338240+linux-3.6-custom/repo \
#   UD_LINUX_REVS="c5ea898e7f30 c0917ce1" sh tests/cli/daemon-vs-batch.sh
. "${top_srcdir:-.}/tests/lib/lib.sh"
. "${top_srcdir:-.}/tests/lib/daemon-lib.sh"
. "${top_srcdir:-.}/tests/kernel/kernel-lib.sh"
export UAPID_ARCH=
export GIT_AUTHOR_NAME="A U Thor" GIT_AUTHOR_EMAIL=author@example.org
export GIT_COMMITTER_NAME="C O Mitter" GIT_COMMITTER_EMAIL=committer@example.org
kernels=${UD_KERNELS:-$HOME/kernels}
export GIT_CONFIG_NOSYSTEM=1 HOME=$WORK

states=0
# same WHAT: the state directory is what the batch commands write for $T now
same() {
	wait_idle "$K"
	states=$((states + 1))
	rm -rf "$WORK/fresh-split" "$WORK/fresh-install"
	"$UAPID" split --output "$WORK/fresh-split" ${MARKERS:+--markers "$MARKERS"} "$T" \
		>/dev/null 2>&1 || true
	mkdir -p "$WORK/fresh-split"
	if diff -r "$WORK/fresh-split" "$S/split" >"$WORK/diff" 2>&1; then
		pass
	else
		fail "$name: $1: split/ differs from uapid split --output"
		head -20 "$WORK/diff" >&2
	fi
	"$UAPID" install --arch "$ARCH" "$T" "$WORK/fresh-install" >"$WORK/install.out" 2>&1 || true
	if [ -d "$WORK/fresh-install/include" ]; then
		if diff -r "$WORK/fresh-install/include" "$S/install/include" >"$WORK/diff" 2>&1; then
			pass
		else
			fail "$name: $1: install/include differs from uapid install"
			head -20 "$WORK/diff" >&2
		fi
	else
		# uapid install refused the tree (nothing written): the daemon names the same
		# refusal in its problems (what it installed before stays, stale but named)
		why=$(head -1 "$WORK/install.out")
		status_json "$K" >"$WORK/status"
		if python3 -c 'import json,sys
s=json.load(open(sys.argv[1]))
sys.exit(not any(p["what"] == "install" for p in s["problems"]))' "$WORK/status"; then
			pass
		else
			fail "$name: $1: uapid install refuses the tree ($why); the daemon's problems do not say so"
			cat "$WORK/install.out" "$WORK/status" >&2
		fi
	fi
	if python3 "$top_srcdir/tests/lib/storecheck.py" "$T" "$S" >"$WORK/store" 2>&1; then
		pass
	else
		fail "$name: $1: the store does not say what is there"
		head -20 "$WORK/store" >&2
	fi
}

# A non-uapi directory whose Kbuild exports headers that are there (the split side).
split_dir() {
	(cd "$T" && find include arch -name Kbuild -not -path '*/uapi/*' 2>/dev/null | LC_ALL=C sort) |
		while read -r kb; do
			d=${kb%/Kbuild}
			for e in $(sed -n 's/^header-y *+= *\([^ /]*\.h\) *$/\1/p' "$T/$kb"); do
				if [ -f "$T/$d/$e" ] && [ ! -L "$T/$d/$e" ]; then
					echo "$d $e"
					return
				fi
			done
		done
}

header_text() { # header_text NAME: a header with a kernel-only part
	printf '#ifndef _UAPID_DVB_%s\n#define _UAPID_DVB_%s\n#define UAPID_DVB_%s 1\n#ifdef __KERNEL__\nint uapid_dvb_%s;\n#endif\n#endif\n' \
		"$1" "$1" "$1" "$1"
}

# The scripted sequence on the split side: directory $1, an exported header $2 of it.
split_steps() {
	d=$T/$1 x=$2
	cp "$d/Kbuild" "$WORK/kbuild.orig"
	header_text NEW >"$d/uapid_dvb_new.h"
	printf 'header-y += uapid_dvb_new.h\n' >>"$d/Kbuild"
	same "a Kbuild entry added ($1)"
	cp "$WORK/kbuild.orig" "$d/Kbuild"
	same "the Kbuild entry removed"
	rm "$d/uapid_dvb_new.h"
	same "an unexported header deleted"
	mv "$d/$x" "$d/uapid_dvb_renamed.h"
	same "an exported header renamed ($x)"
	mv "$d/uapid_dvb_renamed.h" "$d/$x"
	same "renamed back"
	cp "$d/$x" "$WORK/saved.h"
	rm "$d/$x"
	same "an exported header deleted"
	cp "$WORK/saved.h" "$d/$x"
	same "the deleted header back"
	sed "/^header-y *+= *$x *\$/d" "$WORK/kbuild.orig" >"$d/Kbuild"
	same "an exported header made unexported"
	cp "$WORK/kbuild.orig" "$d/Kbuild"
	same "exported again"
	header_text AGH >"$d/uapid_dvb.agh"
	printf 'header-y += uapid_dvb.agh\n' >>"$d/Kbuild"
	same "an exported file not named *.h"
	printf '/* edited */\n' >>"$d/uapid_dvb.agh"
	same "the file not named *.h edited"
	cp "$WORK/kbuild.orig" "$d/Kbuild"
	same "the file not named *.h unexported"
	rm "$d/uapid_dvb.agh"
	same "the file not named *.h deleted"
	ln -s "$x" "$d/uapid_dvb_link.h"
	printf 'header-y += uapid_dvb_link.h\n' >>"$d/Kbuild"
	same "a symlink to an exported header, listed"
	rm "$d/uapid_dvb_link.h"
	cp "$WORK/kbuild.orig" "$d/Kbuild"
	same "the symlink gone"
	mkdir "$d/uapid_dvb_dir"
	header_text SUB >"$d/uapid_dvb_dir/inner.h"
	printf 'header-y += inner.h\n' >"$d/uapid_dvb_dir/Kbuild"
	same "a directory with an export list created"
	mv "$d/uapid_dvb_dir" "$d/uapid_dvb_moved"
	same "the directory moved"
	rm -rf "$d/uapid_dvb_moved"
	same "the directory deleted"
	# a directory of the tree's own moved away and back
	sub=$(cd "$d" && find . -mindepth 2 -name '*.h' | head -1 | cut -d/ -f2)
	if [ -n "$sub" ]; then
		mv "$d/$sub" "$d/uapid_dvb_$sub"
		same "the tree's $1/$sub moved"
		mv "$d/uapid_dvb_$sub" "$d/$sub"
		same "moved back"
	fi
}

# The scripted sequence on the install side (include/uapi/linux).
install_steps() {
	u=$T/include/uapi/linux
	old=$(cd "$u" && ls ./*.h | head -1)
	old=${old#./}
	cp "$T/include/uapi/Kbuild" "$WORK/ukbuild.orig" 2>/dev/null || : >"$WORK/ukbuild.orig"
	cp "$u/Kbuild" "$WORK/ulkbuild.orig" 2>/dev/null || rm -f "$WORK/ulkbuild.orig"
	header_text U | sed 's/#ifdef __KERNEL__/#ifdef UAPID_DVB_CONFIG/' >"$u/uapid_dvb_u.h"
	# a 3.x uapi directory lists its headers (the install reads the list)
	if [ -f "$WORK/ulkbuild.orig" ] && grep -q '^header-y' "$u/Kbuild"; then
		printf 'header-y += uapid_dvb_u.h\n' >>"$u/Kbuild"
	fi
	same "a uapi header added"
	printf '#define UAPID_DVB_EDIT 2\n' >>"$u/uapid_dvb_u.h"
	same "the uapi header edited"
	if [ -f "$WORK/ulkbuild.orig" ] && grep -q '^header-y' "$u/Kbuild"; then
		cp "$WORK/ulkbuild.orig" "$u/Kbuild"
	else
		printf 'no-export-headers += linux/uapid_dvb_u.h\n' >>"$T/include/uapi/Kbuild"
	fi
	same "the uapi header made unexported"
	cp "$WORK/ukbuild.orig" "$T/include/uapi/Kbuild"
	[ -f "$WORK/ulkbuild.orig" ] && cp "$WORK/ulkbuild.orig" "$u/Kbuild"
	rm "$u/uapid_dvb_u.h"
	same "the uapi header deleted"
	mv "$u/$old" "$u/uapid_dvb_$old"
	same "a uapi header renamed ($old)"
	mv "$u/uapid_dvb_$old" "$u/$old"
	same "renamed back"
	printf 'not a header\n' >"$u/uapid_dvb.txt"
	same "a file not named *.h in a uapi directory"
	rm "$u/uapid_dvb.txt"
	ln -s "$old" "$u/uapid_dvb_link.h"
	same "a symlink in a uapi directory"
	rm "$u/uapid_dvb_link.h"
	same "the symlink gone"
	mkdir "$u/uapid_dvb_sub"
	header_text USUB >"$u/uapid_dvb_sub/a.h"
	same "a uapi subdirectory created"
	mv "$u/uapid_dvb_sub" "$u/uapid_dvb_sub2"
	same "the uapi subdirectory moved"
	rm -rf "$u/uapid_dvb_sub2"
	same "the uapi subdirectory deleted"
}

# run_tree NAME TREE [MARKERS]: the daemon on a copy of TREE, and every step
run_tree() {
	name=$1 T=$WORK/t-$1 S=$WORK/s-$1 K=$WORK/k-$1.sock MARKERS=${3:-}
	states=0
	rm -rf "$T" "$S"
	mkdir -p "$T"
	cp -R "$2/." "$T/"
	chmod -R u+w "$T"
	: >"$WORK/daemon.log"
	start_daemon "$T" "$S" "$K" ${MARKERS:+--markers "$MARKERS"} || return 0
	same "the start"
	set -- $(split_dir)
	if [ $# = 2 ]; then
		split_steps "$1" "$2"
	else
		echo "daemon-vs-batch: $name: no export list outside uapi/: no split-side steps"
	fi
	if [ -d "$T/include/uapi/linux" ]; then
		install_steps
	else
		echo "daemon-vs-batch: $name: no include/uapi/linux: no install-side steps"
	fi
	stop_daemon
	echo "daemon-vs-batch: $name: $states states compared"
}

# run_git NAME REPO OLD NEW: the daemon on REPO at OLD, then git checkout NEW and back
run_git() {
	name=$1 T=$2 S=$WORK/s-$1 K=$WORK/k-$1.sock MARKERS=
	states=0
	git -C "$T" checkout -q "$3"
	: >"$WORK/daemon.log"
	start_daemon "$T" "$S" "$K" || return 0
	same "at $3"
	git -C "$T" checkout -q "$4"
	same "git checkout $4"
	git -C "$T" checkout -q "$3"
	same "git checkout $3 again"
	stop_daemon
	echo "daemon-vs-batch: $name: $states states compared"
}

# --- make check's trees ----------------------------------------------------------------
ARCH=x86
run_tree examples "$top_srcdir/examples/tree" "$top_srcdir/examples/markers"
for t in "$top_srcdir"/tests/trees/*; do
	if [ -d "$t/include" ]; then
		run_tree "${t##*/}" "$t"
	else
		echo "daemon-vs-batch: tests/trees/${t##*/}: not a tree (no include/): left out"
	fi
done
new_tree "$WORK/both"
run_tree both "$WORK/both"

# a repository built here: two commits that differ in every way the sequence has
R=$WORK/repo
new_tree "$R"
git -C "$R" init -q -b master
git -C "$R" add -A
git -C "$R" commit -q -m one
header_text GIT >"$R/include/linux/uapid_git.h"
printf 'header-y += uapid_git.h\nheader-y += uapid_git.agh\n' >>"$R/include/linux/Kbuild"
header_text AGH >"$R/include/linux/uapid_git.agh"
git -C "$R" mv include/linux/sample_ioctl.h include/linux/sample_ioctl2.h
git -C "$R" rm -q include/linux/sample_forward.h
printf '#define MINI_GIT 1\n' >>"$R/include/uapi/linux/mini.h"
mkdir -p "$R/include/uapi/linux/gitsub"
header_text GSUB >"$R/include/uapi/linux/gitsub/g.h"
git -C "$R" add -A
git -C "$R" commit -q -m two
run_git repo "$R" HEAD~1 master

# --- the ground-truth 3.x trees, when present ----------------------------------------------
# (real releases are the full tier's: ./test.sh --full asks for 6.1 too; make check stays quick)
for v in 3.6 3.7 3.8; do
	if [ -z "${UD_KERNELS:-}${UD_KERNEL_6_1:-}" ]; then
		echo "daemon-vs-batch: linux-$v: in ./test.sh --full (or UD_KERNELS=DIR)"
	elif [ -d "$kernels/linux-$v/include" ]; then
		run_tree "linux-$v" "$kernels/linux-$v"
	else
		echo "daemon-vs-batch: $kernels/linux-$v: not there: skipped (UD_KERNELS=DIR names where they are)"
	fi
done

# --- linux-source-6.1, when asked -------------------------------------------------------------
if [ -n "${UD_KERNEL_6_1:-}" ]; then
	ARCH=x86_64
	k61=$UD_KERNEL_6_1
	# deb: the tree test.sh extracted for the run, else one extracted here (kernel-lib.sh)
	if [ "$k61" = deb ]; then
		k61=$(kernel_tree 6.1) || exit 2
	fi
	mkdir -p "$WORK/k61"
	(cd "$k61" && tar -cf - Makefile Kbuild scripts include arch/*/Makefile arch/*/include \
		arch/x86/entry/syscalls) | tar -xf - -C "$WORK/k61"
	run_tree linux-6.1 "$WORK/k61"
	rm -rf "$WORK/k61" "$WORK/t-linux-6.1" "$WORK/s-linux-6.1"
fi

# --- git checkout between two real releases, when asked -------------------------------------
if [ "${UD_LINUX_GIT:-}" = deb ]; then
	# Debian's linux-source-6.1 and 6.12, one commit each, in a repository made here
	ARCH=x86_64
	L=$WORK/linux-git
	mkdir -p "$L"
	git -C "$L" init -q -b master
	for v in 6.1 6.12; do
		(cd "$L" && git ls-files -z | xargs -0 rm -f)
		src=$(kernel_tree "$v") || exit 2
		kernel_copy "$src" "$L" '*/Makefile' '*/Kbuild' '*/scripts/*' '*/include/*' \
			'*/arch/x86/entry/syscalls/*' --exclude '*/tools/*'
		git -C "$L" add -A
		git -C "$L" commit -q -m "linux $v"
	done
	run_git "linux-6.1-6.12" "$L" HEAD~1 master
	rm -rf "$L" "$WORK/s-linux-6.1-6.12"
elif [ -n "${UD_LINUX_GIT:-}" ]; then
	ARCH=x86
	set -- ${UD_LINUX_REVS:-}
	[ $# = 2 ] || { echo "daemon-vs-batch: UD_LINUX_REVS must name two revisions" >&2; exit 2; }
	L=$WORK/linux-git
	git clone -q --shared --no-checkout "$UD_LINUX_GIT" "$L"
	git -C "$L" sparse-checkout set --no-cone '/Makefile' '/scripts/' '/include/' \
		'/arch/*/Makefile' '/arch/*/include/' '/arch/x86/syscalls/' '/arch/x86/entry/syscalls/'
	run_git "linux-git" "$L" "$1" "$2"
fi

finish
