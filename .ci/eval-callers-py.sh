#!/usr/bin/env bash
# Site-level call accuracy on Python against jedi's static resolution
# (eval/callers-py/README.md), on the CPython 3.11 stdlib corpus of `make eval`.
#
#   bash .ci/eval-callers-py.sh         table of recall and precision by call kind
#   bash .ci/eval-callers-py.sh -v      + every missed call site, wrong link and unverifiable site
#
# Extra arguments go to eval/callers-py/callers.py (-v, -json FILE, -only
# a,b.py to check other packages than the default subset). Work files:
# $SYNAPTIC_EVAL_CACHE (default ~/.cache/synaptic-eval): the corpus in
# corpora/python (shared with .ci/eval.sh), the graph in callers-py/out. Uses
# bin/synaptic as it is (no rebuild); SYNAPTIC_BIN=path extracts with that
# binary instead. PYTHON=path runs the evaluator with another interpreter.
set -euo pipefail
cd "$(dirname "$0")/.."
CACHE=${SYNAPTIC_EVAL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/synaptic-eval}
PYTHON=${PYTHON:-python3}
# The packages checked: every call site in them is asked of jedi (~2 min on
# 2 busy cores); the rest of the corpus is there for their imports to resolve.
ONLY=json,logging,http,concurrent
mkdir -p "$CACHE/corpora" "$CACHE/callers-py"

bin=$(realpath -m "${SYNAPTIC_BIN:-bin/synaptic}")
[ -x "$bin" ] || { echo "eval-callers-py: no $bin (make build, or set SYNAPTIC_BIN)" >&2; exit 1; }
command -v "$PYTHON" >/dev/null || { echo "eval-callers-py: $PYTHON is not installed" >&2; exit 1; }
if ! "$PYTHON" -c 'import jedi' 2>/dev/null; then
	echo "eval-callers-py: jedi is not installed for $PYTHON: apt-get install python3-jedi, or pip install jedi" >&2
	exit 1
fi

# The corpus, shared with .ci/eval.sh.
. .ci/corpora.sh
corpus_python
dir="$CACHE/corpora/python"

# The harness on its own fixture first (~2 s), so a broken harness fails
# loudly instead of printing plausible numbers.
if ! t=$("$PYTHON" -m unittest eval/callers-py/callers_test.py 2>&1); then
	echo "$t" >&2
	echo "eval-callers-py: the fixture test failed" >&2
	exit 1
fi
echo "fixture: ${t##*$'\n'}" >&2

out="$CACHE/callers-py/out"
"$bin" extract --quiet --full --out "$out" "$dir" >&2

"$PYTHON" eval/callers-py/callers.py -src "$dir" -graph "$out/graph.json" -only "$ONLY" "$@"
