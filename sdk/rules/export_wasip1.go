//go:build wasip1

package rules

import (
	"fmt"
	"runtime/debug"
	"unsafe"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

var (
	registered Pack
	inBuf      []byte // kept alive by this global; Go's GC does not move it
	outBuf     []byte
)

// A guest collects garbage on its one thread, inline with the rules, so
// a pack collects less often than Go's default: every 4× of live heap,
// and harder again near 192 MiB, within the default 256 MiB sandbox.
func init() {
	debug.SetGCPercent(400)
	debug.SetMemoryLimit(192 << 20)
}

// Register installs the pack. Call it from init.
func Register(p Pack) { registered = p }

func ptr(b []byte) uint32 { return uint32(uintptr(unsafe.Pointer(unsafe.SliceData(b)))) }

func packed(b []byte) uint64 { return uint64(ptr(b))<<32 | uint64(len(b)) }

//go:wasmexport synaptic_abi_version
func abiVersion() uint32 { return abi.Version }

//go:wasmexport synaptic_in_buf
func inBufExport(size uint32) uint32 {
	if uint32(cap(inBuf)) < size {
		inBuf = make([]byte, size+size/4+64)
	}
	inBuf = inBuf[:size]
	return ptr(inBuf)
}

//go:wasmexport synaptic_init
func initExport(size uint32) uint64 {
	_, err := abi.DecodeInit(inBuf[:size])
	switch {
	case err != nil:
		outBuf = abi.AppendError(outBuf[:0], err.Error())
	case registered == nil:
		outBuf = abi.AppendError(outBuf[:0], "pack did not call rules.Register")
	default:
		outBuf = abi.AppendOK(outBuf[:0])
	}
	return packed(outBuf)
}

//go:wasmexport synaptic_rules_run
func runExport(size uint32) (out uint64) {
	defer func() {
		if r := recover(); r != nil {
			outBuf = abi.AppendError(outBuf[:0], fmt.Sprintf("rule pack panic: %v", r))
			out = packed(outBuf)
		}
	}()
	res, err := Run(registered, inBuf[:size])
	if err != nil {
		outBuf = abi.AppendError(outBuf[:0], err.Error())
		return packed(outBuf)
	}
	outBuf = append(abi.AppendOK(outBuf[:0]), res...)
	return packed(outBuf)
}
