package abi

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"unsafe"
)

// Encoder appends primitive values to a byte slice. The zero value is ready.
type Encoder struct{ Buf []byte }

// Uvarint appends v as an unsigned varint.
func (e *Encoder) Uvarint(v uint64) { e.Buf = binary.AppendUvarint(e.Buf, v) }

// Varint appends v as a signed varint.
func (e *Encoder) Varint(v int64) { e.Buf = binary.AppendVarint(e.Buf, v) }

// String appends a length-prefixed string.
func (e *Encoder) String(s string) {
	e.Buf = binary.AppendUvarint(e.Buf, uint64(len(s)))
	e.Buf = append(e.Buf, s...)
}

// Bool appends one byte.
func (e *Encoder) Bool(b bool) {
	if b {
		e.Buf = append(e.Buf, 1)
	} else {
		e.Buf = append(e.Buf, 0)
	}
}

// ErrTruncated reports input that ends before a value is complete.
var ErrTruncated = errors.New("abi: truncated input")

// Decoder reads what Encoder wrote. The first error sticks; later reads
// return zero values, so callers check Err once at the end.
type Decoder struct {
	buf   []byte
	off   int
	err   error
	share bool // strings alias buf instead of copying it
}

// NewDecoder returns a decoder over b.
func NewDecoder(b []byte) *Decoder { return &Decoder{buf: b} }

// Err returns the first decoding error.
func (d *Decoder) Err() error { return d.err }

// Remaining returns the number of unread bytes.
func (d *Decoder) Remaining() int { return len(d.buf) - d.off }

func (d *Decoder) fail(err error) {
	if d.err == nil {
		d.err = err
	}
}

// Uvarint reads an unsigned varint.
func (d *Decoder) Uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.buf[d.off:])
	if n <= 0 {
		d.fail(ErrTruncated)
		return 0
	}
	d.off += n
	return v
}

// Varint reads a signed varint.
func (d *Decoder) Varint() int64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Varint(d.buf[d.off:])
	if n <= 0 {
		d.fail(ErrTruncated)
		return 0
	}
	d.off += n
	return v
}

// Uint32 reads a varint that must fit in 32 bits.
func (d *Decoder) Uint32() uint32 {
	v := d.Uvarint()
	if v > math.MaxUint32 {
		d.fail(fmt.Errorf("abi: value %d overflows uint32", v))
		return 0
	}
	return uint32(v)
}

// Int32 reads a signed varint that must fit in 32 bits.
func (d *Decoder) Int32() int32 {
	v := d.Varint()
	if v > math.MaxInt32 || v < math.MinInt32 {
		d.fail(fmt.Errorf("abi: value %d overflows int32", v))
		return 0
	}
	return int32(v)
}

// Len reads a count and checks it against the bytes left, assuming each
// element takes at least min bytes, so hostile counts cannot force huge
// allocations.
func (d *Decoder) Len(min int) int {
	v := d.Uvarint()
	if min < 1 {
		min = 1
	}
	if v > uint64(d.Remaining()/min) {
		d.fail(fmt.Errorf("abi: count %d exceeds remaining input", v))
		return 0
	}
	return int(v)
}

// openSection consumes the tag of an optional trailing section when it is
// the next byte, and reports whether it was: a section written only when
// set is read only when present.
func (d *Decoder) openSection(tag byte) bool {
	if d.err != nil || d.Remaining() == 0 || d.buf[d.off] != tag {
		return false
	}
	d.off++
	return true
}

// String reads a length-prefixed string.
func (d *Decoder) String() string {
	n := d.Uvarint()
	if d.err != nil {
		return ""
	}
	if n > uint64(d.Remaining()) {
		d.fail(ErrTruncated)
		return ""
	}
	b := d.buf[d.off : d.off+int(n)]
	d.off += int(n)
	if d.share && n > 0 {
		return unsafe.String(&b[0], len(b))
	}
	return string(b)
}

// Bool reads one byte.
func (d *Decoder) Bool() bool {
	if d.err != nil {
		return false
	}
	if d.off >= len(d.buf) {
		d.fail(ErrTruncated)
		return false
	}
	b := d.buf[d.off]
	d.off++
	return b != 0
}

// Bytes reads a length-prefixed byte string and returns a view of it (no copy).
func (d *Decoder) Bytes() []byte {
	n := d.Uvarint()
	if d.err != nil {
		return nil
	}
	if n > uint64(d.Remaining()) {
		d.fail(ErrTruncated)
		return nil
	}
	b := d.buf[d.off : d.off+int(n) : d.off+int(n)]
	d.off += int(n)
	return b
}
