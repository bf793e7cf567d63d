package registry

import (
	"slices"
	"strings"

	"github.com/synaptic-graph/synaptic/plugins/manifest"
)

// FromManifests routes files among already-parsed manifests exactly as
// Discover does (later in ms wins a contested extension or glob), without
// reading or hashing any module: `synaptic parse` routes a plugin's test
// fixtures before the plugin is built.
func FromManifests(ms []*manifest.Manifest) *Registry {
	r := &Registry{exts: map[string]Route{}}
	for i, m := range ms {
		r.Plugins = append(r.Plugins, &Plugin{Manifest: m, Origin: "flag", order: i})
	}
	slices.SortStableFunc(r.Plugins, func(a, b *Plugin) int { return strings.Compare(a.Name(), b.Name()) })
	r.route()
	return r
}
