package graph

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"unicode"
	"unicode/utf8"
	"unsafe"
)

// The graph.json decoder: a single pass over the bytes that fills Graph
// records directly. It accepts exactly what the encoding/json-based reader
// accepted (FuzzParseDifferential holds it to that) and keeps its
// semantics, including the odd corners: case-insensitive member names, last
// duplicate wins (objects merge into the earlier value, arrays reuse its
// elements), null clears pointers/slices/maps and leaves scalars alone, and
// a record array that a later duplicate replaces is never judged.

// maxDepth is encoding/json's nesting limit.
const maxDepth = 10000

// SyntaxError is a byte offset where data stops being JSON.
type syntaxError struct {
	off int
	msg string
}

func (e *syntaxError) Error() string {
	return fmt.Sprintf("not valid JSON at byte %d (truncated or half-written?): %s", e.off, e.msg)
}

// typeError is well-formed JSON of the wrong shape for the graph.json field.
type typeError struct {
	off       int
	got, want string
}

func (e *typeError) Error() string {
	return fmt.Sprintf("cannot use JSON %s as %s (at byte %d)", e.got, e.want, e.off)
}

type decoder struct {
	data []byte
	pos  int
	buf  []byte // unescaped string scratch

	// ids interns node ids and edge endpoints: idStr[k] is id k, and
	// endpoint validation is then an array lookup instead of a map probe.
	ids   map[string]int32
	idStr []string
	// strs interns the short, repetitive strings (files, locations,
	// relations, kinds, type names…); last caches one value per field.
	strs    map[string]string
	last    [nCache]string
	arena   []byte
	idArena []byte
	// borrow is set for a links decoder running apart from the nodes: it
	// leaves endpoints unresolved and pointing into data. Parse resolves
	// every endpoint of the links it keeps against the nodes' id table and
	// points it at the node id string before it returns (and drops the
	// rest), so nothing borrowed outlives Parse and ids are stored once.
	borrow bool
	// lastSrc short-cuts the source lookup: canonical links are sorted by
	// source, so it repeats.
	lastSrc    string
	lastSrcIdx int32
	// arrays holds the pre-pass's sizes of the top-level arrays; idHint is
	// the id table size it suggests.
	arrays []arraySize
	idHint int
	// sites and params are scratch for decoding a list before it is copied
	// out at its exact size.
	siteBuf  []Site
	paramBuf []Param
}

const (
	cSourceFile = iota
	cSourceLocation
	cRelation
	cContext
	cKind
	cFileType
	cLanguage
	cVisibility
	cRepo
	cSiteFile
	cSiteLocation
	cParamName
	cTypeRef
	cReturnType
	cConfidence
	nCache
)

func newDecoder(data []byte) *decoder {
	d := &decoder{data: data, strs: make(map[string]string, 1024), lastSrcIdx: -1}
	nodes, links := d.layout()
	// Every link endpoint is a node id: size the id table for the nodes
	// (with room for a few dangling ids), or guess from the links.
	hint := nodes + nodes/16
	if nodes == 0 {
		hint = links / 2
	}
	d.idHint = hint // the table is made on first use: big arrays get their own decoder
	return d
}

// ---- errors and low-level scanning ----

func (d *decoder) errAt(off int, format string, args ...any) error {
	return &syntaxError{off: off, msg: fmt.Sprintf(format, args...)}
}

func (d *decoder) unexpected() error {
	if d.pos >= len(d.data) {
		return &syntaxError{off: len(d.data), msg: "unexpected end of JSON input"}
	}
	return d.errAt(d.pos, "invalid character %s", quoteChar(d.data[d.pos]))
}

func quoteChar(c byte) string {
	switch c {
	case '\'':
		return `'\''`
	case '"':
		return `'"'`
	}
	s := strconv.Quote(string(rune(c)))
	return "'" + s[1:len(s)-1] + "'"
}

// kindName names the JSON value starting with c, for type errors.
func kindName(c byte) string {
	switch c {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "bool"
	case 'n':
		return "null"
	}
	return "number"
}

func (d *decoder) typeErr(want string) error {
	if d.pos >= len(d.data) {
		return d.unexpected()
	}
	c := d.data[d.pos]
	if kindName(c) == "number" && c != '-' && (c < '0' || c > '9') {
		return d.unexpected()
	}
	return &typeError{off: d.pos, got: kindName(c), want: want}
}

// ws skips whitespace and returns the next byte (0 at the end).
func (d *decoder) ws() byte {
	for d.pos < len(d.data) {
		switch c := d.data[d.pos]; c {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return c
		}
	}
	return 0
}

func (d *decoder) literal(lit string) error {
	end := d.pos + len(lit)
	for i := 0; i < len(lit); i++ {
		if d.pos+i >= len(d.data) {
			d.pos += i
			return d.unexpected()
		}
		if d.data[d.pos+i] != lit[i] {
			d.pos += i
			return d.errAt(d.pos, "invalid character %s in literal %s (expecting %s)", quoteChar(d.data[d.pos]), lit, quoteChar(lit[i]))
		}
	}
	d.pos = end
	return nil
}

// null consumes a null literal if one is next.
func (d *decoder) null() (bool, error) {
	if d.pos < len(d.data) && d.data[d.pos] == 'n' {
		return true, d.literal("null")
	}
	return false, nil
}

// number validates a JSON number at d.pos and returns its bytes.
func (d *decoder) number() ([]byte, error) {
	data, start := d.data, d.pos
	i := start
	if i < len(data) && data[i] == '-' {
		i++
	}
	if i >= len(data) {
		d.pos = i
		return nil, d.unexpected()
	}
	switch c := data[i]; {
	case c == '0':
		i++
	case '1' <= c && c <= '9':
		for i++; i < len(data) && '0' <= data[i] && data[i] <= '9'; i++ {
		}
	default:
		d.pos = i
		return nil, d.errAt(i, "invalid character %s in numeric literal", quoteChar(c))
	}
	if i < len(data) && data[i] == '.' {
		i++
		if i >= len(data) {
			d.pos = i
			return nil, d.unexpected()
		}
		if data[i] < '0' || data[i] > '9' {
			d.pos = i
			return nil, d.errAt(i, "invalid character %s after decimal point in numeric literal", quoteChar(data[i]))
		}
		for ; i < len(data) && '0' <= data[i] && data[i] <= '9'; i++ {
		}
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		if i >= len(data) {
			d.pos = i
			return nil, d.unexpected()
		}
		if data[i] < '0' || data[i] > '9' {
			d.pos = i
			return nil, d.errAt(i, "invalid character %s in exponent of numeric literal", quoteChar(data[i]))
		}
		for ; i < len(data) && '0' <= data[i] && data[i] <= '9'; i++ {
		}
	}
	d.pos = i
	return data[start:i], nil
}

