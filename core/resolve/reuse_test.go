package resolve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// The incremental contract: whatever the edit, BuildIncremental given the
// previous run's memo makes the graph and counts BuildContext makes.

// Two toy languages cover the resolver's rule families: "st" resolves
// plain names in its scope and imports only (Go-like); "dy" guesses
// unique names, falls back to a unique method, follows re-exports and
// submodules and calls methods through implicit this (Python/Java-like).
var (
	staticSem  = Semantics{Unqualified: UnqualifiedScope, TypeCall: TypeCallNone, SelfNames: []string{"self"}}
	dynamicSem = Semantics{ReceiverFallback: ReceiverFallbackUniqueMethod, ImplicitThis: true, SelfNames: []string{"this"},
		SubmoduleSeparator: ".", Reexports: true}
)

// A small name pool makes collisions, overloads and ambiguity common.
var (
	funcNames = []string{"F", "G", "New", "run", "helper"}
	typeNames = []string{"Conn", "Server", "Buf"}
	memNames  = []string{"Close", "Read", "inner", "next"}
	scopes    = []string{"m/a", "m/b", "m/c"}
)

type gen struct{ r *rand.Rand }

func (g gen) pick(s []string) string { return s[g.r.IntN(len(s))] }

func namedRef(n string) *abi.TypeRef {
	return &abi.TypeRef{Steps: []abi.TypeStep{{Op: abi.StepNamed, Name: n}}}
}

// symbol makes a random definition; parent is the index of an earlier
// type or -1.
func (g gen) symbol(facts *abi.Facts, line uint32) {
	var types []int32
	for i, s := range facts.Symbols {
		if isType(string(s.Kind)) {
			types = append(types, int32(i))
		}
	}
	sp := abi.Span{StartLine: line, StartCol: 1, EndLine: line, EndCol: 9}
	switch k := g.r.IntN(6); {
	case k == 0 || len(types) == 0 && k >= 3:
		facts.Symbols = append(facts.Symbols, abi.Symbol{Name: g.pick(typeNames), Kind: abi.KindStruct, Parent: -1, Span: sp})
	case k == 1 || k == 2:
		s := abi.Symbol{Name: g.pick(funcNames), Kind: abi.KindFunction, Parent: -1, Span: sp}
		if g.r.IntN(2) == 0 {
			s.Signature = &abi.Signature{Raw: "()", ReturnRef: namedRef(g.pick(typeNames))}
		}
		facts.Symbols = append(facts.Symbols, s)
	case k == 3:
		facts.Symbols = append(facts.Symbols, abi.Symbol{Name: g.pick(memNames), Kind: abi.KindField, Parent: types[g.r.IntN(len(types))],
			Span: sp, Signature: &abi.Signature{ReturnRef: namedRef(g.pick(typeNames))}})
	case k == 4:
		s := abi.Symbol{Name: g.pick(memNames), Kind: abi.KindMethod, Parent: types[g.r.IntN(len(types))], Span: sp}
		if g.r.IntN(3) == 0 {
			s.Signature = &abi.Signature{Raw: "()", ReturnRef: namedRef(g.pick(typeNames))}
		}
		facts.Symbols = append(facts.Symbols, s)
	default: // a method declared outside its type (Go receivers)
		facts.Symbols = append(facts.Symbols, abi.Symbol{Name: g.pick(memNames), Kind: abi.KindMethod, Parent: -1,
			Receiver: g.pick(typeNames), Span: sp})
	}
}

func (g gen) call(facts *abi.Facts, line uint32) {
	caller := int32(-1)
	if n := len(facts.Symbols); n > 0 && g.r.IntN(4) > 0 {
		caller = int32(g.r.IntN(n))
	}
	c := abi.Call{Caller: caller, Line: line}
	switch g.r.IntN(6) {
	case 0, 1:
		c.Name = g.pick(funcNames)
	case 2: // through an import's alias
		c.Name, c.Receiver = g.pick(funcNames), lastElement(g.pick(scopes))
	case 3: // a typed receiver
		c.Name, c.Receiver, c.ReceiverRef = g.pick(memNames), "x", namedRef(g.pick(typeNames))
	case 4: // a chain: the result of a function, then a field
		c.Name, c.Receiver = g.pick(memNames), "y"
		c.ReceiverRef = &abi.TypeRef{Steps: []abi.TypeStep{{Op: abi.StepResult, Name: g.pick(funcNames)}, {Op: abi.StepField, Name: g.pick(memNames)}}}
	default: // an unknown receiver
		c.Name, c.Receiver = g.pick(memNames), "z"
	}
	facts.Calls = append(facts.Calls, c)
}

