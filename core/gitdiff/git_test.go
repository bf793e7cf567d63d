package gitdiff

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// testRepo is a real git repository in a temp dir.
type testRepo struct {
	t   *testing.T
	dir string
}

func newTestRepo(t *testing.T, branch string) *testRepo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	r := &testRepo{t: t, dir: t.TempDir()}
	r.git("init", "-q", "-b", branch)
	r.git("config", "user.email", "t@example.com")
	r.git("config", "user.name", "t")
	r.git("config", "commit.gpgsign", "false")
	return r
}

func (r *testRepo) git(args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", append([]string{"-C", r.dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null")
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func (r *testRepo) write(path, content string) {
	r.t.Helper()
	p := filepath.Join(r.dir, path)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

func (r *testRepo) commit(msg string) {
	r.t.Helper()
	r.git("add", "-A")
	r.git("commit", "-q", "-m", msg)
}

func (r *testRepo) repo() Repo { return Repo{Dir: r.dir} }

const fiveLines = "one\ntwo\nthree\nfour\nfive\n"

func TestNotARepoVersusNoChanges(t *testing.T) {
	ctx := context.Background()
	if err := (Repo{Dir: t.TempDir()}).Check(ctx); !errors.Is(err, ErrNotRepo) {
		t.Fatalf("plain dir: %v, want ErrNotRepo", err)
	}
	if _, err := (Repo{Dir: filepath.Join(t.TempDir(), "missing")}).ResolveBase(ctx, ""); !errors.Is(err, ErrNotRepo) {
		t.Fatalf("missing dir: %v, want ErrNotRepo", err)
	}
	r := newTestRepo(t, "main")
	r.write("a.txt", fiveLines)
	r.commit("one")
	b, err := r.repo().ResolveBase(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	ch, err := r.repo().WorkingChanges(ctx, b)
	if err != nil || len(ch.Files) != 0 {
		t.Fatalf("clean tree: %+v, %v", ch.Files, err)
	}
}

func TestEmptyRepo(t *testing.T) {
	r := newTestRepo(t, "main")
	_, err := r.repo().ResolveBase(context.Background(), "")
	if err == nil || !strings.Contains(err.Error(), "no commits") {
		t.Fatalf("err = %v", err)
	}
}

func TestDetectBase(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name, branch string
		remote       bool
		wantRef      string
		wantSource   BaseSource
	}{
		{"main", "main", false, "main", BaseBranch},
		{"master", "master", false, "master", BaseBranch},
		{"first commit", "work", false, "", BaseFirstCommit},
		{"origin/HEAD", "work", true, "origin/work", BaseOriginHead},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newTestRepo(t, tc.branch)
			r.write("a.txt", fiveLines)
			r.commit("root")
			root := r.git("rev-parse", "HEAD")
			if tc.remote {
				up := newTestRepo(t, tc.branch)
				up.write("a.txt", fiveLines)
				up.commit("root")
				r = &testRepo{t: t, dir: t.TempDir()}
				cmd := exec.Command("git", "clone", "-q", up.dir, r.dir)
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("clone: %v %s", err, out)
				}
				root = r.git("rev-parse", "HEAD")
			}
			r.write("a.txt", "changed\n")
			b, err := r.repo().ResolveBase(ctx, "")
			if err != nil {
				t.Fatal(err)
			}
			want := tc.wantRef
			if want == "" {
				want = root
			}
			if b.Ref != want || b.Source != tc.wantSource || b.Merge != root {
				t.Fatalf("base = %+v, want ref %s source %s merge %s", b, want, tc.wantSource, root)
			}
			if !strings.Contains(b.String(), string(tc.wantSource)) {
				t.Fatalf("String() = %q does not name how the base was chosen", b)
			}
		})
	}
}

func TestBaseDoesNotExist(t *testing.T) {
	r := newTestRepo(t, "main")
	r.write("a.txt", fiveLines)
	r.commit("one")
	for _, ref := range []string{"nope", "--output=/tmp/x"} {
		_, err := r.repo().ResolveBase(context.Background(), ref)
		if err == nil || !strings.Contains(err.Error(), "not valid") && !strings.Contains(err.Error(), "does not exist") {
			t.Fatalf("%s: err = %v", ref, err)
		}
	}
}

