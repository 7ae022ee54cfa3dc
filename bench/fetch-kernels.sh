#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Fetch the Linux 3.6, 3.7 and 3.8 trees that bench/gtscore.py and
# tests/kernel/groundtruth.sh score against, and (--full) the whole trees that
# tests/kernel/kernel-headers.sh and tests/kernel/old-kernels.sh install (kernel source
# never enters this repository: it goes to DEST, outside it).
#
# usage: bench/fetch-kernels.sh [--mirror-dir DIR] [--full] [DEST]
#
#   DEST/linux-3.6, DEST/linux-3.7, DEST/linux-3.8   include/ and arch/ of
#       a94338240/linux-3.6-custom  at c5ea898e7f30  (Linux 3.6.0)
#       tonyho/Linux-3.7-TQ2440     at db95d3d811b7  (Linux 3.7.0)
#       twobrokenshoes/linux-3.8    at 123d00e08873  (Linux 3.8.0)
#   DEST/full-3.6, full-3.7, full-3.8                the whole trees (--full)
#   DEST/full-2.6.35                                 (--full) the whole tree of
#       rivsidn/linux-2.6.35.6      at 62070fa14415  (Linux 2.6.35.6, its first
#                                    commit: the later ones are one person's edits)
#
# DEST defaults to $HOME/kernels.  By default each repository is fetched from
# GitHub into a bare cache, DEST/.git-cache/OWNER+REPO: first the one commit
# (depth 1), and if the server refuses that, all its branches.  --mirror-dir
# DIR uses existing bare copies instead, DIR/OWNER+REPO/repo, and no network.
# A tree is written beside its final place and renamed when complete, with a
# stamp file naming its commit; a tree already stamped is skipped, and so is
# (with a note) a directory in the way without a stamp: remove it to re-extract.
# FETCH_KERNELS_URL replaces https://github.com as the base of the URLs.
set -euo pipefail

usage() {
	echo "usage: $0 [--mirror-dir DIR] [--full] [DEST]   (DEST defaults to \$HOME/kernels)" >&2
	exit "${1:-2}"
}

mirror_dir=
full=0
dest=
while [ $# -gt 0 ]; do
	case $1 in
	--mirror-dir) [ $# -ge 2 ] || usage; mirror_dir=$2; shift 2 ;;
	--mirror-dir=*) mirror_dir=${1#*=}; shift ;;
	--full) full=1; shift ;;
	-h | --help) usage 0 ;;
	-*) echo "fetch-kernels: unknown option $1" >&2; usage ;;
	*) [ -z "$dest" ] || usage; dest=$1; shift ;;
	esac
done
dest=${dest:-$HOME/kernels}
STAMP=.fetch-kernels-stamp
base=${FETCH_KERNELS_URL:-https://github.com}

# version  owner/repo  full commit id  what (split: include/ and arch/, and the
# whole tree with --full; full: the whole tree with --full only)
TREES='
3.6 a94338240/linux-3.6-custom c5ea898e7f300f9804a9b5ab673069fbcee9f5e0 split
3.7 tonyho/Linux-3.7-TQ2440 db95d3d811b7da4cd487c924697ab8c257b2697f split
3.8 twobrokenshoes/linux-3.8 123d00e0887396adc8898529e4f5aaf5b03bb152 split
2.6.35 rivsidn/linux-2.6.35.6 62070fa14415e51aae06a636bcc9b4cec091a8ad full
'

die() { echo "fetch-kernels: $*" >&2; exit 1; }

# gitdir OWNER/REPO COMMIT: print the git directory that holds COMMIT,
# fetching it into the cache first when there is no mirror.
gitdir() {
	local slug=$1 commit=$2 dir
	if [ -n "$mirror_dir" ]; then
		dir=$mirror_dir/${slug/\//+}/repo
		[ -d "$dir" ] || die "no mirror of $slug at $dir"
	else
		dir=$dest/.git-cache/${slug/\//+}
		[ -d "$dir" ] || git init -q --bare "$dir"
		if ! git --git-dir="$dir" cat-file -e "$commit^{commit}" 2>/dev/null; then
			echo "fetching $slug $commit" >&2
			if ! git --git-dir="$dir" fetch -q --depth 1 "$base/$slug" "$commit"; then
				echo "fetching all branches of $slug instead" >&2
				git --git-dir="$dir" fetch -q "$base/$slug" '+refs/heads/*:refs/heads/*' ||
					die "cannot fetch $slug"
			fi
		fi
	fi
	git --git-dir="$dir" cat-file -e "$commit^{commit}" 2>/dev/null || die "$dir lacks commit $commit"
	printf '%s\n' "$dir"
}

# extract NAME OWNER/REPO COMMIT [PATH...]: DEST/NAME holds COMMIT's PATHs
# (the whole tree when none are given).
extract() {
	local name=$1 slug=$2 commit=$3 target tmp dir
	shift 3
	target=$dest/$name
	if [ -f "$target/$STAMP" ] && [ "$(cat "$target/$STAMP")" = "$slug $commit" ]; then
		echo "$target: already there"
		return
	fi
	if [ -e "$target" ]; then
		echo "$target: already there, not made by this script (no $STAMP for this commit): left alone; remove it to re-extract"
		return
	fi
	dir=$(gitdir "$slug" "$commit")
	tmp=$dest/.$name.part
	rm -rf "$tmp"
	mkdir -p "$tmp"
	git --git-dir="$dir" archive --format=tar "$commit" "$@" | tar -x -C "$tmp"
	printf '%s %s\n' "$slug" "$commit" >"$tmp/$STAMP"
	mv "$tmp" "$target"
	echo "$target: $slug at ${commit:0:12}${*:+ ($*)}"
}

command -v git >/dev/null || die "git is needed"
mkdir -p "$dest"
while read -r version slug commit what; do
	[ -n "$version" ] || continue
	[ "$what" = full ] || extract "linux-$version" "$slug" "$commit" include arch
	if [ "$full" = 1 ]; then
		extract "full-$version" "$slug" "$commit"
	fi
done <<<"$TREES"
