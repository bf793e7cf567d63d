# synaptic — build, test and benchmark.
#
#   make            build bin/synaptic and the default plugins (bin/plugins/*)
#   make run        build, extract REPO (default: this repository), serve it over HTTP
#   make test       vet, gofmt, unit + integration + end-to-end tests (race detector), MCP conformance
#   make bench      benchmarks with ratios against baselines measured in the same run
#   make eval       query_graph retrieval evaluation (recall@k, MRR, token economy)

GO      ?= go
BIN     := bin
REPO    ?= .
ADDR    ?= 127.0.0.1:8765
PLUGIN_DIRS := $(sort $(dir $(wildcard extractors/*/plugin.toml rules/*/plugin.toml)))
export CGO_ENABLED := 1

.PHONY: all build synaptic plugins run test vet fmt unit ts-client race conformance bench eval fuzz clean

all: build

build: synaptic plugins

synaptic:
	$(GO) build -trimpath -o $(BIN)/synaptic ./cmd/synaptic

# Each plugin folder becomes bin/plugins/<folder>/{plugin.toml,<module>.wasm},
# found by bin/synaptic next to itself.
plugins:
	@set -e; for d in $(PLUGIN_DIRS); do \
		name=$$(basename $$d); \
		mod=$$(sed -n 's/^module *= *"\(.*\)".*/\1/p' $$d/plugin.toml); \
		mkdir -p $(BIN)/plugins/$$name; \
		echo "plugin $$name -> $(BIN)/plugins/$$name/$$mod"; \
		GOOS=wasip1 GOARCH=wasm CGO_ENABLED=0 $(GO) build -buildmode=c-shared -trimpath -ldflags='-s -w' \
			-o $(BIN)/plugins/$$name/$$mod ./$$d; \
		cp $$d/plugin.toml $(BIN)/plugins/$$name/plugin.toml; \
	done

run: build
	$(BIN)/synaptic extract $(REPO)
	$(BIN)/synaptic serve --graph $(REPO)/synaptic-out/graph.json --http $(ADDR)

test: build vet fmt unit ts-client conformance

vet:
	$(GO) vet ./...
	GOOS=wasip1 GOARCH=wasm CGO_ENABLED=0 $(GO) vet ./sdk/... ./extractors/...

fmt:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

unit:
	SYNAPTIC_TS_CLIENT=0 SYNAPTIC_BIN=$(CURDIR)/$(BIN)/synaptic $(GO) test -race -timeout 30m ./...

# The TypeScript MCP client (@modelcontextprotocol/client 2.x) against the real binary over stdio.
ts-client: build
	bash .ci/ts-client.sh $(CURDIR)/$(BIN)/synaptic

conformance:
	bash .ci/mcp-conformance.sh

bench: build
	bash .ci/bench.sh

# Retrieval evaluation of query_graph: recall@5/@10, MRR and token economy
# on Go, Python and TypeScript corpora (questions in eval/).
eval: build
	bash .ci/eval.sh

FUZZTIME ?= 15s

# Every parser of untrusted input, and fast paths held to their general
# form, FUZZTIME each (make fuzz FUZZTIME=5m).
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./core/graph
	$(GO) test -run '^$$' -fuzz '^FuzzParseDifferential$$' -fuzztime $(FUZZTIME) ./core/graph
	$(GO) test -run '^$$' -fuzz '^FuzzMakeID$$' -fuzztime $(FUZZTIME) ./core/graph
	$(GO) test -run '^$$' -fuzz '^FuzzParsePattern$$' -fuzztime $(FUZZTIME) ./core/discover
	$(GO) test -run '^$$' -fuzz '^FuzzMatch$$' -fuzztime $(FUZZTIME) ./core/discover
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./core/syntax
	$(GO) test -run '^$$' -fuzz '^FuzzReadFacts$$' -fuzztime $(FUZZTIME) ./core/extract
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeFacts$$' -fuzztime $(FUZZTIME) ./sdk/abi
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeFileInput$$' -fuzztime $(FUZZTIME) ./sdk/abi
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./plugins/manifest
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeMessage$$' -fuzztime $(FUZZTIME) ./mcp/internal/jsonrpc
	$(GO) test -run '^$$' -fuzz '^FuzzServeStdio$$' -fuzztime $(FUZZTIME) ./mcp
	$(GO) test -run '^$$' -fuzz '^FuzzParseDiff$$' -fuzztime $(FUZZTIME) ./core/gitdiff

clean:
	rm -rf $(BIN)
