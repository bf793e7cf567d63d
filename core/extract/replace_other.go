//go:build !linux

package extract

import "os"

// replace renames dir/tmp over dir/name.
func replace(dir *os.Root, tmp, name string) error { return dir.Rename(tmp, name) }