// plain marks the bytes a string can hold without a slow path.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return
}()

// str reads the string at d.pos (which is '"') and returns its decoded
// bytes, valid until the next str call.
func (d *decoder) str() ([]byte, error) {
	data := d.data
	start := d.pos + 1
	i := start
	for i < len(data) && plain[data[i]] {
		i++
	}
	if i < len(data) && data[i] == '"' {
		d.pos = i + 1
		return data[start:i], nil
	}
	return d.strSlow(start, i)
}

// strSlow decodes escapes and non-ASCII the way encoding/json does:
// invalid UTF-8 and unpaired surrogates become U+FFFD.
func (d *decoder) strSlow(start, i int) ([]byte, error) {
	data := d.data
	b := append(d.buf[:0], data[start:i]...)
	for {
		if i >= len(data) {
			d.pos = len(data)
			return nil, d.unexpected()
		}
		c := data[i]
		switch {
		case c == '"':
			d.pos = i + 1
			d.buf = b
			return b, nil
		case c == '\\':
			if i+1 >= len(data) {
				d.pos = len(data)
				return nil, d.unexpected()
			}
			switch e := data[i+1]; e {
			case '"', '\\', '/':
				b = append(b, e)
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				r, err := d.hex4(i + 2)
				if err != nil {
					return nil, err
				}
				i += 6
				if 0xD800 <= r && r < 0xE000 { // a surrogate
					if r < 0xDC00 && i+6 <= len(data) && data[i] == '\\' && data[i+1] == 'u' {
						if r2, ok := hex4(data[i+2 : i+6]); ok && 0xDC00 <= r2 && r2 < 0xE000 {
							b = utf8.AppendRune(b, 0x10000+(r-0xD800)<<10+(r2-0xDC00))
							i += 6
							continue
						}
					}
					r = unicode.ReplacementChar
				}
				b = utf8.AppendRune(b, r)
				continue
			default:
				d.pos = i + 1
				return nil, d.errAt(i+1, "invalid character %s in string escape code", quoteChar(e))
			}
			i += 2
		case c < 0x20:
			d.pos = i
			return nil, d.errAt(i, "invalid character %s in string literal", quoteChar(c))
		case c < utf8.RuneSelf:
			b = append(b, c)
			i++
		default:
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size == 1 {
				b = append(b, "\uFFFD"...)
			} else {
				b = append(b, data[i:i+size]...)
			}
			i += size
		}
	}
}

func (d *decoder) hex4(at int) (rune, error) {
	for k := at; k < at+4; k++ {
		if k >= len(d.data) {
			d.pos = len(d.data)
			return 0, d.unexpected()
		}
		if c := d.data[k]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			d.pos = k
			return 0, d.errAt(k, "invalid character %s in \\u hexadecimal character escape", quoteChar(d.data[k]))
		}
	}
	r, _ := hex4(d.data[at : at+4])
	return r, nil
}