// valueRef makes a function named as a value (resolveValueRefs): plain,
// through an import's alias, or a bound method.
func (g gen) valueRef(facts *abi.Facts, line uint32) {
	from := int32(-1)
	if n := len(facts.Symbols); n > 0 && g.r.IntN(4) > 0 {
		from = int32(g.r.IntN(n))
	}
	target := g.pick(funcNames)
	switch g.r.IntN(3) {
	case 1:
		target = lastElement(g.pick(scopes)) + "." + target
	case 2:
		target = "self." + g.pick(memNames)
	}
	facts.Relations = append(facts.Relations, abi.Relation{From: from, Kind: abi.RelReferences, Context: abi.CtxValue, Target: target, Line: line})
}

func (g gen) importOf(facts *abi.Facts, line uint32) {
	s := g.pick(scopes)
	im := abi.Import{Path: s, Keys: []string{s}, Kind: abi.ImportModule, Line: line}
	if g.r.IntN(3) == 0 {
		im.Kind, im.Names = abi.ImportSymbols, []abi.ImportName{{Name: g.pick(funcNames)}}
	}
	facts.Imports = append(facts.Imports, im)
}

func (g gen) relation(facts *abi.Facts, line uint32) {
	for i, s := range facts.Symbols {
		if isType(string(s.Kind)) && g.r.IntN(2) == 0 {
			facts.Relations = append(facts.Relations, abi.Relation{From: int32(i), Kind: abi.RelEmbeds, Target: g.pick(typeNames), Line: line})
			return
		}
	}
}

func (g gen) file(i int) File {
	fam, sem := "st", staticSem
	if i%3 == 2 {
		fam, sem = "dy", dynamicSem
	}
	scope := g.pick(scopes)
	facts := &abi.Facts{File: abi.FileFacts{Scope: scope, Modules: []string{scope}}}
	if fam == "dy" {
		facts.File.Scope = "" // a module file of its own
	}
	if g.r.IntN(4) == 0 { // build-variant twins
		facts.File.Variants = []abi.Constraint{{Axis: "os", Values: []string{g.pick([]string{"linux", "windows"})}}}
	}
	for l := range uint32(3 + g.r.IntN(5)) {
		g.symbol(facts, 10*l+1)
	}
	for l := range uint32(g.r.IntN(3)) {
		g.importOf(facts, l+1)
	}
	for l := range uint32(2 + g.r.IntN(6)) {
		g.call(facts, 100+l)
	}
	g.relation(facts, 200)
	for l := range uint32(g.r.IntN(3)) {
		g.valueRef(facts, 300+l)
	}
	return keyed(File{Path: fmt.Sprintf("%s/f%d.%s", scope, i, fam), Language: fam, Family: fam, ABI: 2, Semantics: sem, Facts: facts})
}

// keyed sets f.Key from its facts, as extract does from their encoding.
func keyed(f File) File {
	b, _ := json.Marshal(f.Facts)
	f.Key = f.Language + "\x00" + string(b)
	return f
}

func cloneFacts(f *abi.Facts) *abi.Facts {
	b, _ := json.Marshal(f)
	var c abi.Facts
	_ = json.Unmarshal(b, &c)
	return &c
}

