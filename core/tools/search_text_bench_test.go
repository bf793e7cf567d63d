package tools

import (
	"context"
	"encoding/json"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/synaptic-graph/synaptic/core/graph"
)

// BenchmarkSearchTextGOROOT is search_text end to end (jail reads,
// attribution, rendering) over $(go env GOROOT)/src; compare with
// core/search's BenchmarkSearchGOROOT, which runs rg in the same run.
func BenchmarkSearchTextGOROOT(b *testing.B) {
	c := New(Options{SourceRoot: filepath.Join(runtime.GOROOT(), "src")})
	c.SetGraph(&graph.Graph{})
	for _, args := range []struct{ name, json string }{
		{"literal", `{"pattern":"ErrUnexpectedEOF"}`},
		{"regex", `{"pattern":"func \\(\\w+ \\*\\w+\\) Close\\(\\)"}`},
	} {
		b.Run(args.name, func(b *testing.B) {
			for b.Loop() {
				r, err := c.Call(context.Background(), "search_text", json.RawMessage(args.json))
				if err != nil || r.IsError {
					b.Fatal(err, r.Text)
				}
			}
		})
	}
}
