#!/usr/bin/env bash
# Site-level call accuracy on C against clang's own resolution
# (eval/callers-c/README.md), on the tree-sitter C runtime and the external
# scanners of its grammars, as vendored by github.com/smacker/go-tree-sitter
# in the Go module cache (the version go.mod pins). With --cpp, on C++:
# googletest and googlemock 1.12 from Debian's googletest package.
#
#   bash .ci/eval-callers-c.sh         precision, recall and every wrong link (~1 min)
#   bash .ci/eval-callers-c.sh -v      + every missed call site and unverifiable link
#   bash .ci/eval-callers-c.sh --cpp   the C++ corpus (first run ~7 min and ~3 GB
#                                      of memory for clang's JSON; later runs reuse
#                                      the truth, cached per unit: ~1 min)
#
# Extra arguments go to eval/callers-c/callers.py (-v, -json FILE, -j N).
# Work files: $SYNAPTIC_EVAL_CACHE (default ~/.cache/synaptic-eval): the
# corpus in corpora/c-treesitter, the graph in callers-c/out. Uses
# bin/synaptic as it is (no rebuild); SYNAPTIC_BIN=path extracts with that
# binary instead. CLANG=path / CLANGXX=path pick the compiler.
set -euo pipefail
cd "$(dirname "$0")/.."
CACHE=${SYNAPTIC_EVAL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/synaptic-eval}
PYTHON=${PYTHON:-python3}
CLANG=${CLANG:-clang}
CLANGXX=${CLANGXX:-clang++}
mkdir -p "$CACHE/corpora" "$CACHE/callers-c"

bin=$(realpath -m "${SYNAPTIC_BIN:-bin/synaptic}")
[ -x "$bin" ] || { echo "eval-callers-c: no $bin (make build, or set SYNAPTIC_BIN)" >&2; exit 1; }
command -v "$CLANG" >/dev/null || { echo "eval-callers-c: $CLANG is not installed: apt-get install clang" >&2; exit 1; }
command -v "$PYTHON" >/dev/null || { echo "eval-callers-c: $PYTHON is not installed" >&2; exit 1; }

if [ "${1:-}" = "--cpp" ]; then
	shift
	gt=/usr/src/googletest
	[ -d "$gt/googletest/src" ] || { echo "eval-callers-c: no $gt: apt-get install googletest" >&2; exit 1; }
	command -v "$CLANGXX" >/dev/null || { echo "eval-callers-c: $CLANGXX is not installed: apt-get install clang" >&2; exit 1; }
	dir="$CACHE/corpora/cpp-googletest"
	stamp="$(dpkg-query -W -f '${Version}' googletest 2>/dev/null || echo unknown) $gt"
	if [ ! -f "$dir/.stamp" ] || [ "$(cat "$dir/.stamp")" != "$stamp" ]; then
		rm -rf "$dir" "$CACHE/callers-c/truth-cpp" && mkdir -p "$dir"
		for p in googletest googlemock; do
			mkdir -p "$dir/$p" && cp -r "$gt/$p/include" "$gt/$p/src" "$dir/$p/"
		done
		chmod -R u+w "$dir"
		echo "$stamp" >"$dir/.stamp"
	fi
	out="$CACHE/callers-c/out-cpp"
	"$bin" extract --quiet --full --out "$out" "$dir" >&2
	# The two unity files compile every source file of the libraries once.
	exec "$PYTHON" eval/callers-c/callers.py -src "$dir" -graph "$out/graph.json" -clang "$CLANG" -clangxx "$CLANGXX" \
		-j 1 -cache "$CACHE/callers-c/truth-cpp" -tu googletest/src/gtest-all.cc -tu googlemock/src/gmock-all.cc \
		-I googletest/include -I googletest -I googlemock/include -I googlemock "$@"
fi

# The corpus: the runtime's own .c/.h files at the top, and each grammar's
# scanner with its headers (never its generated parser.c: tables, no calls).
src=$(go list -m -f '{{.Dir}}' github.com/smacker/go-tree-sitter)
[ -d "$src" ] || { echo "eval-callers-c: github.com/smacker/go-tree-sitter is not in the module cache: go mod download" >&2; exit 1; }
dir="$CACHE/corpora/c-treesitter"
if [ ! -f "$dir/.stamp" ] || [ "$(cat "$dir/.stamp")" != "$src" ]; then
	rm -rf "$dir" "$CACHE/callers-c/truth-c" && mkdir -p "$dir"
	cp "$src"/*.c "$src"/*.h "$dir"/
	for s in "$src"/*/scanner.c "$src"/*/scanner.cc; do
		[ -f "$s" ] || continue
		g=$(basename "$(dirname "$s")")
		mkdir -p "$dir/$g"
		cp "$s" "$dir/$g/"
		find "$(dirname "$s")" -maxdepth 1 -name '*.h' -exec cp {} "$dir/$g/" \;
		if [ -d "$(dirname "$s")/tree_sitter" ]; then cp -r "$(dirname "$s")/tree_sitter" "$dir/$g/"; fi
	done
	chmod -R u+w "$dir"
	echo "$src" >"$dir/.stamp"
fi

# The harness on its own fixture first (~1 s), so a broken harness fails
# loudly instead of printing plausible numbers: the extraction as is, then
# a copy of its graph with one wrong link added (main.c's call of the
# external only_here() linked to other.c's static one), which the harness
# must count.
fx="$CACHE/callers-c/fixture-out"
"$bin" extract --quiet --full --out "$fx" eval/callers-c/testdata/fixture >&2
"$PYTHON" - "$fx/graph.json" "$fx/graph-wrong.json" <<'PY'
import json, sys
g = json.load(open(sys.argv[1]))
g["links"].append({"source": "src_main_uses_external", "target": "src_other_only_here", "relation": "calls",
                   "confidence": "INFERRED", "confidence_score": 0.8, "context": "call",
                   "source_file": "src/main.c", "source_location": "L11", "weight": 1.0})
json.dump(g, open(sys.argv[2], "w"))
PY
want=$(cat eval/callers-c/testdata/fixture.want)
got=""
for g in graph graph-wrong; do
	if ! t=$("$PYTHON" eval/callers-c/callers.py -src eval/callers-c/testdata/fixture -graph "$fx/$g.json" -clang "$CLANG" -clangxx "$CLANGXX" 2>&1); then
		echo "$t" >&2
		echo "eval-callers-c: the harness failed on its fixture ($g.json)" >&2
		exit 1
	fi
	got="$got${got:+
}$(grep '^precision' <<<"$t")"
done
if [ "$got" != "$want" ]; then
	echo "$t" >&2
	echo "eval-callers-c: fixture: got '$got', want '$want'" >&2
	exit 1
fi
echo "fixture: $got" >&2

out="$CACHE/callers-c/out"
"$bin" extract --quiet --full --out "$out" "$dir" >&2
"$PYTHON" eval/callers-c/callers.py -src "$dir" -graph "$out/graph.json" -clang "$CLANG" -clangxx "$CLANGXX" \
	-cache "$CACHE/callers-c/truth-c" "$@"
