package extract

import (
	"bytes"
	"encoding/hex"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// testKey seals the caches tests write.
var testKey = sealKey(bytes.Repeat([]byte{7}, keySize))

// testDir opens a fresh directory as a root and names its facts.bin.
func testDir(t testing.TB) (*os.Root, string) {
	t.Helper()
	d := t.TempDir()
	r, err := os.OpenRoot(d)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r, filepath.Join(d, factsName)
}

func sampleCache() []cachedFile {
	return []cachedFile{
		{Path: "a.go", Hash: "h1", Plugin: "go@x", Language: "go", Facts: &abi.Facts{
			Package: "a",
			Symbols: []abi.Symbol{{Name: "F", Kind: "function", Parent: -1, Span: abi.Span{StartLine: 1, EndLine: 2}}},
			Calls:   []abi.Call{{Caller: 0, Name: "G", Line: 2}},
		}},
		{Path: "b.py", Hash: "h2", Plugin: "python@y", Language: "python", Skip: "parse-failed: timeout"},
		{Path: "gen.go", Hash: "h3", Plugin: "go@x", Language: "go", Generated: true, Facts: &abi.Facts{Package: "a"}},
	}
}

// TestFactsCacheRoundTrip: what writeFacts writes, readFacts reads back,
// and writing what was read (the copy-the-bytes path) gives the same file.
func TestFactsCacheRoundTrip(t *testing.T) {
	dir, p := testDir(t)
	want := sampleCache()
	if err := writeFacts(t.Context(), dir, testKey, want, nil, nil); err != nil {
		t.Fatal(err)
	}
	got, err := readFacts(dir, testKey)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("read %d entries, want %d", len(got), len(want))
	}
	var again []cachedFile
	for _, w := range want {
		g := got[w.Path]
		g.encoded = nil
		if !reflect.DeepEqual(g, w) {
			t.Errorf("%s: read %+v, want %+v", w.Path, g, w)
		}
		again = append(again, got[w.Path])
	}
	first, _ := os.ReadFile(p)
	if err := writeFacts(t.Context(), dir, testKey, again, nil, nil); err != nil {
		t.Fatal(err)
	}
	second, _ := os.ReadFile(p)
	if string(first) != string(second) {
		t.Error("rewriting the entries read gives different bytes")
	}
}

// FuzzReadFacts: a corrupted facts cache is an error (the run then
// extracts everything), never a panic; whatever reads back writes back.
func FuzzReadFacts(f *testing.F) {
	dir, seed := testDir(f)
	if err := writeFacts(f.Context(), dir, testKey, sampleCache(), nil, nil); err != nil {
		f.Fatal(err)
	}
	b, _ := os.ReadFile(seed)
	f.Add(b[:len(b)-keySize]) // the body: the fuzz function seals what it is given
	f.Add(factsMagic)
	f.Fuzz(func(t *testing.T, data []byte) {
		dir, p := testDir(t)
		// Sealed with the key, so the fuzzer reaches the decoder.
		data = append(data[:len(data):len(data)], testKey.sum(domainFacts, data)...)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := readFacts(dir, testKey)
		if err != nil {
			return
		}
		var files []cachedFile
		for _, c := range got {
			files = append(files, c)
		}
		if err := writeFacts(t.Context(), dir, testKey, files, nil, nil); err != nil {
			t.Fatal(err)
		}
		if _, err := readFacts(dir, testKey); err != nil {
			t.Fatalf("rewritten cache does not read back: %v", err)
		}
	})
}

// FuzzReadManifest: a manifest from disk is untrusted input. Whatever the
// bytes, reading is an error or a manifest that writes back and reads back
// the same; only a manifest sealed with the key is ever accepted.
func FuzzReadManifest(f *testing.F) {
	dir, _ := testDir(f)
	m := &Manifest{Version: manifestVersion, Files: map[string]ManifestEntry{"a.go": {Size: 1, MTime: 1.5, Hash: "h", Plugin: "go"}}}
	if err := writeManifest(f.Context(), dir, testKey, m); err != nil {
		f.Fatal(err)
	}
	seed, err := dir.ReadFile(ManifestFile)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed, true)
	f.Add([]byte(`{"version":1,"files":{}}`), false)
	f.Fuzz(func(t *testing.T, data []byte, reseal bool) {
		dir, _ := testDir(t)
		if reseal { // give the fuzzer sealed bodies, to reach the JSON decoder
			body, _ := unsealManifest(data, nil)
			if body == nil {
				body = data
			}
			mac := hex.EncodeToString(testKey.sum(domainManifest, body))
			if bytes.HasPrefix(body, []byte("{\n")) {
				data = slices.Concat([]byte(sealPrefix), []byte(mac), []byte("\",\n"), body[2:])
			}
		}
		if err := dir.WriteFile(ManifestFile, data, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := readManifest(dir, testKey)
		if err != nil {
			return
		}
		if _, err := readManifest(dir, sealKey(bytes.Repeat([]byte{8}, keySize))); err == nil {
			t.Fatal("a manifest sealed with one key read with another")
		}
		if err := writeManifest(t.Context(), dir, testKey, got); err != nil {
			t.Fatal(err)
		}
		again, err := readManifest(dir, testKey)
		if err != nil {
			t.Fatalf("rewritten manifest does not read back: %v", err)
		}
		if !reflect.DeepEqual(got, again) {
			t.Fatalf("manifest changed on rewrite: %+v vs %+v", got, again)
		}
	})
}
