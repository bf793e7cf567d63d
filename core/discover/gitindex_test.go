package discover

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// gitIn runs git in dir with no user or system configuration.
func gitIn(t testing.TB, dir string, args ...string) string {
	t.Helper()
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not installed")
	}
	cmd := exec.Command(git, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir, "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// trackedRepo is a git work tree whose .gitignore leaves out files git
// tracks anyway (added before the rule, or with add -f), as zod's
// "**/package.json" does.
func trackedRepo(t testing.TB) string {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		".gitignore":            "**/package.json\ngen/\n*.gen.go\n",
		"package.json":          "{}",
		"pkg/package.json":      "{}",
		"pkg/new/package.json":  "{}", // untracked: ignored
		"gen/kept.go":           "x",
		"gen/deep/kept.go":      "x",
		"gen/scratch.go":        "x", // untracked in an ignored directory
		"gen/other/x.go":        "x", // a directory with nothing tracked
		"a.gen.go":              "x",
		"b.gen.go":              "x",
		"src/main.go":           "x",
		"src/.gitignore":        "!keep.gen.go\n",
		"src/keep.gen.go":       "x",
		"sub/.synapticignore":   "secret.go\n",
		"sub/secret.go":         "x",
		"sub/package.json":      "{}",
		"gen/.synapticignore":   "deep/\n",
		"gen/deep/.placeholder": "x",
		"lib/.gitignore":        "*.json\n",
		"lib/tracked.json":      "{}",
		"lib/untracked.json":    "{}",
	})
	gitIn(t, root, "init", "-q")
	gitIn(t, root, "add", "-f", "package.json", "pkg/package.json", "gen/kept.go", "gen/deep/kept.go", "a.gen.go", "sub/package.json", "sub/secret.go", "lib/tracked.json")
	gitIn(t, root, "add", ".")
	return root
}

// TestWalkKeepsTrackedFiles: git never ignores a file it tracks; the
// walk lists what `git ls-files --cached --others --exclude-standard`
// lists, but for what .synapticignore leaves out, which stays out.
func TestWalkKeepsTrackedFiles(t *testing.T) {
	root := trackedRepo(t)
	out := gitIn(t, root, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	var want []string
	for p := range strings.SplitSeq(strings.TrimSuffix(out, "\x00"), "\x00") {
		if p != "sub/secret.go" && !strings.HasPrefix(p, "gen/deep/") {
			want = append(want, p)
		}
	}
	slices.Sort(want)
	res := mustWalk(t, root, Options{})
	if got := rels(res.Files); !slices.Equal(got, want) {
		t.Errorf("walk:\n %q\nwant (git's list less .synapticignore's):\n %q", got, want)
	}
	if !slices.ContainsFunc(res.Inputs, func(in Input) bool { return in.Abs == filepath.Join(root, ".git", "index") }) {
		t.Error("the index is not an input of the walk: git add -f would go unnoticed")
	}
	dirs, err := Dirs(root)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(dirs, filepath.Join(root, "gen")) || slices.Contains(dirs, filepath.Join(root, "gen", "other")) {
		t.Errorf("Dirs = %q: want gen/ (it holds tracked files) without gen/other/", dirs)
	}
}

// TestWalkTrackedFromSubfolder: rooted in a folder of the work tree, the
// walk still reads the index above it.
func TestWalkTrackedFromSubfolder(t *testing.T) {
	root := trackedRepo(t)
	got := rels(mustWalk(t, filepath.Join(root, "lib"), Options{}).Files)
	if want := []string{".gitignore", "tracked.json"}; !slices.Equal(got, want) {
		t.Errorf("walk of lib/ = %q, want %q", got, want)
	}
}

// TestReadPolicyKeepsTrackedFiles: what the walk lists for being tracked
// the read policy lets an assistant read; untracked ignored files stay
// refused.
func TestReadPolicyKeepsTrackedFiles(t *testing.T) {
	root := trackedRepo(t)
	r, err := os.OpenRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	tests := []struct {
		rel     string
		refused bool
	}{
		{"package.json", false},
		{"pkg/package.json", false},
		{"pkg/new/package.json", true},
		{"gen/kept.go", false},
		{"gen/scratch.go", true},
		{"gen/other/x.go", true},
		{"gen/deep/kept.go", true}, // .synapticignore's deep/ wins
		{"a.gen.go", false},
		{"b.gen.go", true},
		{"sub/secret.go", true},
	}
	for _, p := range []ReadPolicy{{Root: r}, NewReadPolicy(r, nil)} {
		for _, tt := range tests {
			if got := p.Check(tt.rel) != nil; got != tt.refused {
				t.Errorf("Check(%s) refused = %v, want %v", tt.rel, got, tt.refused)
			}
		}
	}
}

// TestParseIndexVersions: the index git writes in each version (4
// compresses paths; 3 adds extended flags, here from add -N) gives the
// paths ls-files gives.
func TestParseIndexVersions(t *testing.T) {
	root := trackedRepo(t)
	writeTree(t, root, map[string]string{"later.go": "x"})
	gitIn(t, root, "add", "-N", "later.go") // intent-to-add: an extended flag
	want := strings.Split(strings.TrimSuffix(gitIn(t, root, "ls-files", "-z"), "\x00"), "\x00")
	for _, version := range []string{"2", "3", "4"} {
		t.Run("v"+version, func(t *testing.T) {
			gitIn(t, root, "update-index", "--index-version", version)
			data, err := os.ReadFile(filepath.Join(root, ".git", "index"))
			if err != nil {
				t.Fatal(err)
			}
			got, err := parseIndex(data)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Errorf("paths:\n %q\nwant:\n %q", got, want)
			}
		})
	}
}

// TestParseIndexRefuses: what is not a whole index is an error, never a
// partial list or a panic.
func TestParseIndexRefuses(t *testing.T) {
	root := trackedRepo(t)
	data, err := os.ReadFile(filepath.Join(root, ".git", "index"))
	if err != nil {
		t.Fatal(err)
	}
	huge := slices.Clone(data[:12])
	huge[8], huge[9] = 0x7f, 0xff
	tests := []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"not an index", []byte("PACK\x00\x00\x00\x02\x00\x00\x00\x00")},
		{"version 5", []byte("DIRC\x00\x00\x00\x05\x00\x00\x00\x00")},
		{"truncated", data[:len(data)/2]},
		{"count beyond the size", huge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if paths, err := parseIndex(tt.data); err == nil {
				t.Errorf("parseIndex = %q, nil; want an error", paths)
			}
		})
	}
}

// FuzzParseIndex: any bytes in .git/index give paths or an error, and
// the paths are sorted and free of duplicates, as tracked.has needs (a
// crafted index need not be in git's order).
func FuzzParseIndex(f *testing.F) {
	root := trackedRepo(f)
	for _, version := range []string{"2", "4"} {
		gitIn(f, root, "update-index", "--index-version", version)
		if data, err := os.ReadFile(filepath.Join(root, ".git", "index")); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		paths, err := parseIndex(data)
		if err != nil {
			return
		}
		for i := 1; i < len(paths); i++ {
			if paths[i-1] >= paths[i] {
				t.Fatalf("paths not sorted and unique at %d: %q, %q", i, paths[i-1], paths[i])
			}
		}
		for _, p := range paths {
			if !tracked(paths).has(p) {
				t.Fatalf("has(%q) = false for a listed path", p)
			}
		}
	})
}
