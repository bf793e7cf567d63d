//go:build !wasip1

package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/synaptic-graph/synaptic/plugins/plugintest"
)

// TestGolden runs the extractor natively over testdata/*.txtar; run
// `go test ./extractors/java -update` to rewrite the facts, then review them.
func TestGolden(t *testing.T) { plugintest.RunNative(t, Extractor{}) }

// TestGoldenWasm runs the same fixtures through the built .wasm in the real
// sandbox (skipped with -short).
func TestGoldenWasm(t *testing.T) { plugintest.RunWasm(t, ".") }

// TestLongChains: receiver types follow at most maxTypeDepth links, so a
// generated builder chain of thousands of calls does not make every call's
// type spell the chain below it.
func TestLongChains(t *testing.T) {
	const n = 3000
	var b strings.Builder
	b.WriteString("class C {\n  Repo repo;\n  void run() {\n    repo")
	for i := range n {
		fmt.Fprintf(&b, ".m%d()", i)
	}
	b.WriteString(";\n    repo.getClient().send();\n  }\n}\n")
	facts := plugintest.ExtractSource(t, Extractor{}, "C.java", []byte(b.String()))
	var short string
	for _, call := range facts.Calls {
		if len(call.ReceiverType) > 200 {
			t.Errorf("call %s has a %d-byte receiver type", call.Name, len(call.ReceiverType))
		}
		if call.Name == "send" {
			short = call.ReceiverType
		}
	}
	if short != "Repo#getClient()" {
		t.Errorf("repo.getClient().send() has receiver type %q, want Repo#getClient()", short)
	}
}
