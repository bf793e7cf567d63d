// Package host runs synaptic's WebAssembly plugins in a wazero sandbox.
//
// A [Host] owns the compilation cache shared by all plugins. [Host.Load]
// verifies and compiles one plugin's module and checks its ABI; the returned
// [Plugin] runs files through one module instance per worker.
//
// # Sandbox
//
// Guests get no file system, network, environment or arguments; they get
// real clocks (the Go runtime needs them) and a deterministic random source.
// Each instance has the memory limit of its manifest, and every call runs
// under a per-file deadline that closes the instance when it passes
// (wazero's WithCloseOnContextDone), so a runaway loop costs one file, not a
// CPU core. After any failed call the instance is discarded and a fresh one
// is made on next use: a trap leaves a Go guest's runtime in an undefined
// state, and guest memory never shrinks, so instances that grew large are
// recycled too.
//
// # Trust
//
// Nothing the guest returns is trusted: pointers and lengths are checked
// against its memory, results are size-limited and decoded by
// [abi.DecodeFacts], which validates every index. Results are copied out of
// guest memory before the next call.
package host

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/tetratelabs/wazero"
)

// Options configure a Host. The zero value is ready to use.
type Options struct {
	// CacheDir holds compiled modules across runs (compiling a Go guest
	// takes ~0.6 s; a cache hit ~30 ms). "" means
	// os.UserCacheDir()/synaptic/wazero; if that is unavailable the cache
	// lives in memory only.
	CacheDir string

	// MaxOutputBytes caps one result from the guest. 0 means 64 MiB.
	MaxOutputBytes int

	// RecycleBytes discards an instance after a call that left its linear
	// memory larger than this. 0 means half the plugin's memory limit,
	// at most 64 MiB.
	RecycleBytes uint64

	// The caps on what any manifest may ask for (see Cap); 0 means
	// DefaultMaxMemoryPages, DefaultMaxTimeout and DefaultMaxFileTimeout.
	MaxMemoryPages uint32
	MaxTimeout     time.Duration
	MaxFileTimeout time.Duration
}

const defaultMaxOutput = 64 << 20

// Host loads plugins. It is safe for concurrent use.
type Host struct {
	opts  Options
	cache wazero.CompilationCache

	mu      sync.Mutex
	plugins []*Plugin
	closed  bool
}

// New returns a Host with an on-disk compilation cache.
func New(ctx context.Context, opts Options) (*Host, error) {
	if opts.MaxOutputBytes <= 0 {
		opts.MaxOutputBytes = defaultMaxOutput
	}
	opts.setCapDefaults()
	return &Host{opts: opts, cache: newCache(opts.CacheDir)}, nil
}

// newCache returns a disk cache in dir (or the default dir), falling back to
// an in-memory cache: a cache problem must never stop extraction.
//
// All runtimes of this package compile with WithCloseOnContextDone(true),
// and wazero's file cache key does not include that setting; a cache shared
// with code compiled without it would serve modules that cannot be stopped.
// Keep this directory for that one configuration.
func newCache(dir string) wazero.CompilationCache {
	if dir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			return wazero.NewCompilationCache()
		}
		dir = filepath.Join(base, "synaptic", "wazero")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return wazero.NewCompilationCache()
	}
	c, err := wazero.NewCompilationCacheWithDir(dir)
	if err != nil {
		return wazero.NewCompilationCache()
	}
	return c
}

// Close closes every plugin loaded by h (interrupting calls in flight) and
// the compilation cache. It may be called more than once.
func (h *Host) Close(ctx context.Context) error {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil
	}
	h.closed = true
	ps := h.plugins
	h.plugins = nil
	h.mu.Unlock()
	var errs []error
	for _, p := range ps {
		errs = append(errs, p.Close(ctx))
	}
	errs = append(errs, h.cache.Close(ctx))
	return errors.Join(errs...)
}
