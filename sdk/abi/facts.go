package abi

import (
	"encoding/binary"
	"fmt"
)

// Facts are what an extractor reports about one file. They hold names as
// written in the source; the host turns them into graph nodes and edges and
// resolves names across files.
type Facts struct {
	Package   string // package/module the file declares (Go package clause, Java package); "" if none
	Symbols   []Symbol
	Calls     []Call
	Imports   []Import
	Relations []Relation
	Errors    []string      // non-fatal problems the extractor wants reported (e.g. "syntax error at L12")
	Dynamic   []DynamicSite // dynamic-dispatch sites (dynamic.go); encoded in their own trailing section
	Channels  []ChannelSite // runtime channel ends (channel.go); their own trailing section, after Dynamic
	// Doc is the file's own doc (Go package comment, Python module
	// docstring); with Symbol.Doc it travels in the doc section (doc.go).
	Doc string
	// File holds the ABI v2 file facts (v2.go): scope, module keys, test
	// marker, build variants. Zero for a v1 plugin.
	File FileFacts
	SQL  []SQLSite // SQL literals at database calls (sqlsite.go); their own trailing section, after the docs
}

// Span is a 1-based line/column range.
type Span struct {
	StartLine, StartCol, EndLine, EndCol uint32
}

// Param is one parameter of a signature.
type Param struct {
	Name string
	Type string
	// TypeRef is Type parsed by the plugin (ABI v2), nil if unknown.
	TypeRef *TypeRef
	// Callback: when Type is a function type, its own parameters' types
	// in order (nil where unknown), what a function literal passed here
	// receives (ABI v2, callback.go).
	Callback []*TypeRef
}

// Signature is a callable's header.
type Signature struct {
	Params []Param
	Return string
	Raw    string // the header verbatim (one line, whitespace collapsed)
	// ReturnRef is the first result's named type parsed by the plugin,
	// pointers and generics stripped (ABI v2); for a field, its type.
	ReturnRef *TypeRef
}

// Symbol is a definition: a type, function, method, field, constant…
type Symbol struct {
	Name       string
	Kind       SymbolKind // one of SymbolKinds (vocab.go)
	Parent     int32      // index of the enclosing symbol in Facts.Symbols, -1 at file level
	Receiver   string     // for methods declared outside their type (Go): the receiver type name
	Visibility Visibility // one of Visibilities
	Span       Span
	Signature  *Signature
	Test       bool // a test function/class by the language's conventions
	// Doc is the first paragraph of the symbol's doc comment, whitespace
	// collapsed, at most MaxDoc bytes (extract.DocText makes one).
	Doc string
	// Variants are the definition's own build-variant constraints, on
	// top of its file's (ABI v2): the C #ifdef branch it sits in. Two
	// same-named definitions whose constraints exclude each other are
	// twins, as files are (see Constraint). At most MaxSymbolVariants.
	Variants []Constraint
}

// Call is a call site.
type Call struct {
	Caller   int32  // index of the enclosing symbol, -1 at file level
	Name     string // the called name, bare ("Println", "save", "Foo" for new Foo())
	Receiver string // receiver expression as written ("self", "this", "s", "fmt", "a.b"); "" for a plain call
	// ReceiverType is the receiver's type when the extractor knows it
	// (self/this, typed parameter, Go receiver): "T" or "pkg.T". "F()" or
	// "pkg.F()" means "the first result type of calling F", which the host
	// resolves from F's signature (x := NewT(); x.M()). Members chain with
	// '#': "T#f" is the type of field f of T (give field symbols a
	// Signature whose Return is their type) and "T#M()" the first result
	// type of method M of T, where T is any of these forms.
	ReceiverType string
	// ReceiverRef is the receiver's type as a parsed reference (ABI v2);
	// when set, ReceiverType is ignored. ParseTypeRef reads the v1 form.
	ReceiverRef *TypeRef
	Line, Col   uint32
	// Implicit marks a site written as no call, which runs the method all
	// the same: an operator (a + b is a.__add__), a subscript, a builtin's
	// protocol (len(x) is x.__len__). It resolves like any member call;
	// hosts count it apart (implicit.go). ABI v2.
	Implicit bool
}

// ImportName is one name imported from a module.
type ImportName struct {
	Name  string // name in the module ("*" for a wildcard)
	Alias string // local name if renamed
}

// Import is one import statement (or one module of a multi-module import).
type Import struct {
	Path  string // module path or specifier as written: "net/http", "./util", "os.path", "java.util.List"
	Alias string // local name bound to the module itself ("" if none; "_"/"." kept for Go)
	Names []ImportName
	Line  uint32
	// Keys are the module keys the import may name, in preference order,
	// computed by the plugin (ABI v2): relative specifiers already made
	// repo-relative, one candidate per include directory. They are
	// matched against other files' FileFacts.Modules and Scope.
	Keys []string
	// Kind is what the import binds (ABI v2); "" for a v1 plugin.
	Kind ImportKind
}

