package host

import "bytes"

// tail keeps the last max bytes written to it: enough of a guest's stderr
// to explain a crash, bounded so a chatty guest cannot exhaust host memory.
// It is only written during calls on its instance, which are serialised.
//
// A Go guest that hits a fatal runtime error (out of memory, deadlock)
// prints "fatal error: " and may then spin until its deadline; onFatal, if
// set, is called at that moment so the host can stop the guest at once.
type tail struct {
	buf     []byte
	max     int
	onFatal func()
}

func (t *tail) Write(p []byte) (int, error) {
	n := len(p)
	if t.onFatal != nil && bytes.Contains(p, []byte("fatal error: ")) {
		f := t.onFatal
		t.onFatal = nil
		defer f()
	}
	if len(p) >= t.max {
		t.buf = append(t.buf[:0], p[len(p)-t.max:]...)
		return n, nil
	}
	if over := len(t.buf) + len(p) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	t.buf = append(t.buf, p...)
	return n, nil
}

func (t *tail) reset() { t.buf = t.buf[:0] }

// String returns the kept output, trimmed.
func (t *tail) String() string {
	b := t.buf
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == ' ') {
		b = b[:len(b)-1]
	}
	return string(b)
}
