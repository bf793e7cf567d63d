package extracttest

import (
	"fmt"
	"slices"
	"strings"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// Check compares facts with wants and returns one message per mismatch:
// for each want line and each category it names, the keys of that line's
// facts of that category must be exactly the wanted ones (as multisets).
func Check(f *abi.Facts, wants []Want) []string {
	got := factKeys(f)
	var out []string
	for _, w := range wants {
		for _, c := range Categories {
			want, named := w.Keys[c]
			if !named {
				continue
			}
			have := got[lineCat{w.Line, c}]
			missing, extra := diff(want, have)
			for _, k := range missing {
				out = append(out, fmt.Sprintf("line %d: want %s %q, not extracted (the line has %s)", w.Line, c, k, describe(have)))
			}
			for _, k := range extra {
				out = append(out, fmt.Sprintf("line %d: extracted %s %q, not wanted (add %s:%q to the want comment)", w.Line, c, k, c, k))
			}
		}
	}
	return out
}

type lineCat struct {
	line uint32
	cat  Category
}

// factKeys returns the key of every fact by line and category, as want
// comments name them.
func factKeys(f *abi.Facts) map[lineCat][]string {
	out := map[lineCat][]string{}
	add := func(line uint32, c Category, key string) {
		out[lineCat{line, c}] = append(out[lineCat{line, c}], key)
	}
	for i, s := range f.Symbols {
		add(s.Span.StartLine, Def, string(s.Kind)+" "+qualified(f, int32(i)))
	}
	for _, c := range f.Calls {
		key := c.Name
		if c.Receiver != "" {
			key = c.Receiver + "." + c.Name
		}
		add(c.Line, Call, key)
	}
	for _, im := range f.Imports {
		add(im.Line, Import, im.Path)
	}
	for _, r := range f.Relations {
		add(r.Line, Rel, string(r.Kind)+" "+r.Target)
	}
	return out
}

// qualified is a symbol's name with its parents' ("Box.area"), or with
// its Receiver for a method declared away from its type; the walk is
// bounded because facts from extract.Run passed Validate (no cycles).
func qualified(f *abi.Facts, i int32) string {
	var parts []string
	for ; i >= 0 && int(i) < len(f.Symbols) && len(parts) <= len(f.Symbols); i = f.Symbols[i].Parent {
		parts = append(parts, f.Symbols[i].Name)
		if s := &f.Symbols[i]; s.Parent < 0 && s.Receiver != "" {
			parts = append(parts, s.Receiver)
		}
	}
	slices.Reverse(parts)
	return strings.Join(parts, ".")
}

// diff returns the keys of want missing from have and those of have not in want.
func diff(want, have []string) (missing, extra []string) {
	left := slices.Clone(have)
	for _, k := range want {
		if i := slices.Index(left, k); i >= 0 {
			left = slices.Delete(left, i, i+1)
		} else {
			missing = append(missing, k)
		}
	}
	return missing, left
}

func describe(keys []string) string {
	if len(keys) == 0 {
		return "none"
	}
	q := make([]string, len(keys))
	for i, k := range keys {
		q[i] = fmt.Sprintf("%q", k)
	}
	return strings.Join(q, ", ")
}
