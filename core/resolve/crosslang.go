package resolve

import (
	"encoding/json"
	"path"
	"slices"
	"strings"

	"github.com/synaptic-graph/synaptic/core/graph"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// Confidence of the process and FFI edges. A script or symbol named by
// its exact path or family is likely what runs, but the command line, the
// working directory and the library actually loaded are decided at run
// time; a match by base name alone is a guess among namesakes.
const (
	InvokeExactScore  = 0.6
	InvokeByNameScore = 0.4
	NativeScore       = 0.5
)

// resolveCrossLanguage links subprocess and FFI sites: host -invokes->
// the script file it runs, host -binds_native-> the foreign function it
// calls, and host -binds_native-> one node per native library it loads
// ("native #libfoo.so"). All INFERRED; a script or symbol that matches no
// file or function of the repository, or several, gets no edge.
func (r *resolver) resolveCrossLanguage() {
	var byPath map[string]int32
	var byBase map[string][]int32
	libs := map[string][]channelEnd{}
	for fi := range r.files {
		f := &r.files[fi]
		for _, c := range f.Facts.Channels {
			host := f.id
			if c.From >= 0 {
				host = r.syms[f.first+c.From].id
			}
			switch c.Kind {
			case abi.ChannelExec:
				if byPath == nil {
					byPath, byBase = r.fileIndex()
				}
				if t, score := scriptTarget(f, c.Name, byPath, byBase); t >= 0 {
					r.edge(host, r.files[t].id, "invokes", graph.Inferred, score, f.Path, c.Line)
				}
			case abi.ChannelNative:
				family, name, ok := strings.Cut(c.Name, ":")
				if !ok {
					continue
				}
				if t := pick(r, r.byFamily[family][name], isCallable); t >= 0 {
					r.edge(host, r.syms[t].id, "binds_native", graph.Inferred, NativeScore, f.Path, c.Line)
					r.edges[len(r.edges)-1].Context = family
				}
			case abi.ChannelLibrary:
				if n := libraryName(c.Name); n != "" {
					libs[n] = append(libs[n], channelEnd{host, f.Path, c.Line})
				}
			}
		}
	}
	r.addLibraries(libs)
}

// addLibraries gives each loaded native library one node, in name order.
func (r *resolver) addLibraries(libs map[string][]channelEnd) {
	names := make([]string, 0, len(libs))
	for n := range libs {
		names = append(names, n)
	}
	slices.Sort(names)
	nt, _ := json.Marshal("native_library")
	for _, n := range names {
		id := r.uniqueID(graph.MakeID("native", n), 0)
		r.nodes = append(r.nodes, graph.Node{
			ID: id, Label: "native #" + n, FileType: "code", Kind: "native_library",
			Extra: map[string]json.RawMessage{"_node_type": nt},
		})
		for _, l := range libs[n] {
			r.edge(l.node, id, "binds_native", graph.Inferred, NativeScore, l.file, l.line)
		}
	}
}

// libraryName is the platform-neutral name of a native library, so that
// loaders spelling "./build/libfast.so", "libfast.so.1" and "fast" (as
// System.loadLibrary does) meet: the base name up to its first dot, and
// without the Unix "lib" prefix when it has a shared-object extension.
func libraryName(s string) string {
	base := path.Base(strings.ReplaceAll(strings.TrimSpace(s), `\`, "/"))
	name, ext, _ := strings.Cut(base, ".")
	if ext == "so" || strings.HasPrefix(ext, "so.") || ext == "dylib" {
		if n, ok := strings.CutPrefix(name, "lib"); ok && n != "" {
			name = n
		}
	}
	if name == "" || name == "." || name == "/" {
		return ""
	}
	return name
}

// fileIndex maps each file's path, and each base name to its files.
func (r *resolver) fileIndex() (map[string]int32, map[string][]int32) {
	byPath := make(map[string]int32, len(r.files))
	byBase := make(map[string][]int32, len(r.files))
	for i := range r.files {
		p := r.files[i].Path
		byPath[p] = int32(i)
		byBase[path.Base(p)] = append(byBase[path.Base(p)], int32(i))
	}
	return byPath, byBase
}

// scriptTarget is the file a script path names: relative to the invoking
// file's directory, then to the repository root (exact, InvokeExactScore),
// else the one file of that base name (InvokeByNameScore). -1 if none.
func scriptTarget(f *fileInfo, script string, byPath map[string]int32, byBase map[string][]int32) (int32, float64) {
	script = strings.TrimSpace(script)
	if script == "" || path.IsAbs(script) || strings.Contains(script, "://") {
		return -1, 0
	}
	for _, p := range []string{path.Join(f.dir, script), path.Clean(script)} {
		if t, ok := byPath[p]; ok && t != f.idx && !strings.HasPrefix(p, "../") {
			return t, InvokeExactScore
		}
	}
	if same := byBase[path.Base(script)]; len(same) == 1 && same[0] != f.idx {
		return same[0], InvokeByNameScore
	}
	return -1, 0
}