// Relation is a type-level use from a symbol to a named type.
type Relation struct {
	From    int32           // index of the symbol, -1 for the file
	Kind    RelationKind    // one of RelationKinds
	Target  string          // type name as written, possibly qualified ("io.Reader", "models.User")
	Context RelationContext // for references, where the type appears (RelationContexts); ForType for implements
	Line    uint32
}

// EncodeFacts appends the encoding of f to dst. It writes what Encoder
// would, through a local slice and small inlined appenders: a guest
// encodes every file's facts, and under wasm keeping the slice out of
// memory and skipping the varint loop for small values count.
func EncodeFacts(dst []byte, f *Facts) []byte {
	b := appendString(dst, f.Package)
	b = appendUvarint(b, uint64(len(f.Symbols)))
	for i := range f.Symbols {
		s := &f.Symbols[i]
		b = appendString(b, s.Name)
		b = appendString(b, string(s.Kind))
		b = appendVarint(b, int64(s.Parent))
		b = appendString(b, s.Receiver)
		b = appendString(b, string(s.Visibility))
		b = appendUvarint(b, uint64(s.Span.StartLine))
		b = appendUvarint(b, uint64(s.Span.StartCol))
		b = appendUvarint(b, uint64(s.Span.EndLine))
		b = appendUvarint(b, uint64(s.Span.EndCol))
		b = appendBool(b, s.Test)
		b = appendBool(b, s.Signature != nil)
		if sig := s.Signature; sig != nil {
			b = appendUvarint(b, uint64(len(sig.Params)))
			for j := range sig.Params {
				b = appendString(b, sig.Params[j].Name)
				b = appendString(b, sig.Params[j].Type)
			}
			b = appendString(b, sig.Return)
			b = appendString(b, sig.Raw)
		}
	}
	b = appendUvarint(b, uint64(len(f.Calls)))
	for i := range f.Calls {
		c := &f.Calls[i]
		b = appendVarint(b, int64(c.Caller))
		b = appendString(b, c.Name)
		b = appendString(b, c.Receiver)
		b = appendString(b, c.ReceiverType)
		b = appendUvarint(b, uint64(c.Line))
		b = appendUvarint(b, uint64(c.Col))
	}
	b = appendUvarint(b, uint64(len(f.Imports)))
	for i := range f.Imports {
		im := &f.Imports[i]
		b = appendString(b, im.Path)
		b = appendString(b, im.Alias)
		b = appendUvarint(b, uint64(im.Line))
		b = appendUvarint(b, uint64(len(im.Names)))
		for j := range im.Names {
			b = appendString(b, im.Names[j].Name)
			b = appendString(b, im.Names[j].Alias)
		}
	}
	b = appendUvarint(b, uint64(len(f.Relations)))
	for i := range f.Relations {
		r := &f.Relations[i]
		b = appendVarint(b, int64(r.From))
		b = appendString(b, string(r.Kind))
		b = appendString(b, r.Target)
		b = appendString(b, string(r.Context))
		b = appendUvarint(b, uint64(r.Line))
	}
	b = appendUvarint(b, uint64(len(f.Errors)))
	for _, s := range f.Errors {
		b = appendString(b, s)
	}
	return appendImplicitSection(appendKeysSection(appendProjectDepsSection(appendCallbackSection(appendSymbolVariantSection(appendV2Section(appendSQLSection(appendDocSection(appendChannelSection(appendDynamicSection(b, f), f), f), f), f), f), f), f), f), f)
}

// appendUvarint is binary.AppendUvarint with the one-byte case first.
func appendUvarint(b []byte, v uint64) []byte {
	if v < 0x80 {
		return append(b, byte(v))
	}
	return binary.AppendUvarint(b, v)
}

// appendVarint is binary.AppendVarint (zig-zag) with the one-byte case first.
func appendVarint(b []byte, v int64) []byte {
	return appendUvarint(b, uint64(v)<<1^uint64(v>>63))
}

func appendString(b []byte, s string) []byte {
	return append(appendUvarint(b, uint64(len(s))), s...)
}

func appendBool(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}

// DecodeFacts decodes what EncodeFacts wrote and checks that every symbol
// index points inside the symbol table, so callers can index without checks.
func DecodeFacts(b []byte) (*Facts, error) { return decodeFacts(&Decoder{buf: b}) }

// DecodeFactsShared is DecodeFacts without copying strings: they alias b,
// which the caller must never modify afterwards. Decoding a whole cache
// file this way allocates a fraction of the memory (and page faults) that
// millions of small string copies cost.
func DecodeFactsShared(b []byte) (*Facts, error) {
	return decodeFacts(&Decoder{buf: b, share: true})
}

