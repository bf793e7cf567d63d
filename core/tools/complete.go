package tools

import (
	"context"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// maxCompletions caps completion/complete values.
const maxCompletions = 100

// Ref names what is being completed: Kind "prompt" with a prompt Name, or
// "resource" with a URI template in Name. Completion keys off the argument
// name, so Ref only matters for arguments whose name is ambiguous.
type Ref struct{ Kind, Name string }

// completer holds per-snapshot sorted completion tables, built on first use.
type completer struct {
	labels  []entry // every distinct label, keyed by its lowercase form
	trimmed []entry // labels with leading punctuation, keyed past it
	repos   []string
	comms   []string
}

type entry struct{ key, value string }

// trimLead drops leading punctuation, so "tool_get" finds ".tool_get_node()"
// and "init" finds "__init__".
func trimLead(s string) string {
	return strings.TrimLeft(s, "._-$#@:~*&!()[]<>/\\")
}

func (s *snapshot) completer() *completer {
	s.complOnce.Do(func() {
		c := &completer{}
		seen := map[string]bool{}
		for i := range s.g.Nodes {
			l := sanitize(s.g.Nodes[i].Label)
			if l == "" || seen[l] {
				continue
			}
			seen[l] = true
			key := strings.ToLower(l)
			c.labels = append(c.labels, entry{key, l})
			if t := trimLead(key); t != key && t != "" {
				c.trimmed = append(c.trimmed, entry{t, l})
			}
		}
		cmpEntry := func(a, b entry) int {
			if a.key != b.key {
				return strings.Compare(a.key, b.key)
			}
			return strings.Compare(a.value, b.value)
		}
		slices.SortFunc(c.labels, cmpEntry)
		slices.SortFunc(c.trimmed, cmpEntry)
		for _, r := range s.repos {
			c.repos = append(c.repos, sanitize(r.Repo))
		}
		_, ids := s.communities()
		for _, id := range ids {
			c.comms = append(c.comms, strconv.Itoa(id))
		}
		s.compl = c
	})
	return s.compl
}

// prefixRange returns the entries whose key starts with p (p lowercase).
func prefixRange(es []entry, p string) []entry {
	lo := sort.Search(len(es), func(i int) bool { return es[i].key >= p })
	hi := lo + sort.Search(len(es)-lo, func(i int) bool { return !strings.HasPrefix(es[lo+i].key, p) })
	return es[lo:hi]
}

// Complete suggests values for an argument: node labels for label, source,
// target, from, to and symbol; repo tags for repo; community ids for
// community_id (and the id of synaptic://community/{id}). Matching is a
// case-insensitive prefix that also sees past leading punctuation. Direct
// prefix matches come first, then the punctuation-skipping ones, each in
// sorted order; at most 100 values, with the full total and hasMore.
func (c *Catalog) Complete(ctx context.Context, ref Ref, argName, prefix string) (values []string, total int, hasMore bool) {
	if s, _ := c.await(ctx); s == nil {
		return []string{}, 0, false
	}
	defer c.pin()()
	s := c.current()
	cp := s.completer()
	p := strings.ToLower(prefix)
	var all []string
	switch {
	case argName == "label" || argName == "source" || argName == "target" || argName == "from" || argName == "to" || argName == "symbol":
		// Direct prefix matches first, then labels matched past their
		// leading punctuation, then (for a punctuated prefix) plain labels
		// matching the prefix without it.
		groups := [][]entry{prefixRange(cp.labels, p)}
		if tp := trimLead(p); p != "" && tp != "" { // "" already matched every label directly
			groups = append(groups, prefixRange(cp.trimmed, tp))
			if tp != p {
				groups = append(groups, prefixRange(cp.labels, tp))
			}
		}
		values = []string{}
		for gi, grp := range groups {
			for _, e := range grp {
				if gi > 0 && strings.HasPrefix(strings.ToLower(e.value), p) {
					continue // a direct match, already counted (later groups cannot overlap otherwise)
				}
				total++
				if len(values) < maxCompletions {
					values = append(values, e.value)
				}
			}
		}
		return values, total, total > len(values)
	case argName == "repo":
		all = cp.repos
	case argName == "community_id" || (argName == "id" && strings.Contains(ref.Name, "community")):
		all = cp.comms
	default:
		return []string{}, 0, false
	}
	values = []string{}
	for _, v := range all {
		if strings.HasPrefix(strings.ToLower(v), p) {
			total++
			if len(values) < maxCompletions {
				values = append(values, v)
			}
		}
	}
	return values, total, total > len(values)
}
