package graph

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// The rules of the name cascade, as Resolution.How reports them.
const (
	ByID        = "id"
	ByQualified = "qualified" // name@file or name@file:line
	ByLabel     = "label"     // exact label, case-sensitive
	ByOwner     = "owner"     // Type.method, (*Type).method, pkg.Func, Class#method, Class::method
	ByLabelFold = "label-case-insensitive"
	ByName      = "name" // bare name: parentheses and member dot ignored
	ByFile      = "file"
	BySubstring = "substring"
)

// ownerTable is each node's owning declaration: the type a method belongs
// to, the struct or class holding a field, the function holding a nested
// one. Files, packages and modules own by containment but are not owners
// in this sense (they are qualified by @file instead).
type ownerTable struct {
	once  sync.Once
	ready atomic.Bool       // owner and pkg are built (a patch carries them over)
	owner []int32           // -1: none
	pkg   map[string]string // source file -> label of the package or module containing it
}

// isContainer reports kinds that hold declarations without qualifying
// their names.
func isContainer(kind string) bool {
	switch kind {
	case "file", "package", "module", "directory", "namespace_file":
		return true
	}
	return false
}

// Owner returns the node owning node i (its type, class or enclosing
// function), or -1.
func (x *Index) Owner(i int32) int32 {
	x.owners.once.Do(x.buildOwners)
	return x.owners.owner[i]
}

func (x *Index) buildOwners() {
	owner := make([]int32, len(x.G.Nodes))
	var pkg map[string]string
	for i := range owner {
		owner[i] = -1
	}
	for e := range x.G.Edges {
		s, t := x.src[e], x.dst[e]
		if s < 0 || t < 0 || s == t {
			continue
		}
		switch x.G.Edges[e].Relation {
		case "method":
			owner[t] = s // a method edge always wins over containment
		case "contains":
			if owner[t] < 0 && !isContainer(x.G.Nodes[s].Kind) {
				owner[t] = s
			}
			if sk := x.G.Nodes[s].Kind; (sk == "package" || sk == "module") && x.G.Nodes[t].Kind == "file" {
				if pkg == nil {
					pkg = map[string]string{}
				}
				pkg[x.G.Nodes[t].SourceFile] = x.G.Nodes[s].Label
			}
		}
	}
	x.owners.owner, x.owners.pkg = owner, pkg
	x.owners.ready.Store(true)
}

// ownerFromIn is buildOwners' rule for node t alone, over its in-edges
// in edge order (as the scan meets them): its owner, and for a file the
// package or module containing it.
func (x *Index) ownerFromIn(t int32) (owner int32, pkg string, inPkg bool) {
	owner = -1
	for _, e := range x.In(t) {
		s := x.src[e]
		if s == t {
			continue
		}
		switch x.G.Edges[e].Relation {
		case "method":
			owner = s
		case "contains":
			if owner < 0 && !isContainer(x.G.Nodes[s].Kind) {
				owner = s
			}
			if sk := x.G.Nodes[s].Kind; (sk == "package" || sk == "module") && x.G.Nodes[t].Kind == "file" {
				pkg, inPkg = x.G.Nodes[s].Label, true
			}
		}
	}
	return owner, pkg, inPkg
}

// carryOwners gives nx, patched from x (pv), x's owner table when x has
// built one: renumbered, and worked out again only for the nodes whose
// in-edges the patch changed (redo), instead of a scan of every edge on
// the first answer after an edit.
func (nx *Index) carryOwners(x *Index, pv *Provenance, redo []int32) {
	if !x.owners.ready.Load() {
		return
	}
	owner := make([]int32, len(nx.G.Nodes))
	for i, o := range pv.NodeFrom {
		owner[i] = -1
		if o < 0 {
			redo = append(redo, int32(i))
		} else if ow := x.owners.owner[o]; ow >= 0 {
			if owner[i] = pv.OldToNew[ow]; owner[i] < 0 {
				redo = append(redo, int32(i))
			}
		}
	}
	for _, o := range pv.retargeted {
		if k := pv.OldToNew[o]; k >= 0 {
			redo = append(redo, k)
		}
	}
	pkg := maps.Clone(x.owners.pkg)
	if pkg == nil {
		pkg = map[string]string{}
	}
	for _, f := range pv.droppedFiles {
		delete(pkg, f)
	}
	for _, t := range redo {
		o, p, ok := nx.ownerFromIn(t)
		owner[t] = o
		if n := &nx.G.Nodes[t]; n.Kind == "file" {
			delete(pkg, n.SourceFile)
			if ok {
				pkg[n.SourceFile] = p
			}
		}
	}
	if len(pkg) == 0 {
		pkg = nil
	}
	nx.owners.once.Do(func() {
		nx.owners.owner, nx.owners.pkg = owner, pkg
		nx.owners.ready.Store(true)
	})
}

