// Package sdk carries the source of the guest SDK packages a rule pack
// needs (sdk/abi, sdk/rules, sdk/sqltext), so `synaptic rules new` can
// write them next to a new pack and the pack builds offline, with nothing
// but the synaptic binary and Go.
package sdk

import (
	"embed"
	"io/fs"
	"strings"
)

//go:embed abi/*.go rules/*.go sqltext/*.go
var source embed.FS

// RulePackSource returns the SDK files a rule pack imports, by
// slash-separated path under sdk/ ("abi/rules.go"), tests left out.
func RulePackSource() (map[string][]byte, error) {
	out := map[string][]byte{}
	err := fs.WalkDir(source, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, "_test.go") {
			return err
		}
		data, err := source.ReadFile(p)
		out[p] = data
		return err
	})
	return out, err
}
