package host

import (
	"errors"
	"fmt"
)

// Reason classifies a plugin failure.
type Reason string

// Failure reasons.
const (
	ReasonTrap     Reason = "trap"     // the guest trapped or exited (Go runtime fatal error, out-of-bounds access, proc_exit)
	ReasonTimeout  Reason = "timeout"  // the per-file time budget ran out
	ReasonMemory   Reason = "memory"   // the guest hit its memory limit
	ReasonGuest    Reason = "guest"    // the guest reported an error itself (including a recovered panic)
	ReasonABI      Reason = "abi"      // the guest broke the wire contract (bad pointer, undecodable facts)
	ReasonLimit    Reason = "limit"    // input or output over the host's size limits
	ReasonCanceled Reason = "canceled" // the caller's context was canceled
)

// Sentinels matched by errors.Is on a *PluginError with the same reason.
var (
	ErrTrap     = errors.New("plugin trapped")
	ErrTimeout  = errors.New("plugin timed out")
	ErrMemory   = errors.New("plugin ran out of memory")
	ErrGuest    = errors.New("plugin reported an error")
	ErrABI      = errors.New("plugin broke the ABI")
	ErrLimit    = errors.New("size limit exceeded")
	ErrCanceled = errors.New("plugin call canceled")
)

var reasonErr = map[Reason]error{
	ReasonTrap: ErrTrap, ReasonTimeout: ErrTimeout, ReasonMemory: ErrMemory, ReasonGuest: ErrGuest,
	ReasonABI: ErrABI, ReasonLimit: ErrLimit, ReasonCanceled: ErrCanceled,
}

// PluginError is a failure of one plugin on one file (or while starting an
// instance, with File empty). The file is skipped; other files and plugins
// are unaffected.
type PluginError struct {
	Plugin  string
	File    string // "" when not about a file (load, instantiation)
	Reason  Reason
	Message string // what happened, including the tail of the guest's stderr when useful
	Err     error  // underlying error (*sys.ExitError, *abi.GuestError, ...), may be nil
}

func (e *PluginError) Error() string {
	if e.File == "" {
		return fmt.Sprintf("plugin %s: %s: %s", e.Plugin, e.Reason, e.Message)
	}
	return fmt.Sprintf("plugin %s: %s: %s: %s", e.Plugin, e.File, e.Reason, e.Message)
}

// Is reports whether target is the sentinel of e's reason.
func (e *PluginError) Is(target error) bool { return target != nil && reasonErr[e.Reason] == target }

// Unwrap returns the underlying error.
func (e *PluginError) Unwrap() error { return e.Err }

// LoadError is a plugin that cannot be used at all: unreadable or
// mismatched module, missing exports, wrong ABI version, failing init.
type LoadError struct {
	Plugin string
	Dir    string // plugin folder
	Msg    string // what is wrong and how to fix it
	Err    error
}

func (e *LoadError) Error() string {
	return fmt.Sprintf("plugin %s (%s): %s", e.Plugin, e.Dir, e.Msg)
}

// Unwrap returns the underlying error.
func (e *LoadError) Unwrap() error { return e.Err }
