package tools

import "strings"

// docSentence is the part of a node's doc that get_node and
// describe_node show: up to the first sentence end (". ", "! ", "? "),
// skipping abbreviations such as "e.g." and "i.e.", sanitized. A doc the
// extractor clipped keeps its "..." mark, so a cut never reads as whole.
func docSentence(doc string) string {
	for i := 1; i+1 < len(doc); i++ {
		c := doc[i]
		if (c != '.' && c != '!' && c != '?') || doc[i+1] != ' ' {
			continue
		}
		if c == '.' && (i >= 2 && doc[i-2] == '.' || i+2 < len(doc) && isLowerASCII(doc[i+2])) {
			continue // "e.g. ", "i.e. " or a sentence that goes on in lower case
		}
		return sanitize(doc[:i+1])
	}
	return sanitize(strings.TrimSpace(doc))
}

func isLowerASCII(c byte) bool { return 'a' <= c && c <= 'z' }
