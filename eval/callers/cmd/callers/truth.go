package main

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/types/typeutil"
)

// A decl is a top-level declaration a call can be attributed to: a function or
// method (the caller), or a package-level var/const spec (calls in
// initializers). Lines are 1-based and inclusive; start is the line of the
// func keyword (doc comments excluded), as in synaptic's spans.
type decl struct {
	file       string // slash path relative to the source root
	start, end int
	name       string // "HandleFunc", "(*ServeMux).HandleFunc", "var DefaultClient"
}

func (d *decl) key() string { return fmt.Sprintf("%s:%d", d.file, d.start) }

// A site is one call of a target found by go/types.
type site struct {
	file    string
	line    int
	caller  *decl
	callee  string // "(*ServeMux).HandleFunc", "(Handler).ServeHTTP"
	iface   bool   // the callee is an interface method (dynamic dispatch)
	extTest bool   // the calling file belongs to an external _test package
	closure bool   // the call sits inside a function literal
	recv    string // how the receiver / function was reached (see classifyRecv)
}

// A target is a set of functions a user names when asking "who calls X".
type target struct {
	name   string // row label in the report
	fn     string // function or method name
	pkg    string // package path of the declaration; "" = any
	recv   string // receiver type name without '*'; "" = plain function; "*" = any method; "?" = either
	static bool   // count calls of concrete functions/methods
	dyn    bool   // count calls through interface methods
}

func (t *target) match(fn *types.Func) (ok, iface bool) {
	if fn.Name() != t.fn || fn.Pkg() == nil || (t.pkg != "" && fn.Pkg().Path() != t.pkg) {
		return false, false
	}
	sig := fn.Type().(*types.Signature)
	r := sig.Recv()
	if r == nil {
		return (t.recv == "" || t.recv == "?") && t.static, false
	}
	if t.recv == "" {
		return false, false
	}
	iface = types.IsInterface(r.Type())
	if t.recv != "*" && t.recv != "?" && recvName(r.Type()) != t.recv {
		return false, false
	}
	if iface {
		return t.dyn, true
	}
	return t.static, false
}

func recvName(t types.Type) string {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	switch t := t.(type) {
	case *types.Named:
		return t.Obj().Name()
	case *types.Alias:
		return t.Obj().Name()
	}
	return t.String()
}

func funcDesc(fn *types.Func) string {
	r := fn.Type().(*types.Signature).Recv()
	if r == nil {
		return fn.Name()
	}
	if _, ok := r.Type().(*types.Pointer); ok {
		return "(*" + recvName(r.Type()) + ")." + fn.Name()
	}
	return "(" + recvName(r.Type()) + ")." + fn.Name()
}

// truth is what go/types says about the loaded tree.
type truth struct {
	root  string
	files map[string]bool               // files type-checked for this GOOS/GOARCH (incl. tests)
	decls map[string][]*decl            // file -> top-level decls sorted by start
	calls map[string]map[string]bool    // "file:line" -> callee descs of every static call on that line
	defs  map[string]map[string]bool    // target name -> "file:line" of every matching declaration
	sites map[string][]*site            // target name -> call sites
	pkgOf map[string]string             // file -> package name
	kinds map[types.Object]string       // local object -> how it was declared
	seen  map[string]map[token.Pos]bool // "target|file" -> call offsets already recorded
}

// loadTruth type-checks the packages pattern names below root ("./..."),
// tests and external test packages included, and collects the call sites of
// every target. env adds to the go command's environment (CGO_ENABLED=0:
// cgo files are type-checked as generated copies outside root, so their
// declarations and calls could not be mapped back).
func loadTruth(root, pattern string, env []string, targets []*target) (*truth, error) {
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
			packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo | packages.NeedImports,
		Tests: true,
		Dir:   root,
		Env:   append(append(os.Environ(), "GOWORK=off", "GOFLAGS="), env...),
	}
	pkgs, err := packages.Load(cfg, pattern)
	if err != nil {
		return nil, err
	}
	var errs []string
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			errs = append(errs, e.Error())
		}
	})
	if len(errs) > 0 {
		return nil, fmt.Errorf("loading %s: %d errors, first: %s", root, len(errs), errs[0])
	}
	tr := &truth{
		root:  root,
		files: map[string]bool{},
		decls: map[string][]*decl{},
		calls: map[string]map[string]bool{},
		defs:  map[string]map[string]bool{},
		sites: map[string][]*site{},
		pkgOf: map[string]string{},
		kinds: map[types.Object]string{},
		seen:  map[string]map[token.Pos]bool{},
	}
	// Walk test variants first: they hold every file of the plain package too.
	sort.SliceStable(pkgs, func(i, j int) bool {
		return strings.Contains(pkgs[i].ID, "[") && !strings.Contains(pkgs[j].ID, "[")
	})
	for _, p := range pkgs {
		for _, f := range p.Syntax {
			abs := p.Fset.File(f.Pos()).Name()
			rel, err := filepath.Rel(root, abs)
			if err != nil || strings.HasPrefix(rel, "..") {
				continue // generated testmain
			}
			rel = filepath.ToSlash(rel)
			if tr.files[rel] {
				continue
			}
			tr.files[rel] = true
			tr.pkgOf[rel] = p.Name
			tr.walk(p, f, rel, targets)
		}
	}
	for _, ds := range tr.decls {
		sort.Slice(ds, func(i, j int) bool { return ds[i].start < ds[j].start })
	}
	return tr, nil
}

