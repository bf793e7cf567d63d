// Command callers measures the accuracy of synaptic's "who calls X" on Go
// against go/types truth (see eval/callers/README.md).
//
//	cd eval/callers && go run ./cmd/callers -graph DIR/synaptic-out/graph.json[,…] [-src $(go env GOROOT)/src/net/http] [-v] [-json FILE]
//
// It type-checks every package below -src (tests and external _test packages
// included) with golang.org/x/tools/go/packages, collects the callers of each
// target, maps the callers synaptic links in graph.json back to the same
// declarations (source_file + span line), and prints precision and recall per
// target, the micro-averaged totals, and the missed callers grouped by reason.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// targets: the two peers.md measures, then a spread of functions, methods on
// pointer and value receivers, unexported ones, and another interface method.
// Rows with sub=true (↳) split a headline row and are left out of the totals.
var targets = []struct {
	target
	sub bool
}{
	{target{name: "HandleFunc (function + (*ServeMux) method: peers.md's 26)", fn: "HandleFunc", pkg: "net/http", recv: "?", static: true}, false},
	{target{name: "  HandleFunc, the function only", fn: "HandleFunc", pkg: "net/http", static: true}, true},
	{target{name: "  (*ServeMux).HandleFunc only", fn: "HandleFunc", pkg: "net/http", recv: "ServeMux", static: true}, true},
	{target{name: "ServeHTTP (static + interface)", fn: "ServeHTTP", recv: "*", static: true, dyn: true}, false},
	{target{name: "  ServeHTTP, static calls only", fn: "ServeHTTP", recv: "*", static: true}, true},
	{target{name: "  ServeHTTP, interface calls only", fn: "ServeHTTP", recv: "*", dyn: true}, true},
	{target{name: "(*Server).Serve", fn: "Serve", pkg: "net/http", recv: "Server", static: true}, false},
	{target{name: "NewRequest", fn: "NewRequest", pkg: "net/http", static: true}, false},
	{target{name: "(*Request).Context", fn: "Context", pkg: "net/http", recv: "Request", static: true}, false},
	{target{name: "readRequest", fn: "readRequest", pkg: "net/http", static: true}, false},
	{target{name: "Error", fn: "Error", pkg: "net/http", static: true}, false},
	{target{name: "(Header).Get", fn: "Get", pkg: "net/http", recv: "Header", static: true}, false},
	{target{name: "(*Client).Do", fn: "Do", pkg: "net/http", recv: "Client", static: true}, false},
	{target{name: "httptest.NewServer", fn: "NewServer", pkg: "net/http/httptest", static: true}, false},
	{target{name: "RoundTrip (static + interface)", fn: "RoundTrip", recv: "*", static: true, dyn: true}, false},
}

// variantTargets are the functions and methods of the package at -src
// declared in more than one file: build variants (sock_cloexec.go /
// sys_cloexec.go / sock_windows.go …), found by parsing every non-test file
// whatever its build constraints. A call must link to every twin that can
// be built with the caller, so go/types for one GOOS/GOARCH gives the
// callers a user expects. Run with -src GOROOT/src/net -set variants -pkgs .
// on a GOROOT/src graph.
func variantTargets(dir string) ([]struct {
	target
	sub bool
}, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	var pkg string
	files := map[[2]string]map[string]bool{} // {recv, name} -> declaring files
	for _, e := range ents {
		n := e.Name()
		if !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		if pkg == "" {
			pkg = f.Name.Name
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Name.Name == "init" || fd.Name.Name == "_" {
				continue
			}
			k := [2]string{recvTypeName(fd), fd.Name.Name}
			if files[k] == nil {
				files[k] = map[string]bool{}
			}
			files[k][n] = true
		}
	}
	var keys [][2]string
	for k, fs := range files {
		if len(fs) > 1 {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i][1] != keys[j][1] {
			return keys[i][1] < keys[j][1]
		}
		return keys[i][0] < keys[j][0]
	})
	path := importPath(dir)
	var out []struct {
		target
		sub bool
	}
	for _, k := range keys {
		name := k[1]
		if k[0] != "" {
			name = "(*" + k[0] + ")." + k[1]
		}
		out = append(out, struct {
			target
			sub bool
		}{target{name: fmt.Sprintf("%s (%d files)", name, len(files[k])), fn: k[1], pkg: path, recv: k[0], static: true}, false})
	}
	return out, nil
}

