#!/usr/bin/env bash
# Runs the official TypeScript MCP client (@modelcontextprotocol/client,
# pinned in .ci/ts-client/package-lock.json) against `synaptic serve` over
# stdio, in the legacy and the modern era (.ci/ts-client/client.mjs).
# Node >= 20 and npm from PATH; the client is installed into
# .tools/ts-client (gitignored) on first use. Exits non-zero on any problem.
#
# Usage: .ci/ts-client.sh [SYNAPTIC_BIN [GRAPH_JSON]]
#   SYNAPTIC_BIN defaults to bin/synaptic; without GRAPH_JSON the mcp/
#   package of this repository is extracted into a temporary directory.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
TOOLS=${SYNAPTIC_TOOLS:-$ROOT/.tools}
DIR=$TOOLS/ts-client
BIN=${1:-$ROOT/bin/synaptic}
GRAPH=${2:-}

command -v node >/dev/null || { echo "ts-client: node not on PATH (Node >= 20 needed)" >&2; exit 1; }
command -v npm >/dev/null || { echo "ts-client: npm not on PATH" >&2; exit 1; }
major=$(node -p 'process.versions.node.split(".")[0]')
[ "$major" -ge 20 ] || { echo "ts-client: Node $(node --version) is too old, need >= 20" >&2; exit 1; }
[ -x "$BIN" ] || { echo "ts-client: $BIN is not an executable (run make build)" >&2; exit 1; }

# (Re)install when the pinned lock file changed since the last install.
mkdir -p "$DIR"
if ! cmp -s "$ROOT/.ci/ts-client/package-lock.json" "$DIR/package-lock.json" ||
	[ ! -f "$DIR/node_modules/@modelcontextprotocol/client/package.json" ]; then
	echo "ts-client: installing $(node -p 'require(process.argv[1]).dependencies["@modelcontextprotocol/client"]' "$ROOT/.ci/ts-client/package.json" 2>/dev/null || echo '@modelcontextprotocol/client') into $DIR" >&2
	cp "$ROOT/.ci/ts-client/package.json" "$ROOT/.ci/ts-client/package-lock.json" "$DIR/"
	(cd "$DIR" && npm ci --no-audit --no-fund --loglevel=error >&2)
fi
# ESM resolves packages from the script's own directory, so run a copy
# next to node_modules.
cp "$ROOT/.ci/ts-client/client.mjs" "$DIR/client.mjs"

WORK=
cleanup() { if [ -n "$WORK" ]; then rm -rf "$WORK"; fi; }
trap cleanup EXIT
if [ -z "$GRAPH" ]; then
	WORK=$(mktemp -d)
	SYNAPTIC_PLUGINS= "$BIN" extract --quiet --out "$WORK/synaptic-out" "$ROOT/mcp" >&2
	GRAPH=$WORK/synaptic-out/graph.json
fi

node "$DIR/client.mjs" "$BIN" "$GRAPH"