func (tr *truth) walk(p *packages.Package, f *ast.File, rel string, targets []*target) {
	fset, info := p.Fset, p.TypesInfo
	line := func(pos token.Pos) int { return fset.Position(pos).Line }
	tr.recordKinds(f, info)
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			dc := &decl{file: rel, start: line(d.Pos()), end: line(d.End()), name: declName(d)}
			tr.decls[rel] = append(tr.decls[rel], dc)
			if fn, ok := info.Defs[d.Name].(*types.Func); ok {
				tr.def(targets, fn, rel, dc.start)
			}
			if d.Body != nil {
				tr.walkBody(p, d.Body, dc, rel, targets, false)
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.ValueSpec:
					start := line(s.Pos())
					if len(d.Specs) == 1 {
						start = line(d.Pos())
					}
					dc := &decl{file: rel, start: start, end: line(s.End()), name: d.Tok.String() + " " + s.Names[0].Name}
					tr.decls[rel] = append(tr.decls[rel], dc)
					for _, v := range s.Values {
						tr.walkBody(p, v, dc, rel, targets, false)
					}
				case *ast.TypeSpec:
					// interface methods are declarations of dynamic targets
					if it, ok := s.Type.(*ast.InterfaceType); ok {
						for _, m := range it.Methods.List {
							for _, n := range m.Names {
								if fn, ok := info.Defs[n].(*types.Func); ok {
									tr.def(targets, fn, rel, line(n.Pos()))
								}
							}
						}
					}
				}
			}
		}
	}
}

func (tr *truth) def(targets []*target, fn *types.Func, rel string, ln int) {
	for _, t := range targets {
		if ok, _ := t.match(fn); ok {
			if tr.defs[t.name] == nil {
				tr.defs[t.name] = map[string]bool{}
			}
			tr.defs[t.name][fmt.Sprintf("%s:%d", rel, ln)] = true
		}
	}
}

func (tr *truth) walkBody(p *packages.Package, body ast.Node, dc *decl, rel string, targets []*target, inLit bool) {
	info := p.TypesInfo
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			if !inLit {
				tr.walkBody(p, n.Body, dc, rel, targets, true)
				return false
			}
		case *ast.CallExpr:
			fn, _ := typeutil.Callee(info, n).(*types.Func)
			if fn == nil {
				return true
			}
			fn = fn.Origin()
			pos := p.Fset.Position(n.Lparen)
			lk := fmt.Sprintf("%s:%d", rel, pos.Line)
			if tr.calls[lk] == nil {
				tr.calls[lk] = map[string]bool{}
			}
			tr.calls[lk][funcDesc(fn)] = true
			for _, t := range targets {
				ok, iface := t.match(fn)
				if !ok {
					continue
				}
				// a file shared by package variants is walked once; key by offset anyway
				k := token.Pos(pos.Offset)
				if tr.seen[t.name+"|"+rel] == nil {
					tr.seen[t.name+"|"+rel] = map[token.Pos]bool{}
				}
				if tr.seen[t.name+"|"+rel][k] {
					continue
				}
				tr.seen[t.name+"|"+rel][k] = true
				tr.sites[t.name] = append(tr.sites[t.name], &site{
					file: rel, line: pos.Line, caller: dc, callee: funcDesc(fn), iface: iface,
					extTest: strings.HasSuffix(p.Name, "_test"), closure: inLit,
					recv: tr.classifyRecv(info, n, p.Types),
				})
			}
		}
		return true
	})
}

func declName(d *ast.FuncDecl) string {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return d.Name.Name
	}
	t := d.Recv.List[0].Type
	star := ""
	if s, ok := t.(*ast.StarExpr); ok {
		star, t = "*", s.X
	}
	switch x := t.(type) {
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	name := "?"
	if id, ok := t.(*ast.Ident); ok {
		name = id.Name
	}
	return "(" + star + name + ")." + d.Name.Name
}

