#!/usr/bin/env bash
# make eval: the retrieval evaluation of query_graph (see eval/doc.go).
#
# Prepares three real corpora every machine can obtain without network beyond
# the registries, extracts each with bin/synaptic, then runs eval/cmd/evalquery
# over the hand-written questions in eval/questions/ and prints recall@5,
# recall@10, MRR and the token economy per corpus.
#
#   go      net/http, encoding, context, bufio, sync from $(go env GOROOT)/src
#   python  CPython 3.11 stdlib modules (pyenv's, else Debian's python3.11)
#   rxjs    rxjs 7.8.2's TypeScript src/, installed from npm
#
# Extra arguments go to evalquery (-v lists every miss; -tune k=v,... tries
# ranking alternatives). Cache: $SYNAPTIC_EVAL_CACHE (default ~/.cache/synaptic-eval).
set -euo pipefail
cd "$(dirname "$0")/.."
CACHE=${SYNAPTIC_EVAL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/synaptic-eval}
RXJS_VERSION=7.8.2
mkdir -p "$CACHE/corpora" "$CACHE/out"

if [ ! -x bin/synaptic ] || [ -n "$(find cmd core plugins extractors sdk -name '*.go' -newer bin/synaptic -print -quit 2>/dev/null)" ]; then
	if ! make build >&2; then
		[ -x bin/synaptic ] || exit 1
		echo "eval: make build failed; using the existing bin/synaptic" >&2
	fi
fi

# prepare NAME STAMP: true when corpora/NAME must be (re)built for STAMP.
prepare() {
	local dir="$CACHE/corpora/$1"
	if [ -f "$dir/.stamp" ] && [ "$(cat "$dir/.stamp")" = "$2" ]; then return 1; fi
	rm -rf "$dir" && mkdir -p "$dir"
}
stamp() { echo "$2" >"$CACHE/corpora/$1/.stamp"; }

# Go: packages copied under their import paths, so paths read net/http/server.go.
goroot=$(go env GOROOT)
if prepare go "$(go version)"; then
	for p in net/http encoding context bufio sync; do
		mkdir -p "$CACHE/corpora/go/$(dirname "$p")"
		cp -r "$goroot/src/$p" "$CACHE/corpora/go/$p"
	done
	stamp go "$(go version)"
fi

# Python: the first CPython 3.11 standard library found.
pylib=${SYNAPTIC_EVAL_PYLIB:-}
if [ -z "$pylib" ]; then
	for d in "$HOME"/.pyenv/versions/3.11.7/lib/python3.11 "$HOME"/.pyenv/versions/3.11*/lib/python3.11 \
		/root/.pyenv/versions/3.11*/lib/python3.11 /usr/lib/python3.11 /usr/local/lib/python3.11; do
		if [ -f "$d/asyncio/queues.py" ]; then pylib=$d; break; fi
	done
fi
if [ -z "$pylib" ]; then
	echo "eval: no CPython 3.11 standard library (install python3.11 or set SYNAPTIC_EVAL_PYLIB)" >&2
	exit 1
fi
if prepare python "$pylib"; then
	for m in asyncio json http logging email urllib concurrent; do cp -r "$pylib/$m" "$CACHE/corpora/python/"; done
	for f in argparse functools pathlib subprocess shutil tempfile textwrap dataclasses csv enum; do cp "$pylib/$f.py" "$CACHE/corpora/python/"; done
	find "$CACHE/corpora/python" -name __pycache__ -prune -exec rm -rf {} +
	stamp python "$pylib"
fi

# TypeScript: rxjs's own sources, from the npm registry.
if prepare rxjs "rxjs@$RXJS_VERSION"; then
	npm install --prefix "$CACHE/npm" --no-save --ignore-scripts --no-audit --no-fund "rxjs@$RXJS_VERSION" >&2
	cp -r "$CACHE/npm/node_modules/rxjs/src/." "$CACHE/corpora/rxjs/"
	stamp rxjs "rxjs@$RXJS_VERSION"
fi

args=()
for c in go python rxjs; do
	bin/synaptic extract --quiet --out "$CACHE/out/$c" "$CACHE/corpora/$c" >&2
	args+=(-corpus "$c=$CACHE/out/$c/graph.json:$CACHE/corpora/$c")
done
go run ./eval/cmd/evalquery -questions eval/questions -json "$CACHE/last.json" "${args[@]}" "$@"
