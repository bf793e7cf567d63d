// Package builtin holds the default plugin set embedded in the synaptic
// binary, so a copied or installed binary extracts with nothing beside it.
//
// `make` fills embedded/ with the built plugin folders before it builds
// the binary; a plain `go build` of a fresh clone embeds none.
package builtin

import (
	"embed"
	"io/fs"
)

//go:embed embedded
var files embed.FS

// FS is the embedded plugin folders (each with plugin.toml and its module),
// next to a README that is not a plugin.
func FS() fs.FS {
	sub, err := fs.Sub(files, "embedded")
	if err != nil {
		panic(err) // the directive above guarantees the folder
	}
	return sub
}