func hex4(s []byte) (rune, bool) {
	var r rune
	for _, c := range s {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// skip validates and skips one value at d.pos (after whitespace); depth
// counts the containers already open.
func (d *decoder) skip(depth int) error {
	switch c := d.ws(); c {
	case '"':
		_, err := d.str()
		return err
	case '{':
		if depth+1 > maxDepth {
			return d.errAt(d.pos, "exceeded max depth")
		}
		d.pos++
		if d.ws() == '}' {
			d.pos++
			return nil
		}
		for {
			if d.ws() != '"' {
				return d.expect("beginning of object key string")
			}
			if _, err := d.str(); err != nil {
				return err
			}
			if err := d.colon(); err != nil {
				return err
			}
			if err := d.skip(depth + 1); err != nil {
				return err
			}
			if more, err := d.next('}'); err != nil || !more {
				return err
			}
		}
	case '[':
		if depth+1 > maxDepth {
			return d.errAt(d.pos, "exceeded max depth")
		}
		d.pos++
		if d.ws() == ']' {
			d.pos++
			return nil
		}
		for {
			if err := d.skip(depth + 1); err != nil {
				return err
			}
			if more, err := d.next(']'); err != nil || !more {
				return err
			}
		}
	case 't':
		return d.literal("true")
	case 'f':
		return d.literal("false")
	case 'n':
		return d.literal("null")
	default:
		if c == '-' || ('0' <= c && c <= '9') {
			_, err := d.number()
			return err
		}
		return d.expect("beginning of value")
	}
}

func (d *decoder) expect(what string) error {
	if d.pos >= len(d.data) {
		return d.unexpected()
	}
	return d.errAt(d.pos, "invalid character %s looking for %s", quoteChar(d.data[d.pos]), what)
}

func (d *decoder) colon() error {
	if d.ws() != ':' {
		return d.expect("':' after object key")
	}
	d.pos++
	d.ws()
	return nil
}

// next consumes the separator after a member or element: it reports true
// after a ',' and false after the closing byte.
func (d *decoder) next(closing byte) (bool, error) {
	switch d.ws() {
	case ',':
		d.pos++
		return true, nil
	case closing:
		d.pos++
		return false, nil
	}
	if closing == '}' {
		return false, d.expect("',' or '}' after object key:value pair")
	}
	return false, d.expect("',' or ']' after array element")
}

// object starts an object (d.pos at '{'): it reports whether there is a
// first member.
func (d *decoder) object(depth int) (bool, error) {
	if depth > maxDepth {
		return false, d.errAt(d.pos, "exceeded max depth")
	}
	d.pos++
	if d.ws() == '}' {
		d.pos++
		return false, nil
	}
	return true, nil
}

// key reads a member name and its colon; the bytes are valid until the next
// string is read.
func (d *decoder) key() ([]byte, error) {
	if d.ws() != '"' {
		return nil, d.expect("beginning of object key string")
	}
	k, err := d.str()
	if err != nil {
		return nil, err
	}
	return k, d.colon()
}

// array starts an array (d.pos at '['): it reports whether there is a
// first element.
func (d *decoder) array(depth int) (bool, error) {
	if depth > maxDepth {
		return false, d.errAt(d.pos, "exceeded max depth")
	}
	d.pos++
	if d.ws() == ']' {
		d.pos++
		return false, nil
	}
	return true, nil
}

// raw validates one value and returns a copy of its bytes.
func (d *decoder) raw(depth int) (json.RawMessage, error) {
	d.ws()
	start := d.pos
	if err := d.skip(depth); err != nil {
		return nil, err
	}
	return bytes.Clone(d.data[start:d.pos]), nil
}

// ---- typed values (d.pos at the value) ----

// strVal reads a string field: ok is false for null (the field is left as
// it was).
func (d *decoder) strVal() (b []byte, ok bool, err error) {
	switch d.ws() {
	case '"':
		b, err = d.str()
		return b, err == nil, err
	case 'n':
		return nil, false, d.literal("null")
	}
	return nil, false, d.typeErr("string")
}

func (d *decoder) boolVal(v *bool) error {
	switch d.ws() {
	case 't':
		*v = true
		return d.literal("true")
	case 'f':
		*v = false
		return d.literal("false")
	case 'n':
		return d.literal("null")
	}
	return d.typeErr("bool")
}

// intVal reads an int field; ok is false for null.
func (d *decoder) intVal() (n int, ok bool, err error) {
	if null, err := d.null(); null || err != nil {
		return 0, false, err
	}
	c := d.ws()
	if c != '-' && (c < '0' || c > '9') {
		return 0, false, d.typeErr("int")
	}
	start := d.pos
	b, err := d.number()
	if err != nil {
		return 0, false, err
	}
	v, perr := strconv.ParseInt(unsafeString(b), 10, 64)
	if perr != nil {
		return 0, false, &typeError{off: start, got: "number " + string(b), want: "int"}
	}
	return int(v), true, nil
}

// floatVal reads a float64 field; ok is false for null.
func (d *decoder) floatVal() (f float64, ok bool, err error) {
	if null, err := d.null(); null || err != nil {
		return 0, false, err
	}
	c := d.ws()
	if c != '-' && (c < '0' || c > '9') {
		return 0, false, d.typeErr("float64")
	}
	start := d.pos
	b, err := d.number()
	if err != nil {
		return 0, false, err
	}
	switch string(b) {
	case "1.0", "1":
		return 1, true, nil
	case "0", "0.0":
		return 0, true, nil
	}
	v, perr := strconv.ParseFloat(unsafeString(b), 64)
	if perr != nil {
		return 0, false, &typeError{off: start, got: "number " + string(b), want: "float64"}
	}
	return v, true, nil
}

// ---- strings kept in the graph ----

func unsafeString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// alloc copies b into the decoder's arena: one allocation per 256 KiB of
// strings instead of one per string. Arena bytes are never written again.
func (d *decoder) alloc(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) > 4096 {
		return string(b)
	}
	if cap(d.arena)-len(d.arena) < len(b) {
		d.arena = make([]byte, 0, 256<<10)
	}
	n := len(d.arena)
	d.arena = append(d.arena, b...)
	return unsafe.String(&d.arena[n], len(b))
}

// allocID is alloc for ids, in their own arena: when links and nodes are
// decoded separately, the links' copies of the ids are dropped for the
// nodes' and their arena goes with them.
func (d *decoder) allocID(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) > 4096 {
		return string(b)
	}
	if cap(d.idArena)-len(d.idArena) < len(b) {
		d.idArena = make([]byte, 0, 256<<10)
	}
	n := len(d.idArena)
	d.idArena = append(d.idArena, b...)
	return unsafe.String(&d.idArena[n], len(b))
}

// borrowID returns an endpoint without interning it: pointing into data
// when it is there verbatim, else a copy.
func (d *decoder) borrowID(b []byte) string {
	if inside(b, d.data) {
		return unsafeString(b)
	}
	return string(b)
}

// inside reports whether b lies within data.
func inside(b, data []byte) bool {
	p, lo := uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(unsafe.Pointer(unsafe.SliceData(data)))
	return p >= lo && p+uintptr(len(b)) <= lo+uintptr(len(data))
}

// intern returns b as a string shared by every equal value decoded.
func (d *decoder) intern(c int, b []byte) string {
	if string(b) == d.last[c] {
		return d.last[c]
	}
	s, ok := d.strs[string(b)]
	if !ok {
		s = d.alloc(b)
		d.strs[s] = s
	}
	d.last[c] = s
	return s
}

// id interns a node id or edge endpoint.
func (d *decoder) id(b []byte) (string, int32) {
	if k, ok := d.ids[string(b)]; ok {
		return d.idStr[k], k
	}
	if d.ids == nil {
		d.ids = make(map[string]int32, d.idHint)
		d.idStr = make([]string, 0, d.idHint)
	}
	s := d.allocID(b)
	k := int32(len(d.idStr))
	d.ids[s] = k
	d.idStr = append(d.idStr, s)
	return s, k
}

// confidence maps the three tiers to their constants.
func (d *decoder) confidence(b []byte) Confidence {
	switch string(b) {
	case "EXTRACTED":
		return Extracted
	case "INFERRED":
		return Inferred
	case "AMBIGUOUS":
		return Ambiguous
	}
	return Confidence(d.intern(cConfidence, b))
}

// ---- member names ----

