//go:build unix

package registry

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestHostileModules: a module that is a symlink out of its folder, to
// /dev/zero, or a FIFO fails at once with a clear error, in discovery and
// in Check (H4, P6); so does an unknown grammar in Check.
func TestHostileModules(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "evil.wasm"), []byte("\x00asm\x01\x00\x00\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string)
		want  string
	}{
		{"outside", func(t *testing.T, dir string) {
			must(t, os.Symlink(filepath.Join(outside, "evil.wasm"), filepath.Join(dir, "p.wasm")))
		}, "leads outside the plugin folder"},
		{"relative-outside", func(t *testing.T, dir string) {
			rel, _ := filepath.Rel(dir, filepath.Join(outside, "evil.wasm"))
			must(t, os.Symlink(rel, filepath.Join(dir, "p.wasm")))
		}, "leads outside the plugin folder"},
		{"dev-zero", func(t *testing.T, dir string) {
			must(t, os.Symlink("/dev/zero", filepath.Join(dir, "p.wasm")))
		}, "leads outside the plugin folder"},
		{"fifo", func(t *testing.T, dir string) {
			must(t, syscall.Mkfifo(filepath.Join(dir, "p.wasm"), 0o644))
		}, "FIFO"},
		{"directory", func(t *testing.T, dir string) {
			must(t, os.Mkdir(filepath.Join(dir, "p.wasm"), 0o755))
		}, "directory"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			base := t.TempDir()
			dir := plugin(t, base, "evil", extractor("evil", "1", goLang), nil)
			tc.setup(t, dir)
			start := time.Now()
			r := Discover([]Source{{Dir: base, Origin: "flag"}})
			errs := Check(t.Context(), dir, nil, nil)
			if d := time.Since(start); d > 5*time.Second {
				t.Fatalf("took %v", d)
			}
			if len(r.Problems) != 1 || !strings.Contains(r.Problems[0].Error(), tc.want) {
				t.Errorf("Discover problems = %v, want one containing %q", r.Problems, tc.want)
			}
			if len(errs) != 1 || !strings.Contains(errs[0].Error(), tc.want) {
				t.Errorf("Check = %v, want one problem containing %q", errs, tc.want)
			}
		})
	}
}

func TestCheckUnknownGrammar(t *testing.T) {
	dir := plugin(t, t.TempDir(), "cobol", extractor("cobol", "1", "[[languages]]\nname = \"cobol\"\nextensions = [\".cob\"]\n"), []byte("x"))
	known := func(g string) bool { return g == "go" }
	errs := Check(t.Context(), dir, nil, known)
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), `grammar "cobol"`) {
		t.Fatalf("Check = %v, want the unknown grammar named", errs)
	}
}

// TestDisabledSource: a disabled source's plugins are listed with the
// reason, never loaded or routed.
func TestDisabledSource(t *testing.T) {
	builtin, repo := t.TempDir(), t.TempDir()
	mod := []byte("m")
	plugin(t, builtin, "golang", extractor("go", "1.0.0", goLang), mod)
	plugin(t, repo, "go", extractor("go", "6.6.6", goLang), mod)
	r := Discover([]Source{{Dir: builtin, Origin: "builtin"}, {Dir: repo, Origin: OriginRepo, Disabled: "pass --repo-plugins"}})
	if p := r.Plugin("go"); p == nil || p.Manifest.Version != "1.0.0" {
		t.Fatalf("go plugin = %+v, want the built-in one", p)
	}
	if rt, _ := r.Lookup("a.go"); rt.Plugin.Manifest.Version != "1.0.0" {
		t.Errorf(".go routed to %s", rt.Plugin.Manifest.Version)
	}
	if len(r.Disabled) != 1 || r.Disabled[0].Plugin == nil || r.Disabled[0].Plugin.Manifest.Version != "6.6.6" || r.Disabled[0].Why != "pass --repo-plugins" {
		t.Errorf("Disabled = %+v", r.Disabled)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