func TestWorkingChanges(t *testing.T) {
	ctx := context.Background()
	r := newTestRepo(t, "main")
	r.write("keep.txt", fiveLines)
	r.write("old name.txt", "alpha\nbeta\ngamma\ndelta\nepsilon\nzeta\n")
	r.write("gone.txt", "bye\n")
	r.write("img.bin", "\x00\x01\x02")
	r.commit("base")
	r.git("checkout", "-q", "-b", "feature")
	// Committed on the branch: a rename with an edit.
	r.git("mv", "old name.txt", "new name.txt")
	r.write("new name.txt", "alpha\nbeta\nGAMMA\ndelta\nepsilon\nzeta\n")
	r.commit("rename")
	// Uncommitted: an edit in the middle, a deletion, a binary change.
	r.write("keep.txt", "one\ntwo\nTHREE\nfour\nfive\nsix\n")
	if err := os.Remove(filepath.Join(r.dir, "gone.txt")); err != nil {
		t.Fatal(err)
	}
	r.write("img.bin", "\x00\x09\x09\x09")
	// Untracked, plus one that is ignored.
	r.write("fresh.go", "package x\n\nfunc F() {}\n")
	r.write(".gitignore", "*.log\n")
	r.write("noise.log", "x\n")

	b, err := r.repo().ResolveBase(ctx, "main")
	if err != nil {
		t.Fatal(err)
	}
	ch, err := r.repo().WorkingChanges(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]File{}
	for _, f := range ch.Files {
		got[f.Path] = f
	}
	if _, ok := got["noise.log"]; ok {
		t.Error("ignored file listed")
	}
	for _, tc := range []struct {
		path   string
		status Status
		binary bool
		hunks  []Hunk
		old    string
	}{
		{"keep.txt", Modified, false, []Hunk{{3, 1, 3, 1}, {5, 0, 6, 1}}, ""},
		{"gone.txt", Deleted, false, []Hunk{{1, 1, 0, 0}}, ""},
		{"img.bin", Modified, true, nil, ""},
		{"new name.txt", Renamed, false, []Hunk{{3, 1, 3, 1}}, "old name.txt"},
		{"fresh.go", Untracked, false, []Hunk{{0, 0, 1, 3}}, ""},
		{".gitignore", Untracked, false, []Hunk{{0, 0, 1, 1}}, ""},
	} {
		f, ok := got[tc.path]
		if !ok {
			t.Errorf("%s missing from %+v", tc.path, ch.Files)
			continue
		}
		if f.Status != tc.status || f.Binary != tc.binary || f.OldPath != tc.old || !equalHunks(f.Hunks, tc.hunks) {
			t.Errorf("%s = %+v, want status %s binary %v old %q hunks %v", tc.path, f, tc.status, tc.binary, tc.old, tc.hunks)
		}
	}
	if len(ch.Files) != 6 {
		t.Errorf("%d files, want 6: %+v", len(ch.Files), ch.Files)
	}
}

func TestDetachedHeadAndSubdir(t *testing.T) {
	ctx := context.Background()
	r := newTestRepo(t, "main")
	r.write("sub/a.txt", fiveLines)
	r.write("b.txt", fiveLines)
	r.commit("one")
	r.write("sub/a.txt", "x\n"+fiveLines)
	r.commit("two")
	r.git("checkout", "-q", "--detach", "HEAD")
	r.write("b.txt", "changed\n")
	sub := Repo{Dir: filepath.Join(r.dir, "sub")}
	b, err := sub.ResolveBase(ctx, "HEAD~1")
	if err != nil {
		t.Fatal(err)
	}
	ch, err := sub.WorkingChanges(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	// Paths are relative to the directory asked about, and only below it.
	if len(ch.Files) != 1 || ch.Files[0].Path != "a.txt" {
		t.Fatalf("files = %+v", ch.Files)
	}
}

func TestUntrackedFIFO(t *testing.T) {
	r := newTestRepo(t, "main")
	r.write("a.txt", fiveLines)
	r.commit("one")
	if err := mkfifo(filepath.Join(r.dir, "pipe")); err != nil {
		t.Skip("no mkfifo:", err)
	}
	b, err := r.repo().ResolveBase(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	ch, err := r.repo().WorkingChanges(context.Background(), b)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range ch.Files {
		if f.Path == "pipe" && !f.Binary {
			t.Fatalf("fifo read as text: %+v", f)
		}
	}
}

func equalHunks(a, b []Hunk) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