// fold is encoding/json's case folding of member names: ASCII upper case,
// and each other rune to the smallest rune of its fold set ("ſ" is "S").
func fold(dst, name []byte) []byte {
	for i := 0; i < len(name); {
		if c := name[i]; c < utf8.RuneSelf {
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			dst = append(dst, c)
			i++
			continue
		}
		r, n := utf8.DecodeRune(name[i:])
		for {
			r2 := unicode.SimpleFold(r)
			if r2 <= r {
				r = r2
				break
			}
			r = r2
		}
		dst = utf8.AppendRune(dst, r)
		i += n
	}
	return dst
}

// fieldSet resolves member names to field numbers: exactly, or failing
// that by folded name. Field numbers start at 1; 0 is "no field".
type fieldSet struct {
	exact  map[string]int
	folded map[string]int
}

func newFieldSet(names ...string) *fieldSet {
	fs := &fieldSet{exact: map[string]int{}, folded: map[string]int{}}
	for i, n := range names {
		fs.exact[n] = i + 1
		fs.folded[string(fold(nil, []byte(n)))] = i + 1
	}
	return fs
}

func (fs *fieldSet) lookup(k []byte) int {
	if f, ok := fs.exact[string(k)]; ok {
		return f
	}
	var arr [32]byte
	return fs.folded[string(fold(arr[:0], k))]
}

const (
	fTopDirected = iota + 1
	fTopMultigraph
	fTopGraph
	fTopNodes
	fTopLinks
	fTopEdges
	fTopHyperedges
	fTopBuiltAtCommit
)

var topFields = newFieldSet("directed", "multigraph", "graph", "nodes", "links", "edges", "hyperedges", "built_at_commit")

const (
	fNodeID = iota + 1
	fNodeLabel
	fNodeFileType
	fNodeSourceFile
	fNodeSourceLocation
	fNodeKind
	fNodeVisibility
	fNodeLanguage
	fNodeSpan
	fNodeSignature
	fNodeCommunity
	fNodeRepo
	fNodeIsTest
	fNodeDoc
)

var nodeFields = newFieldSet("id", "label", "file_type", "source_file", "source_location", "kind", "visibility",
	"language", "span", "signature", "community", "repo", "_is_test", "doc")

const (
	fEdgeSource = iota + 1
	fEdgeTarget
	fEdgeRelation
	fEdgeConfidence
	fEdgeConfidenceScore
	fEdgeSourceFile
	fEdgeSourceLocation
	fEdgeContext
	fEdgeWeight
	fEdgeSites
)

var edgeFields = newFieldSet("source", "target", "relation", "confidence", "confidence_score",
	"source_file", "source_location", "context", "weight", "sites")

var spanFields = newFieldSet("start_line", "start_col", "end_line", "end_col")
var sigFields = newFieldSet("params", "return_type", "raw")
var paramFields = newFieldSet("name", "type_ref")
var siteFields = newFieldSet("source_file", "source_location")

// nodeField is nodeFields.lookup with the common names switched on first;
// known reports a name that stays out of Extra.
func nodeField(k []byte) (f int, known bool) {
	switch string(k) {
	case "id":
		return fNodeID, true
	case "label":
		return fNodeLabel, true
	case "file_type":
		return fNodeFileType, true
	case "source_file":
		return fNodeSourceFile, true
	case "source_location":
		return fNodeSourceLocation, true
	case "kind":
		return fNodeKind, true
	case "visibility":
		return fNodeVisibility, true
	case "language":
		return fNodeLanguage, true
	case "span":
		return fNodeSpan, true
	case "signature":
		return fNodeSignature, true
	case "community":
		return fNodeCommunity, true
	case "repo":
		return fNodeRepo, true
	case "_is_test":
		return fNodeIsTest, true
	case "doc":
		return fNodeDoc, true
	case "norm_label":
		return 0, true
	}
	return nodeFields.lookup(k), false
}

func edgeField(k []byte) (f int, known bool) {
	switch string(k) {
	case "source":
		return fEdgeSource, true
	case "target":
		return fEdgeTarget, true
	case "relation":
		return fEdgeRelation, true
	case "confidence":
		return fEdgeConfidence, true
	case "confidence_score":
		return fEdgeConfidenceScore, true
	case "source_file":
		return fEdgeSourceFile, true
	case "source_location":
		return fEdgeSourceLocation, true
	case "context":
		return fEdgeContext, true
	case "weight":
		return fEdgeWeight, true
	case "sites":
		return fEdgeSites, true
	}
	return edgeFields.lookup(k), false
}

// ---- the document ----

// recordArray is one decoded "nodes", "links" or "edges" member. err is the
// first record that does not fit the graph.json shape; it only counts if
// this array is the one the graph ends up with.
type nodeArray struct {
	nodes []Node
	idx   []int32 // id index of each node
	null  bool
	err   error
}

type edgeArray struct {
	edges    []Edge
	src, dst []int32 // id index of each endpoint
	set      bool    // present and not null
	err      error
}

// parallelMin is the smallest record array decoded on its own goroutine
// (a variable so tests can send every array there).
var parallelMin = 4096

// job decodes one record array: inline, or on its own goroutine with its
// own decoder (own intern tables) while the caller moves on past the array.
type job struct {
	dec   *decoder
	nodes nodeArray
	edges edgeArray
	err   error // fatal: the array is not valid JSON
	done  chan struct{}
}

func (j *job) run(nodes bool) {
	if nodes {
		j.nodes, j.err = j.dec.nodeArray()
	} else {
		j.err = j.dec.edgeArray(&j.edges)
	}
}

func (j *job) wait() {
	if j.done != nil {
		<-j.done
	}
}

// startArray decodes the record array at d.pos. A large one (when there
// is more than one CPU) goes to a goroutine: the pre-pass knows where it
// ends, so this decoder skips there at once, and the child checks that the
// array really ends there.
func (d *decoder) startArray(nodes bool) *job {
	j := &job{dec: d}
	var size arraySize
	for _, a := range d.arrays {
		if a.pos == d.pos {
			size = a
		}
	}
	if size.n < parallelMin || runtime.GOMAXPROCS(0) < 2 {
		j.run(nodes)
		return j
	}
	hint := d.idHint
	if nodes {
		hint = size.n
	}
	c := &decoder{data: d.data, pos: d.pos, arrays: d.arrays, lastSrcIdx: -1, idHint: hint,
		strs: make(map[string]string, 1024), borrow: !nodes}
	j.dec, j.done = c, make(chan struct{})
	go func() {
		defer close(j.done)
		j.run(nodes)
		if j.err == nil && c.pos != size.end {
			j.err = c.errAt(c.pos, "invalid character %s after array element", quoteChar(c.data[c.pos]))
		}
	}()
	d.pos = size.end
	return j
}