// OwnerQualified is node i's label prefixed by its owner's, the way people
// write members: "Client.Do()", "ZodString._parse()". It is the bare label
// for a node without an owner.
func (x *Index) OwnerQualified(i int32) string {
	n := &x.G.Nodes[i]
	o := x.Owner(i)
	if o < 0 {
		return n.Label
	}
	ol := strings.TrimSuffix(x.G.Nodes[o].Label, "()")
	if strings.HasPrefix(n.Label, ".") {
		return ol + n.Label
	}
	return ol + "." + n.Label
}

// Line is the node's first line (from its span or source location), or 0.
func (x *Index) Line(i int32) int {
	n := &x.G.Nodes[i]
	if n.Span != nil && n.Span.StartLine > 0 {
		return n.Span.StartLine
	}
	if l, ok := strings.CutPrefix(n.SourceLocation, "L"); ok {
		if end := strings.IndexAny(l, "-:"); end >= 0 {
			l = l[:end]
		}
		if v, err := strconv.Atoi(l); err == nil {
			return v
		}
	}
	return 0
}

// Qualified returns a copy-ready reference that resolves back to exactly
// node i, the first that is unique of: Owner.label@file (members name
// their type, so the reader sees whose method it is), label@file,
// Owner.label@file:line, label@file:line, and the id (nodes without a
// file, or when nothing else is unique). Every name the server prints comes from here, so a
// pasted name always lands on the node it was printed for.
func (x *Index) Qualified(i int32) string {
	x.qualOnce.Do(func() { x.qual = make([]atomic.Pointer[string], len(x.G.Nodes)) })
	if q := x.qual[i].Load(); q != nil {
		return *q
	}
	q := x.qualify(i)
	x.qual[i].Store(&q)
	return q
}

// qualify computes Qualified: a few resolutions, cached per node since
// every tool prints dozens of names per answer.
func (x *Index) qualify(i int32) string {
	n := &x.G.Nodes[i]
	if n.SourceFile == "" {
		return n.ID
	}
	var forms []string
	if o := x.Owner(i); o >= 0 {
		forms = append(forms, x.OwnerQualified(i)+"@"+n.SourceFile)
	}
	forms = append(forms, n.Label+"@"+n.SourceFile)
	if line := x.Line(i); line > 0 {
		suffix := ":" + strconv.Itoa(line)
		for _, f := range forms[:len(forms):len(forms)] {
			forms = append(forms, f+suffix)
		}
	}
	for _, f := range forms {
		if x.Resolve(f).Node == i {
			return f
		}
	}
	return n.ID
}

// splitQualifier splits "name@file" and "name@file:line"; line is 0 when
// absent.
func splitQualifier(ref string) (name, file string, line int, ok bool) {
	at := strings.LastIndexByte(ref, '@')
	if at <= 0 || at == len(ref)-1 {
		return "", "", 0, false
	}
	name, file = ref[:at], ref[at+1:]
	if c := strings.LastIndexByte(file, ':'); c > 0 {
		if v, err := strconv.Atoi(file[c+1:]); err == nil && v > 0 {
			file, line = file[:c], v
		}
	}
	return name, file, line, true
}

// fileMatches ranks how well a node's source file matches a qualifier's
// file part: 3 equal, 2 a path suffix at a separator, 1 a substring.
func fileMatches(src, file string) int {
	switch {
	case src == file:
		return 3
	case strings.HasSuffix(src, "/"+file):
		return 2
	case strings.Contains(src, file):
		return 1
	}
	return 0
}

// ownerForm parses the spellings of a member reference: "Type.method",
// "(*Type).method", "pkg.Func", "module.Class.method", "Class#method",
// "Class::method". It returns the qualifying segments, outermost first,
// and the member name.
func ownerForm(ref string) (quals []string, member string, ok bool) {
	r := strings.NewReplacer("(*", "", "*", "", "::", ".", "#", ".", ")", "", "(", "")
	s := strings.TrimSuffix(ref, "()")
	s = r.Replace(s)
	parts := strings.Split(s, ".")
	if len(parts) < 2 {
		return nil, "", false
	}
	for _, p := range parts {
		if p == "" {
			return nil, "", false
		}
	}
	return parts[:len(parts)-1], parts[len(parts)-1], true
}

