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
	exports[abi.ExportSetProject] = [2][]api.ValueType{{api.ValueTypeI32}, {api.ValueTypeI64}}
}

// ProjectFiles returns the metadata file names the plugin's [project]
// table lists (nil: the plugin has no project entry point).
func (p *Plugin) ProjectFiles() []string {
	if p.m.Project == nil {
		return nil
	}
	return p.m.Project.Files
}

// Project runs the plugin's project entry point over in and hands the
// info it answers to every instance from now on, in Init.Project; the
// answer's summary and warning lines are the caller's to show. When the
// entry point traps, loops, errs, answers more than abi.MaxProjectInfo
// bytes of info or something that is not an abi.ProjectOutput, the
// instances get no project info (the language then resolves by path only)
// and the error says why, for the caller's diagnostic. A plugin without
// [project] gets nothing and no error.
func (p *Plugin) Project(ctx context.Context, in *abi.ProjectInput) (abi.ProjectOutput, error) {
	if p.m.Project == nil || p.m.Kind != manifest.KindExtractor {
		return abi.ProjectOutput{}, nil
	}
	input := abi.EncodeProjectInput(in)
	sum := sha256.Sum256(input)
	p.mu.Lock()
	if last := p.lastProject; last != nil && last.input == sum {
		p.mu.Unlock()
		return last.out, nil // the same files: the same answer (and the instances have it)
	}
	p.mu.Unlock()
	var raw []byte
	err := p.onInstance(ctx, 0, "", len(input), func(ctx context.Context, inst *instance) error {
		var err error
		raw, err = inst.callRaw(ctx, p, inst.project, input)
		return err
	})
	var out abi.ProjectOutput
	if err == nil {
		out, err = p.decodeProjectOutput(raw)
	}
	if err != nil {
		out = abi.ProjectOutput{}
	}
	p.setProject(ctx, out.Info)
	// A failure (a timeout on a loaded machine) is retried next time, and
	// it replaced the instances' info: forget the last answer.
	p.mu.Lock()
	p.lastProject = nil
	if err == nil {
		p.lastProject = &projectAnswer{input: sum, out: out}
	}
	p.mu.Unlock()
	return out, err
}

// decodeProjectOutput checks what the entry point answered.
func (p *Plugin) decodeProjectOutput(raw []byte) (abi.ProjectOutput, error) {
	out, err := abi.DecodeProjectOutput(raw)
	if err != nil {
		return abi.ProjectOutput{}, &PluginError{Plugin: p.m.Name, Reason: ReasonABI, Err: err,
			Message: fmt.Sprintf("the project entry point's answer is not an abi.ProjectOutput (%v): rebuild the plugin with the current sdk", err)}
	}
	if len(out.Info) > abi.MaxProjectInfo {
		return abi.ProjectOutput{}, &PluginError{Plugin: p.m.Name, Reason: ReasonLimit, Err: ErrLimit,
			Message: fmt.Sprintf("project info of %d bytes exceeds the limit of %d", len(out.Info), abi.MaxProjectInfo)}
	}
	return *out, nil
}

// projectAnswer is the last successful answer of the project entry point, so a
// server re-extracting every few hundred milliseconds does not rerun it
// over unchanged files.
type projectAnswer struct {
	input [sha256.Size]byte
	out   abi.ProjectOutput
}

// setProject re-encodes Init with info for the instances to come and
// hands info to the live ones through synaptic_set_project, so every file
// of the run sees the same project without instantiating the module
// again. An instance that lacks the export (a guest built with an older
// sdk) or fails the call is retired instead.
func (p *Plugin) setProject(ctx context.Context, info []byte) {
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
		if s.inst != nil && !p.handProject(ctx, s.inst, info) {
			s.inst.mod.Close(context.Background())
			s.inst = nil
		}
		s.mu.Unlock()
	}
}

// handProject calls in's synaptic_set_project with info, under the
// budget of a file of that size; false: in has no such export, the
// plugin is closed, or the call failed (it is counted as a failure).
func (p *Plugin) handProject(ctx context.Context, in *instance, info []byte) bool {
	if in.setProject == nil || p.replaceOnProject || p.closed.Load() {
		return false
	}
	ctx, cancel := context.WithTimeout(ctx, p.fileTimeout(len(info)))
	defer cancel()
	if info == nil {
		info = []byte{} // call's raw input, not a FileInput
	}
	p.calls.Add(1)
	if _, err := in.call(ctx, p, in.setProject, info, "", 0, nil, nil); err != nil {
		p.failures.Add(1)
		return false
	}
	return true
}
