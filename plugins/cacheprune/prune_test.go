package cacheprune

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

func TestPrune(t *testing.T) {
	now := time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)
	old, recent := now.Add(-40*24*time.Hour), now.Add(-2*24*time.Hour)
	root := t.TempDir()
	files := []struct {
		rel  string
		used time.Time
		gone bool
	}{
		{"plugins-old/go/go.wasm", old, true},
		{"plugins-old/go/plugin.toml", old, true},
		{"plugins-mixed/go/go.wasm", old, false}, // one recent file keeps the set
		{"plugins-mixed/py/py.wasm", recent, false},
		{"plugins-current/go/go.wasm", old, false}, // kept by name
		{"plugins-recent/go/go.wasm", recent, false},
		{"notplugins/x", old, false},
		{"plugin-sums.json", old, false},
		{"wazero/wazero-v1/aaaa", old, true},
		{"wazero/wazero-v1/bbbb", recent, false},
		{"wazero/wazero-v0/cccc", old, true}, // its folder goes too
	}
	for _, f := range files {
		p := filepath.Join(root, f.rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, f.used, f.used); err != nil {
			t.Fatal(err)
		}
	}
	removed, err := Prune(root, now, MaxAge, filepath.Join(root, "plugins-current"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		_, err := os.Stat(filepath.Join(root, f.rel))
		if gone := os.IsNotExist(err); gone != f.gone {
			t.Errorf("%s: removed=%v, want %v", f.rel, gone, f.gone)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "wazero", "wazero-v0")); !os.IsNotExist(err) {
		t.Errorf("empty wazero-v0 folder kept")
	}
	want := []string{"plugins-old", "wazero/wazero-v0/cccc", "wazero/wazero-v1/aaaa"}
	var got []string
	for _, r := range removed {
		rel, _ := filepath.Rel(root, r)
		got = append(got, filepath.ToSlash(rel))
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("removed %v, want %v", got, want)
	}
}

// TestPruneOncePerInterval: a second prune inside the interval does
// nothing, one after it runs again.
func TestPruneOncePerInterval(t *testing.T) {
	now := time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)
	root := t.TempDir()
	if _, err := Prune(root, now, MaxAge); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(root, "plugins-x", "a.wasm")
	os.MkdirAll(filepath.Dir(stale), 0o755)
	os.WriteFile(stale, nil, 0o644)
	past := now.Add(-60 * 24 * time.Hour)
	os.Chtimes(stale, past, past)
	if removed, _ := Prune(root, now.Add(time.Hour), MaxAge); len(removed) != 0 {
		t.Fatalf("pruned again within the interval: %v", removed)
	}
	if removed, _ := Prune(root, now.Add(25*time.Hour), MaxAge); len(removed) != 1 {
		t.Fatalf("a day later: removed %v, want the stale set", removed)
	}
}
