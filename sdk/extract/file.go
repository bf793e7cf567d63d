package extract

import (
	"fmt"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// Extractor turns one file into facts. Implementations must be
// deterministic: the same file must always give the same facts.
type Extractor interface {
	Extract(f *File) error
}

// File is one file being extracted: its path, tree and the facts reported so far.
type File struct {
	Path  string // slash-separated, relative to the repository root
	Tree  *Tree
	facts abi.Facts
}

// Language returns the manifest language name of the file ("go", "tsx", …).
func (f *File) Language() string { return f.Tree.Grammar.Language }

// Source returns the file's bytes.
func (f *File) Source() []byte { return f.Tree.src }

// SetPackage records the package or module the file declares.
func (f *File) SetPackage(name string) { f.facts.Package = name }

// Symbol reports a definition and returns its index, to be used as Parent,
// Caller or From in later facts.
func (f *File) Symbol(s abi.Symbol) int32 {
	f.facts.Symbols = append(f.facts.Symbols, s)
	return int32(len(f.facts.Symbols) - 1)
}

// Symbols returns the definitions reported so far (read-only).
func (f *File) Symbols() []abi.Symbol { return f.facts.Symbols }

// Call reports a call site.
func (f *File) Call(c abi.Call) { f.facts.Calls = append(f.facts.Calls, c) }

// Import reports an import.
func (f *File) Import(i abi.Import) { f.facts.Imports = append(f.facts.Imports, i) }

// Relation reports a type-level relation (inherits, implements, embeds, references).
func (f *File) Relation(r abi.Relation) { f.facts.Relations = append(f.facts.Relations, r) }

// Errorf records a non-fatal problem; extraction of the file continues.
func (f *File) Errorf(format string, args ...any) {
	if len(f.facts.Errors) < 20 {
		f.facts.Errors = append(f.facts.Errors, fmt.Sprintf(format, args...))
	}
}

// Run runs ex over one file natively and returns its facts. Tests use it;
// the wasm glue uses the same path.
func Run(ex Extractor, g *Grammar, path string, records, source []byte) (facts *abi.Facts, err error) {
	f := &File{Path: path, Tree: NewTree(g, records, source)}
	if err := run(ex, f); err != nil {
		return nil, err
	}
	return &f.facts, f.facts.Validate()
}

func run(ex Extractor, f *File) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("extractor panic on %s: %v", f.Path, r)
		}
	}()
	if err := ex.Extract(f); err != nil {
		return err
	}
	addSQLSites(f)
	return nil
}

// ReportSyntaxErrors notes the outermost ERROR nodes and every MISSING
// node by line. An extractor's walk goes on inside ERROR nodes, so what
// parsed is still extracted; the notes say where it did not. ignore, when
// not nil, drops a MISSING node the language knows to be harmless (a C
// macro the grammar cannot read).
func (f *File) ReportSyntaxErrors(ignore func(Node) bool) {
	t := f.Tree
	errEnd := Node(0)
	for i, n := Node(0), Node(t.Len()); i < n; i++ {
		switch h := t.Header(i); {
		case h.IsMissing() && (ignore == nil || !ignore(i)):
			f.Errorf("syntax error at L%d: missing %q", t.StartLine(i), t.KindName(i))
		case h.IsError() && i >= errEnd:
			f.Errorf("syntax error at L%d", t.StartLine(i))
			errEnd = t.End(i)
		}
	}
}
