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
