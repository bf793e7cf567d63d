package abi

import (
	"fmt"
	"unicode/utf8"
)

// FileFacts are the ABI v2 facts about a file as a whole: what the
// resolver needs to link it to other files without knowing its language.
// The plugin computes them (from the file and the project info the host
// hands back in Init.Project); the host only compares the strings.
type FileFacts struct {
	// Scope is the name scope the file's top-level definitions join:
	// files of one family with the same non-empty Scope see each other's
	// top-level names without an import (a Go package's import path, a
	// Java package). "" means the file is its own scope.
	Scope string
	// Modules are the keys other files import this file by ("shop.billing",
	// "crate::a::b", "src/util"), most specific first.
	Modules []string
	// Test marks a test file by the language's conventions.
	Test bool
	// Variants are the file's build-variant constraints; see Constraint.
	Variants []Constraint
	// ProjectDeps are the project parts (ProjectOutput.Parts) the file's
	// facts were computed from, sorted (SortedDeps): an edit of a project
	// file re-extracts the file only when one of them changed. They travel
	// in their own section (projectparts.go).
	ProjectDeps []string
}

// Constraint restricts a file to some values of one build axis
// ({goos, [windows]}, {feature, [ssl]}); Negated means all values but
// those. Two files whose constraints leave no common value on one axis
// are mutually exclusive: their same-named definitions are twins.
type Constraint struct {
	Axis    string
	Values  []string
	Negated bool
}

// ImportKind says what an import binds.
type ImportKind string

// The import kinds. "" (a v1 plugin) means: as Names and Alias say.
const (
	ImportModule     ImportKind = "module"      // the module itself, under Alias or its last key element
	ImportSymbols    ImportKind = "symbols"     // the names in Names
	ImportWildcard   ImportKind = "wildcard"    // every exported name of the module
	ImportSideEffect ImportKind = "side_effect" // nothing; the module runs for its effects
)

// ImportKinds lists every ImportKind, for validation and docs.
var ImportKinds = []ImportKind{ImportModule, ImportSymbols, ImportWildcard, ImportSideEffect}

// StepOp is one step of a TypeRef.
type StepOp string

// The type reference steps.
const (
	// StepNamed: the type called Name, possibly qualified by an import
	// binding ("http.Client": binding "http", type "Client"). Only first.
	StepNamed StepOp = "named"
	// StepResult: the first result type of calling Name; first, a
	// function (or a type: a conversion or constructor); later, a method
	// of the previous type.
	StepResult StepOp = "result"
	// StepField: the type of field Name of the previous type.
	StepField StepOp = "field"
	// StepElem: the element type of the previous slice, array or map type.
	StepElem StepOp = "elem"
	// StepCallbackParam: parameter Param of the function type that
	// parameter Arg of function (or class constructor) Name declares,
	// i.e. what a function literal passed as argument Arg receives. Only first.
	StepCallbackParam StepOp = "callback_param"
)

// StepOps lists every StepOp.
var StepOps = []StepOp{StepNamed, StepResult, StepField, StepElem, StepCallbackParam}

// TypeStep is one step of a TypeRef.
type TypeStep struct {
	Op         StepOp
	Name       string
	Arg, Param uint32 // StepCallbackParam only
}

// SelfResult, as the named result type of a method's ReturnRef, says the
// method returns its receiver: the host reads it as the type the method
// was called on, so a subclass's instance keeps its class (Python's
// `return self`, `-> Self`).
const SelfResult = "Self"

// TypeRef is a type already parsed by the plugin: a chain of steps from a
// named type or a call to the type a value has. x := NewT(); x.a.M() has
// the receiver type [result NewT, field a].
type TypeRef struct {
	Steps []TypeStep
}

// MaxTypeSteps bounds a TypeRef's chain.
const MaxTypeSteps = 32

