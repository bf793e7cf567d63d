package host_test

import (
	"context"
	"errors"
	"fmt"
	"log"

	"github.com/synaptic-graph/synaptic/plugins/host"
	"github.com/synaptic-graph/synaptic/plugins/manifest"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// Load a plugin folder and run one parsed file through it on worker 0.
// (Compiled, not run: it needs a built plugin.)
func ExampleHost_Load() {
	ctx := context.Background()
	h, err := host.New(ctx, host.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer h.Close(ctx)

	m, err := manifest.Load("extractors/golang")
	if err != nil {
		log.Fatal(err) // names plugin.toml, the line and the fix
	}
	var grammars []abi.Grammar // one per m.Languages, from the tree-sitter host
	p, err := h.Load(ctx, m, grammars)
	if err != nil {
		log.Fatal(err) // *host.LoadError: pin mismatch, missing export, ABI version...
	}
	var records, source []byte // the flat tree and the file's bytes
	facts, err := p.Extract(ctx, 0, "main.go", 0, records, source)
	switch {
	case errors.Is(err, host.ErrTimeout), errors.Is(err, host.ErrMemory), errors.Is(err, host.ErrTrap):
		fmt.Println("skipped:", err) // the file is skipped; the next one gets a fresh instance
	case err != nil:
		fmt.Println("skipped:", err)
	default:
		fmt.Println(len(facts.Symbols), "symbols")
	}
}
