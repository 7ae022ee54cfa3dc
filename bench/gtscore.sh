#!/bin/sh
# Ground-truth score and split time on Linux 3.7 -> 3.8 (see
# ../shared/groundtruth/README.md for getting the trees; kernel source stays
# outside this repository).
#
# usage: bench/gtscore.sh PRE POST [UAPID]
# Prints the scorer's own lines once, then the split time measured two ways,
# best of five: by the scorer (right after it copies 8,000 headers, so the
# file system is still busy) and on a settled copy of the same scratch tree.
set -eu
pre=$1 post=$2
uapid=$(realpath "${3:-build/src/uapid}")
here=$(cd "$(dirname "$0")" && pwd)
score=${GTSCORE:-$here/../../shared/groundtruth/gtscore.py}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 "$score" "$pre" "$post" --bin "$uapid" --keep "$work/keep" | tee "$work/first"
best=99
for _ in 1 2 3 4 5; do
	s=$(python3 "$score" "$pre" "$post" --bin "$uapid" --keep "$work/keep" | sed -n 's/.*seconds: //p')
	best=$(echo "if ($s < $best) $s else $best" | bc)
done
printf '%-44s %8.3f\n' "scorer's seconds, best of 5" "$best"

# the same run on a settled tree: copy once, sync, then time each fresh copy's split
python3 - "$pre" "$post" "$score" >"$work/scope" <<'PY'
import os, sys
sys.path.insert(0, os.path.dirname(sys.argv[3]))
import gtscore as g
pre, post = sys.argv[1], sys.argv[2]
print("\n".join(sorted(p for p in g.exported(pre) if g.read(os.path.join(post, g.uapi_of(p))) is not None)))
PY
best=99
for _ in 1 2 3 4 5; do
	rm -rf "$work/t"
	python3 -c "import sys; sys.path.insert(0, '$(dirname "$score")'); import gtscore as g; g.copy_headers('$pre', '$work/t')"
	sync
	t0=$(date +%s.%N)
	# one argument per scoped header (paths have no blanks)
	# shellcheck disable=SC2046
	"$uapid" split --in-place "$work/t" $(cat "$work/scope") >/dev/null 2>&1 || true
	t1=$(date +%s.%N)
	s=$(echo "$t1 - $t0" | bc)
	best=$(echo "if ($s < $best) $s else $best" | bc)
done
printf '%-44s %8.3f\n' "split seconds on a settled tree, best of 5" "$best"
printf '%-44s %8s\n' "headers" "$(wc -l <"$work/scope")"
