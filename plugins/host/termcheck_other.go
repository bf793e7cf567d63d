//go:build !(linux && amd64)

package host

import "github.com/tetratelabs/wazero/api"

// termStub is unused here: loop checks go through wazero's own trampoline
// (see termcheck_amd64.go).
type termStub struct{}

func newTermStub() *termStub { return nil }

func patchTermCheck(*termStub, ...api.Function) bool { return false }