// edit changes one thing of the tree, as a developer's edit would.
func (g gen) edit(files []File, next int) []File {
	files = slices.Clone(files)
	i := g.r.IntN(len(files))
	f := files[i]
	f.Facts = cloneFacts(f.Facts)
	facts := f.Facts
	switch g.r.IntN(11) {
	case 9: // move the file to another scope (a package clause edit)
		sc := g.pick(scopes)
		facts.File.Modules = []string{sc}
		if facts.File.Scope != "" {
			facts.File.Scope = sc
		}
	case 10: // a build constraint comes or goes
		if len(facts.File.Variants) > 0 {
			facts.File.Variants = nil
		} else {
			facts.File.Variants = []abi.Constraint{{Axis: "os", Values: []string{g.pick([]string{"linux", "windows"})}}}
		}
	case 0: // add a definition
		g.symbol(facts, 500+uint32(g.r.IntN(50)))
	case 1: // rename a top-level definition
		for j := range facts.Symbols {
			if facts.Symbols[j].Parent < 0 {
				facts.Symbols[j].Name = g.pick(append(slices.Clone(funcNames), typeNames...))
				break
			}
		}
	case 2: // drop the last definition (and whatever refers to it)
		if n := len(facts.Symbols); n > 0 {
			facts.Symbols = facts.Symbols[:n-1]
			facts.Calls = slices.DeleteFunc(facts.Calls, func(c abi.Call) bool { return int(c.Caller) >= n-1 })
			facts.Relations = slices.DeleteFunc(facts.Relations, func(r abi.Relation) bool { return int(r.From) >= n-1 })
			for j := range facts.Symbols {
				if int(facts.Symbols[j].Parent) >= n-1 {
					facts.Symbols[j].Parent = -1
				}
			}
		}
	case 3: // change a result type
		for j := range facts.Symbols {
			if facts.Symbols[j].Signature != nil {
				facts.Symbols[j].Signature = &abi.Signature{Raw: "()", ReturnRef: namedRef(g.pick(typeNames))}
				break
			}
		}
	case 4:
		g.call(facts, 600)
		if g.r.IntN(2) == 0 {
			g.valueRef(facts, 650)
		}
	case 5:
		g.importOf(facts, 700)
	case 6: // move lines: spans and so overload ids shift
		for j := range facts.Symbols {
			facts.Symbols[j].Span.StartLine += 3
		}
	case 7: // delete a file
		if len(files) > 2 {
			return slices.Delete(files, i, i+1)
		}
	default: // add a file
		return append(files, g.file(next))
	}
	files[i] = keyed(f)
	return files
}

func graphBytes(t *testing.T, files []File) ([]byte, Stats) {
	t.Helper()
	g, st := Build(files)
	b, err := json.Marshal([]any{g.Nodes, g.Edges})
	if err != nil {
		t.Fatal(err)
	}
	return b, st
}

func TestIncrementalEqualsFull(t *testing.T) {
	seeds, steps := 400, 6
	if testing.Short() {
		seeds = 60
	}
	reused, total := 0, 0
	for seed := range seeds {
		g := gen{rand.New(rand.NewPCG(uint64(seed), 7))}
		var files []File
		for i := range 4 + g.r.IntN(6) {
			files = append(files, g.file(i))
		}
		_, res, err := BuildIncremental(t.Context(), files, Options{Build: "test"})
		if err != nil {
			t.Fatal(err)
		}
		memo := res.Memo
		keepFirst := seed%2 == 1 // extract keeps an older memo after small edits
		for step := range steps {
			files = g.edit(files, 100+step)
			// The memo goes through its encoding, as it does between runs.
			back, err := DecodeMemo(memo.Encode(nil))
			if err != nil {
				t.Fatalf("seed %d step %d: decode memo: %v", seed, step, err)
			}
			gi, res, err := BuildIncremental(t.Context(), files, Options{Build: "test", Prev: back})
			if err != nil {
				t.Fatal(err)
			}
			if res.Reuse.Full != "" {
				t.Fatalf("seed %d step %d: full resolution: %s", seed, step, res.Reuse.Full)
			}
			got, err := json.Marshal([]any{gi.Nodes, gi.Edges})
			if err != nil {
				t.Fatal(err)
			}
			want, wantStats := graphBytes(t, files)
			if !bytes.Equal(got, want) || res.Stats != wantStats {
				t.Fatalf("seed %d step %d (%s): incremental graph differs from a full resolution\nstats %+v, want %+v\ngot  %s\nwant %s",
					seed, step, res.Reuse, res.Stats, wantStats, got, want)
			}
			reused += res.Reuse.Files - res.Reuse.Resolved
			total += res.Reuse.Files
			if !keepFirst {
				memo = res.Memo
			}
		}
	}
	// Reuse must happen, or this test proves nothing about it.
	if reused*4 < total {
		t.Fatalf("only %d of %d file resolutions were reused", reused, total)
	}
	t.Logf("%d of %d file resolutions reused", reused, total)
}

func TestIncrementalFallsBackToFull(t *testing.T) {
	g := gen{rand.New(rand.NewPCG(1, 2))}
	files := []File{g.file(0), g.file(1), g.file(2)}
	_, res, err := BuildIncremental(t.Context(), files, Options{Build: "one"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		opts Options
		want string
	}{
		{"no memo", Options{Build: "one", NoPrev: "a full extraction"}, "full, because a full extraction"},
		{"no reason", Options{Build: "one"}, "full, because no memo of an earlier run"},
		{"other build", Options{Build: "two", Prev: res.Memo}, "full, because the memo was written by another synaptic build"},
		{"same build", Options{Build: "one", Prev: res.Memo}, "incremental, 0 of 3 files"},
	} {
		_, got, err := BuildIncremental(t.Context(), files, tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		if got.Reuse.String() != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got.Reuse, tc.want)
		}
	}
}