func decodeFacts(d *Decoder) (*Facts, error) {
	f := &Facts{Package: d.String()}
	if n := d.Len(14); n > 0 {
		f.Symbols = make([]Symbol, n)
	}
	for i := range f.Symbols {
		s := &f.Symbols[i]
		s.Name = d.String()
		s.Kind = SymbolKind(d.String())
		s.Parent = d.Int32()
		s.Receiver = d.String()
		s.Visibility = Visibility(d.String())
		s.Span = Span{d.Uint32(), d.Uint32(), d.Uint32(), d.Uint32()}
		s.Test = d.Bool()
		if d.Bool() {
			sig := &Signature{}
			if n := d.Len(2); n > 0 {
				sig.Params = make([]Param, n)
			}
			for j := range sig.Params {
				sig.Params[j] = Param{Name: d.String(), Type: d.String()}
			}
			sig.Return = d.String()
			sig.Raw = d.String()
			s.Signature = sig
		}
	}
	if n := d.Len(6); n > 0 {
		f.Calls = make([]Call, n)
	}
	for i := range f.Calls {
		f.Calls[i] = Call{Caller: d.Int32(), Name: d.String(), Receiver: d.String(), ReceiverType: d.String(), Line: d.Uint32(), Col: d.Uint32()}
	}
	if n := d.Len(4); n > 0 {
		f.Imports = make([]Import, n)
	}
	for i := range f.Imports {
		im := &f.Imports[i]
		im.Path = d.String()
		im.Alias = d.String()
		im.Line = d.Uint32()
		if n := d.Len(2); n > 0 {
			im.Names = make([]ImportName, n)
		}
		for j := range im.Names {
			im.Names[j] = ImportName{Name: d.String(), Alias: d.String()}
		}
	}
	if n := d.Len(5); n > 0 {
		f.Relations = make([]Relation, n)
	}
	for i := range f.Relations {
		f.Relations[i] = Relation{From: d.Int32(), Kind: RelationKind(d.String()), Target: d.String(), Context: RelationContext(d.String()), Line: d.Uint32()}
	}
	if n := d.Len(1); n > 0 {
		f.Errors = make([]string, n)
	}
	for i := range f.Errors {
		f.Errors[i] = d.String()
	}
	decodeDynamicSection(d, f)
	decodeChannelSection(d, f)
	decodeDocSection(d, f)
	decodeSQLSection(d, f)
	decodeV2Section(d, f)
	decodeSymbolVariantSection(d, f)
	decodeCallbackSection(d, f)
	decodeProjectDepsSection(d, f)
	decodeKeysSection(d, f)
	decodeImplicitSection(d, f)
	if err := d.Err(); err != nil {
		return nil, err
	}
	if d.Remaining() != 0 {
		return nil, fmt.Errorf("abi: %d trailing bytes after facts", d.Remaining())
	}
	return f, f.Validate()
}

// Validate checks the internal references of f.
func (f *Facts) Validate() error {
	n := int32(len(f.Symbols))
	for i, s := range f.Symbols {
		if s.Parent < -1 || s.Parent >= n || s.Parent == int32(i) {
			return fmt.Errorf("abi: symbol %d (%q) has parent %d out of range", i, s.Name, s.Parent)
		}
		if s.Name == "" {
			return fmt.Errorf("abi: symbol %d has no name", i)
		}
	}
	for i, c := range f.Calls {
		if c.Caller < -1 || c.Caller >= n {
			return fmt.Errorf("abi: call %d (%q) has caller %d out of range", i, c.Name, c.Caller)
		}
	}
	for i, r := range f.Relations {
		if r.From < -1 || r.From >= n {
			return fmt.Errorf("abi: relation %d (%q) has source %d out of range", i, r.Target, r.From)
		}
	}
	if err := f.validateDynamic(); err != nil {
		return err
	}
	if err := f.validateChannels(); err != nil {
		return err
	}
	if err := f.validateSQL(); err != nil {
		return err
	}
	if err := f.validateCallbacks(); err != nil {
		return err
	}
	if err := f.validateV2(); err != nil {
		return err
	}
	// Parents must not form cycles; walking up is bounded by n steps.
	for i := range f.Symbols {
		p, steps := f.Symbols[i].Parent, int32(0)
		for p >= 0 {
			if steps++; steps > n {
				return fmt.Errorf("abi: symbol %d has a cyclic parent chain", i)
			}
			p = f.Symbols[p].Parent
		}
	}
	return nil
}

// AppendOK appends the OK status byte; the payload follows it.
func AppendOK(dst []byte) []byte { return append(dst, StatusOK) }

// AppendError appends an error result with msg.
func AppendError(dst []byte, msg string) []byte {
	return append(append(dst, StatusError), msg...)
}

// SplitResult separates a result's status from its payload. An error result
// comes back as an error carrying the guest's message.
func SplitResult(b []byte) ([]byte, error) {
	if len(b) == 0 {
		return nil, ErrTruncated
	}
	switch b[0] {
	case StatusOK:
		return b[1:], nil
	case StatusError:
		msg := b[1:]
		if len(msg) > 4096 {
			msg = msg[:4096]
		}
		return nil, &GuestError{Message: string(msg)}
	default:
		return nil, fmt.Errorf("abi: unknown result status %d", b[0])
	}
}

// GuestError is an error the plugin reported itself (as opposed to a trap).
type GuestError struct{ Message string }

func (e *GuestError) Error() string { return e.Message }
