package discover

// wildmatch is a port of git's wildmatch.c with WM_PATHNAME set, which is
// how git matches every .gitignore pattern. A port rather than path.Match
// because gitignore globs differ: "**" crosses directories only when it is a
// whole path segment, "[!a]" and "[^a]" both negate, POSIX classes such as
// "[[:digit:]]" are allowed, and a malformed class is a non-match rather
// than an error.
//
// Matching is on bytes, as git does; a multi-byte UTF-8 character is several
// text bytes, so "?" matches one byte of it. That only matters for "?" and
// classes next to non-ASCII names, and it is what git does.

const (
	wmMatch = iota
	wmNoMatch
	wmAbortAll
	wmAbortToStarStar
)

// wildmatch reports whether text matches the glob pattern p.
func wildmatch(p, text string) bool {
	return dowild(p, text) == wmMatch
}

func isGlobSpecial(c byte) bool {
	return c == '*' || c == '?' || c == '[' || c == '\\'
}

// dowild follows dowild() in git's wildmatch.c. Indexes stand in for the C
// pointers; reading past the end yields 0, like the C string's terminator.
func dowild(p, text string) int {
	at := func(s string, i int) byte {
		if i < len(s) {
			return s[i]
		}
		return 0
	}
	pi, ti := 0, 0
	for ; pi < len(p); pi, ti = pi+1, ti+1 {
		pch := p[pi]
		tch := at(text, ti)
		if ti >= len(text) && pch != '*' {
			return wmAbortAll
		}
		switch pch {
		case '\\':
			// Literal match with the following character; a trailing
			// backslash compares against 0 and fails.
			pi++
			if pi >= len(p) || tch != p[pi] {
				return wmNoMatch
			}
			continue
		default:
			if tch != pch {
				return wmNoMatch
			}
			continue
		case '?':
			if tch == '/' {
				return wmNoMatch
			}
			continue
		case '*':
			var matchSlash bool
			pi++
			if at(p, pi) == '*' {
				prev := pi - 2
				for pi++; at(p, pi) == '*'; pi++ {
				}
				if (prev < 0 || p[prev] == '/') &&
					(pi >= len(p) || p[pi] == '/' || (p[pi] == '\\' && at(p, pi+1) == '/')) {
					// "**/" may match no directory at all: try the rest
					// of the pattern against the text as it stands.
					if at(p, pi) == '/' && dowild(p[pi+1:], text[ti:]) == wmMatch {
						return wmMatch
					}
					matchSlash = true
				}
			}
			if pi >= len(p) {
				// A trailing "**" matches everything; a trailing "*"
				// only if no slash is left.
				if !matchSlash {
					for i := ti; i < len(text); i++ {
						if text[i] == '/' {
							return wmNoMatch
						}
					}
				}
				return wmMatch
			}
			if !matchSlash && p[pi] == '/' {
				// One "*" followed by a slash matches the rest of this
				// directory name; the loop then consumes both slashes.
				j := ti
				for j < len(text) && text[j] != '/' {
					j++
				}
				if j == len(text) {
					return wmNoMatch
				}
				ti = j
				continue
			}
			for {
				if ti >= len(text) {
					break
				}
				// Skip ahead to the next occurrence of a literal that
				// follows the star: everything before it belongs to "*".
				if !isGlobSpecial(p[pi]) {
					want := p[pi]
					for ti < len(text) && (matchSlash || text[ti] != '/') {
						if text[ti] == want {
							break
						}
						ti++
					}
					if ti >= len(text) || text[ti] != want {
						return wmNoMatch
					}
					tch = want
				}
				if m := dowild(p[pi:], text[ti:]); m != wmNoMatch {
					if !matchSlash || m != wmAbortToStarStar {
						return m
					}
				} else if !matchSlash && tch == '/' {
					return wmAbortToStarStar
				}
				ti++
				tch = at(text, ti)
			}
			return wmAbortAll
		case '[':
			pi++
			negated := false
			if pi < len(p) && (p[pi] == '!' || p[pi] == '^') {
				negated = true
				pi++
			}
			var prev byte
			hasPrev := false // prev is a character that may start a range
			matched := false
			for {
				if pi >= len(p) {
					return wmAbortAll
				}
				pch = p[pi]
				rangeStart := true
				switch {
				case pch == '\\':
					pi++
					if pi >= len(p) {
						return wmAbortAll
					}
					pch = p[pi]
					if tch == pch {
						matched = true
					}
				case pch == '-' && hasPrev && pi+1 < len(p) && p[pi+1] != ']':
					pi++
					pch = p[pi]
					if pch == '\\' {
						pi++
						if pi >= len(p) {
							return wmAbortAll
						}
						pch = p[pi]
					}
					if tch <= pch && tch >= prev {
						matched = true
					}
					rangeStart = false // "a-c-e" is a-c, '-', 'e'
				case pch == '[' && at(p, pi+1) == ':':
					start := pi + 2
					end := start
					for end < len(p) && p[end] != ']' {
						end++
					}
					if end >= len(p) {
						return wmAbortAll
					}
					if end-start == 0 || p[end-1] != ':' {
						// Not a class after all: "[" is a literal.
						if tch == '[' {
							matched = true
						}
						break
					}
					name := p[start : end-1]
					pi = end
					ok, known := posixClass(name, tch)
					if !known {
						return wmAbortAll
					}
					if ok {
						matched = true
					}
					rangeStart = false // a class cannot start a range
				default:
					if tch == pch {
						matched = true
					}
				}
				prev, hasPrev = pch, rangeStart
				pi++
				if pi < len(p) && p[pi] == ']' {
					break
				}
			}
			if matched == negated || tch == '/' {
				return wmNoMatch
			}
			continue
		}
	}
	if ti < len(text) {
		return wmNoMatch
	}
	return wmMatch
}

// posixClass reports whether c is in the named POSIX class, and whether the
// name is a known class (git aborts the match on an unknown one).
func posixClass(name string, c byte) (in, known bool) {
	isUpper := c >= 'A' && c <= 'Z'
	isLower := c >= 'a' && c <= 'z'
	isDigit := c >= '0' && c <= '9'
	switch name {
	case "alnum":
		return isUpper || isLower || isDigit, true
	case "alpha":
		return isUpper || isLower, true
	case "blank":
		return c == ' ' || c == '\t', true
	case "cntrl":
		return c < 0x20 || c == 0x7f, true
	case "digit":
		return isDigit, true
	case "graph":
		return c > 0x20 && c < 0x7f, true
	case "lower":
		return isLower, true
	case "print":
		return c >= 0x20 && c < 0x7f, true
	case "punct":
		return c > 0x20 && c < 0x7f && !isUpper && !isLower && !isDigit, true
	case "space":
		return c == ' ' || (c >= '\t' && c <= '\r'), true
	case "upper":
		return isUpper, true
	case "xdigit":
		return isDigit || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'), true
	}
	return false, false
}
