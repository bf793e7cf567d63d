#!/usr/bin/env bash
# Full extraction of $(go env GOROOT)/src by this tree's bin/synaptic next
# to a baseline commit's, in the same run, alternating (the machine's
# noise hits both): medians of wall and CPU (user+sys) seconds, and the
# ratio new/old. Issue 9's check is "within 5% of before".
#
#   BASE=db32358 COUNT=4 bash .ci/bench-baseline.sh
#
# BASE is built once in a temporary worktree (removed at the end);
# BASE_BIN=path skips that and uses a built binary. SRC=dir extracts
# another tree; WARM=0 skips the unmeasured first run of each.
set -euo pipefail
cd "$(dirname "$0")/.."
BASE=${BASE:-db32358}
COUNT=${COUNT:-4}
SRC=${SRC:-$(go env GOROOT)/src}
new=$PWD/bin/synaptic
[ -x "$new" ] || { echo "bench-baseline: no $new; run make build" >&2; exit 1; }
work=$(mktemp -d)
tree=""
cleanup() {
	[ -n "$tree" ] && git worktree remove --force "$tree" >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT
old=${BASE_BIN:-}
if [ -z "$old" ]; then
	tree=$work/base
	git worktree add --detach "$tree" "$BASE" >/dev/null 2>&1
	(cd "$tree" && make -s build >/dev/null)
	old=$tree/bin/synaptic
fi

# run LABEL BIN: one full extraction; appends "wall cpu" to $work/LABEL.
run() {
	local t0 t1 c0 c1
	rm -rf "$work/out-$1"
	c0=$(awk '{print $14+$15+$16+$17}' /proc/$$/stat)
	t0=$(date +%s.%N)
	"$2" extract --quiet --full --out "$work/out-$1" "$SRC" >/dev/null 2>"$work/err-$1" || { cat "$work/err-$1" >&2; exit 1; }
	t1=$(date +%s.%N)
	c1=$(awk '{print $14+$15+$16+$17}' /proc/$$/stat) # children's user+sys, in clock ticks
	awk -v a="$t0" -v b="$t1" -v c="$c0" -v d="$c1" -v hz="$(getconf CLK_TCK)" \
		'BEGIN {printf "%.2f %.2f\n", b-a, (d-c)/hz}' | tee -a "$work/$1"
}
# One unmeasured run each first (WARM=0 skips them): wazero compiles a
# new plugin build once (then it is in the disk cache), which is not
# extraction.
if [ "${WARM:-1}" != 0 ]; then
	run warm-old "$old" >/dev/null
	run warm-new "$new" >/dev/null
fi
for i in $(seq "$COUNT"); do
	echo -n "run $i old: "; run old "$old"
	echo -n "run $i new: "; run new "$new"
done

median() { # file column
	awk -v c="$2" '{print $c}' "$1" | sort -g |
		awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'
}
ow=$(median "$work/old" 1) nw=$(median "$work/new" 1)
oc=$(median "$work/old" 2) nc=$(median "$work/new" 2)
echo "== $SRC, $COUNT runs each, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "baseline $BASE: wall $ow s, cpu $oc s (medians)"
echo "this tree:        wall $nw s, cpu $nc s"
echo "ratio new/old:    wall $(awk -v a="$nw" -v b="$ow" 'BEGIN {printf "%.3f", a/b}'), cpu $(awk -v a="$nc" -v b="$oc" 'BEGIN {printf "%.3f", a/b}')   (target <= 1.05)"
