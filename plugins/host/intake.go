package host

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// Caps on the strings a plugin returns, applied as its facts come in: a
// hostile or buggy plugin's 3 MiB name would otherwise sit in graph.json
// (three 3-line files made a 53 MB graph) and every tool's index. Real
// names are far shorter; output shows at most 256 runes anyway.
const (
	MaxNameBytes      = 1024 // a name, kind, receiver, type, import path or relation target
	MaxSignatureBytes = 4096 // a signature as written
	MaxNoteBytes      = 1024 // one note (Facts.Errors)
	MaxNotes          = 100  // notes kept per file
)

// intake cuts f's over-long strings to the caps above, drops facts whose
// words are outside sdk/abi's vocabulary, and reports each as one note in
// f.Errors naming the plugin, so the user learns the plugin misbehaved
// (the note travels with the file's path).
func intake(f *abi.Facts, plugin string) {
	var c cutter
	c.str(&f.Package, MaxNameBytes, "package name")
	for i := range f.Symbols {
		s := &f.Symbols[i]
		c.str(&s.Name, MaxNameBytes, "symbol name")
		c.str((*string)(&s.Kind), MaxNameBytes, "symbol kind")
		c.str(&s.Receiver, MaxNameBytes, "receiver")
		c.str((*string)(&s.Visibility), MaxNameBytes, "visibility")
		if sig := s.Signature; sig != nil {
			c.str(&sig.Raw, MaxSignatureBytes, "signature")
			c.str(&sig.Return, MaxNameBytes, "return type")
			for j := range sig.Params {
				c.str(&sig.Params[j].Name, MaxNameBytes, "parameter name")
				c.str(&sig.Params[j].Type, MaxNameBytes, "parameter type")
			}
		}
	}
	for i := range f.Calls {
		k := &f.Calls[i]
		c.str(&k.Name, MaxNameBytes, "call name")
		c.str(&k.Receiver, MaxNameBytes, "call receiver")
		c.str(&k.ReceiverType, MaxNameBytes, "receiver type")
	}
	for i := range f.Imports {
		im := &f.Imports[i]
		c.str(&im.Path, MaxNameBytes, "import path")
		c.str(&im.Alias, MaxNameBytes, "import alias")
		for j := range im.Names {
			c.str(&im.Names[j].Name, MaxNameBytes, "imported name")
			c.str(&im.Names[j].Alias, MaxNameBytes, "import alias")
		}
	}
	for i := range f.Relations {
		r := &f.Relations[i]
		c.str((*string)(&r.Kind), MaxNameBytes, "relation kind")
		c.str(&r.Target, MaxNameBytes, "relation target")
		c.str((*string)(&r.Context), MaxNameBytes, "relation context")
	}
	if n := len(f.Errors); n > MaxNotes {
		f.Errors = append(f.Errors[:MaxNotes:MaxNotes], fmt.Sprintf("… %d more notes dropped (the host keeps %d a file)", n-MaxNotes, MaxNotes))
	}
	for i := range f.Errors {
		c.str(&f.Errors[i], MaxNoteBytes, "note")
	}
	if dropped := f.DropUnknownWords(); len(dropped) > 0 {
		f.Errors = append(f.Errors, fmt.Sprintf("plugin %s reported words outside the fact vocabulary (sdk/abi vocab.go); those facts were dropped: %s",
			plugin, strings.Join(dropped, "; ")))
	}
	if c.n > 0 {
		f.Errors = append(f.Errors, fmt.Sprintf("plugin %s returned %d over-long string(s), the longest a %s of %d bytes; cut to the host's limits (%d bytes for names, %d for signatures)",
			plugin, c.n, c.what, c.longest, MaxNameBytes, MaxSignatureBytes))
	}
}

// cutter shortens strings and remembers the worst one.
type cutter struct {
	n       int
	longest int
	what    string
}

func (c *cutter) str(s *string, max int, what string) {
	if len(*s) <= max {
		return
	}
	c.n++
	if len(*s) > c.longest {
		c.longest, c.what = len(*s), what
	}
	cut := max
	for cut > 0 && !utf8.RuneStart((*s)[cut]) {
		cut--
	}
	*s = (*s)[:cut]
}
