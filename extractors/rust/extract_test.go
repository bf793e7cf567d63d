//go:build !wasip1

package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/synaptic-graph/synaptic/plugins/plugintest"
)

// TestGolden runs the extractor natively over testdata/*.txtar; run
// `go test ./extractors/rust -update` to rewrite the facts, then review them.
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
	b.WriteString("struct S { repo: Repo }\nimpl S {\n    fn run(&self) {\n        self.repo")
	for i := range n {
		fmt.Fprintf(&b, ".m%d()", i)
	}
	b.WriteString(";\n        self.repo.client().send();\n    }\n}\n")
	facts := plugintest.ExtractSource(t, Extractor{}, "chain.rs", []byte(b.String()))
	var short string
	for _, call := range facts.Calls {
		if len(call.ReceiverType) > 200 {
			t.Errorf("call %s has a %d-byte receiver type", call.Name, len(call.ReceiverType))
		}
		if call.Name == "send" {
			short = call.ReceiverType
		}
	}
	if short != "S#repo#client()" {
		t.Errorf("self.repo.client().send() has receiver type %q, want S#repo#client()", short)
	}
}
