package extract

import "testing"

func TestConventionalTestPath(t *testing.T) {
	for _, tc := range []struct {
		path string
		want bool
	}{
		{"pkg/tests/helpers.py", true},
		{"src/__tests__/a.ts", true},
		{"a.test.ts", true},
		{"b.spec.js", true},
		{"test_x.py", true},
		{"x_test.py", true},
		{"conftest.py", true},
		{"FooTest.java", true},
		{"FooSpec.kt", true},
		{"spec/grammar.md", false},
		{"src/Test.java", false}, // the suffix alone is no test name
		{"src/contest.py", false},
		{"src/latest.ts", false},
	} {
		if got := ConventionalTestPath(tc.path); got != tc.want {
			t.Errorf("ConventionalTestPath(%q) = %v, want %v", tc.path, got, tc.want)
		}
	}
}
