# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
# A synthetic kernel history (sourced by tests/kernel/branch-kernel.sh, which
# checks the headers branch on it, and bench/api-log.sh): Debian's
# linux-source-6.1 (what the install needs) committed to a scratch
# repository, then a deterministic history of first-parent commits on top
# of it: uapi headers edited (a #define, a comment, a struct member),
# added and deleted; kernel-only headers, C files and Kbuild comments
# edited; `#ifdef __KERNEL__` blocks added to uapi headers; an asm header
# deleted that a Kbuild `wildcard` tests (asm/a.out.h takes linux/a.out.h
# with it) and one that `mandatory-y` then wraps; a `generic-y` line;
# syscall table lines; reverts, empty commits, commits touching several
# files at once, and merges of side branches.
#   kh_base TREE      the base commit (BASE), in $R, a repository under $WORK,
#                     from TREE, linux-source-6.1 as tests/kernel/kernel-lib.sh's
#                     kernel_tree gives it (read only: $R is a copy)
#   kh_history N      N first-parent commits; after each it calls kh_made COMMIT,
#                     which the caller defines; $WORK/edits says what each did
# The caller sets $WORK and the git identity, and has lib.sh's and
# kernel-lib.sh's helpers.

now() { date +%s.%N; }
secs() { echo "$1 $2" | awk '{printf "%.1f", $2 - $1}'; }

R=$WORK/repo
g() { git -C "$R" "$@"; }
stamp=0
dated() { # dated GIT-ARGS...: a git command that commits, with the date of commit number $stamp
	GIT_AUTHOR_DATE="@$((1700000000 + stamp * 60)) +0000" GIT_COMMITTER_DATE="@$((1700000000 + stamp * 60)) +0000" \
		g "$@"
}
# commit MESSAGE: what the edits touched (added, changed, deleted) and the
# index on top of HEAD (plumbing: no refresh of the 28000 files' stat)
commit() {
	if [ -s "$WORK/touched" ]; then
		sort -u "$WORK/touched" | (cd "$R" && git update-index --add --remove --stdin)
	fi
	: >"$WORK/touched"
	stamp=$((stamp + 1))
	c=$(dated commit-tree "$(g write-tree)" -p HEAD -m "$1")
	g update-ref -m "commit: $1" HEAD "$c"
}

# kh_base TREE: linux-source-6.1's Makefiles, Kbuild, scripts/, include/ and
# arch/ as the first commit; the pools the edits pick from
kh_base() {
	t0=$(now)
	kernel_copy "$1" "$R" '*/Makefile' '*/Kbuild' '*/scripts/*' '*/include/*' '*/arch/*'
	g init -q -b master
	g add -A -f .
	stamp=$((stamp + 1))
	dated commit -q -m "linux-source-6.1: Makefiles, Kbuild, scripts/, include/, arch/"
	: >"$WORK/touched"
	BASE=$(g rev-parse HEAD)
	t1=$(now)
	echo "base: $(g ls-files | wc -l) files committed in $(secs "$t0" "$t1") s"

	# the pools the edits pick from (files of the base; a pick skips one deleted since)
	g ls-files 'include/uapi/linux/*.h' >"$WORK/pool.ulinux"
	g ls-files 'arch/x86/include/uapi/asm/*.h' | grep -v -e /a.out.h -e /sembuf.h -e /ioctl.h >"$WORK/pool.uasm"
	g ls-files 'include/linux/*.h' 'arch/x86/include/asm/*.h' >"$WORK/pool.kern"
	g ls-files 'arch/x86/kernel/*.c' 'arch/x86/mm/*.c' >"$WORK/pool.c"
	n_ulinux=$(wc -l <"$WORK/pool.ulinux") n_uasm=$(wc -l <"$WORK/pool.uasm")
	n_kern=$(wc -l <"$WORK/pool.kern") n_c=$(wc -l <"$WORK/pool.c")
}

