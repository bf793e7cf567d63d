# synaptic — build, test and benchmark.
#
#   make            build bin/synaptic (default plugins embedded) and bin/plugins/*
#   make install    install bin/synaptic into $(PREFIX)/bin (PREFIX=/usr/local)
#   make run        build, extract REPO (default: this repository), serve it over HTTP
#   make test       vet, gofmt, unit + integration + end-to-end tests (race detector), MCP clients
#                   (TypeScript SDK, Inspector CLI with an API key), MCP conformance
#                   (the viewer's Chromium test leaves its screenshot in bin/test-artifacts/viewer.png)
#   make bench      benchmarks with ratios against baselines measured in the same run
#   make eval       query_graph retrieval evaluation (recall@k, MRR, token economy)
#   make soak       load test of serve: 200 HTTP clients for 60 s, graph churn

GO      ?= go
BIN     := bin
REPO    ?= .
ADDR    ?= 127.0.0.1:8765
PLUGIN_DIRS := $(sort $(dir $(wildcard extractors/*/plugin.toml rules/*/plugin.toml)))
export CGO_ENABLED := 1

.PHONY: all build synaptic plugins viewer-lib install run test vet fmt unit ts-client inspector race conformance bench eval fuzz soak faults clean

all: build

PREFIX  ?= /usr/local
EMBED   := plugins/builtin/embedded
CLI     := github.com/synaptic-graph/synaptic/cmd/internal/cli
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT  ?= $(shell git rev-parse HEAD 2>/dev/null)
LDFLAGS := -X $(CLI).Version=$(VERSION) -X $(CLI).Commit=$(COMMIT)

build: synaptic

# The binary embeds the plugins just built (go:embed of $(EMBED)), so a
# copy of bin/synaptic extracts with nothing beside it; bin/plugins/ stays
# too, and overrides the embedded set by plugin name.
synaptic: plugins viewer-lib
	@find $(EMBED) -mindepth 1 -maxdepth 1 -type d -exec rm -rf {} +
	cp -R $(BIN)/plugins/. $(EMBED)/
	$(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN)/synaptic ./cmd/synaptic

# The viewer's graph library (cytoscape, pinned with its npm sha512), embedded
# in the binary; fetched once into .tools/viewer.
viewer-lib:
	bash .ci/vendor-viewer.sh

# make install PREFIX=~/.local: one self-contained file, $(PREFIX)/bin/synaptic.
install: synaptic
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 0755 $(BIN)/synaptic $(DESTDIR)$(PREFIX)/bin/synaptic
	@echo "installed $(DESTDIR)$(PREFIX)/bin/synaptic; next: synaptic extract path/to/repo && synaptic install claude path/to/repo"

# Each plugin folder becomes bin/plugins/<folder>/{plugin.toml,<module>.wasm}
# (rule packs: bin/plugins/rules-<folder>/), found by bin/synaptic next to itself.
plugins:
	@set -e; for d in $(PLUGIN_DIRS); do \
		name=$$(basename $$d); case $$d in rules/*) name=rules-$$name;; esac; \
		mod=$$(sed -n 's/^module *= *"\(.*\)".*/\1/p' $$d/plugin.toml); \
		mkdir -p $(BIN)/plugins/$$name; \
		echo "plugin $$name -> $(BIN)/plugins/$$name/$$mod"; \
		GOOS=wasip1 GOARCH=wasm CGO_ENABLED=0 $(GO) build -buildmode=c-shared -trimpath -ldflags='-s -w' \
			-o $(BIN)/plugins/$$name/$$mod ./$$d; \
		cp $$d/plugin.toml $(BIN)/plugins/$$name/plugin.toml; \
	done

run: build
	$(BIN)/synaptic extract $(REPO)
	@echo
	@echo "Serving $(REPO) on http://$(ADDR)/mcp (Ctrl-C stops). Try, from another terminal:"
	@echo "  curl -s http://$(ADDR)/api/stats"
	@echo "  curl -s 'http://$(ADDR)/api/query?q=how+does+extraction+work'"
	@echo "  $(BIN)/synaptic call --graph $(REPO)/synaptic-out/graph.json find_callers label=Run"
	@echo "  $(BIN)/synaptic install claude $(REPO)      # or codex, cursor, vscode, gemini, windsurf --global"
	@echo
	$(BIN)/synaptic serve --graph $(REPO)/synaptic-out/graph.json --http $(ADDR)

test: build vet fmt unit ts-client inspector conformance

