package graph

import (
	"path"
	"strings"
)

// IsTestPath reports whether a repo-relative path is a test file by common
// conventions: a directory named test, tests, __tests__ or testing, or a file
// name like x_test.go, test_x.py, x.test.ts, x.spec.js, conftest.py, FooTest.java.
// spec/ directories deliberately do not count (they often hold specifications).
func IsTestPath(p string) bool {
	dir, base := path.Split(p)
	for _, seg := range strings.Split(strings.Trim(dir, "/"), "/") {
		switch seg {
		case "test", "tests", "__tests__", "testing":
			return true
		}
	}
	if strings.Contains(base, ".test.") || strings.Contains(base, ".spec.") {
		return true
	}
	stem := base
	if i := strings.IndexByte(base, '.'); i > 0 {
		stem = base[:i]
	}
	switch {
	case stem == "conftest":
		return true
	case strings.HasPrefix(stem, "test_"),
		strings.HasSuffix(stem, "_test"), strings.HasSuffix(stem, "_tests"), strings.HasSuffix(stem, "_spec"):
		return true
	}
	for _, suf := range []string{"Test", "Tests", "Spec"} {
		if len(stem) > len(suf) && strings.HasSuffix(stem, suf) {
			return true
		}
	}
	return false
}

// IsTestNode reports whether n is test code: marked by its language's own
// test markers at extraction (Go TestX(t *testing.T) in a _test.go file,
// pytest test_* functions and Test* classes, JUnit @Test methods, Rust
// #[test] functions and #[cfg(test)] modules), or defined under a test
// path. A test file's own node counts: Jest/Vitest describe/it callbacks
// and script-style tests call the code from the file's top level.
func IsTestNode(n *Node) bool { return n.IsTest || n.SourceFile != "" && IsTestPath(n.SourceFile) }
