package main

import (
	"strings"

	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// receiverText is the receiver expression as written, on one line and
// clipped to the sdk's one cap (extract.Receiver).
func receiverText(s string) string { return extract.Receiver(s) }

// baseName strips type arguments and array brackets from a type as
// written: "java.util.List<String>" → "java.util.List", "Foo[]" → "Foo".
func baseName(s string) string {
	if i := strings.IndexAny(s, "<[ \t\n"); i >= 0 {
		s = s[:i]
	}
	return s
}

// lastSegment returns the part after the last '.' of a qualified name.
func lastSegment(s string) string {
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		return s[i+1:]
	}
	return s
}
