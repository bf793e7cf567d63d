package cli

import (
	"errors"

	"golang.org/x/sys/unix"
)

// queueProbe is a second inotify instance on the directories the
// watcher watches, never read except to be emptied: the kernel queues
// an edit's event on every instance watching the directory within the
// write itself, so an empty queue (one FIONREAD ioctl) proves that no
// event happened since the last drain, and a clean query skips the
// barrier round trip through the watcher's goroutines.
type queueProbe struct{ fd int }

// probeMask is the events fsnotify asks for by default: whatever it
// reports, the probe must see too.
const probeMask = unix.IN_MOVED_TO | unix.IN_MOVED_FROM | unix.IN_CREATE | unix.IN_ATTRIB |
	unix.IN_MODIFY | unix.IN_MOVE_SELF | unix.IN_DELETE | unix.IN_DELETE_SELF

func newQueueProbe() (*queueProbe, error) {
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		return nil, err
	}
	return &queueProbe{fd: fd}, nil
}

func (q *queueProbe) add(dir string) error {
	_, err := unix.InotifyAddWatch(q.fd, dir, probeMask)
	return err
}

// quiet reports whether no event is queued; false when it cannot tell.
func (q *queueProbe) quiet() bool {
	n, err := unix.IoctlGetInt(q.fd, unix.TIOCINQ) // FIONREAD
	return err == nil && n == 0
}

// drain empties the queue (the events' content is the watcher's job).
func (q *queueProbe) drain() {
	var buf [64 << 10]byte
	for {
		n, err := unix.Read(q.fd, buf[:])
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if n <= 0 || err != nil {
			return // empty (EAGAIN), or a failure the next quiet reports
		}
	}
}

func (q *queueProbe) close() { unix.Close(q.fd) }
