//go:build !linux

package host

import "context"

// guestMemory is wazero's default memory here (see memory_unix.go).
type guestMemory struct{}

func (*guestMemory) enter() {}
func (*guestMemory) leave() {}

type memoryAllocator struct{ mem *guestMemory }

func withAllocator(ctx context.Context) (context.Context, *memoryAllocator) {
	return ctx, &memoryAllocator{}
}
