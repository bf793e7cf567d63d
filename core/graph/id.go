package graph

import (
	"strings"
	"unicode"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

var folder = cases.Fold()

// MakeID builds a node id from parts, compatible with Synaptic/graphify's
// make_id: drop empty parts, trim '_' and '.' from each, join with '_', NFKC,
// replace runs of non-word characters with '_', collapse and trim '_', then
// full Unicode case folding.
func MakeID(parts ...string) string {
	if id, ok := makeASCIIID(parts); ok {
		return id
	}
	return makeID(parts)
}

// makeASCIIID is MakeID in one pass for the common case of ASCII parts,
// where NFKC and case folding reduce to lowering A–Z. Every symbol of every
// file gets an id on every run, so the general path's four intermediate
// strings showed up in profiles of a re-extract. It reports false as soon as
// it meets a non-ASCII byte.
func makeASCIIID(parts []string) (string, bool) {
	var buf [96]byte
	out := buf[:0]
	pending, joined := false, false
	for _, p := range parts {
		p = strings.Trim(p, "_.")
		if p == "" {
			continue
		}
		if joined {
			pending = true // the '_' joining two parts
		}
		joined = true
		for i := 0; i < len(p); i++ {
			c := p[i]
			switch {
			case c >= 0x80:
				return "", false
			case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
			case 'A' <= c && c <= 'Z':
				c += 'a' - 'A'
			default:
				pending = true
				continue
			}
			if pending && len(out) > 0 {
				out = append(out, '_')
			}
			pending = false
			out = append(out, c)
		}
	}
	return string(out), true
}

// makeID is the general MakeID, for parts with non-ASCII text.
func makeID(parts []string) string {
	var b strings.Builder
	for _, p := range parts {
		p = strings.Trim(p, "_.")
		if p == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('_')
		}
		b.WriteString(p)
	}
	s := b.String()
	if !isASCII(s) {
		s = norm.NFKC.String(s)
	}
	out := make([]byte, 0, len(s))
	pendingSep := false
	for _, r := range s {
		if r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r) { // Python's \w: letters, numbers, '_'
			if r == '_' {
				pendingSep = true
				continue
			}
			if pendingSep && len(out) > 0 {
				out = append(out, '_')
			}
			pendingSep = false
			out = appendRune(out, r)
			continue
		}
		pendingSep = true
	}
	id := string(out)
	if isASCII(id) {
		return strings.ToLower(id)
	}
	return folder.String(id)
}

func appendRune(b []byte, r rune) []byte {
	if r < 0x80 {
		return append(b, byte(r))
	}
	return append(b, string(r)...)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
