package search

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"unicode/utf8"

	"github.com/synaptic-graph/synaptic/core/discover"
)

// isBinary decides exactly as discover.IsBinary, faster on the common
// case: a NUL byte is found with bytes.IndexByte, valid UTF-8 (no invalid
// bytes to count) with utf8.Valid, and the control characters are
// counted eight bytes at a time. Anything else gets discover's full pass.
func isBinary(b []byte) bool {
	head := b[:min(len(b), 8<<10)]
	if len(head) == 0 {
		return false
	}
	if bytes.IndexByte(head, 0) >= 0 {
		return true
	}
	if !utf8.Valid(head) {
		return discover.IsBinary(b)
	}
	return countControls(head)*10 > len(head)
}

const (
	ones = 0x0101010101010101
	high = 0x8080808080808080
)

// zeroBytes has the high bit set in each byte of y that is 0 (exact: the
// high bits set before subtracting stop borrows between bytes).
func zeroBytes(y uint64) uint64 { return ^((y | high) - ones) & ^y & high }

// countControls counts the bytes discover.IsBinary calls control
// characters: below 0x20 except tab, LF, VT, FF, CR, BS and ESC, and DEL.
func countControls(b []byte) int {
	n, i := 0, 0
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		low := ^((x | high) - 0x20*ones) & ^x & high // bytes < 0x20 (ASCII ones only)
		if low != 0 {
			for _, c := range [...]uint64{'\t', '\n', '\v', '\f', '\r', '\b', 0x1b} {
				low &^= zeroBytes(x ^ c*ones)
			}
		}
		n += bits.OnesCount64(low | zeroBytes(x^0x7f*ones))
	}
	for ; i < len(b); i++ {
		c := b[i]
		if c < 0x20 && c != '\t' && c != '\n' && c != '\v' && c != '\f' && c != '\r' && c != '\b' && c != 0x1b || c == 0x7f {
			n++
		}
	}
	return n
}
