#!/usr/bin/env bash
# ./run.sh [TREE]: install what is missing, build, and run uapid's main job
# on TREE (default: the sample tree in examples/tree): classify every
# exported header, then show what `uapid split` would do, without changing
# anything.
set -euo pipefail
. "$(dirname "$0")/.ci/setup.sh"

ud_install_deps
ud_build "$UD_BUILD"
uapid=$UD_BUILD/src/uapid
tree=${1:-$UD_TOP/examples/tree}
[ -d "$tree" ] || { echo "run.sh: $tree: not a directory" >&2; exit 2; }

headers=$(cd "$tree" && find include arch -path '*/uapi' -prune -o -name '*.h' -print 2>/dev/null | sort)
n=$(printf '%s\n' "$headers" | grep -c . || true)
ud_say "uapid classify: $n headers in $tree"
status=0
if [ "$n" -le 50 ]; then
	(cd "$tree" && printf '%s\n' "$headers" | xargs "$uapid" classify) || status=$?
else
	out=$(mktemp "${TMPDIR:-/tmp}/uapid-classify.XXXXXX")
	(cd "$tree" && printf '%s\n' "$headers" | xargs "$uapid" classify >"$out") || status=$?
	echo "(ranges of every header written to $out)"
fi
echo
markers=()
[ -z "${1:-}" ] && markers=(--markers "$UD_TOP/examples/markers")
opts="${markers[*]}${markers[*]:+ }"
ud_say "uapid split --dry-run $opts$tree"
"$uapid" split --dry-run "${markers[@]}" "$tree" || status=$?
echo
echo "To apply: $uapid split --in-place $opts$tree"
exit "$status"
