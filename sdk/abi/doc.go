package abi

import (
	"fmt"
	"unicode/utf8"
)

// MaxDoc bounds a doc string in bytes: the first paragraph of a doc
// comment, enough to say what a symbol is for, never a whole essay.
const MaxDoc = 300

// docSectionTag starts the doc section, written after the channel section
// and only when the file or a symbol has a doc, so facts without docs
// encode exactly as before and older facts decode with none.
const docSectionTag = 'd'

// appendDocSection appends f's docs as (symbol index, doc) pairs, index -1
// being the file's own doc (Facts.Doc), in index order.
func appendDocSection(b []byte, f *Facts) []byte {
	n := 0
	if f.Doc != "" {
		n++
	}
	for i := range f.Symbols {
		if f.Symbols[i].Doc != "" {
			n++
		}
	}
	if n == 0 {
		return b
	}
	b = append(b, docSectionTag)
	b = appendUvarint(b, uint64(n))
	if f.Doc != "" {
		b = appendString(appendVarint(b, -1), f.Doc)
	}
	for i := range f.Symbols {
		if d := f.Symbols[i].Doc; d != "" {
			b = appendString(appendVarint(b, int64(i)), d)
		}
	}
	return b
}

// decodeDocSection reads the doc section when it is next. Indexes must
// rise strictly and stay inside the symbol table, so one encoding means
// one set of docs.
func decodeDocSection(d *Decoder, f *Facts) {
	if !d.openSection(docSectionTag) {
		return
	}
	n := d.Len(2)
	last := int64(-2)
	for range n {
		i, doc := int64(d.Int32()), d.String()
		switch {
		case d.err != nil:
			return
		case i <= last || i >= int64(len(f.Symbols)):
			d.fail(fmt.Errorf("abi: doc for symbol %d out of order or out of range", i))
			return
		case doc == "" || len(doc) > MaxDoc || !utf8.ValidString(doc):
			d.fail(fmt.Errorf("abi: doc for symbol %d is empty, over %d bytes or not UTF-8", i, MaxDoc))
			return
		case i == -1:
			f.Doc = doc
		default:
			f.Symbols[i].Doc = doc
		}
		last = i
	}
}
