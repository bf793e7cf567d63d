package abi

import "fmt"

// DynamicKind classifies a dynamic-dispatch site: a place static analysis
// cannot follow, so a symbol reached only through it shows no callers.
type DynamicKind string

// The dynamic site kinds (the vocabulary dynamic_hazards filters on).
const (
	DynamicReflection DynamicKind = "reflection"     // getattr, obj[key](), reflect MethodByName, Class.forName, Method.invoke
	DynamicImport     DynamicKind = "dynamic_import" // import(expr), importlib.import_module, __import__
	DynamicEval       DynamicKind = "eval"           // eval, exec, new Function
)

// DynamicSite is one dynamic-dispatch site.
type DynamicSite struct {
	From int32       // index of the enclosing symbol, -1 at file level
	Kind DynamicKind // reflection, dynamic_import or eval
	// Key is the name looked up when the source spells it as a string
	// literal ("save" in getattr(obj, "save")); "" means opaque: computed
	// at run time.
	Key  string
	Line uint32
}

// dynamicSectionTag starts the dynamic-sites section after the base facts.
// The section is written only when a file has sites, so facts without
// them encode exactly as before, and decoding facts that lack it (older
// plugins, cached facts) yields no sites.
const dynamicSectionTag = 'D'

// appendDynamicSection appends f's dynamic sites, if any.
func appendDynamicSection(b []byte, f *Facts) []byte {
	if len(f.Dynamic) == 0 {
		return b
	}
	b = append(b, dynamicSectionTag)
	b = appendUvarint(b, uint64(len(f.Dynamic)))
	for i := range f.Dynamic {
		s := &f.Dynamic[i]
		b = appendVarint(b, int64(s.From))
		b = appendString(b, string(s.Kind))
		b = appendString(b, s.Key)
		b = appendUvarint(b, uint64(s.Line))
	}
	return b
}

// decodeDynamicSection reads the dynamic-sites section when it is next.
func decodeDynamicSection(d *Decoder, f *Facts) {
	if !d.openSection(dynamicSectionTag) {
		return
	}
	if n := d.Len(4); n > 0 {
		f.Dynamic = make([]DynamicSite, n)
	}
	for i := range f.Dynamic {
		f.Dynamic[i] = DynamicSite{From: d.Int32(), Kind: DynamicKind(d.String()), Key: d.String(), Line: d.Uint32()}
	}
}

// validateDynamic checks the sites' symbol indexes and kinds.
func (f *Facts) validateDynamic() error {
	n := int32(len(f.Symbols))
	for i, s := range f.Dynamic {
		if s.From < -1 || s.From >= n {
			return fmt.Errorf("abi: dynamic site %d has enclosing symbol %d out of range", i, s.From)
		}
		switch s.Kind {
		case DynamicReflection, DynamicImport, DynamicEval:
		default:
			return fmt.Errorf("abi: dynamic site %d has unknown kind %q (want reflection, dynamic_import or eval)", i, s.Kind)
		}
	}
	return nil
}
