package main

import (
	"testing"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

func TestCollapse(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"def f(a, b)", "def f(a, b)"},
		{"def f(\n    a,  # first\n    b,\n)", "def f(a, b)"},
		{"def f(a=(1,))", "def f(a=(1,))"},
		{"def f(sep='#', q=\"it's\")", "def f(sep='#', q=\"it's\")"},
		{"def f(a: dict[\n  str, int\n] = {})", "def f(a: dict[str, int] = {})"},
		{"def f(a, \\\n b)", "def f(a, b)"},
		{"def f(s='a\\'#b')", "def f(s='a\\'#b')"},
		{"\"\"\"\\\n    [a]\n    b\"\"\"", "\"\"\" [a] b\"\"\""},
	} {
		if got := string(collapse(nil, []byte(tc.in))); got != tc.want {
			t.Errorf("collapse(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestNames(t *testing.T) {
	for _, tc := range []struct {
		name string
		fn   func(string) bool
		in   string
		want bool
	}{
		{"const", isConstName, "MAX_SIZE", true},
		{"const", isConstName, "_PRIVATE_2", true},
		{"const", isConstName, "ÄRGER", true},
		{"const", isConstName, "常量", false},
		{"const", isConstName, "Max", false},
		{"const", isConstName, "__ALL__", false},
		{"const", isConstName, "_", false},
		{"testFunc", isTestFunc, "test_x", true},
		{"testFunc", isTestFunc, "testX", true},
		{"testFunc", isTestFunc, "test", true},
		{"testFunc", isTestFunc, "testing", false},
		{"testClass", isTestClass, "TestX", true},
		{"testClass", isTestClass, "Tests", true},
		{"testClass", isTestClass, "Testament", false},
		{"testBase", isTestBase, "unittest.TestCase", true},
		{"testBase", isTestBase, "IsolatedAsyncioTestCase", true},
		{"dotted", isDottedName, "a.b.C", true},
		{"dotted", isDottedName, "Größe", true},
		{"dotted", isDottedName, "list[int]", false},
		{"dotted", isDottedName, "a..b", false},
		{"dotted", isDottedName, "1a", false},
	} {
		if got := tc.fn(tc.in); got != tc.want {
			t.Errorf("%s(%q) = %v, want %v", tc.name, tc.in, got, tc.want)
		}
	}
	for name, want := range map[string]abi.Visibility{"x": "public", "_x": "private", "__x": "private", "__init__": "public", "__": "private"} {
		if got := visibility(name); got != want {
			t.Errorf("visibility(%q) = %q, want %q", name, got, want)
		}
	}
}
