package abi

import (
	"fmt"
	"strings"
)

// The words a plugin may use in facts. Each vocabulary is a named string
// type with declared constants and one list of all of them; the host
// checks facts against the lists when they arrive (Facts.CheckVocabulary),
// so a misspelt or invented word is a diagnostic naming the plugin and the
// file, never a silent string in graph.json.

// SymbolKind is what a definition is; it becomes the graph node's kind.
type SymbolKind string

// The symbol kinds.
const (
	KindClass       SymbolKind = "class"
	KindStruct      SymbolKind = "struct"
	KindInterface   SymbolKind = "interface"
	KindTrait       SymbolKind = "trait"
	KindEnum        SymbolKind = "enum"
	KindFunction    SymbolKind = "function"
	KindMethod      SymbolKind = "method"
	KindConstructor SymbolKind = "constructor"
	KindProperty    SymbolKind = "property" // a getter/setter pair or computed member (Python @property, TS get/set)
	KindField       SymbolKind = "field"
	KindConstant    SymbolKind = "constant" // also enum members
	KindVariable    SymbolKind = "variable"
	KindTypeAlias   SymbolKind = "type_alias"
	KindModule      SymbolKind = "module"
	KindNamespace   SymbolKind = "namespace"
	KindMacro       SymbolKind = "macro"
	KindObject      SymbolKind = "object"   // a singleton type (Kotlin object, Scala object)
	KindRecord      SymbolKind = "record"   // a data type with value semantics (C# record, when told apart from class)
	KindProtocol    SymbolKind = "protocol" // Swift/Objective-C protocol

	// SQL objects (sdk/sqltext names them for the SQL extractor).
	KindTable      SymbolKind = "table"
	KindAlterTable SymbolKind = "alter_table" // ALTER TABLE: its actions and added columns/constraints
	KindDropTable  SymbolKind = "drop_table"  // DROP TABLE: the table is gone from here on
	KindColumn     SymbolKind = "column"
	KindConstraint SymbolKind = "constraint"
	KindIndex      SymbolKind = "index"
	KindView       SymbolKind = "view"
	KindPolicy     SymbolKind = "policy"
	KindGrant      SymbolKind = "grant"
	KindProcedure  SymbolKind = "procedure"
	KindTrigger    SymbolKind = "trigger"
	KindQuery      SymbolKind = "query"     // a DML statement in a .sql file
	KindStatement  SymbolKind = "statement" // a statement the extractor could not read, kept as text
)

// SymbolKinds lists every symbol kind, in declaration order.
var SymbolKinds = []SymbolKind{
	KindClass, KindStruct, KindInterface, KindTrait, KindEnum,
	KindFunction, KindMethod, KindConstructor, KindProperty, KindField,
	KindConstant, KindVariable, KindTypeAlias, KindModule, KindNamespace, KindMacro,
	KindObject, KindRecord, KindProtocol,
	KindTable, KindAlterTable, KindDropTable, KindColumn, KindConstraint, KindIndex, KindView,
	KindPolicy, KindGrant, KindProcedure, KindTrigger, KindQuery, KindStatement,
}

// Valid reports whether k is one of SymbolKinds.
func (k SymbolKind) Valid() bool { _, ok := symbolKindSet[k]; return ok }

// RelationKind is a type-level relation from a symbol to a named type.
type RelationKind string

// The relation kinds.
const (
	RelInherits   RelationKind = "inherits"   // class/trait extension
	RelImplements RelationKind = "implements" // interface implementation
	RelEmbeds     RelationKind = "embeds"     // Go struct/interface embedding, mixins
	RelReferences RelationKind = "references" // a use of the type in a signature, field or attribute (see Context)
)

// RelationKinds lists every relation kind.
var RelationKinds = []RelationKind{RelInherits, RelImplements, RelEmbeds, RelReferences}

// Valid reports whether k is one of RelationKinds.
func (k RelationKind) Valid() bool { _, ok := relationKindSet[k]; return ok }

// RelationContext says where a relation's type appears, or (ForType)
// which type an implements block is for.
type RelationContext string

// The relation contexts; "" is no context.
const (
	CtxNone          RelationContext = ""
	CtxParameterType RelationContext = "parameter_type"
	CtxReturnType    RelationContext = "return_type"
	CtxField         RelationContext = "field"
	CtxGenericArg    RelationContext = "generic_arg"
	CtxAttribute     RelationContext = "attribute" // an annotation or decorator naming the type
	// CtxValue: a function or method named as a value (passed, returned,
	// assigned, put in a literal), not called there; Target is resolved
	// like a call's name ("f", "pkg.F") and linked as a reference.
	CtxValue RelationContext = "value"
)

// RelationContexts lists every fixed relation context (ForType makes the
// one open-ended form).
var RelationContexts = []RelationContext{CtxNone, CtxParameterType, CtxReturnType, CtxField, CtxGenericArg, CtxAttribute, CtxValue}

// ctxForPrefix starts the ForType context.
const ctxForPrefix = "for:"

// ForType is the context of an implements relation declared away from
// its type (Rust `impl Trait for Type`, Go `var _ I = T{}` at file
// level): the host makes the named type the relation's source.
func ForType(typeName string) RelationContext { return RelationContext(ctxForPrefix + typeName) }

// ForType returns the type a ForType context names.
func (c RelationContext) ForType() (string, bool) {
	return strings.CutPrefix(string(c), ctxForPrefix)
}