func (d *decoder) parse() (*Graph, error) {
	var jobs []*job
	g, nodes, links, edges, err := d.top(&jobs)
	// Wait for every array, also on error: the goroutines read data, which
	// is the caller's once Parse returns. An invalid array comes before
	// anything the top level found after it.
	for _, j := range jobs {
		j.wait()
	}
	for _, j := range jobs {
		if j.err != nil {
			return nil, j.err
		}
	}
	if err != nil {
		return nil, err
	}
	if nodes == nil || nodes.nodes.null {
		return nil, errNotGraph
	}
	if nodes.nodes.err != nil {
		return nil, nodes.nodes.err
	}
	ls := links
	if ls == nil || !ls.edges.set {
		ls = edges
	}
	if ls != nil && ls.edges.err != nil {
		return nil, ls.edges.err
	}
	g.Nodes, g.Edges = nodes.nodes.nodes, []Edge{}
	if ls == nil || ls.edges.edges == nil {
		return g, nil
	}
	g.Edges = ls.edges.edges
	src, dst := ls.edges.src, ls.edges.dst

	// Validate without an id map: an endpoint is a node when its interned
	// id is some node's. The node indices found go to NewIndex.
	n := nodes.dec
	nodeOf := make([]int32, len(n.idStr))
	for i := range nodeOf {
		nodeOf[i] = -1
	}
	for i, k := range nodes.nodes.idx {
		nodeOf[k] = int32(i) // a repeated id resolves to its last node, as in NewIndex
	}
	// Links interned by another decoder (or not at all) are resolved by
	// id and then point at the node id strings, so each id is stored once.
	byName := ls.dec != n
	if src == nil {
		src, dst = make([]int32, len(g.Edges)), make([]int32, len(g.Edges))
	}
	lastSrc, lastIdx := "", int32(-1)
	lookup := func(id string) int32 {
		if k, ok := n.ids[id]; ok {
			return nodeOf[k]
		}
		return -1
	}
	for i := range g.Edges {
		e := &g.Edges[i]
		if err := checkEdge(i, e); err != nil {
			return nil, err
		}
		var s, t int32
		if byName {
			// Links are sorted by source: reuse the last lookup.
			if lastIdx < 0 || e.Source != lastSrc {
				lastSrc, lastIdx = e.Source, lookup(e.Source)
			}
			s, t = lastIdx, lookup(e.Target)
		} else {
			s, t = nodeOf[src[i]], nodeOf[dst[i]]
		}
		if s < 0 {
			return nil, fmt.Errorf("link %d: source %q is not a node", i, e.Source)
		}
		if t < 0 {
			return nil, fmt.Errorf("link %d: target %q is not a node", i, e.Target)
		}
		if byName {
			e.Source, e.Target = g.Nodes[s].ID, g.Nodes[t].ID
		}
		src[i], dst[i] = s, t
	}
	// The nodes decoder's id table becomes NewIndex's id map when it holds
	// exactly the node ids, once each: its values are then renumbered from
	// id order to node order (nothing to do when the nodes were decoded on
	// their own, as ids are then numbered in node order).
	var byID map[string]int32
	if len(n.ids) == len(g.Nodes) {
		byID = n.ids
		for i, k := range nodes.nodes.idx {
			if k != int32(i) {
				byID[n.idStr[k]] = int32(i)
			}
		}
	}
	handOff(g, byID, src, dst)
	return g, nil
}

// top decodes the top-level object; the record arrays are started as jobs
// and appended to *jobs. The last nodes, links and edges members win.
func (d *decoder) top(jobs *[]*job) (g *Graph, nodes, links, edges *job, err error) {
	g = &Graph{}
	switch c := d.ws(); c {
	case '{':
	case 'n':
		if err := d.literal("null"); err != nil {
			return nil, nil, nil, nil, err
		}
		return g, nil, nil, nil, d.end()
	default:
		if err := d.skip(0); err != nil {
			return nil, nil, nil, nil, err
		}
		if err := d.end(); err != nil {
			return nil, nil, nil, nil, err
		}
		return nil, nil, nil, nil, fmt.Errorf("not a graph.json: the document is a JSON %s, not an object", kindName(c))
	}
	more, err := d.object(1)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	for ; more; more, err = d.next('}') {
		k, err := d.key()
		if err != nil {
			return nil, nil, nil, nil, err
		}
		switch f := topFields.lookup(k); f {
		case fTopDirected:
			err = d.boolVal(&g.Directed)
		case fTopMultigraph:
			var b bool
			err = d.boolVal(&b)
		case fTopGraph:
			err = d.rawMap(&g.GraphAttrs, 2)
		case fTopNodes, fTopLinks, fTopEdges:
			var j *job
			if d.ws() == '[' {
				j = d.startArray(f == fTopNodes)
				*jobs = append(*jobs, j)
			} else { // null, or not an array
				j = &job{dec: d}
				if f == fTopNodes {
					j.nodes, err = d.nodeArray()
				} else {
					err = d.edgeArray(&j.edges)
				}
			}
			switch f {
			case fTopNodes:
				nodes = j
			case fTopLinks:
				links = j
			default:
				edges = j
			}
		case fTopHyperedges:
			err = d.rawArray(&g.Hyperedges, 2)
		case fTopBuiltAtCommit:
			var b []byte
			var ok bool
			if b, ok, err = d.strVal(); ok {
				g.BuiltAtCommit = string(b)
			}
		default:
			err = d.skip(1)
		}
		if err != nil {
			return nil, nil, nil, nil, err
		}
	}
	if err != nil {
		return nil, nil, nil, nil, err
	}
	return g, nodes, links, edges, d.end()
}

