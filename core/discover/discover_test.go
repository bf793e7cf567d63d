package discover

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/synaptic-graph/synaptic/core/internal/cputime"
)

// writeTree creates files under dir: each key is a slash path, and a key
// ending in "/" makes an empty directory.
func writeTree(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for rel, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if strings.HasSuffix(rel, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func rels(files []File) []string {
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = f.Rel
	}
	return out
}

func skips(s []Skip) []string {
	out := make([]string, len(s))
	for i, k := range s {
		out[i] = k.Rel + " " + string(k.Reason)
	}
	return out
}

func mustWalk(t *testing.T, root string, opts Options) *Result {
	t.Helper()
	res, err := Walk(root, opts)
	if err != nil {
		t.Fatalf("Walk: %v", err)
	}
	return res
}

func TestWalkRules(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		".gitignore":                      "*.log\n/generated/\nvendor/*.go\n!vendor/keep.go\nlib/\n",
		".synapticignore":                 "!vendor/also.go\ndocs/private.md\n!go/build/\n",
		".git/info/exclude":               "local.txt\n",
		".git/HEAD":                       "ref: refs/heads/main\n",
		"main.go":                         "package main\n",
		"app.log":                         "x",
		"local.txt":                       "x",
		"generated/gen.go":                "x",
		"sub/generated/keep.go":           "x", // /generated/ is anchored to the root
		"sub/.gitignore":                  "*.tmp\n!important.log\n",
		"sub/a.tmp":                       "x",
		"sub/important.log":               "x",
		"sub/deeper/b.tmp":                "x",
		"sub/deeper/c.go":                 "x",
		"vendor/drop.go":                  "x",
		"vendor/keep.go":                  "x",
		"vendor/also.go":                  "x",
		"lib/x.go":                        "x",
		".synapticignore.d/":              "",
		"docs/private.md":                 "x",
		"docs/public.md":                  "x",
		"node_modules/pkg/i.js":           "x",
		"web/node_modules/a.js":           "x",
		"dist/bundle.js":                  "x",
		"go/build/build.go":               "x", // noise name, re-included by .synapticignore
		"env/pyvenv.cfg":                  "home = /usr",
		"env/lib/site.py":                 "x",
		"env2/pyvenv.cfg":                 "x",
		"env2/x.py":                       "x",
		"config/env/settings.go":          "x", // "env" without a venv marker is code
		"x.egg-info/PKG-INFO":             "x",
		"my_venv/bin/python":              "x",
		".synaptic/plugins/p/plugin.toml": "x",
		"synaptic-out/graph.json":         "x",
		"package-lock.json":               "{}",
		"go.sum":                          "x",
		"id_rsa":                          "x",
		".env":                            "X=1",
		".env.example":                    "X=",
		"config/secrets.yaml":             "x",
		"tokenizer.py":                    "x",
		"big.txt":                         strings.Repeat("x", 200),
		"README.md":                       "x",
	})
	res := mustWalk(t, root, Options{MaxFileSize: 150})
	wantFiles := []string{
		".env.example", ".gitignore", ".synapticignore", "README.md",
		"config/env/settings.go", "docs/public.md", "go/build/build.go", "main.go",
		"sub/.gitignore", "sub/deeper/c.go", "sub/generated/keep.go", "sub/important.log",
		"tokenizer.py", "vendor/also.go", "vendor/keep.go",
	}
	if got := rels(res.Files); !slices.Equal(got, wantFiles) {
		t.Errorf("files:\n got %q\nwant %q", got, wantFiles)
	}
	wantSkips := []string{
		".env sensitive",
		"big.txt too-large",
		"config/secrets.yaml sensitive",
		"go.sum lockfile",
		"id_rsa sensitive",
		"package-lock.json lockfile",
	}
	if got := skips(res.Skipped); !slices.Equal(got, wantSkips) {
		t.Errorf("skipped:\n got %q\nwant %q", got, wantSkips)
	}
	// ignored: app.log, local.txt, generated/, sub/a.tmp, sub/deeper/b.tmp,
	// vendor/drop.go, lib/, docs/private.md
	if res.IgnoredCount != 8 {
		t.Errorf("IgnoredCount = %d, want 8", res.IgnoredCount)
	}
	// pruned: .git, node_modules, web/node_modules, dist, env, env2,
	// x.egg-info, my_venv, .synaptic, synaptic-out
	if res.PrunedDirs != 10 {
		t.Errorf("PrunedDirs = %d, want 10", res.PrunedDirs)
	}
	for _, f := range res.Files {
		if !filepath.IsAbs(f.Abs) || f.ModTime.IsZero() {
			t.Errorf("%s: Abs %q ModTime %v", f.Rel, f.Abs, f.ModTime)
		}
		data, err := os.ReadFile(f.Abs)
		if err != nil || int64(len(data)) != f.Size {
			t.Errorf("%s: read %d bytes (%v), Size %d", f.Rel, len(data), err, f.Size)
		}
	}

	// Determinism: a second walk gives the same Result.
	if again := mustWalk(t, root, Options{MaxFileSize: 150}); !reflect.DeepEqual(again, res) {
		t.Error("second walk differs")
	}

	// Match filters silently, but sensitive files are still reported.
	res = mustWalk(t, root, Options{Match: func(rel string) bool { return strings.HasSuffix(rel, ".go") }})
	wantGo := []string{"config/env/settings.go", "go/build/build.go", "main.go", "sub/deeper/c.go", "sub/generated/keep.go", "vendor/also.go", "vendor/keep.go"}
	if got := rels(res.Files); !slices.Equal(got, wantGo) {
		t.Errorf("with Match: files %q, want %q", got, wantGo)
	}
	if got := skips(res.Skipped); !slices.Equal(got, []string{".env sensitive", "config/secrets.yaml sensitive", "id_rsa sensitive"}) {
		t.Errorf("with Match: skipped %q", got)
	}
}

