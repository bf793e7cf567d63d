package search

import (
	"encoding/binary"

	"github.com/synaptic-graph/synaptic/core/discover"
)

// isBinary is discover.IsBinary with a fast path for the common case: a
// first 8 KiB of printable ASCII, tabs and line breaks is text, checked
// eight bytes at a time; anything else gets discover's full judgement.
func isBinary(b []byte) bool {
	head := b[:min(len(b), 8<<10)]
	i := 0
	for ; i+8 <= len(head); i += 8 {
		if !plainWord(binary.LittleEndian.Uint64(head[i:])) {
			return discover.IsBinary(b)
		}
	}
	for ; i < len(head); i++ {
		if c := head[i]; c >= 0x7f || c < 0x20 && c != '\t' && c != '\n' && c != '\r' {
			return discover.IsBinary(b)
		}
	}
	return false
}

// plainWord reports whether all eight bytes of x are printable ASCII
// (0x20..0x7e), tab, LF or CR.
func plainWord(x uint64) bool {
	const (
		ones = 0x0101010101010101
		high = 0x8080808080808080
	)
	if x&high != 0 {
		return false // non-ASCII
	}
	if (x+(0x80-0x7f)*ones)&high != 0 {
		return slowPlain(x) // some byte is 0x7f (DEL)
	}
	if (x-0x20*ones)&^x&high == 0 {
		return true // every byte >= 0x20
	}
	return slowPlain(x)
}

func slowPlain(x uint64) bool {
	for range 8 {
		c := byte(x)
		if c >= 0x7f || c < 0x20 && c != '\t' && c != '\n' && c != '\r' {
			return false
		}
		x >>= 8
	}
	return true
}