// Validate checks that r is a well-formed chain.
func (r *TypeRef) Validate() error {
	if len(r.Steps) == 0 || len(r.Steps) > MaxTypeSteps {
		return fmt.Errorf("abi: type reference has %d steps (want 1 to %d)", len(r.Steps), MaxTypeSteps)
	}
	for i, s := range r.Steps {
		switch s.Op {
		case StepNamed, StepCallbackParam:
			if i > 0 {
				return fmt.Errorf("abi: type reference step %d: %s may only come first", i, s.Op)
			}
		case StepResult, StepField:
		case StepElem:
			if i == 0 {
				return fmt.Errorf("abi: type reference step 0: elem needs a previous type")
			}
		default:
			return fmt.Errorf("abi: type reference step %d has unknown op %q", i, s.Op)
		}
		if s.Name == "" && s.Op != StepElem {
			return fmt.Errorf("abi: type reference step %d (%s) has no name", i, s.Op)
		}
		if !utf8.ValidString(s.Name) {
			return fmt.Errorf("abi: type reference step %d name is not UTF-8", i)
		}
	}
	return nil
}

// v2SectionTag starts the ABI v2 section, written after the doc section
// and only when a v2 fact is set, so v1 facts encode exactly as before
// and decode with none.
const v2SectionTag = 'v'

// hasV2 reports whether f carries any v2 fact.
func (f *Facts) hasV2() bool {
	ff := &f.File
	if ff.Scope != "" || len(ff.Modules) > 0 || ff.Test || len(ff.Variants) > 0 {
		return true
	}
	for i := range f.Imports {
		if len(f.Imports[i].Keys) > 0 || f.Imports[i].Kind != "" {
			return true
		}
	}
	for i := range f.Calls {
		if f.Calls[i].ReceiverRef != nil {
			return true
		}
	}
	for i := range f.Symbols {
		if sig := f.Symbols[i].Signature; sig != nil && sigHasRefs(sig) {
			return true
		}
	}
	return false
}

func sigHasRefs(sig *Signature) bool {
	if sig.ReturnRef != nil {
		return true
	}
	for i := range sig.Params {
		if sig.Params[i].TypeRef != nil {
			return true
		}
	}
	return false
}

// appendV2Section appends the v2 facts: the file facts, then sparse
// (index, value) lists for imports, calls and signatures, in index order.
func appendV2Section(b []byte, f *Facts) []byte {
	if !f.hasV2() {
		return b
	}
	b = append(b, v2SectionTag)
	ff := &f.File
	b = appendString(b, ff.Scope)
	b = appendStrings(b, ff.Modules)
	b = appendBool(b, ff.Test)
	b = appendUvarint(b, uint64(len(ff.Variants)))
	for _, c := range ff.Variants {
		b = appendString(b, c.Axis)
		b = appendStrings(b, c.Values)
		b = appendBool(b, c.Negated)
	}
	var idx []int
	for i := range f.Imports {
		if len(f.Imports[i].Keys) > 0 || f.Imports[i].Kind != "" {
			idx = append(idx, i)
		}
	}
	b = appendUvarint(b, uint64(len(idx)))
	for _, i := range idx {
		b = appendUvarint(b, uint64(i))
		b = appendString(b, string(f.Imports[i].Kind))
		b = appendUvarint(b, 0) // the keys follow, front-coded, in their own section (keys.go)
	}
	idx = idx[:0]
	for i := range f.Calls {
		if f.Calls[i].ReceiverRef != nil {
			idx = append(idx, i)
		}
	}
	b = appendUvarint(b, uint64(len(idx)))
	for _, i := range idx {
		b = appendTypeRef(appendUvarint(b, uint64(i)), f.Calls[i].ReceiverRef)
	}
	idx = idx[:0]
	for i := range f.Symbols {
		if sig := f.Symbols[i].Signature; sig != nil && sigHasRefs(sig) {
			idx = append(idx, i)
		}
	}
	b = appendUvarint(b, uint64(len(idx)))
	for _, i := range idx {
		sig := f.Symbols[i].Signature
		b = appendOptTypeRef(appendUvarint(b, uint64(i)), sig.ReturnRef)
		for j := range sig.Params {
			b = appendOptTypeRef(b, sig.Params[j].TypeRef)
		}
	}
	return b
}

