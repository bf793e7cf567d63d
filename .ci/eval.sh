#!/usr/bin/env bash
# make eval: the retrieval evaluation of query_graph (see eval/doc.go).
#
# Prepares three real corpora every machine can obtain without network beyond
# the registries, extracts each with bin/synaptic, then runs eval/cmd/evalquery
# over the hand-written questions in eval/questions/ and prints recall@5,
# recall@10, MRR and the token economy per corpus.
#
# (go, python, rxjs: see .ci/corpora.sh)
#
# Extra arguments go to evalquery (-v lists every miss; -tune k=v,... tries
# ranking alternatives). Cache: $SYNAPTIC_EVAL_CACHE (default ~/.cache/synaptic-eval).
set -euo pipefail
cd "$(dirname "$0")/.."
CACHE=${SYNAPTIC_EVAL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/synaptic-eval}
mkdir -p "$CACHE/corpora" "$CACHE/out"

if [ ! -x bin/synaptic ] || [ -n "$(find cmd core plugins extractors sdk -name '*.go' -newer bin/synaptic -print -quit 2>/dev/null)" ]; then
	if ! make build >&2; then
		[ -x bin/synaptic ] || exit 1
		echo "eval: make build failed; using the existing bin/synaptic" >&2
	fi
fi

. .ci/corpora.sh
corpus_go
corpus_python
corpus_rxjs

args=()
for c in go python rxjs; do
	bin/synaptic extract --quiet --out "$CACHE/out/$c" "$CACHE/corpora/$c" >&2
	args+=(-corpus "$c=$CACHE/out/$c/graph.json:$CACHE/corpora/$c")
done
go run ./eval/cmd/evalquery -questions eval/questions -json "$CACHE/last.json" "${args[@]}" "$@"
