package resolve

import (
	"encoding/json"
	"slices"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// Unlinked member calls. A call on a receiver whose type neither the
// plugin nor the resolver knows (cf.sections(), where cf came from a
// helper) links nothing, so the method it most likely runs shows no
// caller from there. Guessing an edge would be wrong as often as right;
// saying nothing makes "0 callers" read as "unused". So the caller's node
// records, under "unlinked_calls", the names of such calls that some
// method in the same language family declares: tools can then say "N
// functions call .sections() on a receiver of unknown type", and test
// selection can keep the tests that do.

// maxUnlinkedPerNode bounds one node's list; a longer list is cut at the
// first names in sorted order, and the node says so.
const maxUnlinkedPerNode = 64

// noteUnlinked records call c of f as an unlinked member call when a
// method of that name exists in the family.
func (r *resolver) noteUnlinked(f *fileInfo, c *abi.Call) {
	if c.Caller < 0 || c.Receiver == "" {
		return
	}
	if r.methodsByName == nil {
		r.methodsByName = r.indexMethodsByName()
	}
	r.note(c.Name)
	if len(r.methodsByName[f.Family][c.Name]) == 0 {
		return
	}
	if r.unlinked == nil {
		r.unlinked = map[int32][]string{}
	}
	caller := f.first + c.Caller
	r.unlinked[caller] = append(r.unlinked[caller], c.Name)
	if r.recording && !r.inValueRefs { // value references keep no unlinked names
		r.curMemo.unlinked = append(r.curMemo.unlinked, memoUnlinked{caller: c.Caller, name: c.Name})
	}
}

// recordUnlinked writes every caller's unlinked call names, sorted and
// deduplicated, onto its node, found by index (a map of ids to names
// looked up for every node cost ~0.03 CPU-s a run on GOROOT/src).
func (r *resolver) recordUnlinked() {
	for s, names := range r.unlinked {
		slices.Sort(names)
		names = slices.Compact(names)
		if len(names) > maxUnlinkedPerNode {
			names = names[:maxUnlinkedPerNode]
		}
		n := r.symNode(s)
		if n.Extra == nil {
			n.Extra = make(map[string]json.RawMessage, 1)
		}
		n.Extra["unlinked_calls"] = marshalNames(names)
	}
}

// marshalNames is json.Marshal(names), written directly when no name
// needs escaping (method names are identifiers): reflection per caller
// node was ~0.01 CPU-s a run on GOROOT/src.
func marshalNames(names []string) json.RawMessage {
	size, plain := 2, len(names) > 0 // nil is null, empty []: json.Marshal's
	for _, n := range names {
		size += len(n) + 3
		plain = plain && plainJSON(n)
	}
	if !plain {
		raw, _ := json.Marshal(names)
		return raw
	}
	b := make([]byte, 0, size)
	b = append(b, '[')
	for i, n := range names {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = append(b, n...)
		b = append(b, '"')
	}
	return append(b, ']')
}

// plainJSON reports a string that encoding/json writes as it is, between
// quotes: printable ASCII without the characters it escapes.
func plainJSON(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 || c > 0x7e, c == '"', c == '\\', c == '<', c == '>', c == '&':
			return false
		}
	}
	return true
}

// indexMethodsByName is family -> method name -> methods.
func (r *resolver) indexMethodsByName() map[string]map[string][]int32 {
	out := make(map[string]map[string][]int32)
	for t, ms := range r.methods {
		fam := r.files[r.syms[t].file].Family
		m := out[fam]
		if m == nil {
			m = make(map[string][]int32)
			out[fam] = m
		}
		for n, list := range ms {
			m[n] = append(m[n], list...)
		}
	}
	return out
}