// end checks that only whitespace follows the document.
func (d *decoder) end() error {
	if d.ws() != 0 || d.pos < len(d.data) {
		return d.errAt(d.pos, "invalid character %s after top-level value", quoteChar(d.data[d.pos]))
	}
	return nil
}

// rawMap decodes an object of raw values, merging into *m as
// encoding/json does; null clears it.
func (d *decoder) rawMap(m *map[string]json.RawMessage, depth int) error {
	switch d.ws() {
	case 'n':
		*m = nil
		return d.literal("null")
	case '{':
	default:
		return d.typeErr("object")
	}
	more, err := d.object(depth)
	if err != nil {
		return err
	}
	if *m == nil {
		*m = map[string]json.RawMessage{}
	}
	for ; more; more, err = d.next('}') {
		k, err := d.key()
		if err != nil {
			return err
		}
		ks := string(k)
		v, err := d.raw(depth)
		if err != nil {
			return err
		}
		(*m)[ks] = v
	}
	return err
}

// rawArray decodes an array of raw values; null clears it.
func (d *decoder) rawArray(s *[]json.RawMessage, depth int) error {
	switch d.ws() {
	case 'n':
		*s = nil
		return d.literal("null")
	case '[':
	default:
		return d.typeErr("array")
	}
	more, err := d.array(depth)
	if err != nil {
		return err
	}
	out := []json.RawMessage{}
	for ; more; more, err = d.next(']') {
		v, err := d.raw(depth)
		if err != nil {
			return err
		}
		out = append(out, v)
	}
	*s = out
	return err
}

// records sizes the record array at d.pos: its element count from the
// pre-pass, or from a scan of it.
func (d *decoder) records() int {
	for _, a := range d.arrays {
		if a.pos == d.pos {
			return a.n
		}
	}
	_, n := extent(d.data, d.pos)
	return n
}

// extent finds, without validating, the end of the value at data[i] and,
// for an array, how many elements it has. It is the sizing pre-pass: a
// wrong answer (on invalid JSON) only costs capacity.
func extent(data []byte, i int) (end, n int) {
	depth, commas, any := 0, 0, false
	for ; i < len(data); i++ {
		switch data[i] {
		case '"':
			if depth == 1 {
				any = true
			}
			i = stringEnd(data, i)
			if depth == 0 {
				return i + 1, 0
			}
		case '[', '{':
			if depth == 1 {
				any = true
			}
			depth++
		case ']', '}':
			depth--
			if depth <= 0 {
				if any {
					return i + 1, commas + 1
				}
				return i + 1, 0
			}
		case ',':
			if depth == 0 {
				return i, 0
			}
			if depth == 1 {
				commas++
			}
		case ' ', '\t', '\n', '\r':
		default:
			if depth == 1 {
				any = true
			}
		}
	}
	return i, 0
}

// stringEnd returns the index of the quote closing the string that opens
// at data[open], or len(data) if it is unterminated. Most of graph.json is
// string bytes, so it jumps from quote to quote (bytes.IndexByte is
// vectorized) and counts the backslashes before each: an odd run escapes it.
func stringEnd(data []byte, open int) int {
	j := open + 1
	for {
		k := bytes.IndexByte(data[j:], '"')
		if k < 0 {
			return len(data)
		}
		q := j + k
		bs := 0
		for p := q - 1; p > open && data[p] == '\\'; p-- {
			bs++
		}
		if bs%2 == 0 {
			return q
		}
		j = q + 1
	}
}

// arraySize is a pre-pass answer: the array at pos has n elements.
type arraySize struct{ pos, end, n int }

// layout walks the top-level members without validating, sizing every
// array member, so the id table can be allocated for the node count before
// links (which come first in graph.json) are decoded.
func (d *decoder) layout() (nodes, links int) {
	data := d.data
	i := d.pos
	skipWS := func() {
		for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
			i++
		}
	}
	skipWS()
	if i >= len(data) || data[i] != '{' {
		return 0, 0
	}
	i++
	for {
		skipWS()
		if i >= len(data) || data[i] != '"' {
			return
		}
		kend, _ := extent(data, i)
		if kend > len(data) {
			return
		}
		key := data[i+1 : max(i+1, kend-1)]
		i = kend
		skipWS()
		if i >= len(data) || data[i] != ':' {
			return
		}
		i++
		skipWS()
		start := i
		end, n := extent(data, i)
		if start < len(data) && data[start] == '[' {
			d.arrays = append(d.arrays, arraySize{start, end, n})
			switch topFields.lookup(key) {
			case fTopNodes:
				nodes = n
			case fTopLinks, fTopEdges:
				links = max(links, n)
			}
		}
		i = end
		skipWS()
		if i >= len(data) || data[i] != ',' {
			return
		}
		i++
	}
}

func (d *decoder) nodeArray() (nodeArray, error) {
	var a nodeArray
	switch d.ws() {
	case 'n':
		a.null = true
		return a, d.literal("null")
	case '[':
	default:
		return a, d.typeErr("array")
	}
	n := d.records()
	a.nodes = make([]Node, 0, n)
	a.idx = make([]int32, 0, n)
	more, err := d.array(2)
	if err != nil {
		return a, err
	}
	for ; more; more, err = d.next(']') {
		d.ws()
		start := d.pos
		if a.err != nil {
			if err := d.skip(2); err != nil {
				return a, err
			}
			continue
		}
		a.nodes = append(a.nodes, Node{})
		k, err := d.node(&a.nodes[len(a.nodes)-1])
		if err != nil {
			if _, syntax := err.(*syntaxError); syntax {
				return a, err
			}
			a.err = fmt.Errorf("node %d: %w", len(a.nodes)-1, err)
			a.nodes, a.idx = nil, nil
			d.pos = start
			if err := d.skip(2); err != nil {
				return a, err
			}
			continue
		}
		a.idx = append(a.idx, k)
	}
	return a, err
}

