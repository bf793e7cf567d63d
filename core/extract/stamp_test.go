package extract

import (
	"maps"
	"runtime"
	"slices"
	"testing"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// TestInputsDigest: the digest follows what the graph is made from and
// nothing else.
func TestInputsDigest(t *testing.T) {
	base := func() []cachedFile {
		return []cachedFile{
			{Path: "a.go", Hash: "h1", Plugin: "go@1", Language: "go", Facts: &abi.Facts{Package: "a", Symbols: []abi.Symbol{{Name: "F", Kind: "function", Parent: -1}}}},
			{Path: "b.py", Hash: "h2", Plugin: "python@1", Language: "python", Skip: "trap: boom"},
		}
	}
	skips := []Skip{{Path: "k.pem", Reason: "sensitive"}, {Path: "big.go", Reason: "too-large", Detail: "3 MB"}}
	want := inputsDigest("build", "python=shop", skips, base())
	tests := []struct {
		name  string
		build string
		root  string
		skips []Skip
		edit  func([]cachedFile)
		same  bool
	}{
		{name: "same inputs", same: true},
		{name: "skips in another order", skips: []Skip{skips[1], skips[0]}, same: true},
		{name: "new content, same facts", edit: func(c []cachedFile) { c[0].Hash = "h9" }, same: true},
		{name: "new plugin build, same facts", edit: func(c []cachedFile) { c[0].Plugin = "go@2" }, same: true},
		{name: "other build", build: "build2"},
		{name: "other place of the root in its project", root: "python=shop.billing"},
		{name: "one skip fewer", skips: skips[:1]},
		{name: "facts changed", edit: func(c []cachedFile) { c[0].Facts.Symbols[0].Name = "G" }},
		{name: "generated", edit: func(c []cachedFile) { c[0].Generated = true }},
		{name: "failure reason", edit: func(c []cachedFile) { c[1].Skip = "timeout" }},
		{name: "language", edit: func(c []cachedFile) { c[1].Language = "python3" }},
		{name: "file renamed", edit: func(c []cachedFile) { c[1].Path = "c.py" }},
	}
	for _, tt := range tests {
		build, root, s, files := "build", "python=shop", skips, base()
		if tt.build != "" {
			build = tt.build
		}
		if tt.root != "" {
			root = tt.root
		}
		if tt.skips != nil {
			s = tt.skips
		}
		if tt.edit != nil {
			tt.edit(files)
		}
		if got := inputsDigest(build, root, s, files); (got == want) != tt.same {
			t.Errorf("%s: digest equal = %v, want %v", tt.name, got == want, tt.same)
		}
	}
	if inputsDigest("", "python=shop", skips, base()) != "" {
		t.Error("a build without an id must not produce a digest")
	}
}

func TestBuildID(t *testing.T) {
	if runtime.GOOS == "linux" && buildID() == "" {
		t.Fatal("no Go build id read from the test binary")
	}
}

// TestDigestWhileWritingFacts: a full run digests its files while writing
// the facts cache, the next run digests the facts it read back; the two
// must agree or no run would ever keep its graph.
func TestDigestWhileWritingFacts(t *testing.T) {
	files := sampleCache()
	h := newDigest("build", "root", nil)
	dir, _ := testDir(t)
	if err := writeFacts(t.Context(), dir, testKey, files, h, nil); err != nil {
		t.Fatal(err)
	}
	back, err := readFacts(dir, testKey)
	if err != nil {
		t.Fatal(err)
	}
	var again []cachedFile
	for _, k := range slices.Sorted(maps.Keys(back)) {
		again = append(again, back[k])
	}
	if got, want := inputsDigest("build", "root", nil, again), finishDigest(h); got != want {
		t.Fatalf("digest of the facts read back %s, digest while writing %s", got, want)
	}
}