// recvTypeName is a method's receiver type name without '*' or type
// parameters; "" for a function.
func recvTypeName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return ""
	}
	t := fd.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	switch x := t.(type) {
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// importPath is a GOROOT/src directory's import path ("net").
func importPath(dir string) string {
	src := filepath.Join(strings.TrimSpace(run("go", "env", "GOROOT")), "src") + string(filepath.Separator)
	return filepath.ToSlash(strings.TrimPrefix(dir, src))
}

type row struct {
	Target    string   `json:"target"`
	Sub       bool     `json:"sub,omitempty"`
	Truth     int      `json:"truth"`
	Found     int      `json:"found"`
	TP        int      `json:"tp"`
	Precision float64  `json:"precision"`
	Recall    float64  `json:"recall"`
	Callers   []string `json:"callers"` // truth: "file:line name [ext-test] [iface] [closure]"
	Missed    []miss   `json:"missed,omitempty"`
	Extra     []extra  `json:"extra,omitempty"`
	Skipped   []string `json:"skipped,omitempty"` // synaptic callers in files go/types did not check (build tags)
}

type miss struct {
	Caller string `json:"caller"` // "server.go:3012 (*Server).Serve"
	Site   string `json:"site"`   // "server.go:3050"
	Callee string `json:"callee"`
	Reason string `json:"reason"`
	Detail string `json:"detail"`
}

type extra struct {
	Caller string `json:"caller"`
	Reason string `json:"reason"`
}

func main() {
	goroot := strings.TrimSpace(run("go", "env", "GOROOT"))
	src := flag.String("src", filepath.Join(goroot, "src", "net", "http"), "root of the Go tree to type-check (truth)")
	graphList := flag.String("graph", "", "comma-separated synaptic graph.json files of extractions that contain -src (truth is loaded once)")
	prefix := flag.String("prefix", "auto", `source_file prefix of -src inside graph.json ("" for a copy of -src, "net/http/" for a GOROOT/src graph; auto detects)`)
	verbose := flag.Bool("v", false, "list every missed and extra caller")
	jsonOut := flag.String("json", "", "also write the rows, misses and extras of every graph as JSON to this file")
	set := flag.String("set", "http", "target rows: http (net/http's callers) or variants (every function or method of the -src package declared in several files)")
	pkgs := flag.String("pkgs", "./...", "package pattern below -src that go/types checks for truth")
	flag.Parse()
	rows := targets
	var env []string
	switch *set {
	case "http":
	case "variants":
		var err error
		if rows, err = variantTargets(*src); err != nil {
			fail(err)
		}
		env = []string{"CGO_ENABLED=0"} // net's cgo files: see loadTruth
	default:
		fail(fmt.Errorf("-set %q: use http or variants", *set))
	}
	if *graphList == "" {
		fail(fmt.Errorf("-graph is required"))
	}
	graphs := strings.Split(*graphList, ",")
	root, err := filepath.Abs(*src)
	if err != nil {
		fail(err)
	}
	ts := make([]*target, len(rows))
	for i := range rows {
		ts[i] = &rows[i].target
	}
	tr, err := loadTruth(root, *pkgs, env, ts)
	if err != nil {
		fail(err)
	}
	var all [][]row
	for i, gp := range graphs {
		pfx := *prefix
		if pfx == "auto" {
			tail := filepath.ToSlash(strings.TrimPrefix(root, filepath.Join(goroot, "src")+string(filepath.Separator)))
			if pfx, err = detectPrefix(gp, tail, probeFile(root)); err != nil {
				fail(err)
			}
		}
		g, err := readGraph(gp, pfx)
		if err != nil {
			fail(fmt.Errorf("%s: %v", gp, err))
		}
		ev := newEval(tr, g)
		var scored []row
		for i, t := range ts {
			r := ev.score(t)
			r.Sub = rows[i].sub
			scored = append(scored, r)
		}
		if i > 0 {
			fmt.Println()
		}
		report(os.Stdout, gp, pfx, root, tr, scored, *verbose)
		all = append(all, scored)
	}
	if *jsonOut != "" {
		b, _ := json.MarshalIndent(all, "", "  ")
		if err := os.WriteFile(*jsonOut, append(b, '\n'), 0o644); err != nil {
			fail(err)
		}
	}
}

// probeFile names a non-test .go file directly in root, to recognise root in a
// larger graph.
func probeFile(root string) string {
	ents, _ := os.ReadDir(root)
	for _, e := range ents {
		if n := e.Name(); strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") {
			return n
		}
	}
	return "doc.go"
}

