package abi

import (
	"fmt"
	"unsafe"
)

// Import keys, front-coded. A plugin may give an import many keys that
// share a long prefix (TypeScript's probing order: a/x, a/x.ts, a/x.tsx,
// …, a/x/index.ts, …), so the keys travel in their own section: each key
// as the length of the prefix it shares with the previous key of the
// import and the rest. The v2 section then holds the import's kind with
// no keys. A file of TypeScript's facts is a third of the size it was
// with every key spelled out; what decodes is the same.

// keysSectionTag starts the keys section, written after the project
// dependencies section and only when some import has keys.
const keysSectionTag = 'K'

// appendKeysSection appends (import index, keys) pairs in index order.
func appendKeysSection(b []byte, f *Facts) []byte {
	n := 0
	for i := range f.Imports {
		if len(f.Imports[i].Keys) > 0 {
			n++
		}
	}
	if n == 0 {
		return b
	}
	b = append(b, keysSectionTag)
	b = appendUvarint(b, uint64(n))
	for i := range f.Imports {
		keys := f.Imports[i].Keys
		if len(keys) == 0 {
			continue
		}
		b = appendUvarint(appendUvarint(b, uint64(i)), uint64(len(keys)))
		prev := ""
		for _, k := range keys {
			shared := commonPrefix(prev, k)
			b = appendString(appendUvarint(b, uint64(shared)), k[shared:])
			prev = k
		}
	}
	return b
}

func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// decodeKeysSection reads the section when it is next: import indices
// strictly rising, each import's keys new (the v2 section gave it none),
// a shared prefix no longer than the previous key.
func decodeKeysSection(d *Decoder, f *Facts) {
	if !d.openSection(keysSectionTag) {
		return
	}
	last := -1
	for range d.Len(2) {
		i := int(d.Uvarint())
		if d.err != nil {
			return
		}
		if i <= last || i >= len(f.Imports) || len(f.Imports[i].Keys) > 0 {
			d.fail(fmt.Errorf("abi: keys of import %d: out of order, no such import, or given twice", i))
			return
		}
		last = i
		n := d.Len(1)
		if n == 0 && d.err == nil {
			d.fail(fmt.Errorf("abi: keys of import %d: an empty list (leave the import out)", i))
		}
		if d.err != nil {
			return
		}
		f.Imports[i].Keys = decodeKeys(d, i, n)
		if d.err != nil {
			return
		}
	}
}

// decodeKeys reads n front-coded keys of import i into one backing
// string: a key costs no allocation of its own.
func decodeKeys(d *Decoder, i, n int) []string {
	var endsArr [64]int // the host's bound on an import's keys
	ends := endsArr[:0]
	buf := make([]byte, 0, keysSize(d, n))
	prevStart := 0
	for k := range n {
		shared := d.Uvarint()
		rest := d.Bytes()
		if d.err != nil {
			return nil
		}
		if shared > uint64(len(buf)-prevStart) {
			d.fail(fmt.Errorf("abi: key %d of import %d shares %d bytes with a key of %d", k, i, shared, len(buf)-prevStart))
			return nil
		}
		start := len(buf)
		buf = append(buf, buf[prevStart:prevStart+int(shared)]...)
		buf = append(buf, rest...)
		ends = append(ends, len(buf))
		prevStart = start
	}
	all := ""
	if len(buf) > 0 {
		all = unsafe.String(&buf[0], len(buf)) // buf is never written again
	}
	keys := make([]string, n)
	from := 0
	for k, end := range ends {
		keys[k] = all[from:end]
		from = end
	}
	return keys
}

// keysSize is the length of the n keys that follow, read ahead without
// consuming them (0 when they do not parse: the decode then fails).
func keysSize(d *Decoder, n int) int {
	ahead := Decoder{buf: d.buf, off: d.off}
	size := 0
	for range n {
		size += int(ahead.Uvarint())
		size += len(ahead.Bytes())
		if ahead.err != nil || size < 0 || size > 1<<24 {
			return 0
		}
	}
	return size
}
