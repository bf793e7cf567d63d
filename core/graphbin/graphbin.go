// Package graphbin is the compact binary sidecar of graph.json (graph.bin,
// written by extract beside it): the same Graph, stored so that serve can
// start from it in a fraction of the time parsing 250 MB of JSON takes.
//
// graph.json stays the contract. The sidecar records the SHA-256 and size
// of the graph.json bytes it was made from, and a reader uses it only when
// they match the graph.json it has in hand: a missing, stale (graph.json
// rewritten or replaced since) or corrupt sidecar (its body checksum fails,
// or its records do not decode) is never served; the caller parses
// graph.json instead.
//
// Layout, little-endian:
//
//	magic    8 bytes  "SYNGBIN\x00"
//	version  u32      Version
//	jsonSize u64      size of the graph.json it mirrors
//	jsonSum  32 bytes SHA-256 of that graph.json
//	bodyLen  u64
//	bodyCRC  u32      CRC-32C of the body
//	body     uvarint-coded string table, graph header, nodes, edges
//
// Every string is stored once in the table and referred to by index, so
// the decoder makes one allocation for all string bytes; the table starts
// with "" and then the node ids in node order.
package graphbin

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
)

// FileName is the sidecar's name beside graph.json.
const FileName = "graph.bin"

// Version is the layout version; a reader refuses any other.
const Version = 2

const magic = "SYNGBIN\x00"

// headerSize is the fixed header before the body.
const headerSize = len(magic) + 4 + 8 + 32 + 8 + 4

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// ErrCorrupt is wrapped by every error about the sidecar's own bytes.
var ErrCorrupt = errors.New("corrupt graph sidecar")

// Header is what a sidecar says about the graph.json it mirrors.
type Header struct {
	JSONSize int64
	JSONSum  [32]byte
}

// ReadHeader checks the magic, version and lengths, and returns the header
// and the body (a subslice of data), without checking the body checksum.
func ReadHeader(data []byte) (Header, []byte, error) {
	if len(data) < headerSize || string(data[:len(magic)]) != magic {
		return Header{}, nil, fmt.Errorf("%w: not a graph sidecar (bad magic)", ErrCorrupt)
	}
	p := len(magic)
	if v := binary.LittleEndian.Uint32(data[p:]); v != Version {
		return Header{}, nil, fmt.Errorf("%w: layout version %d, this build reads %d", ErrCorrupt, v, Version)
	}
	p += 4
	var h Header
	size := binary.LittleEndian.Uint64(data[p:])
	if size > 1<<62 {
		return Header{}, nil, fmt.Errorf("%w: graph.json size %d out of range", ErrCorrupt, size)
	}
	h.JSONSize = int64(size)
	p += 8
	copy(h.JSONSum[:], data[p:p+32])
	p += 32
	bodyLen := binary.LittleEndian.Uint64(data[p:])
	p += 8
	if bodyLen != uint64(len(data)-headerSize) {
		return Header{}, nil, fmt.Errorf("%w: body is %d bytes, header says %d (truncated?)", ErrCorrupt, len(data)-headerSize, bodyLen)
	}
	return h, data[headerSize:], nil
}

// checkBody verifies the body checksum stored in data's header.
func checkBody(data, body []byte) error {
	want := binary.LittleEndian.Uint32(data[headerSize-4:])
	if got := crc32.Checksum(body, castagnoli); got != want {
		return fmt.Errorf("%w: body checksum %08x, header says %08x", ErrCorrupt, got, want)
	}
	return nil
}

func appendHeader(dst []byte, h Header, body []byte) []byte {
	return appendHeaderSum(dst, h, len(body), crc32.Checksum(body, castagnoli))
}

// appendHeaderSum is appendHeader for a body of n bytes with checksum crc.
func appendHeaderSum(dst []byte, h Header, n int, crc uint32) []byte {
	dst = append(dst, magic...)
	dst = binary.LittleEndian.AppendUint32(dst, Version)
	dst = binary.LittleEndian.AppendUint64(dst, uint64(h.JSONSize))
	dst = append(dst, h.JSONSum[:]...)
	dst = binary.LittleEndian.AppendUint64(dst, uint64(n))
	return binary.LittleEndian.AppendUint32(dst, crc)
}

// ErrStale says the sidecar mirrors another graph.json than the one read.
var ErrStale = errors.New("graph sidecar is stale")

// Matches reports whether h describes the graph.json of this size and
// SHA-256, and otherwise why not (wrapping ErrStale).
func (h Header) Matches(size int64, sum [32]byte) error {
	if h.JSONSize != size || h.JSONSum != sum {
		return fmt.Errorf("%w: it mirrors a graph.json of %d bytes and sha256 %x, not this one (%d bytes, %x)", ErrStale, h.JSONSize, h.JSONSum[:6], size, sum[:6])
	}
	return nil
}
