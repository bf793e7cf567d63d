#!/usr/bin/env bash
# make bench: extraction benchmarks over $(go env GOROOT)/src next to the
# tree-sitter parse-only baseline measured in the same run, reported as
# medians and as a ratio. COUNT=n repeats (default 3).
set -euo pipefail
cd "$(dirname "$0")/.."
COUNT=${COUNT:-3}
out=$(mktemp -d)
export SYNAPTIC_BIN=$PWD/bin/synaptic
for i in $(seq "$COUNT"); do   # interleave baseline and pipeline runs: the machine's noise hits both
	go test -run '^$' -bench 'BenchmarkParseGorootParallel$' -benchtime 1x ./core/syntax | tee -a "$out/parse.txt" | grep Benchmark || true
	go test -run '^$' -bench 'BenchmarkExtractGoroot$' -benchtime 1x ./cmd/synaptic | tee -a "$out/extract.txt" | grep Benchmark || true
	go test -run '^$' -bench 'BenchmarkExtractGorootNullPlugin$' -benchtime 1x ./cmd/synaptic | tee -a "$out/null.txt" | grep Benchmark || true
done
go test -run '^$' -bench 'BenchmarkReextractOneFile$' -benchtime 1x -count "$COUNT" ./cmd/synaptic | tee "$out/reextract.txt" | grep Benchmark || true
go test -run '^$' -bench 'BenchmarkResolveCached$' -benchtime 1x -count "$COUNT" ./core/extract 2>/dev/null | grep Benchmark || true

# median of the value preceding a unit on Benchmark lines
median() { # file unit
	grep '^Benchmark' "$1" | awk -v u="$2" '{for (i=2;i<=NF;i++) if ($i==u) print $(i-1)}' | sort -g |
		awk '{a[NR]=$1} END {if (NR==0) print "nan"; else if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'
}
p=$(median "$out/parse.txt" MB/s)
e=$(median "$out/extract.txt" MB/s)
echo
echo "== medians over $COUNT runs ($(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg))"
echo "parse-only (tree-sitter, $(nproc) workers):  $p MB/s, $(median "$out/parse.txt" files/s) files/s"
echo "full extraction (synaptic extract):        $e MB/s, $(median "$out/extract.txt" files/s) files/s, peak RSS $(median "$out/extract.txt" peak-RSS-MiB) MiB"
echo "ratio extraction / parse-only:              $(awk -v a="$e" -v b="$p" 'BEGIN {printf "%.2f", a/b}')   (target >= 0.75)"
pe=$(median "$out/extract.txt" parse+extract-s)
echo "  of which parse+extract phase:             $pe s = $(awk -v s="$pe" -v e="$e" -v t="$(median "$out/extract.txt" ns/op)" 'BEGIN {printf "%.2f", e*(t/1e9)/s}') MB/s, ratio $(awk -v s="$pe" -v e="$e" -v t="$(median "$out/extract.txt" ns/op)" -v b="$p" 'BEGIN {printf "%.2f", e*(t/1e9)/s/b}'); then resolve $(median "$out/extract.txt" resolve-s) s, communities $(median "$out/extract.txt" communities-s) s, write $(median "$out/extract.txt" write-s) s"
n=$(median "$out/null.txt" MB/s)
echo "floor: same run, Go extractor doing nothing: $n MB/s, ratio $(awk -v a="$n" -v b="$p" 'BEGIN {printf "%.2f", a/b}') (parse, serialize, hand-over, write)"
echo "re-extract after one changed file:          $(median "$out/reextract.txt" ns/op | awk '{printf "%.2f s", $1/1e9}'), peak RSS $(median "$out/reextract.txt" peak-RSS-MiB) MiB   (target <= 2 s, issue 11; byte-identical to --full)"
echo "  of which resolve $(median "$out/reextract.txt" resolve-s) s, communities $(median "$out/reextract.txt" communities-s) s, write $(median "$out/reextract.txt" write-s) s"
rm -rf "$out"

# Issue 9: full extraction of GOROOT/src next to the binary of a baseline
# commit (BASE, default db32358), alternating in the same run; target
# within 5% (ratio <= 1.05).
COUNT=$COUNT bash .ci/bench-baseline.sh || true

# Freshness: edit -> next answer with auto-freshen and with --watch, next to
# the full extraction of the same copy in the same run (edit/full).
go test -run '^$' -bench 'BenchmarkServeFreshen' -benchtime 5x ./cmd/synaptic 2>/dev/null | grep -E '^Benchmark' || true
go test -run '^$' -bench 'BenchmarkPatchOneFile' -benchtime 5x ./core/extract 2>/dev/null | grep -E '^Benchmark' || true

# Serving: startup, RSS and tools/call latency on the GOROOT graph.
go test -run '^$' -bench 'BenchmarkServeGoroot/startup' -benchtime 1x -count "$COUNT" ./cmd/synaptic 2>/dev/null | grep -E '^Benchmark' || true
go test -run '^$' -bench 'BenchmarkServeGoroot/call' -benchtime 2s ./cmd/synaptic 2>/dev/null | grep -E '^Benchmark' || true
# rule packs (issue 14): audit_sql over 500 tables / 5,000 statements
# (target <= 1 s) and advise_sql's median call (target <= 20 ms).
go test -run '^$' -bench 'BenchmarkAuditSQL$|BenchmarkAdviseSQL$' -benchtime 5x ./plugins/rulehost 2>/dev/null | grep -E '^Benchmark' || true

# Search (issue 12), each against its baseline, alternating so the
# machine's noise hits both: search_text's engine vs ripgrep over the same
# GOROOT/src (target <= 1.5x rg), SYNQL on the GOROOT graph (target p50
# <= 20 ms; cpu-ms/op is the cost without the wait on a shared machine),
# and the Go extractor with and without its dynamic-site, route and
# cross-language passes (target <= 5%).
for i in $(seq "$COUNT"); do
	go test -run '^$' -bench 'BenchmarkSearchGOROOT' -benchtime 3x ./core/search 2>/dev/null | grep -E '^Benchmark' || true
	go test -run '^$' -bench 'BenchmarkSitePasses' -benchtime 5x ./extractors/golang 2>/dev/null | grep -E '^Benchmark' || true
done
if [ -z "${SYNAPTIC_BENCH_GRAPH:-}" ]; then
	g=$(mktemp -d)
	"$SYNAPTIC_BIN" extract --full --quiet --out "$g/out" "$(go env GOROOT)/src"
	export SYNAPTIC_BENCH_GRAPH=$g/out/graph.json
fi
go test -run '^$' -bench 'BenchmarkSynqlGraph' -benchtime 20x -count "$COUNT" ./core/synql 2>/dev/null | grep -E '^Benchmark' || true
[ -n "${g:-}" ] && rm -rf "$g"