// TestMemoDecodeRejects: a memo that is cut, extended or not one at all
// is an error, never a partial memo.
func TestMemoDecodeRejects(t *testing.T) {
	g := gen{rand.New(rand.NewPCG(3, 4))}
	_, res, err := BuildIncremental(t.Context(), []File{g.file(0), g.file(1)}, Options{Build: "b"})
	if err != nil {
		t.Fatal(err)
	}
	enc := res.Memo.Encode(nil)
	for _, bad := range [][]byte{nil, []byte("SYNRMEMO0\n"), enc[:len(enc)-1], append(slices.Clone(enc), 0), enc[:len(enc)/2]} {
		if _, err := DecodeMemo(bad); err == nil {
			t.Errorf("DecodeMemo accepted %d bytes of a %d-byte memo", len(bad), len(enc))
		}
	}
	back, err := DecodeMemo(enc)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(back.Encode(nil), enc) {
		t.Error("a decoded memo does not encode to the same bytes")
	}
}

func FuzzDecodeMemo(f *testing.F) {
	g := gen{rand.New(rand.NewPCG(5, 6))}
	files := []File{g.file(0), g.file(1), g.file(2)}
	_, res, err := BuildIncremental(f.Context(), files, Options{Build: "b"})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(res.Memo.Encode(nil))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := DecodeMemo(data)
		if err != nil {
			return
		}
		// Whatever decodes is safe to resolve against.
		if _, _, err := BuildIncremental(t.Context(), files, Options{Build: m.Build, Prev: m}); err != nil {
			t.Fatal(err)
		}
	})
}

func TestDiffNamed(t *testing.T) {
	n := func(pairs ...any) []named {
		var out []named
		for i := 0; i < len(pairs); i += 2 {
			out = append(out, named{pairs[i].(string), uint64(pairs[i+1].(int))})
		}
		return out
	}
	for _, tc := range []struct {
		name string
		a, b []named
		want []string
	}{
		{"same", n("F", 1, "G", 2), n("F", 1, "G", 2), nil},
		{"added", n("F", 1), n("F", 1, "G", 2), []string{"G"}},
		{"removed", n("F", 1, "G", 2), n("G", 2), []string{"F"}},
		{"changed", n("F", 1, "G", 2), n("F", 3, "G", 2), []string{"F"}},
		{"an overload added", n("F", 1), n("F", 1, "F", 4), []string{"F"}},
		{"same-named reordered", n("F", 1, "F", 4), n("F", 4, "F", 1), []string{"F"}},
		{"different names reordered", n("F", 1, "G", 2), n("G", 2, "F", 1), nil},
	} {
		got := map[string]bool{}
		diffNamed(tc.a, tc.b, got)
		var names []string
		for k := range got {
			names = append(names, k)
		}
		slices.Sort(names)
		if !slices.Equal(names, tc.want) {
			t.Errorf("%s: changed %v, want %v", tc.name, names, tc.want)
		}
	}
}

// TestNotedNames: a file's memo lists the names its calls looked up,
// failed lookups included, and the edges they made.
func TestNotedNames(t *testing.T) {
	files := []File{
		keyed(File{Path: "a/a.st", Language: "st", Family: "st", ABI: 2, Semantics: staticSem, Facts: &abi.Facts{
			File:    abi.FileFacts{Scope: "m/a"},
			Symbols: []abi.Symbol{{Name: "Run", Kind: abi.KindFunction, Parent: -1}},
			Calls: []abi.Call{
				{Caller: 0, Name: "Later", Line: 2},                                               // nothing has it yet
				{Caller: 0, Name: "Close", Receiver: "c", ReceiverRef: namedRef("Conn"), Line: 3}, // a type of the scope
			},
		}}),
		keyed(File{Path: "a/b.st", Language: "st", Family: "st", ABI: 2, Semantics: staticSem, Facts: &abi.Facts{
			File:    abi.FileFacts{Scope: "m/a"},
			Symbols: []abi.Symbol{{Name: "Conn", Kind: abi.KindStruct, Parent: -1}, {Name: "Close", Kind: abi.KindMethod, Parent: 0}},
		}}),
	}
	_, res, err := BuildIncremental(t.Context(), files, Options{Build: "b"})
	if err != nil {
		t.Fatal(err)
	}
	fm := res.Memo.files["a/a.st"]
	for _, want := range []string{"Later", "Conn", "Close"} {
		if !slices.Contains(fm.noted, want) {
			t.Errorf("noted %v lacks %q", fm.noted, want)
		}
	}
	if len(fm.edges) != 1 || fm.edges[0].target != "a_b_conn_close" || fm.stats.Calls != 2 || fm.stats.Unresolved != 1 {
		t.Errorf("edges %+v, stats %+v", fm.edges, fm.stats)
	}
}

