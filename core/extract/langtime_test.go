//go:build unix

package extract

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// TestLanguageTimes: the per-language worker split counts the files a run
// extracted (not those it reused from the cache) and their bytes.
func TestLanguageTimes(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.txt": "one\n", "b.txt": "two\nthree\n"})
	opts := testOptions(t, root)
	sum, err := Run(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	got := sum.Workers.ByLanguage["txt"]
	if got.Files != 2 || got.Bytes != int64(len("one\n")+len("two\nthree\n")) || len(sum.Workers.ByLanguage) != 1 {
		t.Fatalf("first run: ByLanguage = %+v, want 2 txt files of 14 bytes", sum.Workers.ByLanguage)
	}
	if got.ParseCPU < 0 || got.Plugin <= 0 {
		t.Errorf("first run: times %+v, want a plugin time", got)
	}
	// A call's thread CPU time cannot exceed its wall time.
	if got.PluginCPU < 0 || got.PluginCPU > got.Plugin+time.Millisecond || runtime.GOOS == "linux" && got.PluginCPU == 0 {
		t.Errorf("first run: plugin CPU %v next to wall %v", got.PluginCPU, got.Plugin)
	}
	if err := os.WriteFile(filepath.Join(root, "b.txt"), []byte("two\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sum, err = Run(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if got := sum.Workers.ByLanguage["txt"]; got.Files != 1 || got.Bytes != 4 {
		t.Fatalf("incremental run: ByLanguage = %+v, want the 1 changed file of 4 bytes", sum.Workers.ByLanguage)
	}
}
