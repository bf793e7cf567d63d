package extract

import (
	"bytes"
	"fmt"
	"strings"

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
	// projectLines collects ProjectSummary and ProjectWarning while the
	// entry point runs (a guest runs one call at a time).
	projectLines struct{ summary, warnings []string }
	// projectParts is what ProjectParts declared in this run (nil: none).
	projectParts []abi.ProjectPart
)

// ProjectParts declares, from the project entry point, how its info is
// cut into named parts, each with a digest (abi.ProjectPart,
// docs/abi-v2.md "Project parts"). With parts, a file's facts name the
// parts they were computed from (FileFacts.ProjectDeps) and an edit of
// a project file re-extracts only the files whose parts changed.
// Without, any edit re-extracts every file of the plugin.
func ProjectParts(parts []abi.ProjectPart) {
	projectParts = abi.SortProjectParts(append(make([]abi.ProjectPart, 0, len(parts)), parts...))
}

// RegisterProject installs the plugin's project entry point. Call it from
// init, next to Register, and list the files in plugin.toml's [project].
func RegisterProject(fn ProjectFunc) { projectFn = fn }

// Project returns the project info of this extraction: what the entry
// point answered, or nil when the plugin has none or it failed (then
// resolve by paths only).
func Project() []byte { return projectInfo }

// SetProject sets what Project returns. The wasm glue calls it with
// Init.Project, or synaptic_set_project's input; native tests call it to
// extract as the host would. Empty info is none (nil), however it came.
func SetProject(info []byte) {
	projectInfo = nil
	if len(info) > 0 {
		projectInfo = bytes.Clone(info)
	}
}

// ProjectSummary adds a line to the extraction summary, from the project
// entry point: which project the root was resolved in ("module "x" (go.mod
// at the root: /src/go.mod)"). The host prefixes the plugin's name. Lines
// past abi.MaxProjectLines are dropped; long ones are cut.
func ProjectSummary(format string, args ...any) {
	projectLines.summary = addLine(projectLines.summary, fmt.Sprintf(format, args...))
}

// ProjectWarning adds a warning to the run's summary, from the project
// entry point: metadata it could not use, and how to fix it.
func ProjectWarning(format string, args ...any) {
	projectLines.warnings = addLine(projectLines.warnings, fmt.Sprintf(format, args...))
}

func addLine(lines []string, l string) []string {
	if len(lines) >= abi.MaxProjectLines {
		return lines
	}
	l = strings.ToValidUTF8(l, "?")
	if len(l) > abi.MaxProjectLineBytes {
		l = strings.ToValidUTF8(l[:abi.MaxProjectLineBytes-3], "") + "..."
	}
	return append(lines, l)
}

// RunProject runs fn natively over in as the host would, size limit
// included, and returns the info. Tests use it.
func RunProject(fn ProjectFunc, in *abi.ProjectInput) (info []byte, err error) {
	out, err := RunProjectOutput(fn, in)
	return out.Info, err
}

// RunProjectOutput runs fn as RunProject does and also returns the lines
// it reported (ProjectSummary, ProjectWarning); the wasm glue uses it.
func RunProjectOutput(fn ProjectFunc, in *abi.ProjectInput) (out abi.ProjectOutput, err error) {
	projectLines.summary, projectLines.warnings, projectParts = nil, nil, nil
	defer func() {
		if r := recover(); r != nil {
			out, err = abi.ProjectOutput{}, fmt.Errorf("project entry point panic: %v", r)
		}
		projectLines.summary, projectLines.warnings, projectParts = nil, nil, nil
	}()
	if fn == nil {
		return out, fmt.Errorf("plugin did not call extract.RegisterProject")
	}
	info, err := fn(in)
	if err == nil && len(info) > abi.MaxProjectInfo {
		err = fmt.Errorf("project info of %d bytes exceeds %d", len(info), abi.MaxProjectInfo)
	}
	if err != nil {
		return abi.ProjectOutput{}, err
	}
	if len(projectParts) > abi.MaxProjectParts {
		return abi.ProjectOutput{}, fmt.Errorf("%d project parts exceed %d", len(projectParts), abi.MaxProjectParts)
	}
	return abi.ProjectOutput{Info: info, Summary: projectLines.summary, Warnings: projectLines.warnings, Parts: projectParts}, nil
}

// SetFile records the file-level facts of ABI v2: scope, module keys,
// test marker and build variants.
func (f *File) SetFile(ff abi.FileFacts) { f.facts.File = ff }

// Imports returns the imports reported so far; a v2 plugin sets their
// Keys and Kind in place once it knows the file's project context.
func (f *File) Imports() []abi.Import { return f.facts.Imports }