// eval holds the graph indexed against the truth's declarations.
type eval struct {
	tr *truth
	g  *graph
	// nodeDecl: function/method node id -> decl key it maps to
	nodeDecl map[string]string
	// hasNode: decl keys that some function/method node maps to
	hasNode map[string]bool
	// siteTargets: "file:line" -> target node ids of calls edges with a site there
	siteTargets map[string][]string
}

func newEval(tr *truth, g *graph) *eval {
	ev := &eval{tr: tr, g: g, nodeDecl: map[string]string{}, hasNode: map[string]bool{}, siteTargets: map[string][]string{}}
	for id, n := range g.nodes {
		if (n.Kind == "function" || n.Kind == "method") && n.Span != nil {
			if d := tr.enclosing(n.SourceFile, n.Span.StartLine); d != nil && d.start == n.Span.StartLine {
				ev.nodeDecl[id] = d.key()
				ev.hasNode[d.key()] = true
			}
		}
	}
	for _, l := range g.calls {
		for _, s := range l.lines() {
			ev.siteTargets[s] = append(ev.siteTargets[s], l.Target)
		}
	}
	return ev
}

// callers maps one calls edge to the declarations it names as caller: the
// declaration of a function/method source node, else (file-level source
// nodes: calls in var initializers) the declarations enclosing its sites.
// Sites in files go/types did not check come back in skipped.
func (ev *eval) callers(l *glink) (keys []string, skipped []string) {
	n := ev.g.nodes[l.Source]
	if !ev.tr.files[n.SourceFile] {
		return nil, []string{n.SourceFile + " " + n.Label}
	}
	if k, ok := ev.nodeDecl[l.Source]; ok {
		return []string{k}, nil
	}
	if n.Kind == "function" || n.Kind == "method" {
		if n.Span != nil {
			if d := ev.tr.enclosing(n.SourceFile, n.Span.StartLine); d != nil {
				return []string{d.key()}, nil
			}
		}
	}
	for _, s := range l.lines() {
		file, line := splitSite(s)
		if d := ev.tr.enclosing(file, line); d != nil {
			keys = append(keys, d.key())
		} else {
			keys = append(keys, s+" (top level)")
		}
	}
	return keys, nil
}

func splitSite(s string) (string, int) {
	i := strings.LastIndexByte(s, ':')
	var n int
	fmt.Sscanf(s[i+1:], "%d", &n)
	return s[:i], n
}

