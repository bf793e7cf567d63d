//go:build linux

package host

import (
	"context"
	"sync"
	"syscall"

	"github.com/tetratelabs/wazero/experimental"
)

// Guest linear memory outside the Go heap.
//
// By default wazero backs linear memory with a Go slice and grows it by
// appending: every growth copies the whole memory and leaves the old copy
// to the collector (measured ~2 CPU-s per GOROOT extraction), and guest
// memory counts against the Go heap. Here each instance reserves its
// maximum once with mmap (MAP_NORESERVE: only touched pages cost memory),
// grows in place and unmaps on close.
//
// wazero frees memory when a module is closed, which can happen while a
// call is still running on it (a fatal runtime error closes the module
// from inside the guest's own write; Plugin.Close interrupts calls in
// flight). Unmapping then would fault the running code, so the mapping is
// released only once no call is in flight.

// guestMemory is one instance's linear memory.
type guestMemory struct {
	mu    sync.Mutex
	buf   []byte // the whole reservation
	busy  int    // calls (or the instantiation) using it; nested
	freed bool   // wazero is done with it
}

// memoryAllocator hands wazero one guestMemory per instantiation and
// remembers it, so the instance can mark its calls.
type memoryAllocator struct {
	mem *guestMemory
}

// Allocate implements experimental.MemoryAllocator. It returns nil (wazero
// then reports an allocation failure) if the reservation fails.
func (a *memoryAllocator) Allocate(_, max uint64) experimental.LinearMemory {
	if max == 0 || max > 1<<32 {
		max = 1 << 32
	}
	buf, err := syscall.Mmap(-1, 0, int(max), syscall.PROT_READ|syscall.PROT_WRITE,
		syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_NORESERVE)
	if err != nil {
		return nil
	}
	a.mem = &guestMemory{buf: buf, busy: 1} // instantiation runs guest code
	return a.mem
}

// Reallocate implements experimental.LinearMemory: growth is in place.
func (m *guestMemory) Reallocate(size uint64) []byte {
	if size > uint64(len(m.buf)) {
		return nil
	}
	return m.buf[:size:size]
}

// Free implements experimental.LinearMemory.
func (m *guestMemory) Free() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.freed = true
	if m.busy == 0 {
		m.release()
	}
}

func (m *guestMemory) release() {
	if m.buf != nil {
		syscall.Munmap(m.buf)
		m.buf = nil
	}
}

// enter marks a call as running.
func (m *guestMemory) enter() {
	if m == nil {
		return
	}
	m.mu.Lock()
	m.busy++
	m.mu.Unlock()
}

// leave marks the running call as returned and unmaps the memory if wazero
// freed it meanwhile.
func (m *guestMemory) leave() {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.busy--
	if m.busy == 0 && m.freed {
		m.release()
	}
}

// withAllocator returns ctx set up to instantiate one module with a
// guestMemory, and the allocator, whose mem is set once wazero allocated.
func withAllocator(ctx context.Context) (context.Context, *memoryAllocator) {
	a := &memoryAllocator{}
	return experimental.WithMemoryAllocator(ctx, a), a
}

var _ experimental.MemoryAllocator = (*memoryAllocator)(nil)