func appendStrings(b []byte, ss []string) []byte {
	b = appendUvarint(b, uint64(len(ss)))
	for _, s := range ss {
		b = appendString(b, s)
	}
	return b
}

func appendTypeRef(b []byte, r *TypeRef) []byte {
	b = appendUvarint(b, uint64(len(r.Steps)))
	for _, s := range r.Steps {
		b = appendString(b, string(s.Op))
		b = appendString(b, s.Name)
		if s.Op == StepCallbackParam {
			b = appendUvarint(appendUvarint(b, uint64(s.Arg)), uint64(s.Param))
		}
	}
	return b
}

func appendOptTypeRef(b []byte, r *TypeRef) []byte {
	if r == nil {
		return appendBool(b, false)
	}
	return appendTypeRef(appendBool(b, true), r)
}

// decodeV2Section reads the v2 section when it is next. Sparse indexes
// must rise strictly and stay in range, so one encoding means one set of
// facts.
func decodeV2Section(d *Decoder, f *Facts) {
	if !d.openSection(v2SectionTag) {
		return
	}
	ff := &f.File
	ff.Scope = d.String()
	ff.Modules = getStrings(d)
	ff.Test = d.Bool()
	if n := d.Len(3); n > 0 {
		ff.Variants = make([]Constraint, n)
	}
	for i := range ff.Variants {
		ff.Variants[i] = Constraint{Axis: d.String(), Values: getStrings(d), Negated: d.Bool()}
	}
	next := func(n int, last *int) int {
		i := int(d.Uvarint())
		if d.err == nil && (i <= *last || i >= n) {
			d.fail(fmt.Errorf("abi: v2 fact index %d out of order or out of range", i))
		}
		*last = i
		return i
	}
	last := -1
	for range d.Len(3) {
		i := next(len(f.Imports), &last)
		kind, keys := ImportKind(d.String()), getStrings(d)
		if d.err != nil {
			return
		}
		f.Imports[i].Kind, f.Imports[i].Keys = kind, keys
	}
	last = -1
	for range d.Len(3) {
		i := next(len(f.Calls), &last)
		r := getTypeRef(d)
		if d.err != nil {
			return
		}
		f.Calls[i].ReceiverRef = r
	}
	last = -1
	for range d.Len(2) {
		i := next(len(f.Symbols), &last)
		if d.err != nil {
			return
		}
		sig := f.Symbols[i].Signature
		if sig == nil {
			d.fail(fmt.Errorf("abi: v2 type references for symbol %d, which has no signature", i))
			return
		}
		sig.ReturnRef = getOptTypeRef(d)
		for j := range sig.Params {
			sig.Params[j].TypeRef = getOptTypeRef(d)
		}
	}
}

func getTypeRef(d *Decoder) *TypeRef {
	n := d.Len(3)
	if n > MaxTypeSteps {
		d.fail(fmt.Errorf("abi: type reference of %d steps (at most %d)", n, MaxTypeSteps))
		return nil
	}
	r := &TypeRef{Steps: make([]TypeStep, n)}
	for i := range r.Steps {
		s := TypeStep{Op: StepOp(d.String()), Name: d.String()}
		if s.Op == StepCallbackParam {
			s.Arg, s.Param = d.Uint32(), d.Uint32()
		}
		r.Steps[i] = s
	}
	return r
}

func getOptTypeRef(d *Decoder) *TypeRef {
	if !d.Bool() {
		return nil
	}
	return getTypeRef(d)
}

// symbolVariantSectionTag starts the symbols' own variant constraints,
// written after the v2 section and only when a symbol has some.
const symbolVariantSectionTag = 'w'

// MaxSymbolVariants bounds one symbol's constraints (nested #if depth).
const MaxSymbolVariants = 32