func (ev *eval) score(t *target) row {
	r := row{Target: strings.TrimSpace(t.name)}
	defs := ev.tr.defs[t.name]
	tnodes := map[string]bool{}
	for id, n := range ev.g.nodes {
		if n.Span != nil && baseName(n.Label) == t.fn && defs[fmt.Sprintf("%s:%d", n.SourceFile, n.Span.StartLine)] {
			tnodes[id] = true
		}
	}
	truthCallers := map[string][]*site{}
	declOf := map[string]*decl{}
	for _, s := range ev.tr.sites[t.name] {
		k := s.caller.key()
		truthCallers[k] = append(truthCallers[k], s)
		declOf[k] = s.caller
	}
	found := map[string][]string{} // caller key -> synaptic site lines
	skipped := map[string]bool{}
	for _, l := range ev.g.calls {
		if !tnodes[l.Target] {
			continue
		}
		keys, sk := ev.callers(l)
		for _, s := range sk {
			skipped[s] = true
		}
		for _, k := range keys {
			found[k] = append(found[k], l.lines()...)
		}
	}
	r.Truth, r.Found = len(truthCallers), len(found)
	for k := range found {
		if truthCallers[k] != nil {
			r.TP++
		} else {
			r.Extra = append(r.Extra, extra{Caller: ev.describe(k), Reason: ev.whyExtra(t, found[k])})
		}
	}
	for k, sites := range truthCallers {
		flags := ""
		for _, s := range sites {
			if s.extTest && !strings.Contains(flags, "ext-test") {
				flags += " [ext-test]"
			}
			if s.iface && !strings.Contains(flags, "iface") {
				flags += " [iface]"
			}
			if s.closure && !strings.Contains(flags, "closure") {
				flags += " [closure]"
			}
		}
		r.Callers = append(r.Callers, fmt.Sprintf("%s:%d %s%s", declOf[k].file, declOf[k].start, declOf[k].name, flags))
		if found[k] != nil {
			continue
		}
		sort.Slice(sites, func(i, j int) bool { return sites[i].line < sites[j].line })
		s := sites[0]
		reason, detail := ev.whyMissed(t, s, tnodes)
		r.Missed = append(r.Missed, miss{
			Caller: fmt.Sprintf("%s:%d %s", declOf[k].file, declOf[k].start, declOf[k].name),
			Site:   fmt.Sprintf("%s:%d", s.file, s.line), Callee: s.callee, Reason: reason, Detail: detail,
		})
	}
	for s := range skipped {
		r.Skipped = append(r.Skipped, s)
	}
	sort.Slice(r.Missed, func(i, j int) bool { return r.Missed[i].Caller < r.Missed[j].Caller })
	sort.Slice(r.Extra, func(i, j int) bool { return r.Extra[i].Caller < r.Extra[j].Caller })
	sort.Strings(r.Skipped)
	sort.Strings(r.Callers)
	r.Precision, r.Recall = ratio(r.TP, r.Found), ratio(r.TP, r.Truth)
	return r
}

func (ev *eval) describe(key string) string {
	file, line := splitSite(key)
	if d := ev.tr.enclosing(file, line); d != nil && d.start == line {
		return fmt.Sprintf("%s %s", key, d.name)
	}
	return key
}

// whyMissed names the first reason that explains a missed caller.
func (ev *eval) whyMissed(t *target, s *site, tnodes map[string]bool) (reason, detail string) {
	detail = s.recv
	if s.closure {
		detail += "; inside a closure"
	}
	if s.extTest {
		detail += "; external _test package"
	}
	if !strings.HasPrefix(s.caller.name, "var ") && !strings.HasPrefix(s.caller.name, "const ") && !ev.hasNode[s.caller.key()] {
		return "caller declaration is not a node of the graph", detail
	}
	for _, id := range ev.siteTargets[fmt.Sprintf("%s:%d", s.file, s.line)] {
		if n := ev.g.nodes[id]; n != nil && !tnodes[id] && baseName(n.Label) == t.fn {
			return "linked to another declaration of the same name", detail + "; linked to " + n.SourceFile + " " + n.Label
		}
	}
	switch {
	case s.extTest:
		return "call from an external _test package (" + s.recv + ")", detail
	case s.iface:
		return "interface dispatch (" + s.callee + ")", detail
	case strings.HasPrefix(s.recv, "qualified") || strings.HasPrefix(s.recv, "unqualified"):
		return "function call: " + s.recv, detail
	}
	return "method call on " + s.recv, detail
}

