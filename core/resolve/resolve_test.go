package resolve

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/synaptic-graph/synaptic/core/graph"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

func sp(l uint32) abi.Span { return abi.Span{StartLine: l, StartCol: 1, EndLine: l + 1, EndCol: 2} }

// pySemantics are the Python plugin's [semantics] (extractors/python/plugin.toml).
var pySemantics = Semantics{SelfNames: []string{"self", "cls"}, SubmoduleSeparator: ".", Reexports: true}

func fixture() []File {
	return []File{
		{Path: "app/main.py", Language: "python", Family: "python", ABI: 2, Semantics: pySemantics, Facts: &abi.Facts{
			File: abi.FileFacts{Modules: []string{"@.app.main", "app.main", "main"}},
			Symbols: []abi.Symbol{
				{Name: "main", Kind: "function", Parent: -1, Span: sp(3)},
				{Name: "Service", Kind: "class", Parent: -1, Span: sp(10)},
				{Name: "run", Kind: "method", Parent: 1, Span: sp(11)},
				{Name: "helper", Kind: "method", Parent: 1, Span: sp(14)},
			},
			Imports: []abi.Import{
				{Path: ".util", Names: []abi.ImportName{{Name: "load", Alias: "ld"}}, Line: 1, Keys: []string{"@.app.util", "@pkg.app.util"}, Kind: abi.ImportSymbols},
				{Path: "os", Line: 2, Keys: []string{"os"}, Kind: abi.ImportModule},
			},
			Calls: []abi.Call{
				{Caller: 0, Name: "ld", Line: 4},                                                 // import-bound
				{Caller: 0, Name: "Service", Line: 5},                                            // same-file class
				{Caller: 2, Name: "helper", Receiver: "self", ReceiverType: "Service", Line: 12}, // typed member
				{Caller: 2, Name: "unique_fn", Line: 13},                                         // unique in family -> inferred
				{Caller: 2, Name: "dup", Line: 13},                                               // ambiguous
				{Caller: 0, Name: "path", Receiver: "os", Line: 6},                               // external
				{Caller: 0, Name: "ld", Line: 7},                                                 // second site
			},
		}},
		{Path: "app/util.py", Language: "python", Family: "python", ABI: 2, Semantics: pySemantics, Facts: &abi.Facts{
			File:    abi.FileFacts{Modules: []string{"@.app.util", "app.util", "util"}},
			Symbols: []abi.Symbol{{Name: "load", Kind: "function", Parent: -1, Span: sp(1)}, {Name: "dup", Kind: "function", Parent: -1, Span: sp(5)}},
		}},
		{Path: "lib/other.py", Language: "python", Family: "python", ABI: 2, Semantics: pySemantics, Facts: &abi.Facts{
			File:    abi.FileFacts{Modules: []string{"@.lib.other", "lib.other", "other"}},
			Symbols: []abi.Symbol{{Name: "unique_fn", Kind: "function", Parent: -1, Span: sp(1)}, {Name: "dup", Kind: "function", Parent: -1, Span: sp(5)}},
		}},
		{Path: "srv/server.go", Language: "go", Family: "go", Facts: &abi.Facts{
			Package: "srv",
			Symbols: []abi.Symbol{{Name: "Serve", Kind: "method", Parent: -1, Receiver: "Server", Span: sp(5)}},
			Calls:   []abi.Call{{Caller: 0, Name: "listen", Line: 6}, {Caller: 0, Name: "unique_fn", Line: 7}},
		}},
		{Path: "srv/types.go", Language: "go", Family: "go", Facts: &abi.Facts{
			Package: "srv",
			Symbols: []abi.Symbol{{Name: "Server", Kind: "struct", Parent: -1, Span: sp(3)}, {Name: "listen", Kind: "function", Parent: -1, Span: sp(9)}},
		}},
		{Path: "cmd/main.go", Language: "go", Family: "go", Facts: &abi.Facts{
			Package: "main",
			Imports: []abi.Import{{Path: "example.com/m/srv", Line: 3}},
			Symbols: []abi.Symbol{{Name: "main", Kind: "function", Parent: -1, Span: sp(5)}},
			Calls:   []abi.Call{{Caller: 0, Name: "Serve", Receiver: "s", ReceiverType: "srv.Server", Line: 7}, {Caller: 0, Name: "listen", Receiver: "srv", Line: 8}},
		}},
	}
}

func edgeSet(g *graph.Graph) map[string]graph.Edge {
	m := map[string]graph.Edge{}
	for _, e := range g.Edges {
		m[fmt.Sprintf("%s -%s-> %s", e.Source, e.Relation, e.Target)] = e
	}
	return m
}

