//go:build linux && amd64

package host

import (
	"encoding/binary"
	"os"
	"reflect"
	"sync"
	"syscall"
	"unsafe"

	"github.com/tetratelabs/wazero/api"
)

// Cheaper termination checks.
//
// With WithCloseOnContextDone(true), wazero's optimizing compiler (wazevo)
// emits at every wasm loop header an indirect call to a "check module exit
// code" trampoline that leaves native code for Go, checks whether the module
// was closed and re-enters. A Go guest turns nearly every branch into a loop
// back-edge (Go's wasm backend dispatches jumps through a loop), so that
// exit is taken tens of millions of times per GOROOT extraction: measured
// 18 of 54 CPU-seconds.
//
// The compiled code loads the trampoline's address from the call engine's
// execution context on every check. We point that field at a small stub
// that counts down a per-slot counter and tail-jumps to the real trampoline
// only every termCheckEvery checks (512: a check costs a few nanoseconds,
// so a busy guest still returns to Go every few microseconds, often enough
// that the runtime's signal-based preemption, which only lands in Go code,
// reaches its goroutine quickly for GC; at 64 the exits to Go were about
// 0.5% of a GOROOT extraction's CPU). A runaway guest therefore still
// returns to Go every few microseconds: the deadline still closes it, Close
// still interrupts it, GC and preemption still reach its goroutine. The stub
// touches no register (only flags and its own counter), so it is invisible
// to the compiled code.
//
// This reaches into wazero internals (pinned in go.mod); every assumption is
// checked by reflection, and on any mismatch the field is left alone, which
// only costs speed. TestTermCheckPatched fails if that ever happens.

var plainLoopChecks = os.Getenv("SYNAPTIC_PLAIN_LOOP_CHECKS") == "1"

// termCheckEvery is how many loop checks the stub absorbs per real check.
const termCheckEvery = 512

// execCtxTrampolineOffset is wazevoapi.ExecutionContextOffsetCheckModuleExitCodeTrampolineAddress.
const execCtxTrampolineOffset = 88

const (
	stubSlotSize  = 64
	stubPageSize  = 4096
	stubsPerChunk = stubPageSize / stubSlotSize
)

// termStub is one slot: code at code, its data (int32 counter, then the real
// trampoline address at +8) exactly one page later.
type termStub struct {
	code unsafe.Pointer
	data unsafe.Pointer
}

var stubs struct {
	mu   sync.Mutex
	free []*termStub
	err  error
}

// stubCode is the slot's machine code; the rip-relative displacements reach
// the data page (the slot's code and data are stubPageSize apart).
func stubCode() []byte {
	const d = stubPageSize
	c := make([]byte, 0, 32)
	// 0: sub dword ptr [rip+disp32], 1   (counter)
	c = append(c, 0x83, 0x2D)
	c = binary.LittleEndian.AppendUint32(c, uint32(d-7))
	c = append(c, 0x01)
	// 7: jle slow (+1)
	c = append(c, 0x7E, 0x01)
	// 9: ret
	c = append(c, 0xC3)
	// 10: mov dword ptr [rip+disp32], termCheckEvery   (reset the counter)
	c = append(c, 0xC7, 0x05)
	c = binary.LittleEndian.AppendUint32(c, uint32(d-20))
	c = binary.LittleEndian.AppendUint32(c, termCheckEvery)
	// 20: jmp qword ptr [rip+disp32]   (the real trampoline, data+8)
	c = append(c, 0xFF, 0x25)
	c = binary.LittleEndian.AppendUint32(c, uint32(d+8-26))
	return c
}

// newTermStub returns an unused stub. Stubs are never unmapped: a stub may
// be running on some goroutine until its call returns.
func newTermStub() *termStub {
	stubs.mu.Lock()
	defer stubs.mu.Unlock()
	if stubs.err != nil {
		return nil
	}
	if len(stubs.free) == 0 {
		mem, err := syscall.Mmap(-1, 0, 2*stubPageSize, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
		if err != nil {
			stubs.err = err
			return nil
		}
		code := stubCode()
		for i := 0; i < stubsPerChunk; i++ {
			copy(mem[i*stubSlotSize:], code)
		}
		if err := syscall.Mprotect(mem[:stubPageSize], syscall.PROT_READ|syscall.PROT_EXEC); err != nil {
			stubs.err = err
			return nil
		}
		base := unsafe.Pointer(unsafe.SliceData(mem))
		for i := stubsPerChunk - 1; i >= 0; i-- {
			stubs.free = append(stubs.free, &termStub{
				code: unsafe.Add(base, i*stubSlotSize),
				data: unsafe.Add(base, stubPageSize+i*stubSlotSize),
			})
		}
	}
	s := stubs.free[len(stubs.free)-1]
	stubs.free = stubs.free[:len(stubs.free)-1]
	*(*int32)(s.data) = termCheckEvery
	return s
}

// trampolineField locates the check trampoline's address in fn's execution
// context, or returns nil if fn is not the wazevo call engine this code
// knows.
var trampolineField = func() func(api.Function) **byte {
	var layout struct {
		once             sync.Once
		ok               bool
		execCtx, execPtr uintptr
	}
	return func(fn api.Function) **byte {
		t := reflect.TypeOf(fn)
		if t == nil || t.Kind() != reflect.Pointer || t.String() != "*wazevo.callEngine" {
			return nil
		}
		layout.once.Do(func() {
			ce := t.Elem()
			ec, ok1 := ce.FieldByName("execCtx")
			ep, ok2 := ce.FieldByName("execCtxPtr")
			if !ok1 || !ok2 || ec.Type.Kind() != reflect.Struct || ep.Type.Kind() != reflect.Uintptr {
				return
			}
			tr, ok := ec.Type.FieldByName("checkModuleExitCodeTrampolineAddress")
			if !ok || tr.Offset != execCtxTrampolineOffset || tr.Type != reflect.TypeFor[*byte]() {
				return
			}
			layout.ok, layout.execCtx, layout.execPtr = true, ec.Offset, ep.Offset
		})
		if !layout.ok {
			return nil
		}
		ce := (*[2]unsafe.Pointer)(unsafe.Pointer(&fn))[1] // the interface's data word: *callEngine
		ctx := unsafe.Add(ce, layout.execCtx)
		// The engine hands compiled code execCtxPtr; it must be this struct.
		if *(*uintptr)(unsafe.Add(ce, layout.execPtr)) != uintptr(ctx) {
			return nil
		}
		return (**byte)(unsafe.Add(ctx, execCtxTrampolineOffset))
	}
}()

// patchTermCheck makes fns use stub for their loop checks and reports
// whether all were patched. fns must belong to one runtime, and calls
// through one stub must not overlap and not run while it is patched: the
// stub belongs to one worker slot of one plugin.
//
// SYNAPTIC_PLAIN_LOOP_CHECKS=1 turns the patch off (wazero's own checks on
// every loop iteration), as a switch should a wazero change ever make the
// stub misbehave in a way the reflection checks cannot see.
func patchTermCheck(s *termStub, fns ...api.Function) bool {
	if s == nil || plainLoopChecks {
		return false
	}
	ok := true
	for _, fn := range fns {
		f := trampolineField(fn)
		if f == nil || *f == nil {
			ok = false
			continue
		}
		if unsafe.Pointer(*f) == s.code {
			continue
		}
		*(**byte)(unsafe.Add(s.data, 8)) = *f
		*f = (*byte)(s.code)
	}
	return ok
}