// whyExtra explains a caller synaptic reports and go/types does not.
func (ev *eval) whyExtra(t *target, sites []string) string {
	for _, s := range sites {
		for callee := range ev.tr.calls[s] {
			if callee == t.fn || strings.HasSuffix(callee, ")."+t.fn) {
				return "resolved to the wrong declaration: go/types says " + callee + " at " + s
			}
		}
	}
	if len(sites) > 0 {
		return "no call of " + t.fn + " at " + sites[0] + " per go/types (func value, conversion or method value?)"
	}
	return "no site"
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func fmtRatio(a, b int) string {
	if b == 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f", float64(a)/float64(b))
}

func report(w io.Writer, graphPath, prefix, root string, tr *truth, rows []row, verbose bool) {
	fmt.Fprintf(w, "# who calls X: synaptic vs go/types\n\n")
	fmt.Fprintf(w, "truth: %s (%d files type-checked for %s, tests and external _test packages included)\n", root, len(tr.files), run("go", "env", "GOOS")+"/"+strings.TrimSpace(run("go", "env", "GOARCH")))
	fmt.Fprintf(w, "graph: %s (prefix %q)\n\n", graphPath, prefix)
	fmt.Fprintf(w, "| target | truth callers | synaptic found | correct | precision | recall |\n|---|---:|---:|---:|---:|---:|\n")
	var tp, found, tru int
	for _, r := range rows {
		name := r.Target
		if r.Sub {
			name = "↳ " + name
		}
		fmt.Fprintf(w, "| %s | %d | %d | %d | %s | %s |\n", name, r.Truth, r.Found, r.TP, fmtRatio(r.TP, r.Found), fmtRatio(r.TP, r.Truth))
		if !r.Sub {
			tp, found, tru = tp+r.TP, found+r.Found, tru+r.Truth
		}
	}
	fmt.Fprintf(w, "| **micro-average** (rows without ↳) | %d | %d | %d | **%s** | **%s** |\n\n", tru, found, tp, fmtRatio(tp, found), fmtRatio(tp, tru))

	// reasons over headline rows
	type agg struct {
		n   int
		ex  []string
		key string
	}
	byReason := map[string]*agg{}
	for _, r := range rows {
		if r.Sub {
			continue
		}
		for _, m := range r.Missed {
			a := byReason[m.Reason]
			if a == nil {
				a = &agg{key: m.Reason}
				byReason[m.Reason] = a
			}
			a.n++
			if len(a.ex) < 3 {
				a.ex = append(a.ex, fmt.Sprintf("%s → %s at %s", m.Caller, m.Callee, m.Site))
			}
		}
	}
	var aggs []*agg
	for _, a := range byReason {
		aggs = append(aggs, a)
	}
	sort.Slice(aggs, func(i, j int) bool {
		if aggs[i].n != aggs[j].n {
			return aggs[i].n > aggs[j].n
		}
		return aggs[i].key < aggs[j].key
	})
	fmt.Fprintf(w, "## Missed callers by reason (headline rows)\n\n| missed | reason | examples |\n|---:|---|---|\n")
	for _, a := range aggs {
		fmt.Fprintf(w, "| %d | %s | %s |\n", a.n, a.key, strings.Join(a.ex, "<br>"))
	}
	var extras, skipped int
	for _, r := range rows {
		if !r.Sub {
			extras += len(r.Extra)
			skipped += len(r.Skipped)
		}
	}
	fmt.Fprintf(w, "\n%d wrong callers (precision losses), %d callers in files go/types did not check (build tags; not counted).\n", extras, skipped)
	if !verbose {
		fmt.Fprintf(w, "Run with -v for every missed and wrong caller.\n")
		return
	}
	for _, r := range rows {
		if r.Sub || len(r.Missed)+len(r.Extra)+len(r.Skipped) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n### %s\n\n", r.Target)
		for _, m := range r.Missed {
			fmt.Fprintf(w, "- missed %s → %s at %s: %s (%s)\n", m.Caller, m.Callee, m.Site, m.Reason, m.Detail)
		}
		for _, e := range r.Extra {
			fmt.Fprintf(w, "- wrong  %s: %s\n", e.Caller, e.Reason)
		}
		for _, s := range r.Skipped {
			fmt.Fprintf(w, "- not checked (build tags): %s\n", s)
		}
	}
}

func run(name string, args ...string) string {
	out, err := exec.Command(name, args...).Output()
	if err != nil {
		fail(fmt.Errorf("%s %s: %v", name, strings.Join(args, " "), err))
	}
	return strings.TrimSpace(string(out))
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "callers:", err)
	os.Exit(1)
}