func (d *decoder) edgeArray(a *edgeArray) error {
	switch d.ws() {
	case 'n':
		*a = edgeArray{}
		return d.literal("null")
	case '[':
	default:
		return d.typeErr("array")
	}
	n := d.records()
	*a = edgeArray{set: true, edges: make([]Edge, 0, n)}
	if !d.borrow {
		a.src, a.dst = make([]int32, 0, n), make([]int32, 0, n)
	}
	more, err := d.array(2)
	if err != nil {
		return err
	}
	for ; more; more, err = d.next(']') {
		d.ws()
		start := d.pos
		if a.err != nil {
			if err := d.skip(2); err != nil {
				return err
			}
			continue
		}
		a.edges = append(a.edges, Edge{Weight: 1})
		s, t, err := d.edge(&a.edges[len(a.edges)-1])
		if err != nil {
			if _, syntax := err.(*syntaxError); syntax {
				return err
			}
			a.err = fmt.Errorf("link %d: %w", len(a.edges)-1, err)
			a.edges, a.src, a.dst = nil, nil, nil
			d.pos = start
			if err := d.skip(2); err != nil {
				return err
			}
			continue
		}
		if !d.borrow {
			a.src = append(a.src, s)
			a.dst = append(a.dst, t)
		}
	}
	return err
}

// extra records an unmodelled member: the value between start and d.pos.
func (d *decoder) extra(m *map[string]json.RawMessage, key string, start int) {
	if *m == nil {
		*m = map[string]json.RawMessage{}
	}
	(*m)[key] = bytes.Clone(d.data[start:d.pos])
}

var errMissingID = errors.New(`missing "id"`)

// node decodes one node record (depth 3) and returns its id index.
func (d *decoder) node(n *Node) (int32, error) {
	switch d.ws() {
	case 'n':
		if err := d.literal("null"); err != nil {
			return 0, err
		}
		return 0, errMissingID
	case '{':
	default:
		return 0, d.typeErr("node object")
	}
	more, err := d.object(3)
	if err != nil {
		return 0, err
	}
	var idIdx int32 = -1
	haveFile := false
	for ; more; more, err = d.next('}') {
		k, err := d.key()
		if err != nil {
			return 0, err
		}
		f, known := nodeField(k)
		var name string
		if !known {
			name = string(k)
		}
		start := d.pos
		var b []byte
		var ok bool
		switch f {
		case fNodeID:
			if b, ok, err = d.strVal(); ok {
				n.ID, idIdx = d.id(b)
			}
		case fNodeLabel:
			if b, ok, err = d.strVal(); ok {
				n.Label = d.alloc(b)
			}
		case fNodeFileType:
			if b, ok, err = d.strVal(); ok {
				n.FileType = d.intern(cFileType, b)
			}
		case fNodeSourceFile:
			if null, nerr := d.null(); null || nerr != nil {
				haveFile, err = false, nerr
			} else if b, ok, err = d.strVal(); ok {
				n.SourceFile, haveFile = d.intern(cSourceFile, b), true
			}
		case fNodeSourceLocation:
			if b, ok, err = d.strVal(); ok {
				n.SourceLocation = d.intern(cSourceLocation, b)
			}
		case fNodeKind:
			if b, ok, err = d.strVal(); ok {
				n.Kind = d.intern(cKind, b)
			}
		case fNodeVisibility:
			if b, ok, err = d.strVal(); ok {
				n.Visibility = d.intern(cVisibility, b)
			}
		case fNodeLanguage:
			if b, ok, err = d.strVal(); ok {
				n.Language = d.intern(cLanguage, b)
			}
		case fNodeRepo:
			if b, ok, err = d.strVal(); ok {
				n.Repo = d.intern(cRepo, b)
			}
		case fNodeSpan:
			err = d.span(&n.Span)
		case fNodeSignature:
			err = d.signature(&n.Signature)
		case fNodeCommunity:
			var v int
			if v, ok, err = d.intVal(); err == nil {
				if !ok {
					n.Community = nil
				} else if n.Community != nil {
					*n.Community = v
				} else {
					n.Community = &v
				}
			}
		case fNodeIsTest:
			err = d.boolVal(&n.IsTest)
		case fNodeDoc:
			if b, ok, err = d.strVal(); ok {
				n.Doc = d.alloc(b)
			}
		default:
			err = d.skip(3)
		}
		if err != nil {
			return 0, err
		}
		if !known {
			d.extra(&n.Extra, name, start)
		}
	}
	if err != nil {
		return 0, err
	}
	if n.ID == "" {
		return 0, errMissingID
	}
	if !haveFile {
		return 0, fmt.Errorf("node %q: missing \"source_file\"", n.ID)
	}
	return idIdx, nil
}

// edge decodes one link record (depth 3) and returns its endpoints' id
// indices.
func (d *decoder) edge(e *Edge) (src, dst int32, err error) {
	switch d.ws() {
	case 'n':
		// encoding/json leaves a null record zero; Validate rejects it.
		err = d.literal("null")
		_, src = d.id(nil)
		return src, src, err
	case '{':
	default:
		return 0, 0, d.typeErr("link object")
	}
	more, err := d.object(3)
	if err != nil {
		return 0, 0, err
	}
	src, dst = -1, -1
	for ; more; more, err = d.next('}') {
		k, err := d.key()
		if err != nil {
			return 0, 0, err
		}
		f, known := edgeField(k)
		var name string
		if !known {
			name = string(k)
		}
		start := d.pos
		var b []byte
		var ok bool
		switch f {
		case fEdgeSource:
			if b, ok, err = d.strVal(); ok {
				if d.borrow {
					e.Source = d.borrowID(b)
				} else if string(b) == d.lastSrc && d.lastSrcIdx >= 0 {
					e.Source, src = d.lastSrc, d.lastSrcIdx
				} else {
					e.Source, src = d.id(b)
					d.lastSrc, d.lastSrcIdx = e.Source, src
				}
			}
		case fEdgeTarget:
			if b, ok, err = d.strVal(); ok {
				if d.borrow {
					e.Target = d.borrowID(b)
				} else {
					e.Target, dst = d.id(b)
				}
			}
		case fEdgeRelation:
			if b, ok, err = d.strVal(); ok {
				e.Relation = d.intern(cRelation, b)
			}
		case fEdgeConfidence:
			if b, ok, err = d.strVal(); ok {
				e.Confidence = d.confidence(b)
			}
		case fEdgeConfidenceScore:
			var v float64
			if v, ok, err = d.floatVal(); err == nil {
				e.ConfidenceScore = v // null is "absent": 0
			}
		case fEdgeSourceFile:
			if b, ok, err = d.strVal(); ok {
				e.SourceFile = d.intern(cSourceFile, b)
			}
		case fEdgeSourceLocation:
			if b, ok, err = d.strVal(); ok {
				e.SourceLocation = d.intern(cSourceLocation, b)
			}
		case fEdgeContext:
			if b, ok, err = d.strVal(); ok {
				e.Context = d.intern(cContext, b)
			}
		case fEdgeWeight:
			var v float64
			if v, ok, err = d.floatVal(); err == nil {
				if !ok {
					v = 1 // null is "absent"
				}
				e.Weight = v
			}
		case fEdgeSites:
			err = d.sites(&e.Sites)
		default:
			err = d.skip(3)
		}
		if err != nil {
			return 0, 0, err
		}
		if !known {
			d.extra(&e.Extra, name, start)
		}
	}
	if err != nil {
		return 0, 0, err
	}
	if d.borrow {
		return -1, -1, nil // resolved by Parse against the nodes
	}
	if src < 0 {
		_, src = d.id([]byte(e.Source))
	}
	if dst < 0 {
		_, dst = d.id([]byte(e.Target))
	}
	return src, dst, nil
}

