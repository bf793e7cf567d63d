// Package bigfile reads a large file (a 200+ MB graph.json) into memory
// that is cheap to fault in, and hands that memory back as soon as the
// caller is done with it.
//
// Reading 238 MB into a fresh Go slice costs about 0.8 s on our 2-core
// VMs, nearly all of it kernel time spent faulting in 58,000 4 KiB pages.
// Mapping the file from the page cache under a read lease takes 0.09 s;
// reading into an anonymous mapping advised for transparent huge pages
// 0.05–0.5 s, depending on how much the kernel must compact first (see
// BenchmarkRead). Either way the memory is outside the Go heap, so it
// neither counts towards GOGC nor waits for a collection to be freed.
package bigfile

// minMapped is the size below which a plain read is as fast: the page
// tricks pay off only when there are thousands of pages to fault in.
const minMapped = 4 << 20

// Buffer holds a file's bytes until Release.
type Buffer struct {
	data    []byte
	release func()
	leased  bool // the file itself is mapped, under a read lease
}

// Bytes returns the file's contents. They are valid until Release and must
// not be retained beyond it: copy what must outlive the buffer.
func (b *Buffer) Bytes() []byte { return b.data }

// Release frees the memory. Bytes must not be used afterwards. It is safe
// to call more than once.
func (b *Buffer) Release() {
	if b.release != nil {
		b.release()
		b.release = nil
	}
	b.data = nil
}
