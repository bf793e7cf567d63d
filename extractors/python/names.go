package main

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// builtinCalls are Python builtins (functions and exception classes) whose
// bare calls are not reported: they never resolve to project code, and a
// project function that happens to share the name (open, filter, format…)
// would otherwise attract every call in the repository as an inferred edge.
var builtinCalls = setOf(`
	abs aiter all anext any ascii bin bool breakpoint bytearray bytes callable
	chr classmethod compile complex delattr dict dir divmod enumerate eval exec
	filter float format frozenset getattr globals hasattr hash help hex id
	input int isinstance issubclass iter len list locals map max memoryview
	min next object oct open ord pow print property range repr reversed round
	set setattr slice sorted staticmethod str sum super tuple type vars zip
	__import__
	BaseException Exception ArithmeticError AssertionError AttributeError
	BlockingIOError BrokenPipeError BufferError ConnectionError
	ConnectionAbortedError ConnectionRefusedError ConnectionResetError
	EOFError FileExistsError FileNotFoundError FloatingPointError
	GeneratorExit ImportError IndexError InterruptedError IsADirectoryError
	KeyError KeyboardInterrupt LookupError MemoryError ModuleNotFoundError
	NameError NotADirectoryError NotImplementedError OSError OverflowError
	PermissionError ProcessLookupError RecursionError ReferenceError
	RuntimeError StopAsyncIteration StopIteration SyntaxError SystemError
	SystemExit TimeoutError TypeError UnboundLocalError UnicodeDecodeError
	UnicodeEncodeError UnicodeError ValueError ZeroDivisionError
	ExceptionGroup BaseExceptionGroup
	DeprecationWarning RuntimeWarning UserWarning Warning
`)

// keywords are never callee names (soft keywords like match are left out:
// they are valid function names), but tree-sitter's error recovery can
// turn them into identifiers (`def m(self)` inside an ERROR node parses as
// a call of "def").
var keywords = setOf(`
	False None True and as assert async await break class continue def del
	elif else except finally for from global if import in is lambda nonlocal
	not or pass raise return try while with yield
`)

// builtinTypes are annotation names that never name project types: builtin
// types and typing's special forms and generic aliases. They are not
// reported as references (their type arguments still are).
var builtinTypes = setOf(`
	int float complex str bytes bool object None NoneType list dict set
	frozenset tuple type bytearray memoryview range slice
	Any Optional Union List Dict Set FrozenSet Tuple Type Callable Literal
	Final ClassVar Annotated Iterable Iterator Sequence MutableSequence
	Mapping MutableMapping MutableSet AbstractSet Collection Container
	Generator AsyncGenerator AsyncIterator AsyncIterable Awaitable Coroutine
	NoReturn Never Self TypeAlias TypeGuard TypeIs Unpack Concatenate
	ParamSpec TypeVar TypeVarTuple LiteralString Hashable Sized Reversible
	DefaultDict OrderedDict Counter Deque ChainMap Required NotRequired
	ReadOnly
`)

// typingModules are module names whose attributes are judged by their last
// segment against builtinTypes (typing.Optional, collections.abc.Iterable,
// abc.Callable after `from collections import abc`). Local aliases
// (`import typing as t`) are learnt from the file's imports.
var typingModules = setOf(`typing typing_extensions builtins collections.abc abc`)

// transparentGenerics wrap a type without making it a container: their
// arguments keep the context of the annotation (Optional[User] is a
// parameter_type use of User, not a generic_arg).
var transparentGenerics = setOf(`Optional Union Annotated Required NotRequired ReadOnly Final ClassVar`)

// typeVarFactories are calls whose result is a type variable, not a constant.
var typeVarFactories = setOf(`TypeVar ParamSpec TypeVarTuple`)

