package resolve

import (
	"encoding/json"
	"path"
	"strings"

	"github.com/synaptic-graph/synaptic/core/graph"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// DynamicRefScore is the confidence of a dynamic_ref edge: the name is a
// literal naming one definition, but whether the lookup runs, and on
// what, is decided at run time.
const DynamicRefScore = 0.5

// dynamicSite is one site as graph.json records it, on its enclosing node
// (the file node at file level) under "dynamic_sites". key is absent for
// an opaque site.
type dynamicSite struct {
	Kind abi.DynamicKind `json:"kind"`
	Line uint32          `json:"line"`
	Key  string          `json:"key,omitempty"`
}

// resolveDynamic records every dynamic-dispatch site on its host node and
// links a site whose literal key names exactly one definition with a
// low-confidence dynamic_ref edge (context "dynamic"), marking the target
// "dynamically_referenced". Anything else stays a catalogued hazard.
func (r *resolver) resolveDynamic() {
	sites := map[string][]dynamicSite{}
	referenced := map[string]bool{}
	var byName map[string]map[string][]int32 // family -> name -> callables and types
	for fi := range r.files {
		f := &r.files[fi]
		for _, d := range f.Facts.Dynamic {
			host, hostSym := f.id, int32(-1)
			if d.From >= 0 {
				hostSym = f.first + d.From
				host = r.syms[hostSym].id
			}
			sites[host] = append(sites[host], dynamicSite{Kind: d.Kind, Line: d.Line, Key: d.Key})
			if d.Key == "" {
				continue
			}
			var target string
			switch d.Kind {
			case abi.DynamicReflection:
				if byName == nil {
					byName = r.callablesByName(r.reflectedNames())
				}
				if t := r.reflectionTarget(byName, f, hostSym, d.Key); t >= 0 {
					target = r.syms[t].id
				}
			case abi.DynamicImport:
				target = r.moduleFile(f, d.Key)
			}
			if target == "" || target == host {
				continue
			}
			r.edge(host, target, "dynamic_ref", graph.Inferred, DynamicRefScore, f.Path, d.Line)
			r.edges[len(r.edges)-1].Context = "dynamic"
			referenced[target] = true
		}
	}
	if len(sites) == 0 {
		return
	}
	for i := range r.nodes {
		n := &r.nodes[i]
		s, hasSites := sites[n.ID]
		if !hasSites && !referenced[n.ID] {
			continue
		}
		if n.Extra == nil {
			n.Extra = map[string]json.RawMessage{}
		}
		if hasSites {
			raw, _ := json.Marshal(s)
			n.Extra["dynamic_sites"] = raw
		}
		if referenced[n.ID] {
			n.Extra["dynamically_referenced"] = json.RawMessage("true")
		}
	}
}

// callablesByName indexes every callable and type, members included, by
// family and name: a by-name lookup usually names a method. Only the names
// in want are indexed: the sites name a few, and an index of every name
// (GOROOT: 500k definitions) cost more than the rest of the pass.
func (r *resolver) callablesByName(want map[string]bool) map[string]map[string][]int32 {
	m := map[string]map[string][]int32{}
	for g := range r.syms {
		s := &r.syms[g]
		if !want[s.name] || !isCallable(s.kind) && !isType(s.kind) {
			continue
		}
		fam := r.files[s.file].Family
		if m[fam] == nil {
			m[fam] = map[string][]int32{}
		}
		m[fam][s.name] = append(m[fam][s.name], int32(g))
	}
	return m
}

// reflectedNames is the set of names the reflection sites' literal keys
// name (reflectedName), what reflectionTarget looks up.
func (r *resolver) reflectedNames() map[string]bool {
	names := map[string]bool{}
	for fi := range r.files {
		for _, d := range r.files[fi].Facts.Dynamic {
			if d.Kind == abi.DynamicReflection && d.Key != "" {
				names[reflectedName(d.Key)] = true
			}
		}
	}
	return names
}

// reflectedName is the definition name a reflection key names: its last
// dotted or nested part (Class.forName("com.acme.Plugin"): the class is
// Plugin).
func reflectedName(key string) string {
	if i := strings.LastIndexAny(key, ".$"); i >= 0 {
		return key[i+1:]
	}
	return key
}

// reflectionTarget picks the one definition a literal key names: first
// among the members of the type enclosing the site (getattr(self, "x")),
// else anywhere in the language family. -1 when none or several.
func (r *resolver) reflectionTarget(byName map[string]map[string][]int32, f *fileInfo, host int32, key string) int32 {
	key = reflectedName(key)
	for p := host; p >= 0; p = r.syms[p].parent {
		typ := p
		if o := r.syms[p].owner; o >= 0 {
			typ = o
		}
		if !isType(r.syms[typ].kind) {
			continue
		}
		if ms := r.methods[typ][key]; len(ms) == 1 {
			return ms[0]
		}
		break
	}
	if c := byName[f.Family][key]; len(c) == 1 {
		return c[0]
	}
	return -1
}

// moduleFile maps a literal module name ("app.handlers", "./plugins/x")
// to the one file of the same family it names, or "".
func (r *resolver) moduleFile(f *fileInfo, key string) string {
	want := strings.TrimPrefix(key, "./")
	if !strings.Contains(want, "/") {
		want = strings.ReplaceAll(want, ".", "/")
	}
	if strings.HasPrefix(key, ".") && strings.Contains(key, "/") {
		want = path.Join(f.dir, key)
	}
	found := ""
	for i := range r.files {
		o := &r.files[i]
		if o.Family != f.Family {
			continue
		}
		noExt := strings.TrimSuffix(o.Path, path.Ext(o.Path))
		noExt = strings.TrimSuffix(noExt, "/__init__")
		noExt = strings.TrimSuffix(noExt, "/index")
		if noExt == want || strings.HasSuffix(noExt, "/"+want) {
			if found != "" {
				return "" // two candidates: never guess
			}
			found = o.id
		}
	}
	return found
}
