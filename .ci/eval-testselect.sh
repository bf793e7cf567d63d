#!/usr/bin/env bash
# Test selection by mutation (eval/testselect/RESULTS.md): affected_tests'
# predictions against the tests that really fail when one function at a
# time is broken, on three corpora:
#   1. 14 packages of $(go env GOROOT)/src copied into one module;
#   2. whole third-party Go modules as their authors laid them out, fetched
#      through the Go module proxy (go mod download);
#   3. CPython modules with their own unittest suites (needs Debian's
#      libpython3.11-testsuite: apt-get install libpython3.11-testsuite).
#
#   bash .ci/eval-testselect.sh        (about 25 min on 2 cores the first time)
#
# Test outcomes do not depend on synaptic and are cached in
# $SYNAPTIC_EVAL_CACHE/testselect (default ~/.cache/synaptic-eval), so a
# rerun after a change to the selection takes a minute or two. Uses
# bin/synaptic as it is (no rebuild); SYNAPTIC_BIN=path selects another
# binary. Extra arguments (-v, -depths 3,5, -per N) go to every run.
set -euo pipefail
cd "$(dirname "$0")/.."
CACHE=${SYNAPTIC_EVAL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/synaptic-eval}/testselect
mkdir -p "$CACHE"
bin=$(realpath -m "${SYNAPTIC_BIN:-bin/synaptic}")
[ -x "$bin" ] || { echo "eval-testselect: no $bin (make build, or set SYNAPTIC_BIN)" >&2; exit 1; }
# Every run appends its sums to one summary; the pooled table at the end
# (every corpus, all Go, all) is the figure issue 13 sets targets for.
summary=$(mktemp)
trap 'rm -f "$summary" "$summary.bin"' EXIT
go build -o "$summary.bin" ./eval/testselect
run() { "$summary.bin" -bin "$bin" -per 6 -depths 3,5 -summary "$summary" "$@"; }

echo "== GOROOT/src packages"
run -cache "$CACHE/goroot.json" -corpus "GOROOT/src packages" "$@"

for m in github.com/BurntSushi/toml@v1.6.0 github.com/google/go-cmp@v0.7.0 \
	github.com/golang-jwt/jwt/v5@v5.3.1 github.com/tailscale/hujson@v0.0.0-20260727124030-b80ff77dac4f \
	github.com/dlclark/regexp2/v2@v2.5.1 github.com/sourcegraph/conc@v0.3.0 github.com/oklog/run@v1.2.0; do
	dir=$(go mod download -json "$m" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
	[ -d "$dir" ] || { echo "eval-testselect: go mod download $m gave no directory" >&2; exit 1; }
	echo "== module $m"
	run -module "$dir" -cache "$CACHE/modules.json" -corpus "${m%@*}" "$@"
done

PYMODS=textwrap,shlex,fractions,colorsys,ipaddress,configparser,difflib,glob,fnmatch
if [ -x /usr/bin/python3.11 ] && [ -f /usr/lib/python3.11/test/test_textwrap.py ]; then
	echo "== CPython modules ($PYMODS)"
	run -python "$PYMODS" -cache "$CACHE/python.json" -corpus "CPython 3.11 modules" "$@"
else
	echo "== CPython modules: skipped (apt-get install python3.11 libpython3.11-testsuite)"
fi

echo "== pooled"
"$summary.bin" -total "$summary"
