package registry

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

// settled opens a memo whose clock runs an hour ahead, so files written
// by the test count as settled and their sums are remembered.
func settled(path string) *Sums {
	s := OpenSums(path)
	s.now = func() time.Time { return time.Now().Add(time.Hour) }
	return s
}

func needIdentity(t *testing.T) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("file identities are read on Linux only")
	}
}

func TestSumsRememberAndForget(t *testing.T) {
	needIdentity(t)
	dir := t.TempDir()
	f := filepath.Join(dir, "m.wasm")
	os.WriteFile(f, []byte("one"), 0o644)
	memo := filepath.Join(dir, "cache", "sums.json")

	s := settled(memo)
	if _, ok := s.Lookup("k", f); ok {
		t.Fatal("empty memo answered")
	}
	s.Remember("k", f, "sum-one")
	if err := s.Save(); err != nil {
		t.Fatal(err)
	}
	re := OpenSums(memo)
	if got, ok := re.Lookup("k", f); !ok || got != "sum-one" {
		t.Fatalf("after reopen: %q, %v; want sum-one", got, ok)
	}
	if _, ok := re.Lookup("other", f); ok {
		t.Error("another key answered")
	}
	// Any change, even to the same length, gives the file a new identity.
	time.Sleep(10 * time.Millisecond)
	os.WriteFile(f, []byte("two"), 0o644)
	if _, ok := re.Lookup("k", f); ok {
		t.Error("a rewritten file kept its remembered sum")
	}
	// A symlink to the file is no regular file: never remembered.
	link := filepath.Join(dir, "link.wasm")
	os.Symlink(f, link)
	s.Remember("l", link, "x")
	if _, ok := s.Lookup("l", link); ok {
		t.Error("a symlink was remembered")
	}
}

func TestSumsSkipRacilyCleanFiles(t *testing.T) {
	needIdentity(t)
	dir := t.TempDir()
	f := filepath.Join(dir, "m.wasm")
	os.WriteFile(f, []byte("fresh"), 0o644)
	s := OpenSums(filepath.Join(dir, "sums.json")) // the real clock: f changed just now
	s.Remember("k", f, "sum")
	if _, ok := s.Lookup("k", f); ok {
		t.Error("a file changed within sumSettle was remembered")
	}
}

func TestSumsIgnoreBadMemo(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"garbage":     "{not json",
		"old version": `{"version":0,"entries":{"k":{"id":"x","sum":"y"}}}`,
		"empty":       "",
	} {
		p := filepath.Join(dir, strings.ReplaceAll(name, " ", "_"))
		os.WriteFile(p, []byte(body), 0o644)
		if s := OpenSums(p); len(s.entries) != 0 {
			t.Errorf("%s: memo has %d entries, want 0", name, len(s.entries))
		}
	}
	var nilSums *Sums
	nilSums.Remember("k", filepath.Join(dir, "garbage"), "x")
	if _, ok := nilSums.Lookup("k", filepath.Join(dir, "garbage")); ok || nilSums.Save() != nil {
		t.Error("a nil memo must hash every time and save nothing")
	}
}

// TestModuleSumFromMemo: a remembered sum stands for an unchanged module,
// and a pin is still checked against it.
func TestModuleSumFromMemo(t *testing.T) {
	needIdentity(t)
	dir := t.TempDir()
	mod := []byte("not really wasm")
	plugin(t, dir, "golang", extractor("go", "1.0.0", goLang), mod)
	pinned := plugin(t, dir, "pinned", extractor("pinned", "1", "sha256 = \""+hexSum(mod)+"\"\n"+goLang), mod)
	s := settled(filepath.Join(dir, "sums.json"))
	first := DiscoverWith([]Source{{Dir: dir, Origin: "flag"}}, s)
	if len(first.Problems) != 0 || len(first.Plugins) != 2 {
		t.Fatalf("first discovery: %v, %d plugins", first.Problems, len(first.Plugins))
	}
	if got, ok := s.Lookup("module:"+filepath.Join(pinned, "p.wasm"), filepath.Join(pinned, "p.wasm")); !ok || got != hexSum(mod) {
		t.Fatalf("module sum not remembered: %q, %v", got, ok)
	}
	// A doctored memo entry for the unchanged module is what the next
	// discovery reports, and the pin catches it.
	key := "module:" + filepath.Join(pinned, "p.wasm")
	s.entries[key] = sumEntry{ID: s.entries[key].ID, Sum: strings.Repeat("0", 64)}
	second := DiscoverWith([]Source{{Dir: dir, Origin: "flag"}}, s)
	if len(second.Problems) != 1 || !strings.Contains(second.Problems[0].Error(), "pins") {
		t.Fatalf("pin against the remembered sum: problems %v", second.Problems)
	}
}

