package abi

import "fmt"

// Implicit call sites (ABI v2). Some calls are written as no call at
// all: a + b runs __add__, x[k] __getitem__, len(x) __len__. A plugin
// reports them as the member calls they are and marks them Implicit, so
// the host can count them apart: most run on builtin values whose
// methods are in no repository, and a summary that lumped them with the
// written calls it could not link would overstate what is unresolved.

// implicitSectionTag starts the implicit-calls section, written after the
// keys section and only when some call is implicit, so facts without one
// encode exactly as before.
const implicitSectionTag = 'i'

// appendImplicitSection appends the indexes of the implicit calls, rising.
func appendImplicitSection(b []byte, f *Facts) []byte {
	n := 0
	for i := range f.Calls {
		if f.Calls[i].Implicit {
			n++
		}
	}
	if n == 0 {
		return b
	}
	b = appendUvarint(append(b, implicitSectionTag), uint64(n))
	for i := range f.Calls {
		if f.Calls[i].Implicit {
			b = appendUvarint(b, uint64(i))
		}
	}
	return b
}

// decodeImplicitSection reads the section when it is next; indexes must
// rise strictly and name a call, so one encoding means one set of facts.
func decodeImplicitSection(d *Decoder, f *Facts) {
	if !d.openSection(implicitSectionTag) {
		return
	}
	n := d.Len(1)
	if d.err == nil && n == 0 {
		d.fail(fmt.Errorf("abi: empty implicit-calls section"))
		return
	}
	last := -1
	for range n {
		i := int(d.Uvarint())
		if d.err != nil {
			return
		}
		if i <= last || i >= len(f.Calls) {
			d.fail(fmt.Errorf("abi: implicit call index %d out of order or out of range", i))
			return
		}
		f.Calls[i].Implicit = true
		last = i
	}
}
