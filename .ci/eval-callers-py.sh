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

# The corpus: the same directory, stamp and files as .ci/eval.sh's Python
# step, so either script reuses what the other prepared.
pylib=${SYNAPTIC_EVAL_PYLIB:-}
if [ -z "$pylib" ]; then
	for d in "$HOME"/.pyenv/versions/3.11.7/lib/python3.11 "$HOME"/.pyenv/versions/3.11*/lib/python3.11 \
		/root/.pyenv/versions/3.11*/lib/python3.11 /usr/lib/python3.11 /usr/local/lib/python3.11; do
		if [ -f "$d/asyncio/queues.py" ]; then pylib=$d; break; fi
	done
fi
[ -n "$pylib" ] || { echo "eval-callers-py: no CPython 3.11 standard library (install python3.11 or set SYNAPTIC_EVAL_PYLIB)" >&2; exit 1; }
dir="$CACHE/corpora/python"
if [ ! -f "$dir/.stamp" ] || [ "$(cat "$dir/.stamp")" != "$pylib" ]; then
	rm -rf "$dir" && mkdir -p "$dir"
	for m in asyncio json http logging email urllib concurrent; do cp -r "$pylib/$m" "$dir/"; done
	for f in argparse functools pathlib subprocess shutil tempfile textwrap dataclasses csv enum; do cp "$pylib/$f.py" "$dir/"; done
	find "$dir" -name __pycache__ -prune -exec rm -rf {} +
	echo "$pylib" >"$dir/.stamp"
fi

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
