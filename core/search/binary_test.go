package search

import (
	"strings"
	"testing"

	"github.com/synaptic-graph/synaptic/core/discover"
)

// TestIsBinaryAgrees holds the fast path to discover.IsBinary.
func TestIsBinaryAgrees(t *testing.T) {
	inputs := []string{"", "package a\n\tfunc f() {}\r\n", "x\x00y", "caf\xc3\xa9", "\x7f", "\x1b[31m", strings.Repeat("abc\x01", 100), strings.Repeat("plain text ", 2000) + "\x00"}
	for c := range 256 {
		inputs = append(inputs, "abcdefg"+string(rune(c))[:1]+"hijklmn", strings.Repeat(string([]byte{byte(c)}), 20))
	}
	for _, in := range inputs {
		if got, want := isBinary([]byte(in)), discover.IsBinary([]byte(in)); got != want {
			t.Errorf("isBinary(%.40q) = %v, discover says %v", in, got, want)
		}
	}
}

func FuzzIsBinary(f *testing.F) {
	f.Add([]byte("package a\n"))
	f.Add([]byte("a\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := isBinary(b), discover.IsBinary(b); got != want {
			t.Fatalf("isBinary(%q) = %v, discover says %v", b, got, want)
		}
	})
}