# --- the edits -----------------------------------------------------------------------------
# hash A [B]: a number (< 2^32) from A and B, the same on every run (no $RANDOM)
hash() {
	x=$((($1 * 1000003 + ${2:-0} * 7919 + 12345) % 4294967296))
	x=$((((x ^ (x >> 16)) * 73244475) % 4294967296))
	x=$((((x ^ (x >> 16)) * 73244475) % 4294967296))
	echo $((x ^ (x >> 16)))
}
# pick POOL H: a file of the pool that is still there, chosen by H
pick() {
	case $1 in ulinux) cnt=$n_ulinux ;; uasm) cnt=$n_uasm ;; kern) cnt=$n_kern ;; *) cnt=$n_c ;; esac
	k=$(($2 % cnt)) tries=0
	while [ $tries -lt "$cnt" ]; do
		p=$(sed -n "$((k + 1))p" "$WORK/pool.$1")
		[ -f "$R/$p" ] && { echo "$p"; return 0; }
		k=$(((k + 1) % cnt)) tries=$((tries + 1))
	done
	echo "branch-kernel: pool $1 is empty" >&2
	exit 1
}
touched() { echo "$1" >>"$WORK/touched"; }
replace() { cat "$1.tmp" >"$1" && rm -f "$1.tmp"; } # keeps the file's mode
# before_endif FILE TEXT: TEXT (\n for new lines) before the file's last #endif, or at its end
before_endif() {
	awk -v add="$2" '{ l[NR] = $0; if ($0 ~ /^#[ \t]*endif/) last = NR }
		END { for (i = 1; i <= NR; i++) { if (i == last) print add; print l[i] }
		      if (!last) print add }' "$R/$1" >"$R/$1.tmp"
	replace "$R/$1"
	touched "$1"
}
# installed headers: these change what uapid install writes (or may: the oracle says)
e_define() { # a #define before the last #endif
	before_endif "$1" "#define UAPID_TEST_$2 $2"
	echo "define UAPID_TEST_$2 in $1"
}
e_comment() { # the first comment end after line 1 gets words
	if awk 'NR > 1 && index($0, "*/") { found = 1 } END { exit !found }' "$R/$1"; then
		awk -v w="(edit $2) */" 'NR > 1 && !done && (i = index($0, "*/")) {
			$0 = substr($0, 1, i - 1) w substr($0, i + 2); done = 1 } { print }' "$R/$1" >"$R/$1.tmp"
		replace "$R/$1"
	else
		printf '/* edit %s */\n' "$2" >>"$R/$1"
	fi
	touched "$1"
	echo "comment changed in $1"
}
e_member() { # a member at the end of the first struct defined at the top level
	# The struct ends at the first line that starts with "}": "};" or
	# "} __attribute__((packed));" (nl80211.h), never a later enum's "};".
	if grep -q '^struct [A-Za-z0-9_]* {$' "$R/$1"; then
		awk -v m="	__u32 uapid_member_$2;" '
			state == 0 && /^struct [A-Za-z0-9_]* {$/ { state = 1 }
			state == 1 && /^}/ { print m; state = 2 }
			{ print }' "$R/$1" >"$R/$1.tmp"
	fi
	if [ -f "$R/$1.tmp" ] && ! cmp -s "$R/$1" "$R/$1.tmp"; then
		replace "$R/$1"
		touched "$1"
		echo "member uapid_member_$2 added at the end of the first struct in $1"
	else
		rm -f "$R/$1.tmp"
		e_define "$1" "$2"
	fi
}
e_newhdr() { # a new uapi header: include/uapi/linux, or arch/x86/include/uapi/asm when $3 is odd
	if [ $(($3 % 2)) = 1 ]; then
		p=arch/x86/include/uapi/asm/uapid_test_$2.h g=_UAPI_ASM_X86_UAPID_TEST_$2_H
	else
		p=include/uapi/linux/uapid_test_$2.h g=_UAPI_LINUX_UAPID_TEST_$2_H
	fi
	printf '/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */\n#ifndef %s\n#define %s\n\n#include <linux/types.h>\n\nstruct uapid_test_%s {\n\t__u64 a;\n};\n\n#ifdef __KERNEL__\nint uapid_test_kernel_%s;\n#endif\n\n#endif /* %s */\n' \
		"$g" "$g" "$2" "$2" "$g" >"$R/$p"
	echo "$p" >>"$WORK/added"
	touched "$p"
	echo "new header $p"
}
e_delete() { # the oldest header added here that is still there, else one of the base
	p=
	if [ -f "$WORK/added" ]; then
		while read -r a; do [ -f "$R/$a" ] && { p=$a; break; }; done <"$WORK/added"
	fi
	[ -n "$p" ] || p=$(pick ulinux "$2")
	rm -f "$R/$p"
	touched "$p"
	echo "deleted $p"
}
# edits that must not change the installed headers (the oracle checks that too)
k_kernel_hdr() { # a #define in a kernel-only header
	before_endif "$1" "#define UAPID_KERNEL_ONLY_$2 $2"
	echo "kernel-only define in $1"
}
k_kernel_block() { # an #ifdef __KERNEL__ block in an installed header: unifdef drops it
	before_endif "$1" "#ifdef __KERNEL__\nextern int uapid_kernel_$2;\n#endif"
	echo "#ifdef __KERNEL__ block added to $1"
}
k_other() { # k_other TAG H: a C file, a Kbuild comment, or a new kernel-only header
	case $(($2 % 3)) in
	0) p=$(pick c "$2"); printf '/* uapid edit %s */\n' "$1" >>"$R/$p" ;;
	1) p=include/uapi/Kbuild; [ $(($2 / 3 % 2)) = 0 ] || p=arch/x86/include/uapi/asm/Kbuild
	   printf '# uapid edit %s\n' "$1" >>"$R/$p" ;;
	2) p=include/linux/uapid_kernel_$1.h
	   printf '#ifndef _LINUX_UAPID_KERNEL_%s_H\n#define _LINUX_UAPID_KERNEL_%s_H\nint uapid_%s;\n#endif\n' \
		"$1" "$1" "$1" >"$R/$p" ;;
	esac
	touched "$p"
	echo "edited $p"
}
# one_edit I J: edit number J of commit I, chosen by its hash
one_edit() {
	h=$(hash "$1" "$2")
	r=$((h % 100))
	if [ $((h / 100 % 10)) -lt 7 ]; then u=$(pick ulinux "$h"); else u=$(pick uasm "$h"); fi
	if [ $r -lt 22 ]; then e_define "$u" "$1_$2"
	elif [ $r -lt 32 ]; then e_comment "$u" "$1_$2"
	elif [ $r -lt 44 ]; then e_member "$u" "$1_$2"
	elif [ $r -lt 50 ]; then e_newhdr "$1_$2" "$1_$2" "$h"
	elif [ $r -lt 53 ]; then e_delete "$1_$2" "$h"
	elif [ $r -lt 72 ]; then k_kernel_hdr "$(pick kern "$h")" "$1_$2"
	elif [ $r -lt 88 ]; then k_kernel_block "$u" "$1_$2"
	else k_other "$1_$2" "$h"
	fi
}
restore() { # restore PATH: the base's file back
	g show "$BASE:$1" >"$R/$1"
	touched "$1"
	echo "restored $1"
}
syscall() { # a syscall table line: asm/unistd_64.h and unistd_x32.h change
	printf '%s\tcommon\tuapid_test_%s\tsys_uapid_test_%s\n' $((1000 + $1)) "$1" "$1" \
		>>"$R/arch/x86/entry/syscalls/syscall_64.tbl"
	touched arch/x86/entry/syscalls/syscall_64.tbl
	echo "syscall uapid_test_$1 in syscall_64.tbl"
}

