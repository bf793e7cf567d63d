package graph

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

// appendStringBytewise is appendString as it was before plain8: one byte
// at a time. The fast path must give the same bytes.
func appendStringBytewise(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// TestAppendStringMatchesBytewise puts every byte value at every place of
// strings around the 8-byte word size, and a few multi-byte runes across
// word boundaries.
func TestAppendStringMatchesBytewise(t *testing.T) {
	check := func(s string) {
		t.Helper()
		if got, want := appendString(nil, s), appendStringBytewise(nil, s); !bytes.Equal(got, want) {
			t.Fatalf("appendString(%q) = %s, want %s", s, got, want)
		}
	}
	for n := 0; n <= 17; n++ {
		base := []byte(strings.Repeat("abcdefgh", 3)[:n])
		check(string(base))
		for p := 0; p < n; p++ {
			for c := range 256 {
				s := bytes.Clone(base)
				s[p] = byte(c)
				check(string(s))
			}
		}
	}
	for _, s := range []string{
		"net/http.(*Server).Serve()", "a\u2028b\u2029c", "ééééé", "x\u2028yyyyyyy",
		"1234567\u00e9", "1234567\"", "\\\\\\\\\\\\\\\\", "\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f",
		"1234567\xff89abcdef", "\x1f\x1f\x1f\x1f\x1f\x1f\x1f\x1f", "        ", "!!!!!!!!",
	} {
		check(s)
	}
}

// FuzzAppendString compares the word-at-a-time encoder with the bytewise
// one on arbitrary strings.
func FuzzAppendString(f *testing.F) {
	f.Add("net/http.(*Server).Serve()")
	f.Add("a\u2028b\"c\\d\x00e\xff")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := appendString(nil, s), appendStringBytewise(nil, s); !bytes.Equal(got, want) {
			t.Fatalf("appendString(%q) = %s, want %s", s, got, want)
		}
	})
}
