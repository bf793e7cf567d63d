//go:build !linux

package bigfile

import "os"

// Read reads the whole file at path.
func Read(path string) (*Buffer, error) {
	if st, err := os.Stat(path); err != nil {
		return nil, err
	} else if !st.Mode().IsRegular() {
		return nil, notRegular(path, st.Mode())
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return &Buffer{data: data}, nil
}
