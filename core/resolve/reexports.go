package resolve

// maxReexportHops bounds a chain of re-exports (a package's index
// re-exporting a subpackage's, …); a cycle ends there too.
const maxReexportHops = 4

// followReexports applies [semantics] reexports: a name a file imports
// from a module that does not define it, but imports it itself, names what
// that module imported (from .decoder import JSONDecoder in
// json/__init__.py makes `from json import JSONDecoder` the class). It
// runs once every file's imports are bound, and reads other files'
// bindings as imported, so the order files are visited in does not matter.
func (r *resolver) followReexports() {
	for fi := range r.files {
		f := &r.files[fi]
		if !f.v2() || !f.Semantics.Reexports {
			continue
		}
		for _, bs := range f.bindings {
			for i := range bs {
				b := &bs[i]
				if b.sym >= 0 || b.pkg != nil || b.file < 0 || b.file == f.idx || b.name == "" {
					continue
				}
				if to, ok := r.reexported(f.Family, b.file, b.name, 0); ok {
					if to.sym >= 0 {
						b.sym = to.sym
					} else {
						*b = to // a module it imported under that name
					}
				}
			}
		}
	}
}

// reexportedCallee is, under [semantics] reexports, the callable that the
// module file of binding b binds name to by its own imports, when b's
// module does not define it (m.f() with m's `pub use self::inner::f`).
func (r *resolver) reexportedCallee(f *fileInfo, b binding, name string, ok func(string) bool) int32 {
	if !f.v2() || !f.Semantics.Reexports || b.pkg != nil || b.file < 0 || b.file == f.idx {
		return -1
	}
	to, found := r.reexported(f.Family, b.file, name, 0)
	if !found || to.sym < 0 || !ok(r.syms[to.sym].kind) {
		return -1
	}
	return to.sym
}

// reexported is what file binds name to by its own imports: a symbol, a
// module, through a further re-export what that binds, or the name a
// module it imports with a wildcard defines.
func (r *resolver) reexported(family string, file int32, name string, hops int) (binding, bool) {
	r.note(name)
	r.note("*")
	src := &r.files[file]
	if hops >= maxReexportHops || src.Family != family || !src.v2() {
		return binding{}, false
	}
	for _, b := range src.bindings[name] {
		switch {
		case b.sym >= 0:
			return binding{pkg: b.pkg, file: b.file, name: b.name, sym: b.sym}, true
		case b.name == "" && (b.file >= 0 || b.pkg != nil):
			return binding{pkg: b.pkg, file: b.file, sym: -1}, true
		case b.file >= 0 && b.file != file && b.name != "":
			if to, ok := r.reexported(family, b.file, b.name, hops+1); ok {
				return to, true
			}
		}
	}
	// from .runners import * in asyncio/__init__.py: asyncio's run.
	for _, b := range src.bindings["*"] {
		if b.sym < 0 && b.name == "" && (b.file >= 0 && b.file != file || b.pkg != nil) {
			if t := r.lookupIn(b, name, anyKind); t >= 0 {
				return binding{pkg: b.pkg, file: b.file, name: name, sym: t}, true
			}
		}
	}
	return binding{}, false
}
