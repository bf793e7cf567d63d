package jsonrpc

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// MaxDepth is the deepest nesting of arrays and objects a message may have.
// MCP messages are shallow (tool arguments rarely go past 4 levels); the
// bound keeps a 4 MiB "[[[[…" from costing a deep recursion anywhere.
const MaxDepth = 64

// checkStrict reads the whole message once and refuses what encoding/json
// would accept but a stricter reader along the way (a gateway, a policy
// proxy) might read differently: text that is not UTF-8, nesting deeper
// than MaxDepth, and an object with two members whose names are equal
// exactly or ignoring case ({"method":…,"Method":…} is read as either
// method depending on the parser). Errors are *Error with CodeParseError
// (not JSON) or CodeInvalidRequest (JSON, but not acceptable); dupID is
// true when the duplicate is the top-level "id", which then cannot be echoed.
func checkStrict(data []byte) (err *Error, dupID bool) {
	if !utf8.Valid(data) {
		return &Error{Code: CodeParseError, Message: "parse error: message is not valid UTF-8 (JSON text must be UTF-8, RFC 8259 section 8.1)"}, false
	}
	sc := scanners.Get().(*scanner)
	defer scanners.Put(sc)
	sc.r.Reset(data)
	// Duplicates are reported by the case-folding check below, which names
	// the member; the decoder's own check would only say "duplicate".
	sc.dec.Reset(&sc.r, jsontext.AllowDuplicateNames(true))
	dec := sc.dec
	defer sc.r.Reset(nil)   // drop the reference to data
	var names []memberNames // per open object
	var path []string       // member names leading to the open value
	for values := 0; ; {
		if dec.StackDepth() == 0 {
			if values++; values > 1 && dec.PeekKind() != 0 {
				return &Error{Code: CodeParseError, Message: fmt.Sprintf("parse error: more than one JSON value in the message (trailing data at byte %d)", dec.InputOffset())}, false
			}
		}
		tok, rerr := dec.ReadToken()
		if rerr == io.EOF {
			return nil, false
		}
		if rerr != nil {
			return parseError(rerr), false
		}
		depth := dec.StackDepth()
		switch tok.Kind() {
		case '{', '[':
			if depth > MaxDepth {
				return &Error{Code: CodeInvalidRequest, Message: fmt.Sprintf("invalid request: nesting too deep (max %d levels of arrays and objects)", MaxDepth)}, false
			}
			names = append(names, memberNames{})
			path = append(path, "")
		case '}', ']':
			names, path = names[:len(names)-1], path[:len(path)-1]
		case '"':
			kind, n := dec.StackIndex(depth)
			if kind != '{' || n%2 != 1 {
				continue // a string value, not a member name
			}
			name := tok.String()
			if prev, dup := names[len(names)-1].add(name); dup {
				return duplicateName(path, prev, name), depth == 1 && strings.EqualFold(name, "id")
			}
			path[len(path)-1] = name
		}
	}
}

// scanner is a reusable strict reader; a decoder per message cost most of
// the strict pass's allocations.
type scanner struct {
	r   bytes.Reader
	dec *jsontext.Decoder
}

var scanners = sync.Pool{New: func() any {
	sc := &scanner{}
	sc.dec = jsontext.NewDecoder(&sc.r)
	return sc
}}

// memberNames are the names seen in one object. Small objects (nearly all)
// are compared pairwise with strings.EqualFold, without allocating; past
// smallObject names a map keyed by the folded name keeps it linear.
type memberNames struct {
	list   []string
	folded map[string]string // folded -> as sent, once the object is large
}

const smallObject = 16

// add records name and returns the earlier name equal to it ignoring
// case, if there was one.
func (m *memberNames) add(name string) (prev string, dup bool) {
	if m.folded == nil {
		for _, p := range m.list {
			if strings.EqualFold(p, name) {
				return p, true
			}
		}
		m.list = append(m.list, name)
		if len(m.list) > smallObject {
			m.folded = make(map[string]string, 2*len(m.list))
			for _, p := range m.list {
				m.folded[fold(p)] = p
			}
		}
		return "", false
	}
	f := fold(name)
	if p, ok := m.folded[f]; ok {
		return p, true
	}
	m.folded[f] = name
	return "", false
}

// fold maps names that strings.EqualFold calls equal to one key: each
// rune becomes the smallest rune of its simple case-folding orbit.
func fold(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		m := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			m = min(m, f)
		}
		b.WriteRune(m)
	}
	return b.String()
}

// parseError turns a syntax error into a -32700 that says where.
func parseError(err error) *Error {
	msg := "parse error: invalid JSON"
	var se *jsontext.SyntacticError
	if errors.As(err, &se) {
		msg += fmt.Sprintf(" at byte %d", se.ByteOffset)
		if se.Err != nil {
			msg += ": " + se.Err.Error()
		}
	}
	return &Error{Code: CodeParseError, Message: msg}
}

func duplicateName(path []string, prev, name string) *Error {
	where := "the message"
	var parts []string
	for _, p := range path[:len(path)-1] {
		if p != "" {
			parts = append(parts, p)
		}
	}
	if len(parts) > 0 {
		where = strconv.Quote(strings.Join(parts, "."))
	}
	msg := fmt.Sprintf("invalid request: duplicate member %s in %s", strconv.Quote(name), where)
	if prev != name {
		msg += fmt.Sprintf(" (%s is already there; member names are case-sensitive and must not differ only in case)", strconv.Quote(prev))
	}
	return &Error{Code: CodeInvalidRequest, Message: msg}
}

// Unmarshal decodes client JSON into v the strict way: member names match
// struct fields exactly (never case-insensitively), duplicates and invalid
// UTF-8 are errors. Every decode of client input in package mcp goes
// through it, so the server reads each message the way a strict proxy does.
func Unmarshal(data []byte, v any) error { return jsonv2.Unmarshal(data, v) }
