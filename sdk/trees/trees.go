// Package trees is the file format of `synaptic parse`: the parsed trees
// a plugin would receive for some files, written by the synaptic binary
// (which holds the tree-sitter grammars, in cgo) and read by
// sdk/extracttest, so a plugin's own tests run with plain `go test` and
// no C toolchain.
//
// A set holds the plugin's grammar tables, as the host hands them over in
// Init, and one record per file: its path, the index of the grammar that
// parsed it (the language the plugin's manifest routes it to) and the
// flat tree records with the source, as in abi.FileInput.
package trees

import (
	"errors"
	"fmt"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// magic starts every encoded set; the digit is the format version.
const magic = "synaptic-trees 1\n"

// Set is the trees of some files for one plugin.
type Set struct {
	Plugin   string        // the plugin's manifest name
	Grammars []abi.Grammar // one per language of the manifest, in order
	Files    []File
}

// File is one parsed file.
type File struct {
	Path    string // slash-separated, as the plugin sees it
	Grammar uint32 // index into Set.Grammars: the language the file routes to
	Records []byte // abi.RecordSize bytes per node, preorder
	Source  []byte
}

// Encode returns s in the trees format.
func (s *Set) Encode() []byte {
	var e abi.Encoder
	e.Buf = append(e.Buf, magic...)
	init := abi.EncodeInit(&abi.Init{ABI: 1, Plugin: s.Plugin, Grammars: s.Grammars})
	e.Uvarint(uint64(len(init)))
	e.Buf = append(e.Buf, init...)
	e.Uvarint(uint64(len(s.Files)))
	for _, f := range s.Files {
		e.String(f.Path)
		e.Uvarint(uint64(f.Grammar))
		e.Uvarint(uint64(len(f.Records)))
		e.Buf = append(e.Buf, f.Records...)
		e.Uvarint(uint64(len(f.Source)))
		e.Buf = append(e.Buf, f.Source...)
	}
	return e.Buf
}

// Decode reads what Encode wrote. It checks every count against the bytes
// present, every grammar index against the grammars, and that records come
// in whole abi.RecordSize units, so a truncated or hostile file is an error,
// never a panic or a huge allocation. Records and sources alias b.
func Decode(b []byte) (*Set, error) {
	if len(b) < len(magic) || string(b[:len(magic)]) != magic {
		return nil, errors.New("trees: not a `synaptic parse` output (bad header); regenerate it with the synaptic binary of this sdk")
	}
	d := abi.NewDecoder(b[len(magic):])
	in, err := abi.DecodeInit(d.Bytes())
	if err != nil || d.Err() != nil {
		return nil, fmt.Errorf("trees: grammar tables: %w", errors.Join(err, d.Err()))
	}
	s := &Set{Plugin: in.Plugin, Grammars: in.Grammars}
	n := d.Len(4)
	for i := 0; i < n && d.Err() == nil; i++ {
		f := File{Path: d.String(), Grammar: d.Uint32(), Records: d.Bytes(), Source: d.Bytes()}
		if d.Err() != nil {
			break
		}
		if int(f.Grammar) >= len(s.Grammars) {
			return nil, fmt.Errorf("trees: file %q: grammar %d of %d", f.Path, f.Grammar, len(s.Grammars))
		}
		if len(f.Records)%abi.RecordSize != 0 {
			return nil, fmt.Errorf("trees: file %q: %d record bytes, not a multiple of %d", f.Path, len(f.Records), abi.RecordSize)
		}
		s.Files = append(s.Files, f)
	}
	if err := d.Err(); err != nil {
		return nil, fmt.Errorf("trees: %w", err)
	}
	if d.Remaining() != 0 {
		return nil, fmt.Errorf("trees: %d trailing bytes", d.Remaining())
	}
	return s, nil
}

// Lookup returns the file recorded under path.
func (s *Set) Lookup(path string) (*File, bool) {
	for i := range s.Files {
		if s.Files[i].Path == path {
			return &s.Files[i], true
		}
	}
	return nil, false
}
