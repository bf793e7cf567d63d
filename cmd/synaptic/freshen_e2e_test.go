package main_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestServeAutoFreshen: with no command run, the next tool call after an
// edit answers from a graph that includes it (add, rename, delete, syntax
// error), over stdio and HTTP; --immutable-graph never changes; what serve
// wrote back is what synaptic extract would write.
func TestServeAutoFreshen(t *testing.T) {
	for _, transport := range []string{"http", "stdio"} {
		t.Run(transport, func(t *testing.T) {
			root, graphPath := serveFixture(t)
			var cs *sdk.ClientSession
			var s *httpServer
			if transport == "http" {
				s = startHTTP(t, serveEnv(), "--graph", graphPath)
				cs = connectSDK(t, &sdk.StreamableClientTransport{Endpoint: s.mcpURL, MaxRetries: -1}, "")
			} else {
				cmd := exec.Command(bin, "serve", "--graph", graphPath)
				cmd.Env = serveEnv()
				cs = connectSDK(t, &sdk.CommandTransport{Command: cmd}, "")
			}
			defer cs.Close()
			pinned := startHTTP(t, serveEnv(), "--graph", graphPath, "--immutable-graph")
			pcs := connectSDK(t, &sdk.StreamableClientTransport{Endpoint: pinned.mcpURL, MaxRetries: -1}, "")
			defer pcs.Close()
			// has asks for a function by name (a substring match on the
			// file discount.go must not count).
			has := func(cs *sdk.ClientSession, name string) bool {
				res := callTool(t, cs, "get_node", map[string]any{"label": name + "()"})
				return !res.IsError && strings.Contains(resultText(res), "Node: "+name+"()")
			}
			settle := func() { time.Sleep(300 * time.Millisecond) } // past the debounce

			// Add a function: the very next request sees it, with its call.
			write(t, root, map[string]string{"price/discount.go": "package price\n\nfunc Discount(c int) int { return WithTax(c) / 2 }\n"})
			settle()
			if !has(cs, "Discount") {
				t.Fatal("added function not served on the next request")
			}
			if txt := resultText(callTool(t, cs, "find_callers", map[string]any{"label": "WithTax"})); !strings.Contains(txt, "Discount") {
				t.Errorf("new call not linked:\n%s", txt)
			}
			// Rename it: the old name is gone.
			write(t, root, map[string]string{"price/discount.go": "package price\n\nfunc HalfOff(c int) int { return WithTax(c) / 2 }\n"})
			settle()
			if has(cs, "Discount") || !has(cs, "HalfOff") {
				t.Error("rename not reflected")
			}
			// A syntax error keeps what still parses.
			write(t, root, map[string]string{"price/discount.go": "package price\n\nfunc HalfOff(c int) int { return WithTax(c) / 2 }\n\nfunc Broken( {\n"})
			settle()
			if !has(cs, "HalfOff") {
				t.Error("a syntax error dropped the file's other functions")
			}
			// Delete the file: its nodes disappear.
			if err := os.Remove(filepath.Join(root, "price", "discount.go")); err != nil {
				t.Fatal(err)
			}
			settle()
			if has(cs, "HalfOff") {
				t.Error("deleted file still served")
			}
			if has(pcs, "Discount") || has(pcs, "HalfOff") || !has(pcs, "WithTax") {
				t.Error("--immutable-graph server changed its graph")
			}

			// What was written back, once the server stopped (it finishes
			// the exact run behind its last patch first), equals a fresh
			// extraction.
			cs.Close()
			if s != nil {
				s.stop(t)
			}
			served := read(t, graphPath)
			out := t.TempDir()
			cmd := exec.Command(bin, "extract", "--full", "--out", out, ".")
			cmd.Dir, cmd.Env = root, serveEnv()
			if b, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("extract: %v\n%s", err, b)
			}
			if !bytes.Equal(served, read(t, filepath.Join(out, "graph.json"))) {
				t.Error("the written-back graph.json differs from a full extraction")
			}
		})
	}
}

// A graph written with --out away from its repository sits in some other
// synaptic-out/: auto-freshen used to take the folder above it for the
// source root, re-extract that (nothing) and write an empty graph over the
// good one. It now keeps the graph current only from the root its run
// recorded, and says why not otherwise.
func TestServeAutoFreshenNeverReextractsAnotherTree(t *testing.T) {
	needBin(t)
	root := t.TempDir()
	write(t, root, fixtureRepo)
	outDir := filepath.Join(t.TempDir(), "synaptic-out")
	cmd := exec.Command(bin, "extract", "--out", outDir, root)
	cmd.Env = serveEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("synaptic extract: %v\n%s", err, out)
	}
	graphPath := filepath.Join(outDir, "graph.json")
	before, err := os.ReadFile(graphPath)
	if err != nil {
		t.Fatal(err)
	}
	s := startHTTP(t, serveEnv(), "--graph", graphPath)
	cs := connectSDK(t, &sdk.StreamableClientTransport{Endpoint: s.mcpURL, MaxRetries: -1}, "")
	for range 3 {
		if res := callTool(t, cs, "get_node", map[string]any{"label": "WithTax()"}); res.IsError || !strings.Contains(resultText(res), "Node: WithTax()") {
			t.Fatalf("the served graph lost WithTax:\n%s", resultText(res))
		}
		time.Sleep(300 * time.Millisecond)
	}
	cs.Close()
	s.stop(t)
	after, err := os.ReadFile(graphPath)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Errorf("graph.json was rewritten (%d -> %d bytes)", len(before), len(after))
	}
	if log := s.stderr.String(); !strings.Contains(log, "extracted from") {
		t.Errorf("serve did not say why it does not freshen:\n%s", log)
	}
}
