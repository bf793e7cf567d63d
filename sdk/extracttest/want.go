package extracttest

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Category is the kind of fact a want expectation names.
type Category string

// The categories, each compared on its fact's line by one key.
const (
	Def    Category = "def"    // a symbol starting on the line: "KIND NAME", NAME qualified by its parents or Receiver ("method Box.area")
	Call   Category = "call"   // a call on the line: "NAME", or "RECEIVER.NAME" with the receiver as written
	Import Category = "import" // an import on the line: its path as written
	Rel    Category = "rel"    // a relation on the line: "KIND TARGET" ("inherits Base")
)

// Categories lists every category.
var Categories = []Category{Def, Call, Import, Rel}

// none as an expectation's value says the line has no fact of its category.
const none = "-"

// Want is the expectations of one source line: for each category the
// comment names, the keys of exactly the facts of that category the line
// must carry (in any order; "-" alone means none).
type Want struct {
	Line uint32
	Keys map[Category][]string
}

// ParseWants finds the want comments in a fixture's source. A want comment
// is a line comment (after //, #, -- or ;, or inside /* */) whose text
// starts with "want", followed by CATEGORY:VALUE items; VALUE is a bare
// word or a Go-quoted string:
//
//	area := b.area()  // want call:b.area def:"variable area"
//	class Box(Base):  # want def:"class Box" rel:"inherits Base"
//	print(x)          -- want call:print import:-
//
// A comment that starts with "want" but cannot be read is an error naming
// the line, so a typo never turns into an expectation silently ignored.
func ParseWants(src []byte) ([]Want, error) {
	var out []Want
	for i, line := range strings.Split(string(src), "\n") {
		text, ok := wantText(line)
		if !ok {
			continue
		}
		w, err := parseWant(uint32(i+1), text)
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", i+1, err)
		}
		out = append(out, w)
	}
	return out, nil
}

// wantText returns what follows "want" in a line's comment.
func wantText(line string) (string, bool) {
	for _, marker := range []string{"//", "/*", "#", "--", ";"} {
		for off := 0; ; {
			i := strings.Index(line[off:], marker)
			if i < 0 {
				break
			}
			rest := strings.TrimLeft(line[off+i+len(marker):], " \t")
			if after, ok := strings.CutPrefix(rest, "want"); ok && (after == "" || after[0] == ' ' || after[0] == '\t') {
				if marker == "/*" {
					after, _, _ = strings.Cut(after, "*/")
				}
				return strings.TrimSpace(after), true
			}
			off += i + len(marker)
		}
	}
	return "", false
}

func parseWant(line uint32, s string) (Want, error) {
	w := Want{Line: line, Keys: map[Category][]string{}}
	if s == "" {
		return w, fmt.Errorf("want with no expectations; write CATEGORY:VALUE items (categories: %s)", categoryList())
	}
	for s != "" {
		cat, rest, ok := strings.Cut(s, ":")
		if !ok || !slices.Contains(Categories, Category(cat)) {
			return w, fmt.Errorf("want item %q: start it with one of %s and a colon", firstWord(s), categoryList())
		}
		var val string
		if strings.HasPrefix(rest, `"`) {
			q, err := strconv.QuotedPrefix(rest)
			if err != nil {
				return w, fmt.Errorf("want item %s: unterminated or bad quoted value", cat)
			}
			val, _ = strconv.Unquote(q)
			rest = rest[len(q):]
		} else {
			val, rest, _ = strings.Cut(rest, " ")
		}
		if val == "" {
			return w, fmt.Errorf("want item %s: empty value", cat)
		}
		c := Category(cat)
		if val == none {
			if _, set := w.Keys[c]; set {
				return w, fmt.Errorf("want item %s:- next to other %s items", cat, cat)
			}
			w.Keys[c] = []string{}
		} else {
			if k, set := w.Keys[c]; set && len(k) == 0 {
				return w, fmt.Errorf("want item %s:- next to other %s items", cat, cat)
			}
			w.Keys[c] = append(w.Keys[c], val)
		}
		s = strings.TrimLeft(rest, " \t")
	}
	return w, nil
}

func firstWord(s string) string {
	w, _, _ := strings.Cut(s, " ")
	return w
}

func categoryList() string {
	var names []string
	for _, c := range Categories {
		names = append(names, string(c))
	}
	return strings.Join(names, ", ")
}