// TestEdgeCapHint: the memo carries the run's edge count through its
// encoding, the next run sizes its edges from it within the bound, and
// the hint is only a capacity: any value, too small or absurd, gives the
// graph a full resolution gives.
func TestEdgeCapHint(t *testing.T) {
	g := gen{rand.New(rand.NewPCG(9, 10))}
	var files []File
	for i := range 8 {
		files = append(files, g.file(i))
	}
	_, _, r, err := build(t.Context(), files, &Options{Build: "b"})
	if err != nil {
		t.Fatal(err)
	}
	if r.next.edges <= 0 || r.next.edges != len(r.edges) {
		t.Fatalf("memo records %d edges, the run made %d", r.next.edges, len(r.edges))
	}
	back, err := DecodeMemo(r.next.Encode(nil))
	if err != nil {
		t.Fatal(err)
	}
	if back.edges != r.next.edges {
		t.Fatalf("decoded memo has %d edges, want %d", back.edges, r.next.edges)
	}
	files = g.edit(files, 100)
	want, wantStats := graphBytes(t, files)
	for _, hint := range []int{back.edges, 0, 1, 1 << 40} {
		back.edges = hint
		gi, got, err := BuildIncremental(t.Context(), files, Options{Build: "b", Prev: back})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal([]any{gi.Nodes, gi.Edges})
		if !bytes.Equal(b, want) || got.Stats != wantStats {
			t.Errorf("edge hint %d: the graph differs from a full resolution", hint)
		}
	}
}

// TestUnlinkedCallsOnCaller: an unlinked member call's name lands on its
// caller's node and no other (recordUnlinked finds the node by index).
func TestUnlinkedCallsOnCaller(t *testing.T) {
	py := func(path string, facts *abi.Facts) File {
		return File{Path: path, Language: "python", Family: "python", ABI: 2, Semantics: pySemantics, Facts: facts}
	}
	files := []File{
		py("a.py", &abi.Facts{Symbols: []abi.Symbol{
			{Name: "Conn", Kind: "class", Parent: -1, Span: sp(1)},
			{Name: "close", Kind: "method", Parent: 0, Span: sp(2)},
			{Name: "flush", Kind: "method", Parent: 0, Span: sp(3)},
		}}),
		py("b.py", &abi.Facts{
			Symbols: []abi.Symbol{
				{Name: "f", Kind: "function", Parent: -1, Span: sp(1)},
				{Name: "g", Kind: "function", Parent: -1, Span: sp(5)},
			},
			Calls: []abi.Call{
				{Caller: 1, Name: "flush", Receiver: "x", Line: 6},
				{Caller: 1, Name: "close", Receiver: "x", Line: 7},
				{Caller: 1, Name: "close", Receiver: "y", Line: 8},
				{Caller: 1, Name: "nowhere", Receiver: "x", Line: 9},
			},
		}),
	}
	g, _ := Build(files)
	got := map[string]string{}
	for _, n := range g.Nodes {
		if raw, ok := n.Extra["unlinked_calls"]; ok {
			got[n.ID] = string(raw)
		}
	}
	want := map[string]string{"b_g": `["close","flush"]`}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("unlinked_calls: %v, want %v", got, want)
	}
}

// TestMarshalNames: marshalNames writes what json.Marshal writes.
func TestMarshalNames(t *testing.T) {
	for _, names := range [][]string{
		nil, {}, {"close"}, {"Close", "flush", "__init__", "$x"}, {"a<b"}, {"q\"uote", "x"}, {"back\\slash"},
		{"&"}, {"tab\t"}, {"é"}, {"\u2028"}, {"\xff"}, {""}, {"~", " "},
	} {
		want, _ := json.Marshal(names)
		if got := marshalNames(names); !bytes.Equal(got, want) {
			t.Errorf("marshalNames(%q) = %s, want %s", names, got, want)
		}
	}
}
