#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The bash completions in contrib/bash-completion, driven for real: a
# non-interactive bash loads them (on their own, and through bash-completion's
# loader when /usr/share/bash-completion/bash_completion is there), gets
# COMP_WORDS, COMP_CWORD, COMP_LINE and COMP_POINT as readline would set them,
# calls the function `complete -p` names, and prints COMPREPLY.
. "${top_srcdir:-.}/tests/lib/lib.sh"

if ! command -v bash >/dev/null 2>&1; then
	echo "no bash: skipped"
	exit 77
fi
C=$top_srcdir/contrib/bash-completion
BC=/usr/share/bash-completion/bash_completion

expect_status 0 bash -n "$C/uapid"
expect_status 0 bash -n "$C/uapictl"

# fixtures: a kernel-like tree, a git repository, a working directory, a
# runtime directory with daemon sockets
T=$WORK/tree
mkdir -p "$T/arch/x86/include/asm" "$T/arch/arm64" "$T/arch/nomake" "$T/include/linux" \
	"$T/include/uapi/linux"
: >"$T/arch/x86/Makefile"
: >"$T/arch/arm64/Makefile"
: >"$T/arch/nomake/Kconfig"
cat >"$T/Makefile" <<'MK'
ifeq ($(ARCH),i386)
        SRCARCH := x86
endif
ifeq ($(ARCH),x86_64)
        SRCARCH := x86
endif
ifeq ($(ARCH),sparc64)
       SRCARCH := sparc
endif
ifeq ($(ARCH),aarch64)
       SRCARCH := arm64
endif
MK
: >"$T/include/linux/a.h"
: >"$T/include/linux/b.h"
: >"$T/include/linux/Kbuild"

D=$WORK/cwd
mkdir -p "$D/d1"
: >"$D/f1"
: >"$D/a.sock"
: >"$D/b.txt"

mkdir -p "$WORK/run/uapid"
: >"$WORK/run/uapid/x.sock"
: >"$WORK/run/uapid/y"

R=$WORK/repo
have_git=false
if command -v git >/dev/null 2>&1; then
	have_git=true
	git init -q "$R"
	git -C "$R" symbolic-ref HEAD refs/heads/main
	mkdir -p "$R/arch/arm"
	: >"$R/arch/arm/Makefile"
	git -C "$R" add arch
	git -C "$R" -c user.name=t -c user.email=t@example.org commit -q -m one
	git -C "$R" branch topic
	git -C "$R" tag v1.0
fi

# bash-completion's loader finds the installed scripts by the command's name
mkdir -p "$WORK/bc/completions"
cp "$C/uapid" "$C/uapictl" "$WORK/bc/completions/"