// Valid reports whether c is one of RelationContexts or a ForType context
// with a type name.
func (c RelationContext) Valid() bool {
	if t, ok := c.ForType(); ok {
		return t != ""
	}
	_, ok := relationContextSet[c]
	return ok
}

// Visibility is a definition's access level; "" when the language has none
// there (a local definition).
type Visibility string

// The visibilities.
const (
	VisNone      Visibility = ""
	VisPublic    Visibility = "public"
	VisProtected Visibility = "protected"
	VisInternal  Visibility = "internal" // package-, crate- or assembly-wide
	VisPrivate   Visibility = "private"
)

// Visibilities lists every visibility.
var Visibilities = []Visibility{VisNone, VisPublic, VisProtected, VisInternal, VisPrivate}

// Valid reports whether v is one of Visibilities.
func (v Visibility) Valid() bool { _, ok := visibilitySet[v]; return ok }

// The lists as sets: the host checks every fact's words, and a map
// lookup costs the same for the 31st kind as for the first.
var (
	symbolKindSet      = set(SymbolKinds)
	relationKindSet    = set(RelationKinds)
	relationContextSet = set(RelationContexts)
	visibilitySet      = set(Visibilities)
)

func set[T comparable](list []T) map[T]struct{} {
	m := make(map[T]struct{}, len(list))
	for _, v := range list {
		m[v] = struct{}{}
	}
	return m
}

// DropUnknownWords removes every fact whose kind, context or visibility is
// outside the vocabulary and returns one description per dropped fact
// (at most maxReported, then a count). A dropped symbol's children, calls
// and sites move to its nearest kept ancestor, so indices stay valid; its
// relations go with it. The host
// calls it as facts arrive; plugin tests fail on a non-empty result.
func (f *Facts) DropUnknownWords() []string {
	var out []string
	n := 0
	report := func(format string, args ...any) {
		if n++; len(out) < maxReported {
			out = append(out, fmt.Sprintf(format, args...))
		}
	}
	f.dropSymbols(report)
	kept := f.Relations[:0]
	for _, r := range f.Relations {
		switch {
		case !r.Kind.Valid():
			report("relation kind %.64q (to %.64q, line %d)", r.Kind, r.Target, r.Line)
		case !r.Context.Valid():
			report("relation context %.64q (%s to %.64q, line %d)", r.Context, r.Kind, r.Target, r.Line)
		default:
			kept = append(kept, r)
		}
	}
	f.Relations = kept
	if n > len(out) {
		out = append(out, fmt.Sprintf("… and %d more", n-len(out)))
	}
	return out
}

// maxReported bounds DropUnknownWords' descriptions: a plugin emitting a
// wrong kind for every symbol needs one line to be understood, not 10,000.
const maxReported = 5

// dropSymbols removes symbols with an unknown kind or visibility and
// renumbers every reference to a symbol.
func (f *Facts) dropSymbols(report func(string, ...any)) {
	bad := false
	for _, s := range f.Symbols {
		if !s.Kind.Valid() || !s.Visibility.Valid() {
			bad = true
			break
		}
	}
	if !bad {
		return
	}
	// to(i) is the new index of symbol i, or of its nearest kept ancestor
	// (-1 for none), found by a walk up bounded by the table's size.
	keep := make([]bool, len(f.Symbols))
	newIndex := make([]int32, len(f.Symbols))
	next := int32(0)
	for i, s := range f.Symbols {
		switch {
		case !s.Kind.Valid():
			report("symbol kind %.64q (%s, line %d)", s.Kind, s.Name, s.Span.StartLine)
		case !s.Visibility.Valid():
			report("visibility %.64q (%s %s, line %d)", s.Visibility, s.Kind, s.Name, s.Span.StartLine)
		default:
			keep[i], newIndex[i] = true, next
			next++
		}
	}
	old := f.Symbols
	to := func(i int32) int32 {
		for steps := 0; i >= 0 && int(i) < len(keep) && !keep[i] && steps <= len(keep); steps++ {
			i = old[i].Parent
		}
		if i >= 0 && (int(i) >= len(keep) || !keep[i]) {
			return -1 // out of range or cyclic: Validate reports it
		}
		if i < 0 {
			return -1
		}
		return newIndex[i]
	}
	syms := make([]Symbol, 0, next)
	for i, s := range old {
		if keep[i] {
			s.Parent = to(s.Parent)
			syms = append(syms, s)
		}
	}
	f.Symbols = syms
	for i := range f.Calls {
		f.Calls[i].Caller = to(f.Calls[i].Caller)
	}
	// A relation describes its source symbol (Bad inherits Base): with the
	// symbol gone it has nothing to describe, unlike a call, which still
	// happens inside the enclosing definition.
	rels := f.Relations[:0]
	for _, r := range f.Relations {
		if r.From >= 0 && int(r.From) < len(keep) && !keep[r.From] {
			report("%s relation to %.64q of a dropped symbol (line %d)", r.Kind, r.Target, r.Line)
			continue
		}
		r.From = to(r.From)
		rels = append(rels, r)
	}
	f.Relations = rels
	for i := range f.Dynamic {
		f.Dynamic[i].From = to(f.Dynamic[i].From)
	}
	for i := range f.Channels {
		f.Channels[i].From = to(f.Channels[i].From)
	}
	for i := range f.SQL {
		f.SQL[i].From = to(f.SQL[i].From)
	}
}
