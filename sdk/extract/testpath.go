package extract

import (
	"path"
	"strings"
)

// ConventionalTestPath reports a test file by the cross-language
// conventions the host also applies (so a plugin that adopts them changes
// nothing for files that were tests before): a folder named test, tests,
// __tests__ or testing, or a name like x.test.ts, x.spec.js, test_x.py,
// x_test, x_tests, x_spec, conftest, FooTest, FooTests, FooSpec. A bare
// spec/ folder does not count: it often holds specifications.
func ConventionalTestPath(p string) bool {
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
	case stem == "conftest", strings.HasPrefix(stem, "test_"),
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