func TestWalkExcludedDirCannotReinclude(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		".gitignore":          "out2/\n!out2/keep.go\nlogs/*\n!logs/keep.txt\n",
		"out2/keep.go":        "x",
		"out2/drop.go":        "x",
		"logs/keep.txt":       "x",
		"logs/drop.txt":       "x",
		"other/.gitignore":    "!../out2/keep.go\n",
		"other/file.go":       "x",
		"deep/a/b/.gitignore": "/c.go\n",
		"deep/a/b/c.go":       "x",
		"deep/a/b/d/c.go":     "x",
	})
	res := mustWalk(t, root, Options{})
	want := []string{".gitignore", "deep/a/b/.gitignore", "deep/a/b/d/c.go", "logs/keep.txt", "other/.gitignore", "other/file.go"}
	if got := rels(res.Files); !slices.Equal(got, want) {
		t.Errorf("files %q, want %q", got, want)
	}
}

// TestWalkAgainstGit compares the walk with git's own list of untracked,
// not-ignored files on a tree with nested ignore files.
func TestWalkAgainstGit(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not installed")
	}
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		".gitignore":         "*.o\n/top.txt\nsrc/**/gen_*.go\n!src/keep/gen_ok.go\ntmp*/\n[Bb]in/\n",
		"top.txt":            "x",
		"a/top.txt":          "x",
		"x.o":                "x",
		"a/y.o":              "x",
		"src/a/gen_x.go":     "x",
		"src/gen_y.go":       "x",
		"src/keep/gen_ok.go": "x",
		"src/keep/real.go":   "x",
		"tmp1/z.go":          "x",
		"tmpfile":            "x",
		"Bin/a.go":           "x",
		"bin/b.go":           "x",
		"src/.gitignore":     "!*.o\nlocal/\n*.md\n!README.md\n",
		"src/lib.o":          "x",
		"src/local/x.go":     "x",
		"src/doc.md":         "x",
		"src/README.md":      "x",
		"src/sub/.gitignore": "*\n!*.go\n!*/\n",
		"src/sub/a.go":       "x",
		"src/sub/a.txt":      "x",
		"src/sub/d/b.go":     "x",
		"src/sub/d/b.txt":    "x",
		"sp ace/f g.go":      "x",
		"#hash.go":           "x",
		"!bang.go":           "x",
	})
	cmd := exec.Command(git, "init", "-q")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	writeTree(t, root, map[string]string{".git/info/exclude": "tmpfile\n"})
	cmd = exec.Command(git, "ls-files", "--others", "--exclude-standard", "-z")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+root, "GIT_CONFIG_GLOBAL=/dev/null")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	var want []string
	for p := range strings.SplitSeq(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		want = append(want, p)
	}
	slices.Sort(want)
	got := rels(mustWalk(t, root, Options{}).Files)
	if !slices.Equal(got, want) {
		t.Errorf("walk:\n %q\ngit:\n %q", got, want)
	}
}

