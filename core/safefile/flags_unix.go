//go:build unix

package safefile

import "syscall"

// openFlags make an open return at once whatever the file is: a FIFO
// without a writer, a terminal, a device.
const openFlags = syscall.O_NONBLOCK | syscall.O_NOCTTY
