//go:build !linux

package registry

import "time"

// fileIdentity is only read on Linux (the stat fields differ elsewhere): nothing is remembered
// and every run hashes.
func fileIdentity(string) (string, time.Time, bool) { return "", time.Time{}, false }
