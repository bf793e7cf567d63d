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
