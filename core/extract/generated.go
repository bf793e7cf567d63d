package extract

import (
	"bytes"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// isGenerated reports whether src carries a generator's marker near the top:
// the Go convention "Code generated ... DO NOT EDIT." (used by many other
// generators too) or "@generated".
func isGenerated(src []byte) bool {
	head := src[:min(len(src), 4096)]
	for len(head) > 0 {
		line := head
		if i := bytes.IndexByte(head, '\n'); i >= 0 {
			line, head = head[:i], head[i+1:]
		} else {
			head = nil
		}
		if bytes.Contains(line, []byte("Code generated")) && bytes.Contains(line, []byte("DO NOT EDIT")) {
			return true
		}
		if bytes.Contains(line, []byte("@generated")) {
			return true
		}
	}
	return false
}

// trimGenerated drops the constants, variables and fields of a generated
// file: tables of thousands of syscall numbers or opcodes would dominate the
// graph (half the nodes of the Go tree) while nobody navigates by them. Its
// functions and types stay. Facts pointing at a dropped symbol move to its
// nearest kept ancestor.
func trimGenerated(f *abi.Facts) *abi.Facts {
	n := len(f.Symbols)
	newIdx := make([]int32, n)
	nkept := 0
	for i := range f.Symbols {
		if trimmedKind(f.Symbols[i].Kind) {
			newIdx[i] = -1
			continue
		}
		newIdx[i] = int32(nkept)
		nkept++
	}
	// Exactly the symbols kept: these facts stay in memory until the graph
	// is built, and room for all n (mostly trimmed) symbols was 32 MB of
	// GOROOT/src's live heap, at the run's memory limit during resolution.
	kept := make([]abi.Symbol, 0, nkept)
	for i := range f.Symbols {
		if newIdx[i] >= 0 {
			kept = append(kept, f.Symbols[i])
		}
	}
	// nearest kept ancestor (or itself), as a new index
	lift := func(i int32) int32 {
		for i >= 0 && newIdx[i] < 0 {
			i = f.Symbols[i].Parent
		}
		if i < 0 {
			return -1
		}
		return newIdx[i]
	}
	for i := range kept {
		kept[i].Parent = -1
	}
	for i, s := range f.Symbols {
		if newIdx[i] >= 0 {
			kept[newIdx[i]].Parent = lift(s.Parent)
		}
	}
	out := *f
	out.Symbols = kept
	out.Calls = append([]abi.Call(nil), f.Calls...)
	for i := range out.Calls {
		out.Calls[i].Caller = lift(out.Calls[i].Caller)
	}
	out.Relations = append([]abi.Relation(nil), f.Relations...)
	for i := range out.Relations {
		out.Relations[i].From = lift(out.Relations[i].From)
	}
	return &out
}

// trimmedKind reports whether trimGenerated drops symbols of kind k.
func trimmedKind(k abi.SymbolKind) bool {
	switch k {
	case "constant", "variable", "field":
		return true
	}
	return false
}
