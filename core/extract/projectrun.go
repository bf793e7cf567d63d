package extract

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/zeebo/blake3"

	"github.com/synaptic-graph/synaptic/core/discover"
	"github.com/synaptic-graph/synaptic/core/safefile"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// Projector is an Extractor with a project entry point (ABI v2): it
// names the metadata files it needs (go.mod, package.json, …) and turns
// them into the project info its instances extract with. Only the plugin
// knows what those files mean; the pipeline finds them and hands them over.
type Projector interface {
	ProjectFiles() []string
	Project(ctx context.Context, in *abi.ProjectInput) ([]byte, error)
}

// maxLevelsAbove bounds how far above the root metadata files are looked
// for when no repository root (a .git entry) is met first.
const maxLevelsAbove = 64

// projectRun is the project step of one extraction: each Projector's
// input, collected once, and whether its entry point ran.
type projectRun struct {
	states map[Projector]*projectState
	names  map[string]bool // every file name some Projector asks for
}

type projectState struct {
	plugin string
	names  []string
	input  *abi.ProjectInput
	key    string // hash of the encoded input: part of the facts cache key
	failed bool
}

func newProjectRun(langs []Language) *projectRun {
	pr := &projectRun{states: map[Projector]*projectState{}, names: map[string]bool{}}
	for i := range langs {
		p, ok := langs[i].Extractor.(Projector)
		if !ok || pr.states[p] != nil {
			continue
		}
		names := p.ProjectFiles()
		if len(names) == 0 {
			continue
		}
		pr.states[p] = &projectState{plugin: langs[i].Plugin.Name, names: names}
		for _, n := range names {
			pr.names[n] = true
		}
	}
	return pr
}

// wants reports whether a file of this base name is project metadata.
func (pr *projectRun) wants(rel string) bool { return pr.names[path.Base(rel)] }

// collect reads each Projector's files: those of the walk (so ignore
// files and the read policy apply) and those in the directories above
// the root up to the repository's own root. What is capped or unreadable
// is said in sum.
func (pr *projectRun) collect(repo *os.Root, root string, walked []discover.File, sum *Summary) {
	for _, st := range pr.states {
		in := &abi.ProjectInput{Root: filepath.ToSlash(root)}
		for _, f := range walked {
			if slices.Contains(st.names, path.Base(f.Rel)) {
				data, err := safefile.ReadFile(repo, filepath.FromSlash(f.Real), abi.MaxProjectFileSize, nil)
				if err != nil {
					sum.Warnings = append(sum.Warnings, fmt.Sprintf("plugin %s: project file %s not read: %v", st.plugin, f.Rel, err))
					continue
				}
				in.Files = append(in.Files, abi.ProjectFile{Path: f.Rel, Data: data})
			}
		}
		in.Files = append(in.Files, filesAbove(root, st, sum)...)
		slices.SortFunc(in.Files, func(a, b abi.ProjectFile) int { return strings.Compare(a.Path, b.Path) })
		in.Files = capProjectFiles(in.Files, st.plugin, sum)
		st.input = in
		h := blake3.Sum256(abi.EncodeProjectInput(in))
		st.key = hex.EncodeToString(h[:12])
	}
}

// filesAbove finds st's files in the parents of root, nearest first, up
// to the first directory holding .git (the repository root) included.
func filesAbove(root string, st *projectState, sum *Summary) []abi.ProjectFile {
	var out []abi.ProjectFile
	dir := root
	for level := 1; level <= maxLevelsAbove; level++ {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			break // root is the repository's own root: nothing above belongs to it
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
		for _, name := range st.names {
			data, err := safefile.ReadIn(dir, name, abi.MaxProjectFileSize)
			switch {
			case err == nil:
				out = append(out, abi.ProjectFile{Path: strings.Repeat("../", level) + name, Data: data})
			case !errors.Is(err, fs.ErrNotExist):
				sum.Warnings = append(sum.Warnings, fmt.Sprintf("plugin %s: project file %s not read: %v", st.plugin, filepath.Join(dir, name), err))
			}
		}
	}
	return out
}

// capProjectFiles keeps the files within abi's count and size bounds.
func capProjectFiles(files []abi.ProjectFile, plugin string, sum *Summary) []abi.ProjectFile {
	total := 0
	for i, f := range files {
		total += len(f.Data) + len(f.Path)
		if i >= abi.MaxProjectFiles || total > abi.MaxProjectBytes {
			sum.Warnings = append(sum.Warnings, fmt.Sprintf("plugin %s: %d project files, %d handed to it (the first %d by path, at most %d MiB); the rest is not seen",
				plugin, len(files), i, i, abi.MaxProjectBytes>>20))
			return files[:i]
		}
	}
	return files
}

// keySuffix is what l's facts cache key gets from its project input.
func (pr *projectRun) keySuffix(l *Language) string {
	p, ok := l.Extractor.(Projector)
	if !ok || pr.states[p] == nil {
		return ""
	}
	return "#" + pr.states[p].key
}

// run calls the entry point of every Projector with files to extract.
// When one fails, extraction still goes on: the plugin's instances get no
// project info, a warning names the plugin, and those files' cache keys
// are marked so the next run extracts them again. It reports whether an
// entry point failed.
func (pr *projectRun) run(ctx context.Context, jobs []*job, sum *Summary) (failed bool) {
	for _, j := range jobs {
		p, ok := j.lang.Extractor.(Projector)
		if !ok {
			continue
		}
		st := pr.states[p]
		if st == nil {
			continue
		}
		if st.input != nil {
			info, err := p.Project(ctx, st.input)
			if err != nil && ctx.Err() == nil {
				st.failed = true
				sum.Warnings = append(sum.Warnings, fmt.Sprintf("plugin %s: project entry point failed (%v); its files resolve by path only", st.plugin, err))
			}
			if line := abi.ProjectSummary(info); err == nil && line != "" {
				sum.Projects = append(sum.Projects, st.plugin+": "+line)
			}
			st.input = nil
		}
		if st.failed {
			j.pluginKey += "!"
			failed = true
		}
	}
	return failed
}