func (d *decoder) span(p **Span) error {
	switch d.ws() {
	case 'n':
		*p = nil
		return d.literal("null")
	case '{':
	default:
		return d.typeErr("span object")
	}
	if *p == nil {
		*p = new(Span)
	}
	s := *p
	more, err := d.object(4)
	if err != nil {
		return err
	}
	for ; more; more, err = d.next('}') {
		k, err := d.key()
		if err != nil {
			return err
		}
		var dst *int
		switch spanFields.lookup(k) {
		case 1:
			dst = &s.StartLine
		case 2:
			dst = &s.StartCol
		case 3:
			dst = &s.EndLine
		case 4:
			dst = &s.EndCol
		default:
			if err := d.skip(4); err != nil {
				return err
			}
			continue
		}
		v, ok, err := d.intVal()
		if err != nil {
			return err
		}
		if ok {
			*dst = v
		}
	}
	return err
}

func (d *decoder) signature(p **Signature) error {
	switch d.ws() {
	case 'n':
		*p = nil
		return d.literal("null")
	case '{':
	default:
		return d.typeErr("signature object")
	}
	if *p == nil {
		*p = new(Signature)
	}
	s := *p
	more, err := d.object(4)
	if err != nil {
		return err
	}
	for ; more; more, err = d.next('}') {
		k, err := d.key()
		if err != nil {
			return err
		}
		var b []byte
		var ok bool
		switch sigFields.lookup(k) {
		case 1:
			err = d.params(&s.Params)
		case 2:
			if b, ok, err = d.strVal(); ok {
				s.ReturnType = d.intern(cReturnType, b)
			}
		case 3:
			if b, ok, err = d.strVal(); ok {
				s.Raw = d.alloc(b)
			}
		default:
			err = d.skip(4)
		}
		if err != nil {
			return err
		}
	}
	return err
}

// params decodes into *ps the way encoding/json fills a slice: elements
// within the existing capacity are decoded over, not zeroed.
func (d *decoder) params(ps *[]Param) error {
	return decodeSlice(d, ps, &d.paramBuf, 5, "params array", d.param)
}

// decodeSlice decodes a JSON array of records into *s, element by element
// with elem, for params and sites. A first occurrence is decoded into the
// scratch buf and copied out at its exact size (buf is reused); a repeated
// member decodes over the earlier one's elements, as encoding/json does.
func decodeSlice[T any](d *decoder, s *[]T, buf *[]T, depth int, what string, elem func(*T) error) error {
	switch d.ws() {
	case 'n':
		*s = nil
		return d.literal("null")
	case '[':
	default:
		return d.typeErr(what)
	}
	more, err := d.array(depth)
	if err != nil {
		return err
	}
	fresh := *s == nil
	out := (*s)[:0]
	if fresh {
		out = (*buf)[:0]
	}
	for ; more; more, err = d.next(']') {
		if !fresh && len(out) < cap(out) {
			out = out[:len(out)+1] // decoded over, not zeroed
		} else {
			var zero T
			out = append(out, zero)
		}
		if err := elem(&out[len(out)-1]); err != nil {
			if fresh {
				*buf, out = out[:0], slices.Clone(out)
			}
			*s = out
			return err
		}
	}
	if len(out) == 0 {
		out = []T{}
	} else if fresh {
		*buf = out[:0]
		out = slices.Clone(out)
	}
	*s = out
	return err
}

func (d *decoder) param(p *Param) error {
	return d.stringPair("param object", 6, paramFields, cParamName, &p.Name, cTypeRef, &p.TypeRef)
}

// stringPair decodes an object whose two known members are strings (a
// param, a site) at nesting depth, into a and b; other members are skipped.
func (d *decoder) stringPair(what string, depth int, fields *fieldSet, ca int, a *string, cb int, b *string) error {
	switch d.ws() {
	case 'n':
		return d.literal("null")
	case '{':
	default:
		return d.typeErr(what)
	}
	more, err := d.object(depth)
	if err != nil {
		return err
	}
	for ; more; more, err = d.next('}') {
		k, err := d.key()
		if err != nil {
			return err
		}
		var v []byte
		var ok bool
		switch fields.lookup(k) {
		case 1:
			if v, ok, err = d.strVal(); ok {
				*a = d.intern(ca, v)
			}
		case 2:
			if v, ok, err = d.strVal(); ok {
				*b = d.intern(cb, v)
			}
		default:
			err = d.skip(depth)
		}
		if err != nil {
			return err
		}
	}
	return err
}

func (d *decoder) sites(ss *[]Site) error {
	return decodeSlice(d, ss, &d.siteBuf, 4, "sites array", d.site)
}

func (d *decoder) site(st *Site) error {
	return d.stringPair("site object", 5, siteFields, cSiteFile, &st.SourceFile, cSiteLocation, &st.SourceLocation)
}
