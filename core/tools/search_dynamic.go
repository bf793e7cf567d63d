package tools

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/synaptic-graph/synaptic/core/graph"
	"github.com/synaptic-graph/synaptic/core/search"
)

// dynamicKind is a dynamic-dispatch site kind, as extractors record it.
type dynamicKind string

// The site kinds dynamic_hazards filters on (sdk/abi's DynamicKind).
const (
	kindReflection    dynamicKind = "reflection"
	kindDynamicImport dynamicKind = "dynamic_import"
	kindEval          dynamicKind = "eval"
)

// dynamicDetectors says which extractors of this build record sites, so
// an empty list is never read as "no dynamic dispatch here".
const dynamicDetectors = "python (getattr, __import__, importlib.import_module, eval, exec), go (reflect MethodByName/FieldByName, plugin.Open), javascript/typescript (obj[key](), computed import()/require(), eval, new Function, Reflect.*), java and kotlin (Class.forName, getMethod, getField, Method.invoke, newInstance), c# (Type.GetType, GetMethod, InvokeMember, Activator.CreateInstance), rust (trait-object calls, downcast_ref, libloading symbols), ruby (send, public_send, define_method, method_missing, eval), php ($obj->$m(), new $class, call_user_func) and c/c++ (dispatch tables, (*fp)())"

const (
	defaultHazards = 30
	maxHazards     = 1000
)

// hazard is one dynamic-dispatch site.
type hazard struct {
	Repo string      `json:"repo,omitempty"`
	File string      `json:"file"`
	Line int         `json:"line"`
	Kind dynamicKind `json:"kind"`
	Key  *string     `json:"key,omitempty"`
	Host string      `json:"host"`
	host int32
}

// dynamicIndex is every site of the graph, sorted by file and line, and
// the opaque-site count per file, for caveats.
type dynamicIndex struct {
	sites        []hazard
	opaqueByFile map[string]int
	kindsByFile  map[string][]dynamicKind
}

// dynamic reads the "dynamic_sites" of every node once per snapshot.
func (s *snapshot) dynamic() *dynamicIndex {
	s.dynOnce.Do(func() {
		d := &dynamicIndex{opaqueByFile: map[string]int{}, kindsByFile: map[string][]dynamicKind{}}
		for i := range s.g.Nodes {
			n := &s.g.Nodes[i]
			raw, ok := n.Extra["dynamic_sites"]
			if !ok {
				continue
			}
			var recs []struct {
				Kind dynamicKind `json:"kind"`
				Line int         `json:"line"`
				Key  *string     `json:"key"`
			}
			if json.Unmarshal(raw, &recs) != nil {
				continue
			}
			for _, r := range recs {
				h := hazard{Repo: n.Repo, File: n.SourceFile, Line: r.Line, Kind: r.Kind, Host: n.Label, host: int32(i)}
				if r.Key != nil && *r.Key != "" {
					h.Key = r.Key
				} else {
					d.opaqueByFile[n.SourceFile]++
				}
				if !slices.Contains(d.kindsByFile[n.SourceFile], r.Kind) {
					d.kindsByFile[n.SourceFile] = append(d.kindsByFile[n.SourceFile], r.Kind)
				}
				d.sites = append(d.sites, h)
			}
		}
		slices.SortFunc(d.sites, func(a, b hazard) int {
			return cmp.Or(strings.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), strings.Compare(string(a.Kind), string(b.Kind)),
				strings.Compare(keyOf(a), keyOf(b)), strings.Compare(a.Host, b.Host))
		})
		for _, k := range d.kindsByFile {
			slices.Sort(k)
		}
		s.dyn = d
	})
	return s.dyn
}

func keyOf(h hazard) string {
	if h.Key == nil {
		return ""
	}
	return *h.Key
}

func (c *Catalog) dynamicHazardsTool() Tool {
	def := defaultHazards
	if c.opts.Concise {
		def = 20
	}
	return Tool{
		Name:        "dynamic_hazards",
		Description: "Reflection, eval and dynamic-import sites, where a static 0 dependents may be wrong.",
		InputSchema: object(
			str("repo", "Federated member tag."),
			str("path_glob", "File glob, e.g. **/*.py."),
			enumStr("kind", "Site kind.", "", string(kindReflection), string(kindDynamicImport), string(kindEval)),
			str("target", "Sites that could reach this symbol."),
			integer("max_results", "Sites before truncation.", def, 1, maxHazards),
		),
		OutputSchema: hazardsSchema,
		Annotations:  readOnly,
		Run:          c.run(c.dynamicHazards),
	}
}

var hazardsSchema = outSchema(map[string]any{
	"total": typ("integer"), "truncated": typ("boolean"), "recorded": typ("integer"),
	"sites": arrayOf(map[string]any{
		"repo": typ("string"), "file": typ("string"), "line": typ("integer"), "kind": typ("string"),
		"key": typ("string"), "host": typ("string"),
	}),
}, "total", "truncated", "sites")