// appendSymbolVariantSection appends (index, constraints) for every symbol
// with variants, in index order.
func appendSymbolVariantSection(b []byte, f *Facts) []byte {
	n := 0
	for i := range f.Symbols {
		if len(f.Symbols[i].Variants) > 0 {
			n++
		}
	}
	if n == 0 {
		return b
	}
	b = appendUvarint(append(b, symbolVariantSectionTag), uint64(n))
	for i := range f.Symbols {
		if vs := f.Symbols[i].Variants; len(vs) > 0 {
			b = appendConstraints(appendUvarint(b, uint64(i)), vs)
		}
	}
	return b
}

func appendConstraints(b []byte, cs []Constraint) []byte {
	b = appendUvarint(b, uint64(len(cs)))
	for _, c := range cs {
		b = appendString(b, c.Axis)
		b = appendStrings(b, c.Values)
		b = appendBool(b, c.Negated)
	}
	return b
}

// decodeSymbolVariantSection reads the symbols' variants when they are
// next; indexes rise strictly and stay in range.
func decodeSymbolVariantSection(d *Decoder, f *Facts) {
	if !d.openSection(symbolVariantSectionTag) {
		return
	}
	last := -1
	for range d.Len(2) {
		i := int(d.Uvarint())
		if d.err == nil && (i <= last || i >= len(f.Symbols)) {
			d.fail(fmt.Errorf("abi: symbol variants index %d out of order or out of range", i))
		}
		last = i
		n := d.Len(3)
		if d.err != nil {
			return
		}
		if n > MaxSymbolVariants {
			d.fail(fmt.Errorf("abi: symbol %d has %d variant constraints (at most %d)", i, n, MaxSymbolVariants))
			return
		}
		cs := make([]Constraint, n)
		for k := range cs {
			cs[k] = Constraint{Axis: d.String(), Values: getStrings(d), Negated: d.Bool()}
		}
		if d.err != nil {
			return
		}
		f.Symbols[i].Variants = cs
	}
}

// validateV2 checks the v2 facts' vocabularies and type references.
func (f *Facts) validateV2() error {
	for i, c := range f.File.Variants {
		if c.Axis == "" || len(c.Values) == 0 {
			return fmt.Errorf("abi: variant constraint %d needs an axis and at least one value", i)
		}
	}
	for i := range f.Symbols {
		if len(f.Symbols[i].Variants) > MaxSymbolVariants {
			return fmt.Errorf("abi: symbol %d (%q) has %d variant constraints (at most %d)", i, f.Symbols[i].Name, len(f.Symbols[i].Variants), MaxSymbolVariants)
		}
		for k, c := range f.Symbols[i].Variants {
			if c.Axis == "" || len(c.Values) == 0 {
				return fmt.Errorf("abi: symbol %d (%q) variant constraint %d needs an axis and at least one value", i, f.Symbols[i].Name, k)
			}
		}
	}
	for i, im := range f.Imports {
		if im.Kind != "" && !validImportKind(im.Kind) {
			return fmt.Errorf("abi: import %d (%q) has unknown kind %q (want module, symbols, wildcard or side_effect)", i, im.Path, im.Kind)
		}
	}
	for i := range f.Calls {
		if r := f.Calls[i].ReceiverRef; r != nil {
			if err := r.Validate(); err != nil {
				return fmt.Errorf("call %d (%q): %w", i, f.Calls[i].Name, err)
			}
		}
	}
	for i := range f.Symbols {
		sig := f.Symbols[i].Signature
		if sig == nil {
			continue
		}
		if err := validOptRef(sig.ReturnRef); err != nil {
			return fmt.Errorf("symbol %d (%q) return: %w", i, f.Symbols[i].Name, err)
		}
		for j := range sig.Params {
			if err := validOptRef(sig.Params[j].TypeRef); err != nil {
				return fmt.Errorf("symbol %d (%q) parameter %d: %w", i, f.Symbols[i].Name, j, err)
			}
		}
	}
	return nil
}

func validOptRef(r *TypeRef) error {
	if r == nil {
		return nil
	}
	return r.Validate()
}

func validImportKind(k ImportKind) bool {
	for _, x := range ImportKinds {
		if k == x {
			return true
		}
	}
	return false
}
