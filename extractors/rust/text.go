package main

import (
	"strings"
	"unicode/utf8"
)

// collapse returns s on one line: trimmed, every run of whitespace turned
// into one space, none kept just inside parentheses ("f(\n  int a\n)" →
// "f(int a)"). Most texts are already clean and are returned as is, without
// allocating.
func collapse(s string) string { return squeeze(s, false) }

// squeeze is collapse; with dots it also drops whitespace around '.', which
// joins a call chain split over lines ("a()\n  .b()" → "a().b()").
func squeeze(s string, dots bool) string {
	drop := func(prev, next byte) bool {
		return prev == '(' || next == ')' || dots && (prev == '.' || next == '.')
	}
	clean := true
	for i := 0; i < len(s) && clean; i++ {
		if c := s[i]; isSpace(c) {
			clean = c == ' ' && i > 0 && i+1 < len(s) && !isSpace(s[i+1]) && !drop(s[i-1], s[i+1])
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	var last byte // last byte written
	space := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if isSpace(c) {
			space = true
			continue
		}
		if space && b.Len() > 0 && !drop(last, c) {
			b.WriteByte(' ')
		}
		space = false
		b.WriteByte(c)
		last = c
	}
	return b.String()
}

func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' }

// maxReceiver bounds the receiver text of a call. A receiver that is itself
// a call chain or a lambda can span many lines; repeating it for every link
// of a long chain would make the facts quadratic in the chain length, and
// the core cannot resolve such receivers anyway.
const maxReceiver = 64

// receiverText is the receiver expression as written, on one line and
// clipped to maxReceiver bytes (on a rune boundary, marked with "...").
func receiverText(s string) string {
	if len(s) > 4*maxReceiver {
		s = s[:4*maxReceiver] // bound the work of collapse on huge expressions
	}
	s = squeeze(s, true)
	if len(s) <= maxReceiver {
		return s
	}
	cut := maxReceiver - 3
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}
