package extract

import (
	"bytes"
	"fmt"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// ProjectFunc is a plugin's project entry point (ABI v2): it reads the
// metadata files its manifest's [project] table lists (go.mod,
// package.json, …) and returns the plugin's own summary of them, at most
// abi.MaxProjectInfo bytes. The host hands that summary back to every
// instance before extraction (see Project), so a plugin, not the host,
// knows what those files mean. It must be deterministic.
type ProjectFunc func(in *abi.ProjectInput) ([]byte, error)

var (
	projectFn   ProjectFunc
	projectInfo []byte
)

// RegisterProject installs the plugin's project entry point. Call it from
// init, next to Register, and list the files in plugin.toml's [project].
func RegisterProject(fn ProjectFunc) { projectFn = fn }

// Project returns the project info of this extraction: what the entry
// point answered, or nil when the plugin has none or it failed (then
// resolve by paths only).
func Project() []byte { return projectInfo }

// SetProject sets what Project returns. The wasm glue calls it with
// Init.Project; native tests call it to extract as the host would.
func SetProject(info []byte) { projectInfo = bytes.Clone(info) }

// RunProject runs fn natively over in as the host would, size limit
// included. Tests use it; the wasm glue uses the same path.
func RunProject(fn ProjectFunc, in *abi.ProjectInput) (info []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("project entry point panic: %v", r)
		}
	}()
	if fn == nil {
		return nil, fmt.Errorf("plugin did not call extract.RegisterProject")
	}
	info, err = fn(in)
	if err == nil && len(info) > abi.MaxProjectInfo {
		err = fmt.Errorf("project info of %d bytes exceeds %d", len(info), abi.MaxProjectInfo)
	}
	return info, err
}

// SetFile records the file-level facts of ABI v2: scope, module keys,
// test marker and build variants.
func (f *File) SetFile(ff abi.FileFacts) { f.facts.File = ff }
