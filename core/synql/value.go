package synql

import (
	"cmp"
	"strconv"
	"strings"
)

// VKind is a value's type.
type VKind uint8

// Value kinds. KNull is a missing property: every comparison with it is
// false, so a filter on a field a node lacks drops the node, never errors.
const (
	KNull VKind = iota
	KString
	KNum
	KBool
)

// Value is a field value or a literal.
type Value struct {
	Kind VKind
	S    string
	N    float64
	B    bool
}

// Str, Num and Bool build values.
func Str(s string) Value     { return Value{Kind: KString, S: s} }
func Num(n float64) Value    { return Value{Kind: KNum, N: n} }
func Bool(b bool) Value      { return Value{Kind: KBool, B: b} }
func numInt(n int) Value     { return Num(float64(n)) }
func (v Value) IsNull() bool { return v.Kind == KNull }

// String renders a value for text output.
func (v Value) String() string {
	switch v.Kind {
	case KString:
		return v.S
	case KNum:
		return strconv.FormatFloat(v.N, 'f', -1, 64)
	case KBool:
		return strconv.FormatBool(v.B)
	}
	return "null"
}

// JSON returns the value as a JSON-ready Go value.
func (v Value) JSON() any {
	switch v.Kind {
	case KString:
		return v.S
	case KNum:
		return v.N
	case KBool:
		return v.B
	}
	return nil
}

// compare orders a and b when they are comparable: numbers numerically,
// strings bytewise, booleans false first. ok is false for null or mixed
// kinds.
func compare(a, b Value) (c int, ok bool) {
	if a.Kind != b.Kind || a.Kind == KNull {
		return 0, false
	}
	switch a.Kind {
	case KString:
		return strings.Compare(a.S, b.S), true
	case KNum:
		return cmp.Compare(a.N, b.N), true
	}
	switch {
	case a.B == b.B:
		return 0, true
	case !a.B:
		return -1, true
	}
	return 1, true
}

// order is a total order for sorting output: null first, then by kind.
func order(a, b Value) int {
	if a.Kind != b.Kind {
		return cmp.Compare(a.Kind, b.Kind)
	}
	c, _ := compare(a, b)
	return c
}
