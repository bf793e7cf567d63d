//go:build !unix

package discover

import "os"

// openDir opens a directory for reading its entries.
func openDir(p string) (*os.File, error) { return os.Open(p) }
