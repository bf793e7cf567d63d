#!/usr/bin/env bash
# Site-level call accuracy on TypeScript against the TypeScript compiler's own
# resolution (eval/callers-ts/README.md), on the rxjs corpus of `make eval`.
#
#   bash .ci/eval-callers-ts.sh         table of recall and precision by call kind
#   bash .ci/eval-callers-ts.sh -v      + every missed call site and wrong link
#
# Extra arguments go to eval/callers-ts/callers.js (-v, -json FILE). Work
# files: $SYNAPTIC_EVAL_CACHE (default ~/.cache/synaptic-eval): the corpus in
# corpora/rxjs (shared with .ci/eval.sh), typescript in callers-ts/npm, the
# graph in callers-ts/out. Uses bin/synaptic as it is (no rebuild);
# SYNAPTIC_BIN=path extracts with that binary instead.
set -euo pipefail
cd "$(dirname "$0")/.."
CACHE=${SYNAPTIC_EVAL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/synaptic-eval}
TS_VERSION=5.9.3   # a 5.x compiler API (7.x is the native port)
mkdir -p "$CACHE/corpora" "$CACHE/callers-ts"

bin=$(realpath -m "${SYNAPTIC_BIN:-bin/synaptic}")
[ -x "$bin" ] || { echo "eval-callers-ts: no $bin (make build, or set SYNAPTIC_BIN)" >&2; exit 1; }
command -v node >/dev/null || { echo "eval-callers-ts: node is not installed" >&2; exit 1; }

# The compiler, pinned, in its own prefix.
ts="$CACHE/callers-ts/npm"
if [ "$(node -p "require('$ts/node_modules/typescript/package.json').version" 2>/dev/null)" != "$TS_VERSION" ]; then
	npm install --prefix "$ts" --no-save --ignore-scripts --no-audit --no-fund "typescript@$TS_VERSION" >&2
fi

# The corpus, shared with .ci/eval.sh.
. .ci/corpora.sh
corpus_rxjs
dir="$CACHE/corpora/rxjs"

# The harness on its own fixture first (~2 s), so a broken harness fails
# loudly instead of printing plausible numbers.
NODE_PATH="$ts/node_modules" node --test --test-reporter=dot eval/callers-ts/callers.test.js >&2

out="$CACHE/callers-ts/out"
"$bin" extract --quiet --full --out "$out" "$dir" >&2

NODE_PATH="$ts/node_modules" node eval/callers-ts/callers.js -src "$dir" -graph "$out/graph.json" "$@"
