//go:build !linux

package bigfile

import "os"

// Read reads the whole file at path.
func Read(path string) (*Buffer, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return &Buffer{data: data}, nil
}
