package discover

import "unicode/utf8"

// sniffLen is how much of a file IsBinary looks at; git and most tools use
// the first 8 KiB as well.
const sniffLen = 8 << 10

// IsBinary reports whether content (a file's bytes, or at least its first
// 8 KiB) looks binary, so the pipeline can skip it with SkipBinary after
// reading. Walk does not read files, so it never applies this itself.
//
// Content is binary when its first 8 KiB hold a NUL byte (git's own test;
// this also classes UTF-16 text as binary, which no parser here reads), or
// when more than 10% of it is control characters other than the
// whitespace and ESC that text files use, or when it is not UTF-8 and more
// than 30% of it is bytes that are not valid UTF-8 (a Latin-1 source file
// with a few accented letters is still text). Empty content is text.
func IsBinary(content []byte) bool {
	b := content
	truncated := false
	if len(b) > sniffLen {
		b, truncated = b[:sniffLen], true
	}
	if len(b) == 0 {
		return false
	}
	controls, invalid := 0, 0
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			switch {
			case c == 0:
				return true
			case c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v' && c != '\b' && c != 0x1b,
				c == 0x7f:
				controls++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			// A rune cut by the 8 KiB window is not evidence of binary.
			if truncated && !utf8.FullRune(b[i:]) {
				break
			}
			invalid++
		}
		i += size
	}
	n := len(b)
	return controls*10 > n || invalid*10 > n*3
}
