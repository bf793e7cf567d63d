//go:build !unix

package safefile

// openFlags: no non-blocking open here; the fstat check still refuses
// special files once opened.
const openFlags = 0
