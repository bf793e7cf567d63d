package abi

import (
	"encoding/binary"
	"fmt"
)

// Grammar describes one tree-sitter grammar to a plugin: symbol and field
// names by id, so the plugin resolves the names it cares about once and never
// depends on a grammar's numbering.
type Grammar struct {
	Language string   // language name from the manifest, e.g. "tsx"
	Name     string   // grammar name, e.g. "tsx"
	Kinds    []string // symbol name by canonical id
	Named    []bool   // whether the symbol is a named node type
	Fields   []string // field name by id; Fields[0] == ""
}

// Init is the first input an instance receives.
type Init struct {
	ABI      uint32
	Plugin   string
	Grammars []Grammar // indexed by FileInput.Grammar
	// Project is the ProjectInfo the plugin's project entry point returned
	// for this extraction (ABI v2; nil without one, or when it failed).
	Project []byte
}

// EncodeInit encodes in.
func EncodeInit(in *Init) []byte {
	var e Encoder
	e.Uvarint(uint64(in.ABI))
	e.String(in.Plugin)
	e.Uvarint(uint64(len(in.Grammars)))
	for _, g := range in.Grammars {
		e.String(g.Language)
		e.String(g.Name)
		e.Uvarint(uint64(len(g.Kinds)))
		for i, k := range g.Kinds {
			e.String(k)
			e.Bool(i < len(g.Named) && g.Named[i])
		}
		e.Uvarint(uint64(len(g.Fields)))
		for _, f := range g.Fields {
			e.String(f)
		}
	}
	if in.ABI >= 2 {
		// Trailing: a v1 guest's decoder stops before it.
		e.Uvarint(uint64(len(in.Project)))
		e.Buf = append(e.Buf, in.Project...)
	}
	return e.Buf
}

// DecodeInit decodes what EncodeInit wrote.
func DecodeInit(b []byte) (*Init, error) {
	d := NewDecoder(b)
	in := &Init{ABI: d.Uint32(), Plugin: d.String()}
	n := d.Len(3)
	for i := 0; i < n && d.Err() == nil; i++ {
		g := Grammar{Language: d.String(), Name: d.String()}
		nk := d.Len(2)
		g.Kinds = make([]string, nk)
		g.Named = make([]bool, nk)
		for k := 0; k < nk; k++ {
			g.Kinds[k] = d.String()
			g.Named[k] = d.Bool()
		}
		nf := d.Len(1)
		g.Fields = make([]string, nf)
		for f := 0; f < nf; f++ {
			g.Fields[f] = d.String()
		}
		in.Grammars = append(in.Grammars, g)
	}
	if in.ABI >= 2 && d.Err() == nil && d.Remaining() > 0 {
		if p := d.Bytes(); len(p) > 0 {
			in.Project = p
		}
	}
	return in, d.Err()
}

// FileInput is one file handed to an extractor: its path, which grammar
// parsed it, the flat tree records and the source bytes.
type FileInput struct {
	Path    string // slash-separated, relative to the repository root
	Grammar uint32 // index into Init.Grammars
	Records []byte // NodeCount*RecordSize bytes
	Source  []byte
}

// FileInputSize returns the encoded size of a FileInput, so the host can ask
// the guest for exactly that much room and encode in place.
func FileInputSize(path string, records, source int) int {
	return 4*4 + len(path) + records + source
}

// PutFileInput encodes a FileInput into dst, which must be FileInputSize
// bytes long. The header is fixed-width so the guest can slice without copying.
func PutFileInput(dst []byte, path string, grammar uint32, records, source []byte) {
	binary.LittleEndian.PutUint32(dst[0:], uint32(len(path)))
	binary.LittleEndian.PutUint32(dst[4:], grammar)
	binary.LittleEndian.PutUint32(dst[8:], uint32(len(records)))
	binary.LittleEndian.PutUint32(dst[12:], uint32(len(source)))
	off := 16
	off += copy(dst[off:], path)
	off += copy(dst[off:], records)
	copy(dst[off:], source)
}

// DecodeFileInput slices b (no copies) into a FileInput.
func DecodeFileInput(b []byte) (FileInput, error) {
	if len(b) < 16 {
		return FileInput{}, ErrTruncated
	}
	pl := uint64(binary.LittleEndian.Uint32(b[0:]))
	g := binary.LittleEndian.Uint32(b[4:])
	rl := uint64(binary.LittleEndian.Uint32(b[8:]))
	sl := uint64(binary.LittleEndian.Uint32(b[12:]))
	if 16+pl+rl+sl != uint64(len(b)) {
		return FileInput{}, fmt.Errorf("abi: file input sizes %d+%d+%d do not match %d bytes", pl, rl, sl, len(b)-16)
	}
	if rl%RecordSize != 0 {
		return FileInput{}, fmt.Errorf("abi: record bytes %d not a multiple of %d", rl, RecordSize)
	}
	off := uint64(16)
	in := FileInput{Path: string(b[off : off+pl]), Grammar: g}
	off += pl
	in.Records = b[off : off+rl : off+rl]
	off += rl
	in.Source = b[off : off+sl : off+sl]
	return in, nil
}