func (c *Catalog) dynamicHazards(_ context.Context, s *snapshot, args json.RawMessage) Result {
	var a struct {
		Repo       string `json:"repo"`
		PathGlob   string `json:"path_glob"`
		Kind       string `json:"kind"`
		Target     string `json:"target"`
		MaxResults *int   `json:"max_results"`
	}
	if err := decode(args, &a); err != nil {
		return errorf("%v", err)
	}
	limit := defaultHazards
	if c.opts.Concise {
		limit = 20
	}
	if a.MaxResults != nil {
		limit = min(*a.MaxResults, maxHazards)
	}
	keep, fail := s.hazardFilter(a.Repo, a.PathGlob, a.Kind, a.Target)
	if fail != nil {
		return *fail
	}
	d := s.dynamic()
	var matched []hazard
	for _, h := range d.sites {
		if keep(h) {
			matched = append(matched, h)
		}
	}
	shown := matched[:min(len(matched), limit)]
	out := make([]hazard, len(shown))
	var b strings.Builder
	switch {
	case len(d.sites) == 0:
		fmt.Fprintf(&b, "No dynamic-dispatch sites recorded in this graph. Not a proof of absence: this build records them for %s; other languages are not scanned.", dynamicDetectors)
	case len(matched) == 0:
		fmt.Fprintf(&b, "No site matches the filters (%d recorded in the graph).", len(d.sites))
	default:
		fmt.Fprintf(&b, "%d dynamic-dispatch site(s)", len(matched))
		if len(shown) < len(matched) {
			fmt.Fprintf(&b, ", showing %d (narrow with repo/path_glob/kind/target)", len(shown))
		}
		b.WriteString(":")
	}
	for k, h := range shown {
		h.Repo, h.File, h.Host = sanitize(h.Repo), sanitize(h.File), s.label(h.host)
		if h.Key != nil {
			key := sanitize(*h.Key)
			h.Key = &key
		}
		out[k] = h
		b.WriteString("\n  ")
		if h.Repo != "" {
			fmt.Fprintf(&b, "[%s] ", h.Repo)
		}
		key := "(opaque)"
		if h.Key != nil {
			key = fmt.Sprintf("%q", *h.Key)
		}
		fmt.Fprintf(&b, "%s:%d %s %s in %s", h.File, h.Line, h.Kind, key, h.Host)
	}
	return Result{Text: b.String(), Structured: map[string]any{
		"total": len(matched), "truncated": len(shown) < len(matched), "recorded": len(d.sites), "sites": out,
	}}
}

// hazardFilter builds the site predicate for dynamic_hazards' filters.
func (s *snapshot) hazardFilter(repo, glob, kind, target string) (func(hazard) bool, *Result) {
	var g *search.Glob
	if glob != "" {
		var err error
		if g, err = search.ParseGlob(glob); err != nil {
			r := errorf("dynamic_hazards: %v", err)
			return nil, &r
		}
	}
	if repo != "" && !s.isRepo(repo) {
		r := errorf("dynamic_hazards: unknown repo %q (see list_repos)", sanitize(repo))
		return nil, &r
	}
	var targetName, targetFile string
	if target != "" {
		i, _, fail := s.resolveOne(target)
		if fail != nil {
			return nil, fail
		}
		n := s.x.Node(i)
		targetName, targetFile = graph.BareName(n.Label), n.SourceFile
	}
	return func(h hazard) bool {
		rel := h.File
		if h.Repo != "" {
			rel = strings.TrimPrefix(rel, h.Repo+"/")
		}
		switch {
		case repo != "" && h.Repo != repo, kind != "" && string(h.Kind) != kind, !g.Match(rel):
			return false
		case target == "":
			return true
		case h.Key == nil:
			return h.File == targetFile
		}
		key := strings.ToLower(*h.Key)
		return key == targetName || strings.HasSuffix(key, "."+targetName)
	}, nil
}

// dynamicCaveat is attached to a symbol with no static dependents that
// dynamic dispatch could still reach.
type dynamicCaveat struct {
	OpaqueSitesInScope    int           `json:"opaque_sites_in_scope"`
	Kinds                 []dynamicKind `json:"kinds"`
	DynamicallyReferenced bool          `json:"dynamically_referenced"`
	Message               string        `json:"message"`
}

// caveat returns node i's dynamic caveat, or nil when it has static
// dependents or nothing dynamic could reach it.
func (s *snapshot) caveat(i int32, staticDependents int) *dynamicCaveat {
	if staticDependents > 0 {
		return nil
	}
	n := s.x.Node(i)
	d := s.dynamic()
	opaque := d.opaqueByFile[n.SourceFile]
	referenced := string(n.Extra["dynamically_referenced"]) == "true"
	if opaque == 0 && !referenced {
		return nil
	}
	c := &dynamicCaveat{OpaqueSitesInScope: opaque, Kinds: nonNil(d.kindsByFile[n.SourceFile]), DynamicallyReferenced: referenced}
	var why []string
	if referenced {
		why = append(why, "a by-name lookup names it (dynamic_ref)")
	}
	if opaque > 0 {
		why = append(why, fmt.Sprintf("%d opaque dynamic-dispatch site(s) in %s could reach it", opaque, sanitize(n.SourceFile)))
	}
	c.Message = "0 static dependents is not proof of dead code: " + strings.Join(why, "; ") + " (see dynamic_hazards target=" + s.qualified(i) + ")."
	return c
}

// staticDependents counts the incoming impact edges of i and its members
// other than dynamic_ref.
func (s *snapshot) staticDependents(i int32) int {
	n := 0
	for _, m := range append([]int32{i}, s.members(i)...) {
		for _, e := range s.x.In(m) {
			r := s.x.Edge(e).Relation
			if r != "dynamic_ref" && slices.Contains(defaultImpactRelations, r) {
				n++
			}
		}
	}
	return n
}

// caveatSchema is dynamic_caveat's output schema, shared by get_node,
// affected and describe_node.
// Its members are named in the text answer's caveat line; the schema
// declares the object only, keeping tools/list small.
var caveatSchema = typ("object")
