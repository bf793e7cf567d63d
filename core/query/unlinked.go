package query

import (
	"encoding/json"
	"strings"
)

// Unlinked member calls: the resolver lists, under a caller's
// "unlinked_calls", the names of its calls on receivers whose type it
// could not infer (Python's `with Popen(...) as p: p.communicate()`, a
// parameter's `record.getMessage()`). Expansion follows such a call to
// the methods of that name when few types declare it, as find_callers
// counts them: it is how subprocess.run reaches Popen.communicate.

// maxUnlinkedTargets is how many methods may share a name for an unlinked
// call of it to lead anywhere (the same bound find_callers uses): close or
// __init__ is declared by so many types that the call says nothing.
const maxUnlinkedTargets = 4

// unlinkedTargets maps each node with unlinked calls to the methods those
// calls may reach, in node order, nil when Tuning.Unlinked is off.
func (e *Engine) unlinkedTargets() map[int32][]int32 {
	if e.t.Unlinked <= 0 {
		return nil
	}
	g := e.x.G
	methods := map[string][]int32{}
	callers := map[int32][]string{}
	for i := range g.Nodes {
		n := &g.Nodes[i]
		if n.Kind == "method" || n.Kind == "constructor" || n.Kind == "property" {
			name := strings.TrimPrefix(strings.TrimSuffix(n.Label, "()"), ".")
			methods[name] = append(methods[name], int32(i))
		}
		if raw, ok := n.Extra["unlinked_calls"]; ok {
			var names []string
			if json.Unmarshal(raw, &names) == nil {
				callers[int32(i)] = names
			}
		}
	}
	out := map[int32][]int32{}
	for i, names := range callers {
		var ts []int32
		for _, name := range names {
			if m := methods[name]; len(m) <= maxUnlinkedTargets {
				for _, t := range m {
					if t != i {
						ts = append(ts, t)
					}
				}
			}
		}
		if len(ts) > 0 {
			out[i] = ts
		}
	}
	return out
}
