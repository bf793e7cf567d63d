package host

import (
	"fmt"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// MaxV2Items bounds each list of ABI v2 facts (module keys of a file,
// keys of an import, variant constraints and their values): a file has a
// handful; more is a plugin flooding the resolver's indexes.
const MaxV2Items = 64

// intakeV2 caps the ABI v2 strings and lists of f as intake does the rest.
func intakeV2(f *abi.Facts, c *cutter) (lists int) {
	ff := &f.File
	c.str(&ff.Scope, MaxNameBytes, "scope")
	lists += capList(&ff.Modules)
	for i := range ff.Modules {
		c.str(&ff.Modules[i], MaxNameBytes, "module key")
	}
	if len(ff.Variants) > MaxV2Items {
		ff.Variants, lists = ff.Variants[:MaxV2Items], lists+1
	}
	for i := range ff.Variants {
		v := &ff.Variants[i]
		c.str(&v.Axis, MaxNameBytes, "variant axis")
		lists += capList(&v.Values)
		for j := range v.Values {
			c.str(&v.Values[j], MaxNameBytes, "variant value")
		}
	}
	for i := range f.Imports {
		im := &f.Imports[i]
		lists += capList(&im.Keys)
		for j := range im.Keys {
			c.str(&im.Keys[j], MaxNameBytes, "import key")
		}
	}
	refs := func(r *abi.TypeRef) {
		if r == nil {
			return
		}
		for j := range r.Steps {
			c.str(&r.Steps[j].Name, MaxNameBytes, "type reference name")
		}
	}
	for i := range f.Calls {
		refs(f.Calls[i].ReceiverRef)
	}
	for i := range f.Symbols {
		if sig := f.Symbols[i].Signature; sig != nil {
			refs(sig.ReturnRef)
			for j := range sig.Params {
				refs(sig.Params[j].TypeRef)
				for _, r := range sig.Params[j].Callback {
					refs(r)
				}
			}
		}
	}
	return lists
}

func capList(s *[]string) int {
	if len(*s) <= MaxV2Items {
		return 0
	}
	*s = (*s)[:MaxV2Items]
	return 1
}

func listNote(plugin string, n int) string {
	return fmt.Sprintf("plugin %s returned %d ABI v2 list(s) of more than %d items (module keys, import keys, variants); cut to %d", plugin, n, MaxV2Items, MaxV2Items)
}