cat >"$WORK/drive.bash" <<'DRIVE'
# drive.bash MODE DIR LINE: complete LINE in DIR; the cursor is at LINE's
# first '%', else at its end. MODE plain: the script alone (with set -u);
# MODE bc: bash-completion loaded, which loads the script by name.
mode=$1 line=$3
cd "$2" || exit 2
point=${line%%\%*}
line=${line/\%/}
COMP_LINE=$line COMP_POINT=${#point}
# readline's words: blanks separate them, a run of ':' or '=' (characters
# of COMP_WORDBREAKS) is a word of its own
COMP_WORDBREAKS=$' \t\n"\'><=;|&(:'
w=() s=() e=() i=0 n=${#line}
while ((i < n)); do
	c=${line:i:1}
	if [[ $c == [[:space:]] ]]; then i=$((i + 1)); continue; fi
	b=$i
	if [[ $c == [:=] ]]; then
		while ((i < n)) && [[ ${line:i:1} == "$c" ]]; do i=$((i + 1)); done
	else
		while ((i < n)) && [[ ${line:i:1} != [[:space:]:=] ]]; do i=$((i + 1)); done
	fi
	w+=("${line:b:i-b}") s+=("$b") e+=("$i")
done
cword=-1 before=0
for k in "${!w[@]}"; do
	((s[k] <= COMP_POINT && COMP_POINT <= e[k])) && cword=$k
	((e[k] < COMP_POINT)) && before=$((k + 1))
done
if ((cword < 0)); then
	w=("${w[@]:0:before}" "" "${w[@]:before}")
	cword=$before
fi
COMP_WORDS=("${w[@]}") COMP_CWORD=$cword COMP_TYPE=9 COMP_KEY=9

if [[ $mode == bc ]]; then
	. /usr/share/bash-completion/bash_completion
	__load_completion "${w[0]}" || { echo "bash-completion did not load ${w[0]}" >&2; exit 2; }
else
	. "$top_srcdir/contrib/bash-completion/${w[0]}"
	set -u
fi
spec=$(complete -p "${w[0]}") || exit 2
func=${spec#*-F } func=${func%% *}
COMPREPLY=()
"$func" "${w[0]}" "${COMP_WORDS[cword]}" "${COMP_WORDS[cword - 1]-}"
((${#COMPREPLY[@]} == 0)) || printf '%s\n' "${COMPREPLY[@]}" | LC_ALL=C sort
DRIVE

modes=plain
if [ -f "$BC" ]; then
	modes="plain bc"
else
	echo "no $BC: completions tested without bash-completion only"
fi
BASH_COMPLETION_USER_DIR=$WORK/bc XDG_RUNTIME_DIR=$WORK/run
export BASH_COMPLETION_USER_DIR XDG_RUNTIME_DIR top_srcdir
cdir=$D

# comp LINE WORD...: in $cdir, LINE completes to exactly the WORDs, in each mode
comp() {
	line=$1
	shift
	: >"$WORK/want"
	for word in "$@"; do printf '%s\n' "$word" >>"$WORK/want"; done
	LC_ALL=C sort -o "$WORK/want" "$WORK/want"
	for mode in $modes; do
		expect_status 0 bash "$WORK/drive.bash" "$mode" "$cdir" "$line"
		if cmp -s "$WORK/want" "$WORK/out"; then
			pass
		else
			fail "[$mode] '$line' gave {$(tr '\n' ' ' <"$WORK/out")}, want {$*}"
		fi
	done
}
# comp_has LINE WORD...: the completions of LINE include every WORD
comp_has() {
	line=$1
	shift
	for mode in $modes; do
		expect_status 0 bash "$WORK/drive.bash" "$mode" "$cdir" "$line"
		for word in "$@"; do
			if grep -qxF -- "$word" "$WORK/out"; then pass; else
				fail "[$mode] '$line' gave {$(tr '\n' ' ' <"$WORK/out")}, lacks $word"
			fi
		done
	done
}

# uapid: commands, options
comp "uapid " classify split install check watch branch api-diff api-layout api-log check-uapi fix-includes
comp "uapid -" --help --version
comp "uapid fi" fix-includes
comp "uapid split --" --in-place --output --markers --dry-run --diff --json --quiet --help
comp "uapid split --in-place --" --markers --dry-run --diff --json --quiet --help
comp "uapid fix-includes --dry-run --" --help
comp "uapid check --j" --jobs --json
comp "uapid install --q" --quiet
comp "uapid api-diff --q" --quiet
comp "uapid api-diff --verdict " accepted breaking compatible review
comp "uapid api-diff --s" --summary --symbol
comp "uapid api-layout --v" --values
comp "uapid api-log --h" --headers-branch --help --html
comp "uapid check-uapi -" -b -h -i -j -l -p -q -v
comp "uapid check-uapi -q -b HEAD " -h -i -j -l -p -v
comp "uapid api-log --" --arch --json --since --until --tags --headers-branch --state-dir --html --quiet --help
comp "uapid watch --s" --state-dir --socket --settle --socket-group --split-branch
# one spelling of the branches for branch and watch (issue 39); the old one is not offered
comp "uapid branch --no-split-branch --" --headers-branch --no-headers-branch --source --arch --since \
	--one-commit --identity --markers --state-dir --json --quiet --help
comp "uapid branch --no-split --" --headers-branch --no-headers-branch --source --arch --since \
	--one-commit --identity --markers --state-dir --json --quiet --help
comp "uapid api-diff --as " installed tree

# --arch: the tree's arch/*/ with a Makefile, and the names its Makefile maps
comp "uapid install --arch " all
cdir=$T
comp "uapid install --arch " arm64 x86 x86_64 i386 aarch64 all
cdir=$D
comp "uapid install $T out --arch " arm64 x86 x86_64 i386 aarch64 all
comp "uapid check --arch x% $T" x86 x86_64
comp "uapid check $T --arch=x" x86 x86_64
comp "uapid watch -a a% $T" arm64 aarch64
comp "uapid api-diff $D $T --arch " arm64 x86 x86_64 i386 aarch64 all
comp "uapid install --arch x86 $T " d1
# --abi: the ABI table of the uapid on the PATH
PATH=$(dirname "$UAPID"):$PATH
export PATH
comp_has "uapid api-diff $D $T --abi " x86_64 i386 arm64 mips-o32 none
comp_has "uapid api-layout --abi x" x86_64 x32
comp "uapid api-layout --a" --abi --abis --arch --as

# paths
comp "uapid split --output " d1
comp "uapid split --markers f" f1
comp "uapid classify " a.sock b.txt d1 f1
comp "uapid split $T include/l" include/linux/
comp "uapid split $T include/linux/" include/linux/a.h include/linux/b.h
comp "uapid fix-includes --in-place $T arch/x86/" arch/x86/include/
comp "uapid watch --markers $D/f" "$D/f1"
comp "uapid watch $D " 
comp_has "uapid watch --socket-group roo" root

# git refs
if $have_git; then
	cdir=$R
	comp "uapid branch --since " HEAD main topic v1.0
	comp "uapid branch --split " main topic
	comp "uapid branch --split-branch " - main topic
	comp "uapid branch --arch " arm
	cdir=$D
	comp "uapid branch --source t% $R" topic
	comp "uapid watch $R --headers-branch " - main topic
	comp "uapid api-diff $R:" HEAD main topic v1.0
	comp "uapid api-log $R --until " HEAD main topic v1.0
	comp "uapid api-log --headers t% $R" topic
	comp "uapid api-diff $T $R:ma" main
	comp "uapictl --tree $R api --rev " HEAD main topic v1.0
	comp "uapictl -T $R api --rev=v" v1.0
	comp "uapictl --tree $R api --log --since " HEAD main topic v1.0
fi

# uapictl: commands, options, values
comp "uapictl " status headers classify preview changes marker resplit api watch \
	sockname lsp call
comp "uapictl --" --socket --tree --json --timeout --version --help
comp "uapictl --tree $T --" --json --timeout --version --help
comp "uapictl s" status sockname
comp "uapictl -s x.sock status --" --json
comp "uapictl headers --" --prefix --outcome --exported --unexported --json
comp "uapictl headers --unexported --" --prefix --outcome --json
comp "uapictl preview --uapi --" --stdin --json
comp "uapictl api --since 3 --" --accept --json
comp "uapictl api --log --" --since --until --tags --json
comp "uapictl headers --outcome " split moved needs-coaching skipped unreadable unexported uapi
comp "uapictl headers --outcome=needs" needs-coaching
comp "uapictl --tree $T headers --prefix include/" include/linux/ include/uapi/
comp "uapictl --json marker " add list rm
comp "uapictl marker add include/linux/a.h " retain kernel uapi include-here skip split-compound
comp "uapictl marker add --why because F sp" split-compound
comp "uapictl marker add F --" --occurrence --why --json
comp "uapictl marker rm --" --json
comp "uapictl marker list " a.sock b.txt d1 f1
comp "uapictl call " status headers classify preview changes markers.list markers.add \
	markers.remove resplit subscribe unsubscribe api.changes api.baseline api.log
comp "uapictl call markers." markers.add markers.list markers.remove
comp "uapictl call status "
comp "uapictl classify " a.sock b.txt d1 f1
comp "uapictl lsp "
comp "uapictl lsp --" --baseline --accept
comp "uapictl lsp --baseline " HEAD installed

# --socket: *.sock files, directories, and the daemons' runtime directories
comp "uapictl --socket $WORK/run/uapid/" "$WORK/run/uapid/x.sock" "$WORK/run/uapid/y"
if [ -e /run/uapid ] || [ -e "/tmp/uapid-$(id -u)" ]; then
	comp_has "uapictl --socket " a.sock d1 "$WORK/run/uapid/x.sock" "$WORK/run/uapid/y"
else
	comp "uapictl --socket " a.sock d1 "$WORK/run/uapid/x.sock" "$WORK/run/uapid/y"
fi
comp "uapictl --socket=a" a.sock
comp "uapid watch --socket $WORK/run/uapid/x" "$WORK/run/uapid/x.sock"

finish
