# Sourced by .ci/eval.sh and the call-accuracy harnesses: the evaluation
# corpora, prepared once under $CACHE/corpora/NAME with a .stamp naming what
# they were made from, so every script reuses what another prepared.
#
#   go      net/http, encoding, context, bufio, sync from $(go env GOROOT)/src
#   python  CPython 3.11 stdlib modules (pyenv's, else Debian's python3.11;
#           SYNAPTIC_EVAL_PYLIB=dir to choose)
#   rxjs    rxjs 7.8.2's TypeScript src/, installed from npm
#
# The caller sets CACHE. Each corpus_NAME prepares NAME if its stamp is stale
# and exits the script with a message when it cannot.
RXJS_VERSION=7.8.2

# prepare NAME STAMP: true when corpora/NAME must be (re)built for STAMP.
prepare() {
	local dir="$CACHE/corpora/$1"
	if [ -f "$dir/.stamp" ] && [ "$(cat "$dir/.stamp")" = "$2" ]; then return 1; fi
	rm -rf "$dir" && mkdir -p "$dir"
}
stamp() { echo "$2" >"$CACHE/corpora/$1/.stamp"; }

# Go: packages copied under their import paths, so paths read net/http/server.go.
corpus_go() {
	local goroot p
	goroot=$(go env GOROOT)
	if prepare go "$(go version)"; then
		for p in net/http encoding context bufio sync; do
			mkdir -p "$CACHE/corpora/go/$(dirname "$p")"
			cp -r "$goroot/src/$p" "$CACHE/corpora/go/$p"
		done
		stamp go "$(go version)"
	fi
}

# Python: the first CPython 3.11 standard library found.
corpus_python() {
	local pylib=${SYNAPTIC_EVAL_PYLIB:-} d m f
	if [ -z "$pylib" ]; then
		for d in "$HOME"/.pyenv/versions/3.11.7/lib/python3.11 "$HOME"/.pyenv/versions/3.11*/lib/python3.11 \
			/root/.pyenv/versions/3.11*/lib/python3.11 /usr/lib/python3.11 /usr/local/lib/python3.11; do
			if [ -f "$d/asyncio/queues.py" ]; then pylib=$d; break; fi
		done
	fi
	if [ -z "$pylib" ]; then
		echo "$(basename "$0"): no CPython 3.11 standard library (install python3.11 or set SYNAPTIC_EVAL_PYLIB)" >&2
		exit 1
	fi
	if prepare python "$pylib"; then
		for m in asyncio json http logging email urllib concurrent; do cp -r "$pylib/$m" "$CACHE/corpora/python/"; done
		for f in argparse functools pathlib subprocess shutil tempfile textwrap dataclasses csv enum; do cp "$pylib/$f.py" "$CACHE/corpora/python/"; done
		find "$CACHE/corpora/python" -name __pycache__ -prune -exec rm -rf {} +
		stamp python "$pylib"
	fi
}

# TypeScript: rxjs's own sources, from the npm registry.
corpus_rxjs() {
	if prepare rxjs "rxjs@$RXJS_VERSION"; then
		npm install --prefix "$CACHE/npm" --no-save --ignore-scripts --no-audit --no-fund "rxjs@$RXJS_VERSION" >&2
		cp -r "$CACHE/npm/node_modules/rxjs/src/." "$CACHE/corpora/rxjs/"
		stamp rxjs "rxjs@$RXJS_VERSION"
	fi
}
