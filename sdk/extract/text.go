package extract

import (
	"strings"
	"unicode/utf8"
)

// OneLine returns source text on one line: trimmed, every run of whitespace
// turned into one space, none kept just inside parentheses
// ("f(\n  int a\n)" → "f(int a)"). Signatures' Raw text and receivers are
// written this way. Text that is already clean is returned without
// allocating.
func OneLine(s string) string { return squeeze(s, false) }

// OneLineChain is OneLine that also drops whitespace around '.', joining a
// call chain split over lines ("a()\n  .b()" → "a().b()").
func OneLineChain(s string) string { return squeeze(s, true) }

func squeeze(s string, dots bool) string {
	drop := func(prev, next byte) bool {
		return prev == '(' || next == ')' || dots && (prev == '.' || next == '.')
	}
	clean := true
	for i := 0; i < len(s) && clean; i++ {
		if c := s[i]; IsSpace(c) {
			clean = c == ' ' && i > 0 && i+1 < len(s) && !IsSpace(s[i+1]) && !drop(s[i-1], s[i+1])
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
		if IsSpace(c) {
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

// IsSpace reports ASCII whitespace.
func IsSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' }

// MaxReceiver is the one cap on a call's receiver text, for every
// extractor: 64 bytes hold any receiver the host can resolve (a name, a
// short chain like self.repo.items), and a cap keeps a generated
// 5,000-link builder chain's facts linear instead of quadratic.
const MaxReceiver = 64

// Receiver is ReceiverText with the MaxReceiver cap: what an extractor
// puts in Call.Receiver.
func Receiver(s string) string { return ReceiverText(s, MaxReceiver) }

// ReceiverText is a call's receiver expression as written, on one line and
// clipped to max bytes on a rune boundary (marked "..."). Receivers that are
// themselves long call chains or lambdas would otherwise make facts
// quadratic in the chain length, and the host cannot resolve them anyway.
func ReceiverText(s string, max int) string {
	if len(s) > 4*max {
		s = s[:4*max] // bound the work on huge expressions
	}
	s = OneLineChain(s)
	if len(s) <= max {
		return s
	}
	cut := max - 3
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}