// resolveOwner finds the nodes named member whose owner chain (or, for the
// outermost segment, the file's directory, package or stem) matches quals.
func (x *Index) resolveOwner(ref string, keep func(int32) bool) (Resolution, bool) {
	quals, member, ok := ownerForm(ref)
	if !ok {
		return Resolution{}, false
	}
	bare := strings.ToLower(member)
	var exact, folded []int32
	for _, i := range append(x.byName(bare), x.byLabel.get(bare)...) {
		if keep != nil && !keep(i) {
			continue
		}
		score := x.ownerChainMatches(i, quals)
		if l := x.G.Nodes[i].Label; score == 2 && strings.TrimPrefix(strings.TrimSuffix(l, "()"), ".") != member {
			score = 1
		}
		switch score {
		case 2:
			exact = append(exact, i)
		case 1:
			folded = append(folded, i)
		}
	}
	for _, c := range [][]int32{exact, folded} {
		c = x.byDegree(c)
		switch len(c) {
		case 0:
			continue
		case 1:
			return Resolution{Node: c[0], How: ByOwner}, true
		}
		return Resolution{Node: -1, Candidates: c, How: ByOwner}, true
	}
	return Resolution{}, false
}

// ownerChainMatches walks quals from the innermost outwards against node
// i's owners; a segment left over when the owners run out must name the
// node's package (the package or module node containing its file, else
// its directory) or its file stem ("http.Get", "json.dumps").
// It returns 2 for a case-exact match, 1 for a case-insensitive one, 0 for
// none.
func (x *Index) ownerChainMatches(i int32, quals []string) int {
	score := 2
	eq := func(a, b string) bool {
		if a == b {
			return true
		}
		if strings.EqualFold(a, b) {
			score = 1
			return true
		}
		return false
	}
	cur := i
	k := len(quals) - 1
	for ; k >= 0; k-- {
		o := x.Owner(cur)
		if o < 0 {
			break
		}
		if !eq(strings.TrimSuffix(strings.TrimPrefix(x.G.Nodes[o].Label, "."), "()"), quals[k]) {
			return 0
		}
		cur = o
	}
	if k < 0 {
		return score
	}
	if k > 0 {
		return 0 // more qualifiers than a package can take
	}
	src := x.G.Nodes[i].SourceFile
	dir, file := "", src
	if j := strings.LastIndexByte(src, '/'); j >= 0 {
		dir, file = src[:j], src[j+1:]
	}
	if j := strings.LastIndexByte(dir, '/'); j >= 0 {
		dir = dir[j+1:]
	}
	stem := file
	if j := strings.IndexByte(stem, '.'); j > 0 {
		stem = stem[:j]
	}
	if p, ok := x.owners.pkg[src]; ok && eq(p[strings.LastIndexAny(p, "/.")+1:], quals[0]) {
		return score
	}
	if eq(dir, quals[0]) || eq(stem, quals[0]) {
		return score
	}
	return 0
}

// Nearest returns up to k nodes whose names are closest to ref by edit
// distance (case-insensitive, on bare names), for a "did you mean" when
// nothing matches: closest first, then highest degree, then id. Names
// further than a third of ref's length (at least 2 edits) are not offered.
func (x *Index) Nearest(ref string, k int) []int32 {
	want := BareName(strings.TrimSpace(ref))
	if _, member, ok := ownerForm(ref); ok {
		want = strings.ToLower(member)
	}
	if want == "" || k <= 0 {
		return nil
	}
	limit := max(2, len(want)/3)
	type near struct {
		node int32
		dist int
	}
	var best []near
	for key, g := range x.byLabel.gid {
		name := bareLower(key)
		if d := len(name) - len(want); d > limit || -d > limit {
			continue
		}
		d := editDistance(want, name, limit)
		if d > limit {
			continue
		}
		members := x.byLabel.items[x.byLabel.off[g]:x.byLabel.off[g+1]]
		if len(members) == 0 {
			continue // a label a patch removed (its key stays in the shared map)
		}
		best = append(best, near{x.byDegree(members)[0], d})
	}
	slices.SortFunc(best, func(a, b near) int {
		if a.dist != b.dist {
			return a.dist - b.dist
		}
		if d := x.Degree(b.node) - x.Degree(a.node); d != 0 {
			return d
		}
		return strings.Compare(x.G.Nodes[a.node].ID, x.G.Nodes[b.node].ID)
	})
	var out []int32
	for _, n := range best {
		if len(out) == k {
			break
		}
		if !slices.Contains(out, n.node) {
			out = append(out, n.node)
		}
	}
	return out
}

// editDistance is the Levenshtein distance of a and b (bytes), or limit+1
// once it is sure to exceed limit.
func editDistance(a, b string, limit int) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			rowMin = min(rowMin, cur[j])
		}
		if rowMin > limit {
			return limit + 1
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
