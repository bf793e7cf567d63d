//go:build unix

package discover

import (
	"io/fs"
	"os"
	"slices"
	"sync"
	"syscall"
)

// ids are the process's effective user and groups, for readable.
var ids = sync.OnceValues(func() (uid int, gids []int) {
	gids, _ = os.Getgroups()
	return os.Geteuid(), append(gids, os.Getegid())
})

// readable reports whether a file with the metadata fi can be opened for
// reading by this process. It decides from the permission bits, owner and
// group that the walk's stat already returned instead of one access(2) or
// open per file, which would cost a third of a walk. ACLs and
// capabilities other than root's are not consulted; a file they make
// unreadable is still reported by the reader, with SkipUnreadable.
func readable(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return true
	}
	uid, gids := ids()
	perm := fi.Mode().Perm()
	switch {
	case uid == 0:
		return true
	case int(st.Uid) == uid:
		return perm&0o400 != 0
	case slices.Contains(gids, int(st.Gid)):
		return perm&0o040 != 0
	}
	return perm&0o004 != 0
}
