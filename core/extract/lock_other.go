//go:build !unix

package extract

import "os"

// lockOutDir is a no-op where flock is not available.
func lockOutDir(o *outDir) (*os.File, error) { return nil, nil }
