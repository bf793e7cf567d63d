package host

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"

	"github.com/tetratelabs/wazero/api"

	"github.com/synaptic-graph/synaptic/plugins/manifest"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

func init() {
	exports[abi.ExportProject] = [2][]api.ValueType{{api.ValueTypeI32}, {api.ValueTypeI64}}
}

// ProjectFiles returns the metadata file names the plugin's [project]
// table lists (nil: the plugin has no project entry point).
func (p *Plugin) ProjectFiles() []string {
	if p.m.Project == nil {
		return nil
	}
	return p.m.Project.Files
}

// Project runs the plugin's project entry point over in and hands what it
// answers to every instance from now on, in Init.Project. When the entry
// point traps, loops, errs or answers more than abi.MaxProjectInfo bytes,
// the instances get no project info (the language then resolves by path
// only) and the error says why, for the caller's diagnostic. A plugin
// without [project] gets nothing and no error.
func (p *Plugin) Project(ctx context.Context, in *abi.ProjectInput) ([]byte, error) {
	if p.m.Project == nil || p.m.Kind != manifest.KindExtractor {
		return nil, nil
	}
	input := abi.EncodeProjectInput(in)
	sum := sha256.Sum256(input)
	p.mu.Lock()
	if last := p.lastProject; last != nil && last.input == sum {
		p.mu.Unlock()
		return last.info, nil // the same files: the same answer (and the instances have it)
	}
	p.mu.Unlock()
	var info []byte
	err := p.onInstance(ctx, 0, "", len(input), func(ctx context.Context, inst *instance) error {
		var err error
		info, err = inst.callRaw(ctx, p, inst.project, input)
		return err
	})
	if err == nil && len(info) > abi.MaxProjectInfo {
		err = &PluginError{Plugin: p.m.Name, Reason: ReasonLimit, Err: ErrLimit,
			Message: fmt.Sprintf("project info of %d bytes exceeds the limit of %d", len(info), abi.MaxProjectInfo)}
	}
	if err != nil {
		info = nil
	}
	p.setProject(info)
	// A failure (a timeout on a loaded machine) is retried next time, and
	// it replaced the instances' info: forget the last answer.
	p.mu.Lock()
	p.lastProject = nil
	if err == nil {
		p.lastProject = &projectAnswer{input: sum, info: info}
	}
	p.mu.Unlock()
	return info, err
}

// projectAnswer is the last successful answer of the project entry point, so a
// server re-extracting every few hundred milliseconds does not rerun it
// over unchanged files.
type projectAnswer struct {
	input [sha256.Size]byte
	info  []byte
}

// setProject re-encodes Init with info and retires the instances made
// with another one, so every file of the run sees the same project.
func (p *Plugin) setProject(info []byte) {
	p.mu.Lock()
	if bytes.Equal(p.project, info) && p.init != nil {
		p.mu.Unlock()
		return
	}
	p.project = info
	p.init = abi.EncodeInit(&abi.Init{ABI: uint32(p.m.ABI), Plugin: p.m.Name, Grammars: p.grammars, Project: info})
	slots := p.slots
	p.mu.Unlock()
	for _, s := range slots {
		s.mu.Lock()
		if s.inst != nil {
			s.inst.mod.Close(context.Background())
			s.inst = nil
		}
		s.mu.Unlock()
	}
}
