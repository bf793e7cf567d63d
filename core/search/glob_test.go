package search

import (
	"strings"
	"testing"
)

func TestGlob(t *testing.T) {
	tests := []struct {
		glob, path string
		want       bool
	}{
		{"**/*.ts", "a.ts", true},
		{"**/*.ts", "web/src/a.ts", true},
		{"**/*.ts", "web/src/a.tsx", false},
		{"*.go", "core/x.go", true},
		{"*.go", "x.go", true},
		{"src/**", "src/a/b.c", true},
		{"src/**", "lib/a.c", false},
		{"src/*.c", "src/a/b.c", false},
		{"src/*.c", "src/b.c", true},
		{"./src/**/test_*.py", "src/a/b/test_x.py", true},
		{"a/**/b/**/c", "a/x/b/y/z/c", true},
		{"a/**/b/**/c", "a/b/c", true},
		{"a/**/b/**/c", "a/c", false},
		{"core/[st]*/**", "core/search/x.go", true},
		{"src/", "src", true},
	}
	for _, tt := range tests {
		g, err := ParseGlob(tt.glob)
		if err != nil {
			t.Fatalf("%s: %v", tt.glob, err)
		}
		if got := g.Match(tt.path); got != tt.want {
			t.Errorf("%s ~ %s = %v, want %v", tt.glob, tt.path, got, tt.want)
		}
	}
	if !(*Glob)(nil).Match("anything") {
		t.Error("nil glob must match everything")
	}
}

func TestGlobErrors(t *testing.T) {
	for glob, want := range map[string]string{
		"":          "empty",
		"/etc/*":    "absolute",
		"../*.go":   `".." segment`,
		"a/../b":    `".." segment`,
		"a//b":      "empty",
		"[a-":       "not a valid glob",
		`C:\x\*.go`: "absolute",
	} {
		if _, err := ParseGlob(glob); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseGlob(%q) = %v, want %q", glob, err, want)
		}
	}
}

// TestGlobManyStars: any number of ** stays polynomial.
func TestGlobManyStars(t *testing.T) {
	g, err := ParseGlob(strings.Repeat("**/x/", 200) + "y")
	if err != nil {
		t.Fatal(err)
	}
	if g.Match(strings.Repeat("x/", 300) + "z") {
		t.Fatal("matched")
	}
}

func FuzzGlob(f *testing.F) {
	for _, s := range []string{"**/*.ts", "src/**", "a/[b-c]/*", "*.go", "a/**/b/**"} {
		f.Add(s, "src/a/b.ts")
	}
	f.Fuzz(func(t *testing.T, glob, rel string) {
		g, err := ParseGlob(glob)
		if err != nil {
			return
		}
		g.Match(rel)
		if strings.Contains(glob, "..") && !strings.Contains(glob, "*") && g.Match(glob) {
			for _, s := range strings.Split(glob, "/") {
				if s == ".." {
					t.Fatalf("glob %q with a .. segment accepted", glob)
				}
			}
		}
	})
}
