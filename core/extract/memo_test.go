package extract

import (
	"bytes"
	"errors"
	"io/fs"
	"testing"

	"github.com/synaptic-graph/synaptic/core/resolve"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// TestMemoSealed: the memo reads back under the key that wrote it, and
// under no other key nor after any byte changed.
func TestMemoSealed(t *testing.T) {
	dir, _ := testDir(t)
	if _, err := readMemo(dir, testKey); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing memo: %v, want ErrNotExist", err)
	}
	files := []resolve.File{{Path: "a.go", Language: "go", Family: "go", Key: "k", Facts: &abi.Facts{
		Package: "a", Symbols: []abi.Symbol{{Name: "F", Kind: "function", Parent: -1}}, Calls: []abi.Call{{Caller: 0, Name: "F", Line: 1}},
	}}}
	_, res, err := resolve.BuildIncremental(t.Context(), files, resolve.Options{Build: "b"})
	if err != nil {
		t.Fatal(err)
	}
	if err := writeMemo(t.Context(), dir, testKey, res.Memo); err != nil {
		t.Fatal(err)
	}
	m, err := readMemo(dir, testKey)
	if err != nil || m.Build != "b" || m.Files() != 1 {
		t.Fatalf("read back: %v, %+v", err, m)
	}
	other := sealKey(bytes.Repeat([]byte{8}, keySize))
	if _, err := readMemo(dir, other); !errors.Is(err, errUntrusted) {
		t.Errorf("another key: %v, want errUntrusted", err)
	}
	data, err := dir.ReadFile(memoName)
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{0, len(data) / 2, len(data) - 1} {
		bad := bytes.Clone(data)
		bad[i] ^= 0x40
		if err := dir.WriteFile(memoName, bad, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := readMemo(dir, testKey); !errors.Is(err, errUntrusted) {
			t.Errorf("byte %d changed: %v, want errUntrusted", i, err)
		}
	}
	if err := dir.WriteFile(memoName, data[:3], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := readMemo(dir, testKey); err == nil {
		t.Error("a truncated memo was read")
	}
}

func TestMemoWorthRewriting(t *testing.T) {
	for _, tc := range []struct {
		u    resolve.Reuse
		want bool
	}{
		{resolve.Reuse{Files: 7780, Resolved: 7780, Full: "--full"}, true},
		{resolve.Reuse{Files: 7780, Resolved: 1}, false},
		{resolve.Reuse{Files: 7780, Resolved: 60}, false},
		{resolve.Reuse{Files: 7780, Resolved: 61}, true},
		{resolve.Reuse{Files: 20, Resolved: 1}, true},
		{resolve.Reuse{Files: 20, Resolved: 0}, false},
	} {
		if got := memoWorthRewriting(tc.u); got != tc.want {
			t.Errorf("%+v: %v, want %v", tc.u, got, tc.want)
		}
	}
}
