//go:build unix

package extract

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestFindGoProject: the root's import path comes from its own go.mod,
// else the nearest go.mod above it (nested modules shadow outer ones, std
// has no prefix, vendor/ packages drop it), else a GOPATH-style path.
func TestFindGoProject(t *testing.T) {
	base := t.TempDir()
	if p, _ := findGoProject(base); p != nil {
		t.Skipf("%s already sits in a Go project (%v): the table assumes none above it", base, p)
	}
	mkfile := func(rel, body string) {
		p := filepath.Join(base, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mkdir := func(rel string) {
		if err := os.MkdirAll(filepath.Join(base, rel), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	mkfile("shop/go.mod", "// the shop\nmodule example.com/shop // trailing comment\n\ngo 1.22\n")
	mkdir("shop/services/billing/invoice")
	mkfile("shop/tools/go.mod", "module \"example.com/shop/tools\"\n")
	mkdir("shop/tools/gen")
	mkdir("shop/vendor/golang.org/x/text")
	mkfile("goroot/src/go.mod", "module std\n")
	mkdir("goroot/src/net/http")
	mkdir("gopath/src/github.com/a/b")
	mkdir("plain/dir")
	mkfile("nomod/go.mod", "go 1.22\n")
	mkdir("nomod/pkg")
	mkdir("fifo/pkg")
	if err := syscall.Mkfifo(filepath.Join(base, "fifo/go.mod"), 0o644); err != nil {
		t.Fatal(err)
	}
	mkdir("dirmod/go.mod")
	mkdir("dirmod/pkg")

	tests := []struct {
		name, root string
		want       *GoProject // Dir relative to base
		warning    string
	}{
		{"go.mod at the root", "shop", &GoProject{ProjectGoModRoot, "shop", "example.com/shop", "example.com/shop"}, ""},
		{"go.mod one level up", "shop/services", &GoProject{ProjectGoModAbove, "shop", "example.com/shop", "example.com/shop/services"}, ""},
		{"go.mod three levels up", "shop/services/billing/invoice", &GoProject{ProjectGoModAbove, "shop", "example.com/shop", "example.com/shop/services/billing/invoice"}, ""},
		{"nested go.mod wins", "shop/tools/gen", &GoProject{ProjectGoModAbove, "shop/tools", "example.com/shop/tools", "example.com/shop/tools/gen"}, ""},
		{"vendored package", "shop/vendor/golang.org/x/text", &GoProject{ProjectGoModAbove, "shop", "example.com/shop", "golang.org/x/text"}, ""},
		{"std module at the root", "goroot/src", &GoProject{ProjectGoModRoot, "goroot/src", "std", ""}, ""},
		{"std module", "goroot/src/net/http", &GoProject{ProjectGoModAbove, "goroot/src", "std", "net/http"}, ""},
		{"GOPATH layout", "gopath/src/github.com/a/b", &GoProject{Source: ProjectGOPATH, ImportPath: "github.com/a/b"}, ""},
		{"none", "plain/dir", nil, ""},
		{"go.mod without module line", "nomod/pkg", nil, "declares no module path"},
		{"go.mod that is a FIFO is not read", "fifo/pkg", nil, ""},
		{"go.mod that is a directory", "dirmod/pkg", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, warning := findGoProject(filepath.Join(base, tt.root))
			if tt.want != nil && tt.want.Dir != "" {
				tt.want.Dir = filepath.Join(base, tt.want.Dir)
			}
			switch {
			case (got == nil) != (tt.want == nil):
				t.Fatalf("findGoProject(%s) = %+v, want %+v", tt.root, got, tt.want)
			case got != nil && *got != *tt.want:
				t.Errorf("findGoProject(%s) = %+v, want %+v", tt.root, *got, *tt.want)
			}
			if (warning == "") != (tt.warning == "") || !strings.Contains(warning, tt.warning) {
				t.Errorf("warning = %q, want one containing %q", warning, tt.warning)
			}
		})
	}
}

func TestParseGoModule(t *testing.T) {
	for in, want := range map[string]string{
		"module example.com/m\n":           "example.com/m",
		"  module\t\"example.com/q\"  \n":  "example.com/q",
		"module a/b // note\ngo 1.22\n":    "a/b",
		"// module not/this\nmodule yes\n": "yes",
		"modules x\n":                      "",
		"":                                 "",
	} {
		if got := parseGoModule([]byte(in)); got != want {
			t.Errorf("parseGoModule(%q) = %q, want %q", in, got, want)
		}
	}
}