func TestBuild(t *testing.T) {
	g, st := Build(goFacts("example.com/m", fixture()))
	edges := edgeSet(g)
	tests := []struct {
		edge  string
		conf  graph.Confidence
		score float64
	}{
		{"app_main_main -calls-> app_util_load", graph.Extracted, 1},
		{"app_main_main -calls-> app_main_service", graph.Extracted, 1},
		{"app_main_service_run -calls-> app_main_service_helper", graph.Extracted, 1},
		{"app_main_service_run -calls-> lib_other_unique_fn", graph.Inferred, 0.8},
		{"app_main_py -imports_from-> app_util_py", graph.Extracted, 1},
		{"app_main_py -imports-> os", graph.Extracted, 1},
		{"app_main_service -method-> app_main_service_run", graph.Extracted, 1},
		{"srv_types_server -method-> srv_server_server_serve", graph.Extracted, 1},
		{"srv_server_server_serve -calls-> srv_types_listen", graph.Extracted, 1},
		{"cmd_main_main -calls-> srv_server_server_serve", graph.Extracted, 1},
		{"cmd_main_main -calls-> srv_types_listen", graph.Extracted, 1},
		{"cmd_main_go -imports_from-> srv_package_srv", graph.Extracted, 1},
	}
	for _, tt := range tests {
		e, ok := edges[tt.edge]
		if !ok {
			t.Errorf("missing edge %s", tt.edge)
			continue
		}
		if e.Confidence != tt.conf || e.Score() != tt.score {
			t.Errorf("%s: %s %v, want %s %v", tt.edge, e.Confidence, e.Score(), tt.conf, tt.score)
		}
	}
	for k := range edges {
		if strings.Contains(k, "_dup") && strings.Contains(k, "calls") {
			t.Errorf("ambiguous call linked: %s", k)
		}
		if strings.HasPrefix(k, "srv_server_server_serve -calls-> lib_other") {
			t.Errorf("Go plain call linked outside its package: %s", k)
		}
	}
	ld := edges["app_main_main -calls-> app_util_load"]
	if ld.SourceLocation != "L4" || len(ld.Sites) != 1 || ld.Sites[0].SourceLocation != "L7" {
		t.Errorf("call sites = %s + %v, want L4 + [L7]", ld.SourceLocation, ld.Sites)
	}
	if st.Ambiguous != 1 || st.Inferred != 1 {
		t.Errorf("stats = %+v, want 1 ambiguous, 1 inferred", st)
	}
	if err := g.Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestBuildDeterministic(t *testing.T) {
	files := fixture()
	var want bytes.Buffer
	g, _ := Build(goFacts("", files))
	_ = graph.Write(&want, g)
	for i := 0; i < len(files); i++ {
		rot := append(append([]File{}, files[i:]...), files[:i]...)
		var got bytes.Buffer
		g, _ := Build(goFacts("", rot))
		_ = graph.Write(&got, g)
		if !bytes.Equal(want.Bytes(), got.Bytes()) {
			t.Fatalf("rotation %d changed the output", i)
		}
	}
}

// TestQualifiedExternalTypeNotInferred: *http.Response names the imported
// (external) net/http package; a repo type that happens to be called
// Response must not be linked.
func TestQualifiedExternalTypeNotInferred(t *testing.T) {
	files := []File{
		{Path: "a/a.go", Language: "go", Family: "go", Facts: &abi.Facts{
			Package: "a",
			Imports: []abi.Import{{Path: "net/http", Line: 2}},
			Symbols: []abi.Symbol{{Name: "do", Kind: "function", Parent: -1, Span: sp(4)}},
			Calls:   []abi.Call{{Caller: 0, Name: "Body", Receiver: "r", ReceiverType: "http.Response", Line: 5}},
			Relations: []abi.Relation{
				{From: 0, Kind: "references", Target: "http.Response", Context: "return_type", Line: 4},
				{From: 0, Kind: "references", Target: "Response", Context: "parameter_type", Line: 4},
			},
		}},
		{Path: "q/q.go", Language: "go", Family: "go", Facts: &abi.Facts{
			Package: "q",
			Symbols: []abi.Symbol{{Name: "Response", Kind: "struct", Parent: -1, Span: sp(1)}, {Name: "Body", Kind: "method", Receiver: "Response", Parent: -1, Span: sp(3)}},
		}},
	}
	g, _ := Build(goFacts("", files))
	edges := edgeSet(g)
	if _, ok := edges["a_a_do -calls-> q_q_response_body"]; ok {
		t.Error("call through an external qualified receiver type linked to a repo method")
	}
	n := 0
	for _, e := range g.Edges {
		if e.Source == "a_a_do" && e.Target == "q_q_response" {
			n++
		}
	}
	if n != 0 {
		t.Errorf("got %d references to q.Response; Go reaches another package's type only through its import", n)
	}
}

// TestImportedNameNotInferred: a name a Python file imports from a module
// outside the repository is not linked to a same-named class or function
// elsewhere, as a base class, a receiver type or a plain call.
func TestImportedNameNotInferred(t *testing.T) {
	files := []File{
		{Path: "asyncio/queues.py", Language: "python", Family: "python", Facts: &abi.Facts{
			Symbols: []abi.Symbol{
				{Name: "Queue", Kind: "class", Parent: -1, Span: sp(1)},
				{Name: "__init__", Kind: "method", Parent: 0, Span: sp(2)},
				{Name: "connect", Kind: "function", Parent: -1, Span: sp(4)},
			},
		}},
		{Path: "futures/process.py", Language: "python", Family: "python", Facts: &abi.Facts{
			Imports: []abi.Import{{Path: "multiprocessing.queues", Names: []abi.ImportName{{Name: "Queue"}, {Name: "connect"}}, Line: 1}},
			Symbols: []abi.Symbol{
				{Name: "_SafeQueue", Kind: "class", Parent: -1, Span: sp(3)},
				{Name: "__init__", Kind: "method", Parent: 0, Span: sp(4)},
			},
			Relations: []abi.Relation{{From: 0, Kind: "inherits", Target: "Queue", Line: 3}},
			Calls: []abi.Call{
				{Caller: 1, Name: "__init__", Receiver: "q", ReceiverType: "Queue", Line: 5},
				{Caller: 1, Name: "connect", Line: 6},
			},
		}},
	}
	g, _ := Build(goFacts("", files))
	for _, e := range g.Edges {
		if strings.HasPrefix(e.Target, "asyncio_queues") && e.Source != "asyncio_queues_py" && !strings.HasPrefix(e.Source, "asyncio") {
			t.Errorf("%s -%s-> %s: an imported name was linked to a same-named declaration elsewhere", e.Source, e.Relation, e.Target)
		}
	}
}

// TestGoImportSkipsIgnoredMain: net/http also holds triv.go, a `package
// main` behind //go:build ignore; importing "net/http" still means package
// http, and calls into it resolve.
func TestGoImportSkipsIgnoredMain(t *testing.T) {
	files := []File{
		{Path: "net/http/server.go", Language: "go", Family: "go", Facts: &abi.Facts{
			Package: "http",
			Symbols: []abi.Symbol{{Name: "HandleFunc", Kind: "function", Parent: -1, Span: sp(3)}},
		}},
		{Path: "net/http/triv.go", Language: "go", Family: "go", Facts: &abi.Facts{
			Package: "main",
			Symbols: []abi.Symbol{{Name: "main", Kind: "function", Parent: -1, Span: sp(3)}},
		}},
		{Path: "net/http/pprof/pprof.go", Language: "go", Family: "go", Facts: &abi.Facts{
			Package: "pprof",
			Imports: []abi.Import{{Path: "net/http", Line: 2}},
			Symbols: []abi.Symbol{{Name: "init", Kind: "function", Parent: -1, Span: sp(4)}},
			Calls:   []abi.Call{{Caller: 0, Name: "HandleFunc", Receiver: "http", Line: 5}},
		}},
	}
	g, _ := Build(goFacts("", files))
	if _, ok := edgeSet(g)["net_http_pprof_pprof_init -calls-> net_http_server_handlefunc"]; !ok {
		t.Error("call into a directory that also holds an ignored main package not resolved")
	}
	// The same package extracted on its own (root = …/src/net/http, no go.mod).
	for i := range files {
		files[i].Path = strings.TrimPrefix(files[i].Path, "net/http/")
	}
	g, _ = Build(goFacts("net/http", files))
	if _, ok := edgeSet(g)["pprof_pprof_init -calls-> server_handlefunc"]; !ok {
		t.Error("import of the root package not resolved through the GOPATH-style import path")
	}
}

// TestV1ResultType pins what the host reads of a v1 Return text: the
// contract's neutral rule, no language's type words.
func TestV1ResultType(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"*Server", "Server"},
		{"(*Server, error)", "Server"},
		{"(s *pkg.T, err error)", "pkg.T"},
		{"[]T", ""},
		{"T[int]", "T"},
		{"error", "error"},
		{"", ""},
		{"(func() error, bool)", ""},
		{"map[string]T", "map"},
		{"&Client", "Client"},
		{"&mut Client", "Client"},
		{"Result<Client, Error>", "Result"},
		{"(Map<K, V>, int)", "Map"},
		{"a::b::T", "a::b::T"},
		{"s []T", ""},
		{"s Store[K, V]", "Store"},
		{"chan T", "T"}, // no method call on a channel compiles, so T links nothing wrong
		{"struct{ x int }", ""},
		{"interface{ M() }", ""},
		{"fn(i32) -> T", ""},
		{"const char *", ""},
	} {
		if got := v1ResultType(tt.in); got != tt.want {
			t.Errorf("v1ResultType(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestReceiverFromCallResult: x := srv.New(); x.Serve() links through New's
// result type, named in New's own package.
func TestReceiverFromCallResult(t *testing.T) {
	files := []File{
		{Path: "srv/srv.go", Language: "go", Family: "go", Facts: &abi.Facts{
			Package: "srv",
			Symbols: []abi.Symbol{
				{Name: "Server", Kind: "struct", Parent: -1, Span: sp(1)},
				{Name: "Serve", Kind: "method", Receiver: "Server", Parent: -1, Span: sp(3)},
				{Name: "New", Kind: "function", Parent: -1, Span: sp(5), Signature: &abi.Signature{Return: "(*Server, error)"}},
				{Name: "local", Kind: "function", Parent: -1, Span: sp(7), Signature: &abi.Signature{Return: "*Server"}},
			},
			Calls: []abi.Call{{Caller: 3, Name: "Serve", Receiver: "s", ReceiverType: "New()", Line: 8}},
		}},
		{Path: "cmd/main.go", Language: "go", Family: "go", Facts: &abi.Facts{
			Package: "main",
			Imports: []abi.Import{{Path: "example.com/m/srv", Line: 2}},
			Symbols: []abi.Symbol{{Name: "main", Kind: "function", Parent: -1, Span: sp(4)}},
			Calls: []abi.Call{
				{Caller: 0, Name: "Serve", Receiver: "s", ReceiverType: "srv.New()", Line: 6},
				{Caller: 0, Name: "Serve", Receiver: "x", ReceiverType: "Missing()", Line: 7},
			},
		}},
	}
	g, st := Build(goFacts("example.com/m", files))
	edges := edgeSet(g)
	for _, k := range []string{"cmd_main_main -calls-> srv_srv_server_serve", "srv_srv_local -calls-> srv_srv_server_serve"} {
		if e, ok := edges[k]; !ok || e.Confidence != graph.Extracted {
			t.Errorf("missing EXTRACTED edge %s (%+v)", k, e)
		}
	}
	if st.Unresolved != 1 {
		t.Errorf("stats = %+v, want the Missing() receiver unresolved", st)
	}
}

// TestReceiverFromConversion: T(x) and pkg.T(x) are values of type T, in
// the file, the package or an imported package; a name that is neither a
// function nor a type links nothing.
func TestReceiverFromConversion(t *testing.T) {
	files := []File{
		{Path: "srv/srv.go", Language: "go", Family: "go", Facts: &abi.Facts{
			Package: "srv",
			Symbols: []abi.Symbol{
				{Name: "HandlerFunc", Kind: "type_alias", Parent: -1, Span: sp(1)},
				{Name: "ServeHTTP", Kind: "method", Receiver: "HandlerFunc", Parent: -1, Span: sp(2)},
			},
		}},
		{Path: "srv/index.go", Language: "go", Family: "go", Facts: &abi.Facts{
			Package: "srv",
			Symbols: []abi.Symbol{{Name: "index", Kind: "function", Parent: -1, Span: sp(3)}},
			Calls:   []abi.Call{{Caller: 0, Name: "ServeHTTP", Receiver: "HandlerFunc(f)", ReceiverType: "HandlerFunc()", Line: 4}},
		}},
		{Path: "cmd/main.go", Language: "go", Family: "go", Facts: &abi.Facts{
			Package: "main",
			Imports: []abi.Import{{Path: "example.com/m/srv", Line: 2}},
			Symbols: []abi.Symbol{{Name: "main", Kind: "function", Parent: -1, Span: sp(4)}},
			Calls: []abi.Call{
				{Caller: 0, Name: "ServeHTTP", Receiver: "h", ReceiverType: "srv.HandlerFunc()", Line: 5},
				{Caller: 0, Name: "ServeHTTP", Receiver: "x", ReceiverType: "Missing()", Line: 6},
			},
		}},
	}
	g, st := Build(goFacts("example.com/m", files))
	edges := edgeSet(g)
	for _, k := range []string{"srv_index_index -calls-> srv_srv_handlerfunc_servehttp", "cmd_main_main -calls-> srv_srv_handlerfunc_servehttp"} {
		if e, ok := edges[k]; !ok || e.Confidence != graph.Extracted {
			t.Errorf("missing EXTRACTED edge %s (%+v)", k, e)
		}
	}
	if st.Unresolved != 1 {
		t.Errorf("stats = %+v, want the Missing() receiver unresolved", st)
	}
}

// TestReceiverFromImportedCall: f(x).m() with f imported by name (innerFrom(x).subscribe())
// takes the type f's declaration returns, in f's module.
func TestReceiverFromImportedCall(t *testing.T) {
	named := func(n string) *abi.TypeRef { return &abi.TypeRef{Steps: []abi.TypeStep{{Op: abi.StepNamed, Name: n}}} }
	file := func(p string, facts *abi.Facts) File {
		facts.File.Modules = []string{p}
		return File{Path: p, Language: "typescript", Family: "ecmascript", ABI: 2, Facts: facts}
	}
	files := []File{
		file("src/Observable.ts", &abi.Facts{
			Symbols: []abi.Symbol{
				{Name: "Observable", Kind: "class", Parent: -1, Span: sp(1)},
				{Name: "subscribe", Kind: "method", Parent: 0, Span: sp(2)},
			},
		}),
		file("src/innerFrom.ts", &abi.Facts{
			Imports: []abi.Import{{Path: "./Observable", Keys: []string{"src/Observable", "src/Observable.ts"}, Kind: abi.ImportSymbols, Names: []abi.ImportName{{Name: "Observable"}}, Line: 1}},
			Symbols: []abi.Symbol{{Name: "innerFrom", Kind: "function", Parent: -1, Span: sp(3), Signature: &abi.Signature{Return: "Observable<ObservedValueOf<O>>", ReturnRef: named("Observable")}}},
		}),
		file("src/audit.ts", &abi.Facts{
			Imports: []abi.Import{{Path: "./innerFrom", Keys: []string{"src/innerFrom", "src/innerFrom.ts"}, Kind: abi.ImportSymbols, Names: []abi.ImportName{{Name: "innerFrom"}}, Line: 1}},
			Symbols: []abi.Symbol{{Name: "audit", Kind: "function", Parent: -1, Span: sp(3)}},
			Calls: []abi.Call{
				{Caller: 0, Name: "subscribe", Receiver: "innerFrom(x)", ReceiverRef: &abi.TypeRef{Steps: []abi.TypeStep{{Op: abi.StepResult, Name: "innerFrom"}}}, Line: 4},
				{Caller: 0, Name: "subscribe", Receiver: "other(x)", ReceiverRef: &abi.TypeRef{Steps: []abi.TypeStep{{Op: abi.StepResult, Name: "other"}}}, Line: 5},
			},
		}),
	}
	g, st := Build(goFacts("", files))
	if e, ok := edgeSet(g)["src_audit_audit -calls-> src_observable_observable_subscribe"]; !ok || e.Confidence != graph.Extracted || len(e.Sites) != 0 {
		t.Fatalf("want exactly the innerFrom(x).subscribe() call linked, got %+v (found %v)", e, ok)
	}
	if st.Unresolved != 1 {
		t.Errorf("stats = %+v, want other() unresolved", st)
	}
}

// TestReceiverFromCallbackParam: "F@i.j" is parameter j of the function
// type of F's parameter i, named in F's module.
func TestReceiverFromCallbackParam(t *testing.T) {
	named := func(n string) *abi.TypeRef { return &abi.TypeRef{Steps: []abi.TypeStep{{Op: abi.StepNamed, Name: n}}} }
	ref := func(s string) *abi.TypeRef {
		r, err := abi.ParseTypeRef(s)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	file := func(p string, facts *abi.Facts) File {
		facts.File.Modules = []string{p}
		return File{Path: p, Language: "typescript", Family: "ecmascript", ABI: 2, Facts: facts}
	}
	imp := func(key, name string, line uint32) abi.Import {
		return abi.Import{Path: "./" + key, Keys: []string{"src/" + key + ".ts"}, Kind: abi.ImportSymbols, Names: []abi.ImportName{{Name: name}}, Line: line}
	}
	files := []File{
		file("src/Subscriber.ts", &abi.Facts{
			Symbols: []abi.Symbol{
				{Name: "Subscriber", Kind: "class", Parent: -1, Span: sp(1)},
				{Name: "next", Kind: "method", Parent: 0, Span: sp(2)},
				{Name: "destination", Kind: "field", Parent: 0, Span: sp(3), Signature: &abi.Signature{Return: "Subscriber", ReturnRef: named("Subscriber")}},
				{Name: "constructor", Kind: "constructor", Parent: 0, Span: sp(4), Signature: &abi.Signature{
					Params: []abi.Param{{Name: "init", Type: "(this: Subscriber<T>, d: Subscriber<T>) => void", Callback: []*abi.TypeRef{named("Subscriber")}}},
				}},
			},
		}),
		file("src/lift.ts", &abi.Facts{
			Imports: []abi.Import{imp("Subscriber", "Subscriber", 1)},
			Symbols: []abi.Symbol{{Name: "operate", Kind: "function", Parent: -1, Span: sp(3), Signature: &abi.Signature{
				Params: []abi.Param{{Name: "init", Type: "(liftedSource: Observable<T>, subscriber: Subscriber<R>) => (() => void) | void",
					Callback: []*abi.TypeRef{named("Observable"), named("Subscriber")}}},
				Return: "OperatorFunction<T, R>", ReturnRef: named("OperatorFunction"),
			}}},
		}),
		file("src/map.ts", &abi.Facts{
			Imports: []abi.Import{imp("lift", "operate", 1), imp("Subscriber", "Subscriber", 2)},
			Symbols: []abi.Symbol{{Name: "map", Kind: "function", Parent: -1, Span: sp(3)}},
			Calls: []abi.Call{
				{Caller: 0, Name: "next", Receiver: "subscriber", ReceiverRef: ref("operate@0.1"), Line: 4},
				{Caller: 0, Name: "next", Receiver: "subscriber.destination", ReceiverRef: ref("operate@0.1#destination"), Line: 5},
				{Caller: 0, Name: "next", Receiver: "source", ReceiverRef: ref("operate@0.0"), Line: 6}, // Observable: not in the graph
				{Caller: 0, Name: "next", Receiver: "x", ReceiverRef: ref("operate@1.0"), Line: 7},      // no parameter 1
				{Caller: 0, Name: "next", Receiver: "d", ReceiverRef: ref("Subscriber@0.0"), Line: 8},   // new Subscriber((d) => …)
				{Caller: 0, Name: "next", Receiver: "e", ReceiverRef: ref("operate@0.2"), Line: 9},      // no callback parameter 2
			},
		}),
	}
	g, st := Build(goFacts("", files))
	e, ok := edgeSet(g)["src_map_map -calls-> src_subscriber_subscriber_next"]
	if !ok || e.Confidence != graph.Extracted || len(e.Sites) != 2 {
		t.Fatalf("want the three Subscriber.next calls (L4, L5, L8) linked, got %+v (found %v)", e, ok)
	}
	if st.Unresolved != 3 {
		t.Errorf("stats = %+v, want 3 unresolved", st)
	}
}

// TestNestedFunctionCalls: a bare call finds functions declared in the
// calling function or the functions around it before the file's own, and
// stops at a class.
func TestNestedFunctionCalls(t *testing.T) {
	files := []File{{Path: "src/a.ts", Language: "typescript", Family: "ecmascript", Facts: &abi.Facts{
		Symbols: []abi.Symbol{
			{Name: "outer", Kind: "function", Parent: -1, Span: sp(1)}, // 0
			{Name: "g", Kind: "function", Parent: 0, Span: sp(2)},      // 1
			{Name: "h", Kind: "function", Parent: 0, Span: sp(3)},      // 2
			{Name: "h", Kind: "function", Parent: -1, Span: sp(5)},     // 3: shadowed inside outer
			{Name: "other", Kind: "function", Parent: -1, Span: sp(6)}, // 4
			{Name: "C", Kind: "class", Parent: -1, Span: sp(8)},        // 5
			{Name: "m", Kind: "method", Parent: 5, Span: sp(9)},        // 6
			{Name: "k", Kind: "function", Parent: 6, Span: sp(10)},     // 7
			{Name: "n", Kind: "method", Parent: 5, Span: sp(12)},       // 8
		},
		Calls: []abi.Call{
			{Caller: 1, Name: "h", Line: 2},  // g -> nested h (sibling in outer)
			{Caller: 0, Name: "g", Line: 4},  // outer -> its own g
			{Caller: 4, Name: "h", Line: 7},  // other -> top-level h
			{Caller: 6, Name: "k", Line: 11}, // m -> k declared in m
			{Caller: 8, Name: "k", Line: 13}, // n: k is m's, not visible
		},
	}}}
	g, _ := Build(goFacts("", files))
	linked := map[string]bool{}
	for _, e := range g.Edges {
		if e.Relation == "calls" {
			linked[e.Source+" -> "+e.Target] = true
		}
	}
	ids := map[int]string{}
	for i := range g.Nodes {
		if sp := g.Nodes[i].Span; sp != nil && g.Nodes[i].Kind != "file" {
			ids[sp.StartLine] = g.Nodes[i].ID
		}
	}
	for _, c := range []struct{ from, to int }{{2, 3}, {1, 2}, {6, 5}, {9, 10}} {
		if k := ids[c.from] + " -> " + ids[c.to]; !linked[k] {
			t.Errorf("missing call %s (have %v)", k, linked)
		}
	}
	if len(linked) != 4 {
		t.Errorf("%d calls linked, want 4 (n's k() stays unlinked): %v", len(linked), linked)
	}
}

// TestReceiverMemberChain: "T#f" is the type of field f of T, "T#M()" the
// first result of method M of T, each looked up where the member is
// declared; promoted fields of embedded types count, and a member that
// does not exist or has no named type links nothing.
func TestReceiverMemberChain(t *testing.T) {
	files := []File{
		{Path: "srv/srv.go", Language: "go", Family: "go", Facts: &abi.Facts{
			Package: "srv",
			Symbols: []abi.Symbol{
				{Name: "Header", Kind: "type_alias", Parent: -1, Span: sp(1)},                                        // 0
				{Name: "Get", Kind: "method", Receiver: "Header", Parent: -1, Span: sp(2)},                           // 1
				{Name: "Base", Kind: "struct", Parent: -1, Span: sp(3)},                                              // 2
				{Name: "Header", Kind: "field", Parent: 2, Span: sp(4), Signature: &abi.Signature{Return: "Header"}}, // 3
				{Name: "Response", Kind: "struct", Parent: -1, Span: sp(5)},                                          // 4
				{Name: "Body", Kind: "field", Parent: 4, Span: sp(6), Signature: &abi.Signature{Return: "Header"}},   // 5
				{Name: "Raw", Kind: "field", Parent: 4, Span: sp(7)},                                                 // 6: []byte, no named type
				{Name: "Client", Kind: "struct", Parent: -1, Span: sp(8)},                                            // 7
				{Name: "Do", Kind: "method", Receiver: "Client", Parent: -1, Span: sp(9), Signature: &abi.Signature{Return: "(*Response, error)"}},
			},
			Relations: []abi.Relation{{From: 4, Kind: "embeds", Target: "Base", Line: 5}},
		}},
		{Path: "cmd/main.go", Language: "go", Family: "go", Facts: &abi.Facts{
			Package: "main",
			Imports: []abi.Import{{Path: "example.com/m/srv", Line: 2}},
			Symbols: []abi.Symbol{{Name: "main", Kind: "function", Parent: -1, Span: sp(4)}},
			Calls: []abi.Call{
				{Caller: 0, Name: "Get", Receiver: "res.Body", ReceiverType: "srv.Response#Body", Line: 6},
				{Caller: 0, Name: "Get", Receiver: "res.Header", ReceiverType: "srv.Response#Header", Line: 7}, // promoted from Base
				{Caller: 0, Name: "Get", Receiver: "c.Do(r).Body", ReceiverType: "srv.Client#Do()#Body", Line: 8},
				{Caller: 0, Name: "Get", Receiver: "res.Raw", ReceiverType: "srv.Response#Raw", Line: 9},
				{Caller: 0, Name: "Get", Receiver: "res.Nope", ReceiverType: "srv.Response#Nope", Line: 10},
				{Caller: 0, Name: "Get", Receiver: "c.Nope()", ReceiverType: "srv.Client#Nope()", Line: 11},
				{Caller: 0, Name: "Get", Receiver: "res.Base.Header", ReceiverType: "srv.Response#Base#Header", Line: 12}, // embedded field by its type's name
			},
		}},
	}
	g, st := Build(goFacts("example.com/m", files))
	e, ok := edgeSet(g)["cmd_main_main -calls-> srv_srv_header_get"]
	if !ok || e.Confidence != graph.Extracted {
		t.Fatalf("missing EXTRACTED main -> Header.Get (%+v)", e)
	}
	if got := 1 + len(e.Sites); got != 4 {
		t.Errorf("main -> Header.Get has %d call sites, want 4 (lines 6, 7, 8, 12)", got)
	}
	if st.Unresolved != 3 {
		t.Errorf("stats = %+v, want Raw, Nope and Nope() unresolved", st)
	}
	for i := range g.Nodes {
		if g.Nodes[i].Kind == "field" && g.Nodes[i].Signature != nil {
			t.Errorf("field %s carries a signature into the graph", g.Nodes[i].ID)
		}
	}
}

// TestPackageVarReceiver: pkg.V.M() resolves through the type declared for
// the variable V in pkg; a name that is neither type nor typed variable
// links nothing.
func TestPackageVarReceiver(t *testing.T) {
	files := []File{
		{Path: "srv/srv.go", Language: "go", Family: "go", Facts: &abi.Facts{
			Package: "srv",
			Symbols: []abi.Symbol{
				{Name: "Client", Kind: "struct", Parent: -1, Span: sp(1)},
				{Name: "Do", Kind: "method", Receiver: "Client", Parent: -1, Span: sp(2)},
				{Name: "DefaultClient", Kind: "variable", Parent: -1, Span: sp(3), Signature: &abi.Signature{Return: "Client"}},
				{Name: "untyped", Kind: "variable", Parent: -1, Span: sp(4)},
			},
		}},
		{Path: "cmd/main.go", Language: "go", Family: "go", Facts: &abi.Facts{
			Package: "main",
			Imports: []abi.Import{{Path: "example.com/m/srv", Line: 2}},
			Symbols: []abi.Symbol{{Name: "main", Kind: "function", Parent: -1, Span: sp(4)}},
			Calls: []abi.Call{
				{Caller: 0, Name: "Do", Receiver: "srv.DefaultClient", ReceiverType: "srv.DefaultClient", Line: 5},
				{Caller: 0, Name: "Do", Receiver: "srv.untyped", ReceiverType: "srv.untyped", Line: 6},
				{Caller: 0, Name: "Do", Receiver: "x.DefaultClient", ReceiverType: "x.DefaultClient", Line: 7}, // x is no import
			},
		}},
	}
	g, st := Build(goFacts("example.com/m", files))
	if e, ok := edgeSet(g)["cmd_main_main -calls-> srv_srv_client_do"]; !ok || len(e.Sites) != 0 {
		t.Fatalf("want exactly the srv.DefaultClient call linked, got %+v (found %v)", e, ok)
	}
	if st.Unresolved != 2 {
		t.Errorf("stats = %+v, want 2 unresolved", st)
	}
	for i := range g.Nodes {
		if g.Nodes[i].Kind == "variable" && g.Nodes[i].Signature != nil {
			t.Errorf("variable %s carries its type into the graph as a signature", g.Nodes[i].ID)
		}
	}
}

// TestUnqualifiedPackageVarReceiver: a bare V is a variable of the file's
// package (declared in another file) or of a dot-imported package.
func TestUnqualifiedPackageVarReceiver(t *testing.T) {
	files := []File{
		{Path: "srv/srv.go", Language: "go", Family: "go", Facts: &abi.Facts{
			Package: "srv",
			Symbols: []abi.Symbol{
				{Name: "Client", Kind: "struct", Parent: -1, Span: sp(1)},
				{Name: "Do", Kind: "method", Receiver: "Client", Parent: -1, Span: sp(2)},
				{Name: "DefaultClient", Kind: "variable", Parent: -1, Span: sp(3), Signature: &abi.Signature{Return: "Client"}},
				{Name: "NewClient", Kind: "function", Parent: -1, Span: sp(4)},
			},
		}},
		{Path: "srv/use.go", Language: "go", Family: "go", Facts: &abi.Facts{
			Package: "srv",
			Symbols: []abi.Symbol{{Name: "use", Kind: "function", Parent: -1, Span: sp(1)}},
			Calls:   []abi.Call{{Caller: 0, Name: "Do", Receiver: "DefaultClient", ReceiverType: "DefaultClient", Line: 2}},
		}},
		{Path: "srv/srv_test.go", Language: "go", Family: "go", Facts: &abi.Facts{
			Package: "srv_test",
			Imports: []abi.Import{{Path: "example.com/m/srv", Alias: ".", Line: 2}, {Path: "example.com/m/srv", Line: 3}},
			Symbols: []abi.Symbol{{Name: "TestDo", Kind: "function", Parent: -1, Span: sp(4)}},
			Calls: []abi.Call{
				{Caller: 0, Name: "Do", Receiver: "DefaultClient", ReceiverType: "DefaultClient", Line: 5},
				{Caller: 0, Name: "Do", Receiver: "Other", ReceiverType: "Other", Line: 6},
				// an import whose name the extractor did not know: still pkg.F()
				{Caller: 0, Name: "NewClient", Receiver: "srv", ReceiverType: "srv", Line: 7},
			},
		}},
	}
	g, st := Build(goFacts("example.com/m", files))
	edges := edgeSet(g)
	for _, k := range []string{"srv_use_use -calls-> srv_srv_client_do", "srv_srv_test_testdo -calls-> srv_srv_client_do", "srv_srv_test_testdo -calls-> srv_srv_newclient"} {
		if e, ok := edges[k]; !ok || e.Confidence != graph.Extracted {
			t.Errorf("missing EXTRACTED edge %s (%+v)", k, e)
		}
	}
	if st.Unresolved != 1 {
		t.Errorf("stats = %+v, want the Other receiver unresolved", st)
	}
}

// TestWildcardImportTypes: Go's `import . "pkg"` makes pkg's types and
// functions usable unqualified, as receiver types and F() results.
func TestWildcardImportTypes(t *testing.T) {
	files := []File{
		{Path: "srv/srv.go", Language: "go", Family: "go", Facts: &abi.Facts{
			Package: "srv",
			Symbols: []abi.Symbol{
				{Name: "Server", Kind: "struct", Parent: -1, Span: sp(1)},
				{Name: "Serve", Kind: "method", Receiver: "Server", Parent: -1, Span: sp(2)},
				{Name: "New", Kind: "function", Parent: -1, Span: sp(3), Signature: &abi.Signature{Return: "*Server"}},
			},
		}},
		{Path: "srv/srv_test.go", Language: "go", Family: "go", Facts: &abi.Facts{
			Package: "srv_test",
			Imports: []abi.Import{{Path: "example.com/m/srv", Alias: ".", Line: 2}},
			Symbols: []abi.Symbol{{Name: "TestServe", Kind: "function", Parent: -1, Span: sp(4), Test: true}},
			Calls: []abi.Call{
				{Caller: 0, Name: "Serve", Receiver: "s", ReceiverType: "Server", Line: 5},
				{Caller: 0, Name: "Serve", Receiver: "s", ReceiverType: "New()", Line: 6},
			},
		}},
	}
	g, _ := Build(goFacts("example.com/m", files))
	e, ok := edgeSet(g)["srv_srv_test_testserve -calls-> srv_srv_server_serve"]
	if !ok || 1+len(e.Sites) != 2 {
		t.Fatalf("want both dot-import calls linked, got %+v (found %v)", e, ok)
	}
}
