package gitdiff

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name string
		diff string
		want []File
		err  string
	}{
		{"empty", "", nil, ""},
		{"modify", "diff --git a/x.go b/x.go\nindex 1..2 100644\n--- a/x.go\n+++ b/x.go\n@@ -3 +3,2 @@ func F() {\n-a\n+b\n+c\n",
			[]File{{Path: "x.go", Status: Modified, Hunks: []Hunk{{3, 1, 3, 2}}, Added: 2, Removed: 1}}, ""},
		{"added", "diff --git a/n.go b/n.go\nnew file mode 100644\n--- /dev/null\n+++ b/n.go\n@@ -0,0 +1,2 @@\n+a\n+b\n",
			[]File{{Path: "n.go", Status: Added, Hunks: []Hunk{{0, 0, 1, 2}}, Added: 2}}, ""},
		{"deleted", "diff --git a/d.go b/d.go\ndeleted file mode 100644\n--- a/d.go\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a\n-b\n",
			[]File{{Path: "d.go", Status: Deleted, Hunks: []Hunk{{1, 2, 0, 0}}, Removed: 2}}, ""},
		{"rename with spaces", "diff --git a/old x.go b/new x.go\nsimilarity index 90%\nrename from old x.go\nrename to new x.go\n",
			[]File{{Path: "new x.go", OldPath: "old x.go", Status: Renamed}}, ""},
		{"quoted", "diff --git \"a/t\\tab.go\" \"b/t\\tab.go\"\n--- \"a/t\\tab.go\"\n+++ \"b/t\\tab.go\"\n@@ -1 +1 @@\n-a\n+b\n",
			[]File{{Path: "t\tab.go", Status: Modified, Hunks: []Hunk{{1, 1, 1, 1}}, Added: 1, Removed: 1}}, ""},
		{"octal utf8", "diff --git \"a/\\303\\251.go\" \"b/\\303\\251.go\"\nnew file mode 100644\n",
			[]File{{Path: "é.go", Status: Added}}, ""},
		{"binary", "diff --git a/i.png b/i.png\nindex 1..2 100644\nBinary files a/i.png and b/i.png differ\n",
			[]File{{Path: "i.png", Status: Modified, Binary: true}}, ""},
		{"garbage first", "hello\n", nil, "expected \"diff --git\""},
		{"bad hunk", "diff --git a/x b/x\n@@ -a +1 @@\n", nil, "bad line number"},
		{"unclosed hunk", "diff --git a/x b/x\n@@ -1 +1\n", nil, "no closing @@"},
		{"huge number", "diff --git a/x b/x\n@@ -1 +99999999999999999999 @@\n", nil, "bad line number"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Parse([]byte(tc.diff))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
			for i := range got {
				g, w := got[i], tc.want[i]
				if g.Path != w.Path || g.OldPath != w.OldPath || g.Status != w.Status || g.Binary != w.Binary ||
					g.Added != w.Added || g.Removed != w.Removed || !equalHunks(g.Hunks, w.Hunks) {
					t.Errorf("file %d = %+v, want %+v", i, g, w)
				}
			}
		})
	}
}

func FuzzParseDiff(f *testing.F) {
	f.Add([]byte("diff --git a/x.go b/x.go\n--- a/x.go\n+++ b/x.go\n@@ -3 +3,2 @@\n-a\n+b\n"))
	f.Add([]byte("diff --git \"a/\\303\\251\" \"b/\\303\"\nrename from \"q\\\"\"\nrename to x\nBinary files a and b differ\n"))
	f.Add([]byte("diff --git a/d b/d\ndeleted file mode 100644\n@@ -1,2 +0,0 @@\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		files, err := Parse(b)
		if err != nil {
			return
		}
		for _, fl := range files {
			if fl.Path == "" {
				t.Fatalf("file without a path: %+v", fl)
			}
			for _, h := range fl.Hunks {
				if h.OldStart < 0 || h.NewStart < 0 || h.OldLines < 0 || h.NewLines < 0 || h.NewStart > maxLine || h.NewLines > maxLine {
					t.Fatalf("bad hunk %+v", h)
				}
			}
		}
	})
}
