package main

import (
	"path"
	"strings"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// ABI v2 facts. PHP needs no project metadata: a class's PSR-4 module key
// is its fully qualified name, which the declaration itself gives
// (namespace + name), so composer.json is not read.

// qualify is the fully qualified name of a declaration in the current
// namespace.
func (x *state) qualify(name string) string {
	if x.namespace == "" {
		return name
	}
	return x.namespace + `\` + name
}

// includeKeys are the files a require/include path may name, as module
// keys (repository paths): a file-relative path ("./x.php", "../x.php")
// names one file; a bare one is looked up relative to the including file,
// then to the root (PHP's include_path "."). An absolute path has none.
func (x *state) includeKeys(p string) []string {
	if strings.HasPrefix(p, "/") {
		return nil
	}
	here := path.Join(path.Dir(x.f.Path), p)
	if strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../") {
		return []string{here}
	}
	if c := path.Clean(p); c != here {
		return []string{here, c}
	}
	return []string{here}
}

// typeRef is the structured form of a receiver or declared type; nil for
// "" (and for anything the v1 form cannot say).
func typeRef(typ string) *abi.TypeRef {
	if typ == "" {
		return nil
	}
	r, err := abi.ParseTypeRef(typ)
	if err != nil {
		return nil
	}
	return r
}

// emit reports a call with its receiver type in both forms: the v1
// string and the v2 TypeRef.
func (x *state) emit(c abi.Call) {
	c.ReceiverRef = typeRef(c.ReceiverType)
	x.f.Call(c)
}