# kh_history N: the history, N first-parent commits on top of HEAD
kh_history() {
	: >"$WORK/edits"
	i=0
	while [ $i -lt "$1" ]; do
		i=$((i + 1))
		s=$((i % 100))
		case $s in
		13) what="asm/a.out.h deleted (a Kbuild wildcard drops linux/a.out.h)"
		    rm "$R/arch/x86/include/uapi/asm/a.out.h"; touched arch/x86/include/uapi/asm/a.out.h ;;
		29) what=$(restore arch/x86/include/uapi/asm/a.out.h) ;;
		41) what="asm/sembuf.h deleted (mandatory-y wraps asm-generic's)"
		    rm "$R/arch/x86/include/uapi/asm/sembuf.h"; touched arch/x86/include/uapi/asm/sembuf.h ;;
		57) what=$(restore arch/x86/include/uapi/asm/sembuf.h) ;;
		67) what="generic-y += hugetlb_encode.h"
		    printf 'generic-y += hugetlb_encode.h\n' >>"$R/arch/x86/include/uapi/asm/Kbuild"
		    touched arch/x86/include/uapi/asm/Kbuild ;;
		83) what=$(restore arch/x86/include/uapi/asm/Kbuild) ;;
		37 | 77) what=$(syscall "$i") ;;
		91) what="asm/ioctl.h of the architecture's own, over mandatory-y's wrapper"
		    printf '#ifndef _ASM_X86_IOCTL_H\n#define _ASM_X86_IOCTL_H\n#include <asm-generic/ioctl.h>\n#define UAPID_IOCTL %s\n#endif\n' \
			"$i" >"$R/arch/x86/include/uapi/asm/ioctl.h"
		    touched arch/x86/include/uapi/asm/ioctl.h ;;
		96) what="a revert of the commit before"
		    g revert --no-commit HEAD >/dev/null ;;
		99) what="empty" ;;
		50) # a side branch of two commits from HEAD~1, merged: only the merge is on the first-parent chain
		    g checkout -q -b "side$i" HEAD~1
		    w1=$(e_newhdr "side_$i" "side_$i" 0)
		    commit "side $i.1: $w1"
		    w2=$(e_define "include/uapi/linux/uapid_test_side_$i.h" "side_$i")
		    w3=$(k_other "side_$i" 2) # a new kernel-only header: no conflict with HEAD
		    commit "side $i.2: $w2; $w3"
		    g checkout -q master
		    what="merge of side$i ($w1; $w2; $w3)"
		    stamp=$((stamp + 1))
		    dated merge -q --no-ff --no-edit -m "edit $i: $what" "side$i"
		    g branch -q -D "side$i"
		    echo "$i: $what" >>"$WORK/edits"
		    kh_made "$(g rev-parse HEAD)"
		    continue ;;
		*)  h=$(hash "$i" 99)
		    if [ $((h % 100)) -lt 20 ]; then # several files at once
			    k=$((2 + h / 100 % 3)) j=0 what=
			    while [ $j -lt $k ]; do
				    j=$((j + 1))
				    what="$what${what:+; }$(one_edit "$i" "$j")"
			    done
		    else
			    what=$(one_edit "$i" 0)
		    fi ;;
		esac
		commit "edit $i: $what"
		echo "$i: $what" >>"$WORK/edits"
		kh_made "$c" # the commit just made
	done
}
