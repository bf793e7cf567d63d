//go:build unix

package discover

import "syscall"

const oNonBlock = syscall.O_NONBLOCK