vet:
	$(GO) vet ./...
	GOOS=wasip1 GOARCH=wasm CGO_ENABLED=0 $(GO) vet ./sdk/... ./extractors/... ./rules/...

fmt:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

unit:
	SYNAPTIC_TS_CLIENT=0 SYNAPTIC_BIN=$(CURDIR)/$(BIN)/synaptic SYNAPTIC_ARTIFACTS=$(CURDIR)/$(BIN)/test-artifacts $(GO) test -race -timeout 30m ./...

# The TypeScript MCP client (@modelcontextprotocol/client 2.x) against the real binary over stdio.
ts-client: build
	bash .ci/ts-client.sh $(CURDIR)/$(BIN)/synaptic

# The MCP Inspector CLI (@modelcontextprotocol/inspector, pinned) against
# serve --http with an API key in the documented headers; a wrong key must fail.
inspector: build
	bash .ci/inspector.sh $(CURDIR)/$(BIN)/synaptic

conformance:
	bash .ci/mcp-conformance.sh

bench: build
	bash .ci/bench.sh

# Retrieval evaluation of query_graph: recall@5/@10, MRR and token economy
# on Go, Python and TypeScript corpora (questions in eval/).
eval: build
	bash .ci/eval.sh

# The load test of the server (issue 16's figures): 200 paced HTTP clients
# for 60 s on the GOROOT/src/net graph, then 20 graph.json replacements
# under load. make test runs a short form of the same test (TestSoak).
soak: build
	SYNAPTIC_SOAK=full SYNAPTIC_BIN=$(CURDIR)/$(BIN)/synaptic $(GO) test -count=1 -timeout 20m -run '^TestSoak$$' -v ./cmd/synaptic

# Fault tests in their full form: 10 kill -9 points of extract, and a full
# disk (a tmpfs; needs root, skipped otherwise). `make unit` runs 3 kills.
faults: build
	SYNAPTIC_FAULT_RUNS=10 SYNAPTIC_BIN=$(CURDIR)/$(BIN)/synaptic $(GO) test -count=1 -v -run '^(TestKillNineAtRandomPoints|TestFullDisk)$$' ./cmd/synaptic

FUZZTIME ?= 15s

