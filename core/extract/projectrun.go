package extract

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

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
	Project(ctx context.Context, in *abi.ProjectInput) (abi.ProjectOutput, error)
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
	key    string // hash of the encoded input: compared with the previous run's (revalidate)
	failed bool
	// ran: the entry point answered this run, with these summary lines
	// and parts.
	ran     bool
	summary []string
	parts   []abi.ProjectPart
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

// projectSuffix marks the facts cache key of a plugin with a project
// entry point. The key leaves the project input out: revalidate drops
// the cached facts an edit of the project files can change.
const projectSuffix = "#project"

// keySuffix is what l's facts cache key gets from its project entry point.
func (pr *projectRun) keySuffix(l *Language) string {
	p, ok := l.Extractor.(Projector)
	if !ok || pr.states[p] == nil {
		return ""
	}
	return projectSuffix
}

// inputKey is the hash of l's project input ("" without one), which the
// quick digest holds when the cache key does not.
func (pr *projectRun) inputKey(l *Language) string {
	if p, ok := l.Extractor.(Projector); ok && pr.states[p] != nil {
		return pr.states[p].key
	}
	return ""
}

// run calls the entry point of every Projector with files to extract.
// When one fails, extraction still goes on: the plugin's instances get no
// project info, a warning names the plugin, and those files' cache keys
// are marked so the next run extracts them again. It reports whether an
// entry point failed.
func (pr *projectRun) run(ctx context.Context, jobs []*job, sum *Summary) (failed bool) {
	// The plugins' entry points (each loading its plugin first) run side
	// by side: run serially, before any worker starts, they left a core
	// idle. Their warnings are added in the order of the jobs, as before.
	var order []Projector
	for _, j := range jobs {
		if p, ok := j.lang.Extractor.(Projector); ok {
			if st := pr.states[p]; st != nil && st.input != nil && !slices.Contains(order, p) {
				order = append(order, p)
			}
		}
	}
	warnings := make([][]string, len(order))
	var wg sync.WaitGroup
	for i, p := range order {
		wg.Go(func() {
			var own Summary
			pr.states[p].call(ctx, p, &own)
			warnings[i] = own.Warnings
		})
	}
	wg.Wait()
	for _, w := range warnings {
		sum.Warnings = append(sum.Warnings, w...)
	}
	for _, j := range jobs {
		p, ok := j.lang.Extractor.(Projector)
		if !ok {
			continue
		}
		if st := pr.states[p]; st != nil && st.failed {
			j.pluginKey += "!"
			failed = true
		}
	}
	return failed
}

// call runs the entry point once per run: later calls do nothing. It
// adds only to sum.Warnings.
func (st *projectState) call(ctx context.Context, p Projector, sum *Summary) {
	if st.input == nil {
		return
	}
	out, err := p.Project(ctx, st.input)
	if err != nil && ctx.Err() == nil {
		st.failed = true
		sum.Warnings = append(sum.Warnings, fmt.Sprintf("plugin %s: project entry point failed (%v); its files resolve by path only", st.plugin, err))
	}
	st.ran, st.summary, st.parts = true, out.Summary, out.Parts
	if err != nil {
		st.parts = nil
	}
	for _, w := range out.Warnings {
		sum.Warnings = append(sum.Warnings, "plugin "+st.plugin+": "+w)
	}
	st.input = nil
}

// revalidate drops, after an edit of a plugin's project files, the
// cached facts that may depend on what changed. When a plugin's project
// input differs from the previous run's and that run's entry point cut
// its info into parts, the entry point runs first and a cached file
// stays valid when each part its facts name (FileFacts.ProjectDeps) has
// the digest it had. Every other cached file of the plugin is dropped,
// so it is extracted again: all of them when the previous run had no
// parts, or the entry point now fails or answers none.
func (pr *projectRun) revalidate(ctx context.Context, routed []*job, cache map[string]cachedFile, prev *Manifest, sum *Summary) {
	if prev == nil || len(cache) == 0 {
		return
	}
	for _, j := range routed {
		p, ok := j.lang.Extractor.(Projector)
		if !ok || pr.states[p] == nil {
			continue
		}
		st := pr.states[p]
		if prevInput, known := prev.ProjectInputs[st.plugin]; known && prevInput == st.key {
			continue // the same input: the same project info
		}
		c, ok := cache[j.file.Rel]
		if !ok || c.Plugin != j.pluginKey {
			continue // not cached, or made by another build: extracted anyway
		}
		old, byParts := prev.ProjectParts[st.plugin]
		if byParts && c.Facts != nil {
			st.call(ctx, p, sum)
			if !st.failed && st.parts != nil && sameParts(c.Facts.File.ProjectDeps, old, st.parts) {
				continue
			}
		}
		delete(cache, j.file.Rel)
	}
}

// sameParts reports whether every part of deps has the same digest in
// old and now (a part missing from both is the same: absent).
func sameParts(deps []string, old, now []abi.ProjectPart) bool {
	for _, d := range deps {
		if abi.PartsDigestOf(old, d) != abi.PartsDigestOf(now, d) {
			return false
		}
	}
	return true
}

// record fills m's project inputs and parts: this run's for the plugins
// with routed files; for one whose entry point did not run (every file
// reused, its input unchanged), what prev recorded.
func (pr *projectRun) record(m *Manifest, routed []*job, prev *Manifest) {
	for _, j := range routed {
		p, ok := j.lang.Extractor.(Projector)
		if !ok || pr.states[p] == nil {
			continue
		}
		st := pr.states[p]
		if m.ProjectInputs == nil {
			m.ProjectInputs = map[string]string{}
		}
		if _, done := m.ProjectInputs[st.plugin]; done {
			continue
		}
		m.ProjectInputs[st.plugin] = st.key
		parts := st.parts
		if !st.ran && prev != nil && prev.ProjectInputs[st.plugin] == st.key {
			parts = prev.ProjectParts[st.plugin]
		}
		if parts != nil && !st.failed {
			if m.ProjectParts == nil {
				m.ProjectParts = map[string][]abi.ProjectPart{}
			}
			m.ProjectParts[st.plugin] = parts
		}
	}
}

// summaries are the project lines of this run by plugin: what each entry
// point that ran answered, and for a plugin whose files were all reused
// (its entry point did not run, its input is unchanged since the facts
// were made) what it answered then, from prev. Plugins without routed
// files have none.
func (pr *projectRun) summaries(routed []*job, prev *Manifest) map[string][]string {
	out := map[string][]string{}
	for _, j := range routed {
		p, ok := j.lang.Extractor.(Projector)
		if !ok || pr.states[p] == nil {
			continue
		}
		st := pr.states[p]
		if _, done := out[st.plugin]; done {
			continue
		}
		switch {
		case st.ran:
			out[st.plugin] = st.summary
		case prev != nil:
			out[st.plugin] = prev.Projects[st.plugin]
		default:
			out[st.plugin] = nil
		}
	}
	return out
}

// projectLines are the summary's lines of summaries, each naming its
// plugin (so the host needs no word of the language), in plugin order.
func projectLines(summaries map[string][]string) []string {
	var lines []string
	for _, plugin := range slices.Sorted(maps.Keys(summaries)) {
		for _, l := range summaries[plugin] {
			lines = append(lines, plugin+": "+l)
		}
	}
	return lines
}