// recordKinds remembers how each local name of f was declared, to explain
// why a method call through it was missed.
func (tr *truth) recordKinds(f *ast.File, info *types.Info) {
	set := func(id *ast.Ident, kind string) {
		if id == nil {
			return
		}
		if o := info.Defs[id]; o != nil {
			tr.kinds[o] = kind
		}
	}
	fields := func(fl *ast.FieldList, kind string) {
		if fl == nil {
			return
		}
		for _, f := range fl.List {
			for _, n := range f.Names {
				set(n, kind)
			}
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			fields(n.Recv, "the method's own receiver")
			fields(n.Type.Params, "a typed parameter")
			fields(n.Type.Results, "a named result")
		case *ast.FuncLit:
			fields(n.Type.Params, "a typed parameter")
			fields(n.Type.Results, "a named result")
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				for i, l := range n.Lhs {
					id, _ := l.(*ast.Ident)
					kind := "an untyped local (x := ...)"
					if len(n.Rhs) == len(n.Lhs) {
						switch r := ast.Unparen(n.Rhs[i]).(type) {
						case *ast.FuncLit:
							kind = "a local holding a closure (x := func...)"
						case *ast.CompositeLit, *ast.UnaryExpr:
							kind = "an untyped local from a composite literal (x := &T{...})"
						case *ast.CallExpr:
							if tv, ok := info.Types[r.Fun]; ok && tv.IsType() {
								kind = "an untyped local from a conversion (x := T(y))"
							} else {
								kind = "an untyped local from a call result (x := f())"
							}
						}
					}
					set(id, kind)
				}
			}
		case *ast.ValueSpec:
			kind := "a local declared with its type (var x T)"
			if n.Type == nil {
				kind = "an untyped local (var x = ...)"
			}
			for _, id := range n.Names {
				set(id, kind)
			}
		case *ast.RangeStmt:
			if n.Tok == token.DEFINE {
				k, _ := n.Key.(*ast.Ident)
				v, _ := n.Value.(*ast.Ident)
				set(k, "a range variable")
				set(v, "a range variable")
			}
		case *ast.CaseClause:
			if o := info.Implicits[n]; o != nil {
				tr.kinds[o] = "a type-switch variable"
			}
		}
		return true
	})
}

// classifyRecv says how the callee was reached: for a method call, what the
// receiver expression is; for a function call, whether it is qualified.
func (tr *truth) classifyRecv(info *types.Info, call *ast.CallExpr, pkg *types.Package) string {
	fun := ast.Unparen(call.Fun)
	if ix, ok := fun.(*ast.IndexExpr); ok {
		fun = ix.X
	}
	sel, ok := fun.(*ast.SelectorExpr)
	if !ok {
		if id, ok := fun.(*ast.Ident); ok {
			if o := info.Uses[id]; o != nil && o.Pkg() != nil && o.Pkg().Path() != pkg.Path() {
				if o.Pkg().Path()+"_test" == pkg.Path() {
					return "unqualified call through a dot import of the package under test (x_test)"
				}
				return "unqualified call through a dot import"
			}
		}
		return "unqualified call in the same package"
	}
	s := info.Selections[sel]
	if s == nil {
		if id, ok := sel.X.(*ast.Ident); ok {
			if pn, ok := info.Uses[id].(*types.PkgName); ok {
				if pn.Imported().Path()+"_test" == pkg.Path() {
					return "qualified call into the package under test (http.F from package http_test)"
				}
				return "qualified call into another package (pkg.F)"
			}
		}
		return "other selector"
	}
	if s.Kind() == types.MethodExpr {
		return "method expression (T.M)(x, ...)"
	}
	prefix := ""
	if len(s.Index()) > 1 {
		prefix = "promoted through an embedded field, on "
	}
	x := ast.Unparen(sel.X)
	switch x := x.(type) {
	case *ast.Ident:
		o := info.Uses[x]
		if v, ok := o.(*types.Var); ok && v.Parent() == v.Pkg().Scope() {
			return prefix + "a package-level variable"
		}
		if k, ok := tr.kinds[o]; ok {
			return prefix + k
		}
		return prefix + "an identifier of unknown origin"
	case *ast.SelectorExpr:
		if id, ok := x.X.(*ast.Ident); ok {
			if _, ok := info.Uses[id].(*types.PkgName); ok {
				return prefix + "another package's variable (pkg.V)"
			}
		}
		return prefix + "a struct field (x.f)"
	case *ast.CallExpr:
		if tv, ok := info.Types[x.Fun]; ok && tv.IsType() {
			return prefix + "a conversion T(x)"
		}
		return prefix + "a call result (f().M())"
	case *ast.CompositeLit:
		return prefix + "a composite literal"
	case *ast.UnaryExpr:
		return prefix + "an address-of/composite literal (&T{})"
	case *ast.IndexExpr:
		return prefix + "an index expression (m[k])"
	case *ast.TypeAssertExpr:
		return prefix + "a type assertion (x.(T))"
	case *ast.StarExpr:
		return prefix + "a dereference (*p)"
	}
	return prefix + fmt.Sprintf("a %T", x)
}

// enclosing returns the top-level decl of file that contains line, or nil.
func (tr *truth) enclosing(file string, line int) *decl {
	var best *decl
	for _, d := range tr.decls[file] {
		if d.start <= line && line <= d.end {
			if best == nil || d.start >= best.start {
				best = d
			}
		}
	}
	return best
}
