#!/usr/bin/env bash
# Accuracy of "who calls X" on Go against go/types truth (eval/callers/README.md).
#
#   bash .ci/eval-callers.sh            net/http copied alone (the corpus of peers.md)
#   LAYOUT=module bash .ci/eval-callers.sh
#                                       net/http as a folder of a module instead: the
#                                       copy gets a go.mod one level up ("module net")
#                                       and the extraction is rooted at the package folder
#   LAYOUT=both bash .ci/eval-callers.sh
#                                       both layouts, one table each
#   FULL=1 bash .ci/eval-callers.sh     also the whole $(go env GOROOT)/src (~1 min, ~1.3 GB)
#   GOSRC_GRAPH=/tmp/gosrc-out/graph.json bash .ci/eval-callers.sh
#                                       also an existing GOROOT/src extraction
#
# With a GOROOT/src graph (FULL=1 or GOSRC_GRAPH) a second table follows:
# the build variants of package net (every function or method declared in
# several files, e.g. sysSocket in sock_cloexec.go / sys_cloexec.go /
# sock_windows.go), with go/types for this GOOS/GOARCH, cgo off, as truth.
#
# Extra arguments go to the evaluator (-v lists every missed and wrong
# caller, -json FILE writes everything). Work files: $SYNAPTIC_EVAL_CACHE/callers
# (default ~/.cache/synaptic-eval/callers). SYNAPTIC_BIN=path skips the
# rebuild of a stale bin/synaptic and extracts with that binary.
set -euo pipefail
cd "$(dirname "$0")/.."
CACHE=${SYNAPTIC_EVAL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/synaptic-eval}/callers
mkdir -p "$CACHE"

bin=${SYNAPTIC_BIN:-}
if [ -n "$bin" ]; then
	: # use it as is
elif [ ! -x bin/synaptic ] || [ -n "$(find cmd core plugins extractors sdk -name '*.go' -newer bin/synaptic -print -quit 2>/dev/null)" ]; then
	if ! make build >&2; then
		[ -x bin/synaptic ] || exit 1
		echo "eval-callers: make build failed; using the existing bin/synaptic" >&2
	fi
fi
bin=$(realpath "${bin:-bin/synaptic}")

src="$(go env GOROOT)/src"
LAYOUT=${LAYOUT:-gopath}
case "$LAYOUT" in
gopath | module | both) ;;
*) echo "eval-callers: LAYOUT=$LAYOUT: use gopath, module or both" >&2; exit 2 ;;
esac
graphs=""
rm -rf "$CACHE/http" "$CACHE/src" "$CACHE/mod"
if [ "$LAYOUT" != module ]; then
	# net/http alone, as its own extraction root (what peers.md measured).
	# The copy keeps the GOPATH layout (…/src/net/http), as the original
	# has, so its import path is known without a go.mod.
	mkdir -p "$CACHE/src/net"
	cp -r "$src/net/http" "$CACHE/src/net/http"
	"$bin" extract --quiet --full --out "$CACHE/http-out" "$CACHE/src/net/http" >&2
	graphs="$CACHE/http-out/graph.json"
fi
if [ "$LAYOUT" != gopath ]; then
	# net/http as a folder of a larger project: go.mod one level up, the
	# extraction rooted at the package folder: its import path "net/http"
	# comes from that go.mod (module path + the folder's name).
	mkdir -p "$CACHE/mod"
	printf 'module net\n\ngo 1.22\n' >"$CACHE/mod/go.mod"
	cp -r "$src/net/http" "$CACHE/mod/http"
	"$bin" extract --quiet --full --out "$CACHE/mod-out" "$CACHE/mod/http" >&2
	graphs="${graphs:+$graphs,}$CACHE/mod-out/graph.json"
fi

gosrc=""
if [ "${FULL:-0}" = 1 ]; then
	"$bin" extract --quiet --full --out "$CACHE/gosrc-out" "$src" >&2
	gosrc="$CACHE/gosrc-out/graph.json"
elif [ -n "${GOSRC_GRAPH:-}" ]; then
	gosrc=$GOSRC_GRAPH
fi
graphs="$graphs${gosrc:+,$gosrc}"

cd eval/callers
go run ./cmd/callers -src "$src/net/http" -graph "$graphs" "$@"
if [ -n "$gosrc" ]; then
	echo
	go run ./cmd/callers -src "$src/net" -pkgs . -set variants -graph "$gosrc" "$@"
fi
