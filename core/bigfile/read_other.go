//go:build !linux

package bigfile

import "github.com/synaptic-graph/synaptic/core/safefile"

// Read reads the whole file at path.
func Read(path string) (*Buffer, error) {
	data, err := safefile.ReadPath(path, -1)
	if err != nil {
		return nil, err
	}
	return &Buffer{data: data}, nil
}
