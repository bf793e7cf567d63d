package host

import (
	"fmt"
	"time"

	"github.com/synaptic-graph/synaptic/plugins/manifest"
)

// The host's caps on what a manifest may ask for. A plugin picks its own
// limits, and a plugin may come from a repository nobody vetted: without
// caps memory_pages = 65536 gives every worker 4 GiB and timeout = "10m"
// lets one file run for ten minutes. Our built-in plugins ask for 256 MiB
// and 10 s; the caps leave room above that and no more.
const (
	DefaultMaxMemoryPages = 16384            // 1 GiB per instance
	DefaultMaxTimeout     = 10 * time.Second // per started MiB of a file
	DefaultMaxFileTimeout = 60 * time.Second // one file's whole budget
)

func (o *Options) setCapDefaults() {
	if o.MaxMemoryPages == 0 {
		o.MaxMemoryPages = DefaultMaxMemoryPages
	}
	if o.MaxTimeout <= 0 {
		o.MaxTimeout = DefaultMaxTimeout
	}
	if o.MaxFileTimeout <= 0 {
		o.MaxFileTimeout = DefaultMaxFileTimeout
	}
}

// Cap returns l within the host's caps and, for each limit it lowered, a
// note saying what the manifest asked for and what it gets.
func (h *Host) Cap(l manifest.Limits) (manifest.Limits, []string) {
	var notes []string
	if l.MemoryPages > h.opts.MaxMemoryPages {
		notes = append(notes, fmt.Sprintf("memory_pages = %d (%d MiB) is over the host's cap; capped at %d (%d MiB)",
			l.MemoryPages, l.MemoryPages>>4, h.opts.MaxMemoryPages, h.opts.MaxMemoryPages>>4))
		l.MemoryPages = h.opts.MaxMemoryPages
	}
	if l.Timeout > h.opts.MaxTimeout {
		notes = append(notes, fmt.Sprintf("timeout = %q is over the host's cap; capped at %s per started MiB (%s a file at most)",
			l.Timeout, h.opts.MaxTimeout, h.opts.MaxFileTimeout))
		l.Timeout = h.opts.MaxTimeout
	}
	return l, notes
}