# Every parser of untrusted input, and fast paths held to their general
# form, FUZZTIME each (make fuzz FUZZTIME=5m).
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./core/graph
	$(GO) test -run '^$$' -fuzz '^FuzzParseDifferential$$' -fuzztime $(FUZZTIME) ./core/graph
	$(GO) test -run '^$$' -fuzz '^FuzzMakeID$$' -fuzztime $(FUZZTIME) ./core/graph
	$(GO) test -run '^$$' -fuzz '^FuzzAppendString$$' -fuzztime $(FUZZTIME) ./core/graph
	$(GO) test -run '^$$' -fuzz '^FuzzDecode$$' -fuzztime $(FUZZTIME) ./core/graphbin
	$(GO) test -run '^$$' -fuzz '^FuzzParsePattern$$' -fuzztime $(FUZZTIME) ./core/discover
	$(GO) test -run '^$$' -fuzz '^FuzzMatch$$' -fuzztime $(FUZZTIME) ./core/discover
	$(GO) test -run '^$$' -fuzz '^FuzzParseIndex$$' -fuzztime $(FUZZTIME) ./core/discover
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./core/syntax
	$(GO) test -run '^$$' -fuzz '^FuzzWalk$$' -fuzztime $(FUZZTIME) ./core/syntax
	$(GO) test -run '^$$' -fuzz '^FuzzGlob$$' -fuzztime $(FUZZTIME) ./core/search
	$(GO) test -run '^$$' -fuzz '^FuzzScan$$' -fuzztime $(FUZZTIME) ./core/search
	$(GO) test -run '^$$' -fuzz '^FuzzIsBinary$$' -fuzztime $(FUZZTIME) ./core/search
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./core/synql
	$(GO) test -run '^$$' -fuzz '^FuzzReadFacts$$' -fuzztime $(FUZZTIME) ./core/extract
	$(GO) test -run '^$$' -fuzz '^FuzzReadManifest$$' -fuzztime $(FUZZTIME) ./core/extract
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeMemo$$' -fuzztime $(FUZZTIME) ./core/resolve
	$(GO) test -run '^$$' -fuzz '^FuzzProject$$' -fuzztime $(FUZZTIME) ./extractors/typescript
	$(GO) test -run '^$$' -fuzz '^FuzzTerminal$$' -fuzztime $(FUZZTIME) ./core/textsafe
	$(GO) test -run '^$$' -fuzz '^FuzzAttributeLines$$' -fuzztime $(FUZZTIME) ./core/tools
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeFacts$$' -fuzztime $(FUZZTIME) ./sdk/abi
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeFileInput$$' -fuzztime $(FUZZTIME) ./sdk/abi
	$(GO) test -run '^$$' -fuzz '^FuzzParseTypeRef$$' -fuzztime $(FUZZTIME) ./sdk/abi
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeProjectOutput$$' -fuzztime $(FUZZTIME) ./sdk/abi
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeProjectInput$$' -fuzztime $(FUZZTIME) ./sdk/abi
	$(GO) test -run '^$$' -fuzz '^FuzzDocAbove$$' -fuzztime $(FUZZTIME) ./sdk/extract
	$(GO) test -run '^$$' -fuzz '^FuzzOneSpaced$$' -fuzztime $(FUZZTIME) ./sdk/extract
	$(GO) test -run '^$$' -fuzz '^FuzzDecode$$' -fuzztime $(FUZZTIME) ./sdk/trees
	$(GO) test -run '^$$' -fuzz '^FuzzParseWants$$' -fuzztime $(FUZZTIME) ./sdk/extracttest
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./plugins/manifest
	$(GO) test -run '^$$' -fuzz '^FuzzSplit$$' -fuzztime $(FUZZTIME) ./sdk/sqltext
	$(GO) test -run '^$$' -fuzz '^FuzzFindCodeSQL$$' -fuzztime $(FUZZTIME) ./sdk/sqltext
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeRuleOutput$$' -fuzztime $(FUZZTIME) ./sdk/abi
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeRuleInput$$' -fuzztime $(FUZZTIME) ./sdk/abi
	$(GO) test -run '^$$' -fuzz '^FuzzCheck$$' -fuzztime $(FUZZTIME) ./plugins/rulehost
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeMessage$$' -fuzztime $(FUZZTIME) ./mcp/internal/jsonrpc
	$(GO) test -run '^$$' -fuzz '^FuzzServeStdio$$' -fuzztime $(FUZZTIME) ./mcp
	$(GO) test -run '^$$' -fuzz '^FuzzLabel$$' -fuzztime $(FUZZTIME) ./core/textsafe
	$(GO) test -run '^$$' -fuzz '^FuzzEdit$$' -fuzztime $(FUZZTIME) ./cmd/internal/clientconfig
	$(GO) test -run '^$$' -fuzz '^FuzzMatchTemplate$$' -fuzztime $(FUZZTIME) ./mcp
	$(GO) test -run '^$$' -fuzz '^FuzzParseDiff$$' -fuzztime $(FUZZTIME) ./core/gitdiff
	$(GO) test -run '^$$' -fuzz '^FuzzExtract$$' -fuzztime $(FUZZTIME) ./extractors/csharp
	$(GO) test -run '^$$' -fuzz '^FuzzExtract$$' -fuzztime $(FUZZTIME) ./extractors/kotlin
	$(GO) test -run '^$$' -fuzz '^FuzzExtract$$' -fuzztime $(FUZZTIME) ./extractors/ruby
	$(GO) test -run '^$$' -fuzz '^FuzzExtract$$' -fuzztime $(FUZZTIME) ./extractors/java
	$(GO) test -run '^$$' -fuzz '^FuzzExtract$$' -fuzztime $(FUZZTIME) ./extractors/rust
	$(GO) test -run '^$$' -fuzz '^FuzzParseManifest$$' -fuzztime $(FUZZTIME) ./extractors/rust
	$(GO) test -run '^$$' -fuzz '^FuzzCfgConstraints$$' -fuzztime $(FUZZTIME) ./extractors/rust
	$(GO) test -run '^$$' -fuzz '^FuzzExtract$$' -fuzztime $(FUZZTIME) ./extractors/php
	$(GO) test -run '^$$' -fuzz '^FuzzExtract$$' -fuzztime $(FUZZTIME) ./extractors/c
	$(GO) test -run '^$$' -fuzz '^FuzzScriptOf$$' -fuzztime $(FUZZTIME) ./sdk/extract
	$(GO) test -run '^$$' -fuzz '^FuzzRoutePaths$$' -fuzztime $(FUZZTIME) ./core/resolve
	$(GO) test -run '^$$' -fuzz '^FuzzProjectInfo$$' -fuzztime $(FUZZTIME) ./extractors/python

clean:
	rm -rf $(BIN)
	find $(EMBED) -mindepth 1 -maxdepth 1 -type d -exec rm -rf {} +
	rm -f cmd/internal/viewer/assets/vendor/cytoscape.min.js