func TestMaterializeRemembersTheSetDigest(t *testing.T) {
	needIdentity(t)
	set := fstest.MapFS{
		"toy/plugin.toml": {Data: []byte("name = \"toy\"\n")},
		"toy/toy.wasm":    {Data: []byte("\x00asm")},
	}
	dir := t.TempDir()
	exe := filepath.Join(dir, "synaptic")
	os.WriteFile(exe, []byte("binary"), 0o755)
	s := settled(filepath.Join(dir, "sums.json"))
	cache := filepath.Join(dir, "cache")
	got, err := MaterializeWith(set, cache, s, exe)
	plain, _ := Materialize(set, t.TempDir())
	if err != nil || filepath.Base(got) != filepath.Base(plain) {
		t.Fatalf("MaterializeWith = %q, %v; want the content-named %s", got, err, filepath.Base(plain))
	}
	if d, ok := s.Lookup("embedded:"+exe, exe); !ok || "plugins-"+d != filepath.Base(got) {
		t.Fatalf("set digest not remembered under the executable: %q, %v", d, ok)
	}
	// The checked copy is remembered file by file; a tampered file has a
	// new identity, so the copy is compared again and rewritten.
	toy := filepath.Join(got, "toy", "toy.wasm")
	if d, ok := s.Lookup("unpacked:"+toy, toy); ok {
		t.Fatalf("a copy written just now was remembered as checked (%q)", d)
	}
	if _, err := MaterializeWith(set, cache, s, exe); err != nil {
		t.Fatal(err)
	}
	if d, ok := s.Lookup("unpacked:"+toy, toy); !ok || "plugins-"+d != filepath.Base(got) {
		t.Fatalf("the compared copy is not remembered: %q, %v", d, ok)
	}
	if dir, ok := checkedBefore(set, cache, s, exe); !ok || dir != got {
		t.Fatalf("checkedBefore = %q, %v; want %q", dir, ok, got)
	}
	time.Sleep(10 * time.Millisecond)
	os.WriteFile(toy, []byte("evil"), 0o644)
	if _, ok := checkedBefore(set, cache, s, exe); ok {
		t.Fatal("a tampered copy passed as checked")
	}
	if _, err := MaterializeWith(set, cache, s, exe); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(toy); string(b) != "\x00asm" {
		t.Fatalf("tampered module not restored: %q", b)
	}
	MaterializeWith(set, cache, s, exe) // compares the restored copy and remembers it
	if _, ok := checkedBefore(set, cache, s, exe); !ok {
		t.Fatal("the restored copy is not remembered as checked")
	}
	os.WriteFile(filepath.Join(got, "toy", "extra.wasm"), []byte("rides along"), 0o644)
	if _, ok := checkedBefore(set, cache, s, exe); ok {
		t.Fatal("a copy with an extra file passed as checked")
	}
	// A new binary is hashed again.
	time.Sleep(10 * time.Millisecond)
	os.WriteFile(exe, []byte("another binary"), 0o755)
	if _, ok := s.Lookup("embedded:"+exe, exe); ok {
		t.Error("a replaced executable kept its set digest")
	}
	again, err := MaterializeWith(set, cache, s, exe)
	if err != nil || again != got {
		t.Fatalf("after a rebuild: %q, %v; want %q", again, err, got)
	}
}
