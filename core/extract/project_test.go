//go:build unix

package extract

import (
	"os"
	"path/filepath"
	"testing"
)

// TestFindPyProject: the dotted package of a root below its source root,
// through __init__.py files or a project file (src/ layout or not).
func TestFindPyProject(t *testing.T) {
	base := t.TempDir()
	if p := findPyProject(filepath.Join(base, "x")); p != nil {
		t.Skipf("%s already sits in a Python project (%v)", base, p)
	}
	for _, f := range []string{
		"srcl/pyproject.toml", "srcl/src/shop/__init__.py", "srcl/src/shop/billing/__init__.py",
		"flat/setup.py", "flat/shop/billing/x.py",
		"chain/pkg/__init__.py", "chain/pkg/sub/__init__.py",
		"dash/pyproject.toml", "dash/my-app/x.py",
	} {
		p := filepath.Join(base, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(base, "none/a"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, root string
		want       *PyProject // Dir relative to base
	}{
		{"src layout, package chain", "srcl/src/shop/billing", &PyProject{ProjectPyPackageChain, "srcl/src", "shop.billing"}},
		{"src layout root is the source root", "srcl/src", nil},
		{"project root itself", "srcl", nil},
		{"flat layout, namespace packages", "flat/shop/billing", &PyProject{ProjectPyProject, "flat", "shop.billing"}},
		{"__init__.py chain, no project file", "chain/pkg/sub", &PyProject{ProjectPyPackageChain, "chain", "pkg.sub"}},
		{"not importable name", "dash/my-app", nil},
		{"none", "none/a", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := findPyProject(filepath.Join(base, tt.root))
			if tt.want != nil {
				tt.want.Dir = filepath.Join(base, tt.want.Dir)
			}
			switch {
			case (got == nil) != (tt.want == nil):
				t.Fatalf("findPyProject(%s) = %+v, want %+v", tt.root, got, tt.want)
			case got != nil && *got != *tt.want:
				t.Errorf("findPyProject(%s) = %+v, want %+v", tt.root, *got, *tt.want)
			}
		})
	}
}