func setOf(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// lastSegment returns the part of a dotted name after the last dot.
func lastSegment(s string) string {
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// isDunder reports whether name is a special name like __init__.
func isDunder(name string) bool {
	return len(name) > 4 && strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__")
}

// visibility applies Python's convention: a leading underscore marks a name
// private (name-mangled __x included); dunder names are public protocol.
func visibility(name string) abi.Visibility {
	if strings.HasPrefix(name, "_") && !isDunder(name) {
		return abi.VisPrivate
	}
	return abi.VisPublic
}

// isConstName reports whether name is UPPER_CASE: at least one upper-case
// letter and no lower-case one (Unicode-aware: ÄRGER counts, 常量 does not).
// A leading underscore is allowed (_DEFAULT_TIMEOUT).
func isConstName(name string) bool {
	upper := false
	for _, r := range name {
		switch {
		case r >= 'A' && r <= 'Z':
			upper = true
		case r == '_' || r >= '0' && r <= '9':
		case r < utf8.RuneSelf || unicode.IsLower(r):
			return false
		case unicode.IsUpper(r):
			upper = true
		}
	}
	return upper && !isDunder(name)
}

// hasWordPrefix reports whether name starts with prefix followed by a word
// boundary: end of name, '_', a digit or an upper-case letter. It accepts
// test_x, testX, test1 and TestX but not testing or Testament.
func hasWordPrefix(name, prefix string) bool {
	if !strings.HasPrefix(name, prefix) {
		return false
	}
	if len(name) == len(prefix) {
		return true
	}
	c := name[len(prefix)]
	return c == '_' || c >= '0' && c <= '9' || c >= 'A' && c <= 'Z'
}

// isTestFunc follows pytest's and unittest's "test" prefix.
func isTestFunc(name string) bool { return hasWordPrefix(name, "test") }

// isTestClass follows pytest's "Test" prefix (TestX, Tests, Test_x).
func isTestClass(name string) bool {
	return hasWordPrefix(name, "Test") || hasWordPrefix(name, "Tests")
}

// isTestBase reports whether a base class name marks a unittest case
// (unittest.TestCase, IsolatedAsyncioTestCase, django's SimpleTestCase…).
func isTestBase(name string) bool { return strings.HasSuffix(lastSegment(name), "TestCase") }

// isDottedName reports whether s is a dotted identifier ("a", "a.b.C"), as
// found in string (forward-reference) annotations.
func isDottedName(s string) bool {
	if s == "" {
		return false
	}
	start := true
	for _, r := range s {
		switch {
		case r == '.':
			if start {
				return false
			}
			start = true
			continue
		case r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= 0x80:
		case r >= '0' && r <= '9':
			if start {
				return false
			}
		default:
			return false
		}
		start = false
	}
	return !start
}

// collapse renders source text on one line: comments dropped, runs of
// whitespace (newlines and line continuations included) turned into one
// space, and no space just inside brackets or before a comma, so a
// multi-line parameter list reads like a single-line one; the trailing comma
// of a list whose closing bracket is on its own line goes too ("(a, b,\n)"
// reads "(a, b)"), while "(a,)" is kept. String literals are copied as they
// are (only their newlines become spaces).
func collapse(dst []byte, src []byte) []byte { return collapseMax(dst, src, 0) }

// collapseMax is collapse that stops once it has written more than max
// bytes (max > 0), so that rendering a prefix of a huge expression costs
// O(max), not O(len(src)).
func collapseMax(dst []byte, src []byte, max int) []byte {
	var quote byte
	space, newline := false, false
	start := len(dst)
	for i := 0; i < len(src); i++ {
		if max > 0 && len(dst)-start > max {
			break
		}
		c := src[i]
		if quote != 0 {
			switch {
			case c == '\\' && i+1 < len(src) && src[i+1] != '\n' && src[i+1] != '\r':
				dst = append(dst, c, src[i+1])
				i++
			case c == '\\' || c == '\n' || c == '\r':
				// A line break inside a (triple-quoted) string and the
				// indentation after it read as one space.
				for i+1 < len(src) && (src[i+1] == ' ' || src[i+1] == '\t' || src[i+1] == '\n' || src[i+1] == '\r') {
					i++
				}
				if n := len(dst); n > 0 && dst[n-1] != ' ' {
					dst = append(dst, ' ')
				}
			default:
				dst = append(dst, c)
				if c == quote {
					quote = 0
				}
			}
			continue
		}
		switch c {
		case '\n':
			space, newline = true, true
			continue
		case ' ', '\t', '\r', '\f', '\\':
			space = true
			continue
		case '#':
			for i+1 < len(src) && src[i+1] != '\n' {
				i++
			}
			space = true
			continue
		}
		if space {
			n := len(dst)
			if newline && n > 0 && dst[n-1] == ',' && (c == ')' || c == ']' || c == '}') {
				dst, n = dst[:n-1], n-1
			}
			open := n > 0 && (dst[n-1] == '(' || dst[n-1] == '[' || dst[n-1] == '{')
			if n > 0 && !open && c != ')' && c != ']' && c != '}' && c != ',' && c != ':' {
				dst = append(dst, ' ')
			}
			space, newline = false, false
		}
		if c == '"' || c == '\'' {
			quote = c
		}
		dst = append(dst, c)
	}
	return dst
}

// isBuiltin reports a builtin name the file does not bind itself: after
// `from fnmatch import filter` or `def open(…)` at module level, filter
// and open are the file's own.
func (x *state) isBuiltin(name string) bool { return builtinCalls[name] && !x.shadowed[name] }

// shadow records a module-level binding of name, when name is a builtin's.
func (x *state) shadow(name string) {
	if !builtinCalls[name] {
		return
	}
	if x.shadowed == nil {
		x.shadowed = map[string]bool{}
	}
	x.shadowed[name] = true
}