func TestWalkSymlinks(t *testing.T) {
	outside := t.TempDir()
	writeTree(t, outside, map[string]string{"secret.go": "x", "d/f.go": "x"})
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"real/a.go":        "x",
		"real/deep/b.go":   "x",
		"other/c.go":       "x",
		"ignored/i.go":     "x",
		".gitignore":       "ignored/\n",
		"keys/.ssh/config": "x",
	})
	link := func(target, name string) {
		t.Helper()
		if err := os.Symlink(target, filepath.Join(root, filepath.FromSlash(name))); err != nil {
			t.Skipf("symlinks unsupported: %v", err)
		}
	}
	link("real/a.go", "alias.go")                          // file inside: followed
	link(filepath.Join(outside, "secret.go"), "escape.go") // file outside
	link(outside, "escape_dir")                            // dir outside
	link("..", "real/deep/up")                             // ancestor: loop
	link(".", "self")                                      // the root itself: loop
	link("../other", "real/other_link")                    // dir already walked: duplicate
	link("ignored", "via")                                 // dir walked only through the link
	link("nowhere", "broken")                              // broken
	link("cyc2", "cyc1")                                   // link cycle
	link("cyc1", "cyc2")
	link("keys/.ssh", "sshlink") // walked already as keys/.ssh
	link("../via", "ignored/loop_back")

	res := mustWalk(t, root, Options{})
	wantFiles := []string{".gitignore", "alias.go", "other/c.go", "real/a.go", "real/deep/b.go", "via/i.go"}
	if got := rels(res.Files); !slices.Equal(got, wantFiles) {
		t.Errorf("files:\n got %q\nwant %q", got, wantFiles)
	}
	wantSkips := []string{
		"broken symlink-broken",
		"cyc1 symlink-loop",
		"cyc2 symlink-loop",
		"escape.go symlink-outside",
		"escape_dir symlink-outside",
		"keys/.ssh/config sensitive",
		"real/deep/up symlink-loop",
		"real/other_link symlink-duplicate",
		"self symlink-loop",
		"sshlink symlink-duplicate",
		"via/loop_back symlink-loop",
	}
	if got := skips(res.Skipped); !slices.Equal(got, wantSkips) {
		t.Errorf("skipped:\n got %q\nwant %q", got, wantSkips)
	}
	for _, f := range res.Files {
		if real, _ := filepath.EvalSymlinks(f.Abs); real != f.Abs {
			t.Errorf("%s: Abs %q is not resolved (%q)", f.Rel, f.Abs, real)
		}
	}
	if again := mustWalk(t, root, Options{}); !reflect.DeepEqual(again, res) {
		t.Error("second walk differs")
	}

	// A root given through a symlink is resolved, not rejected.
	viaLink := filepath.Join(t.TempDir(), "rootlink")
	if err := os.Symlink(root, viaLink); err != nil {
		t.Fatal(err)
	}
	if got := rels(mustWalk(t, viaLink, Options{}).Files); !slices.Equal(got, wantFiles) {
		t.Errorf("root via symlink: files %q", got)
	}
}

func TestWalkRootErrors(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing")
	if _, err := Walk(missing, Options{}); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing root: err = %v, want one naming %s", err, missing)
	}
	file := filepath.Join(t.TempDir(), "f.go")
	os.WriteFile(file, nil, 0o644)
	if _, err := Walk(file, Options{}); err == nil || !strings.Contains(err.Error(), file) {
		t.Errorf("file root: err = %v, want one naming %s", err, file)
	}
}

func TestWalkUnreadable(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no POSIX permissions")
	}
	if os.Geteuid() == 0 {
		t.Skip("running as root: permissions do not restrict reads")
	}
	root := t.TempDir()
	writeTree(t, root, map[string]string{"ok.go": "x", "locked.go": "x", "closed/x.go": "x", "sub/.gitignore": "x\n"})
	os.Chmod(filepath.Join(root, "locked.go"), 0)
	os.Chmod(filepath.Join(root, "sub/.gitignore"), 0)
	os.Chmod(filepath.Join(root, "closed"), 0)
	t.Cleanup(func() { os.Chmod(filepath.Join(root, "closed"), 0o755) })
	res := mustWalk(t, root, Options{})
	if got := rels(res.Files); !slices.Equal(got, []string{"ok.go"}) {
		t.Errorf("files %q", got)
	}
	want := []string{"closed unreadable", "locked.go unreadable", "sub/.gitignore unreadable"}
	if got := skips(res.Skipped); !slices.Equal(got, want) {
		t.Errorf("skipped %q, want %q", got, want)
	}
}

// BenchmarkWalkGoroot lists Go's own source tree (about 11k files), warm.
// The first walk, outside the timed loop, warms the kernel's caches.
func BenchmarkWalkGoroot(b *testing.B) {
	root := filepath.Join(runtime.GOROOT(), "src")
	if _, err := os.Stat(filepath.Join(root, "go", "build")); err != nil {
		b.Skipf("GOROOT source not found: %v", err)
	}
	res, err := Walk(root, Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	cpu0 := cputime.Process()
	for b.Loop() {
		if _, err := Walk(root, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(res.Files)), "files")
	// CPU time (all threads, user + system) per walk: on an idle machine
	// wall time approaches it divided by the cores in use, on a busy one
	// it is the stable figure.
	if cpu := cputime.Process() - cpu0; cpu > 0 {
		b.ReportMetric(float64(cpu.Microseconds())/1e3/float64(b.N), "cpu-ms/op")
	}
}
