//go:build !unix

package discover

import "io/fs"

// readable cannot tell from metadata here; the reader reports unreadable
// files with SkipUnreadable.
func readable(fi fs.FileInfo) bool { return true }
