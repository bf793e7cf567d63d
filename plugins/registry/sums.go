package registry

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Sums remembers SHA-256 sums of files across runs, keyed by path and
// checked against the file's identity (device, inode, size, mtime and
// ctime), so a run does not re-hash the ~50 MB of unchanged plugin
// modules every time it starts (about 0.2 CPU-s before this memo). A
// file that changed in any way has a new ctime and is hashed again; a
// file changed within sumSettle of being hashed is not remembered, the
// same "racily clean" rule git applies to its index. A nil *Sums hashes
// every time.
type Sums struct {
	path string
	now  func() time.Time

	mu      sync.Mutex
	entries map[string]sumEntry
	dirty   bool
}

// sumEntry is one remembered sum: the identity the file had when hashed.
type sumEntry struct {
	ID  string `json:"id"`
	Sum string `json:"sum"`
}

// sumSettle is how old a file's last change must be for its sum to be
// remembered: a write in the same timestamp tick as the hash would leave
// mtime and ctime unchanged.
const sumSettle = 2 * time.Second

// maxSumsBytes caps the memo file; a bigger one is ignored, not read.
const maxSumsBytes = 4 << 20

// sumsVersion changes when the meaning of an entry does.
const sumsVersion = 1

// OpenSums reads the memo at path. A missing, unreadable or malformed
// memo is an empty one: it only ever saves work.
func OpenSums(path string) *Sums {
	s := &Sums{path: path, now: time.Now, entries: map[string]sumEntry{}}
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxSumsBytes {
		return s
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return s
	}
	var doc struct {
		Version int                 `json:"version"`
		Entries map[string]sumEntry `json:"entries"`
	}
	if json.Unmarshal(b, &doc) == nil && doc.Version == sumsVersion && doc.Entries != nil {
		s.entries = doc.Entries
	}
	return s
}

// Lookup returns the sum remembered under key for the file at path,
// if path still has the identity it had then.
func (s *Sums) Lookup(key, path string) (string, bool) {
	if s == nil {
		return "", false
	}
	id, _, ok := fileIdentity(path)
	if !ok {
		return "", false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	e, hit := s.entries[key]
	return e.Sum, hit && e.ID == id
}

// Remember records sum under key for the file at path, unless the file
// changed too recently to be told apart from a later change.
func (s *Sums) Remember(key, path, sum string) {
	if s == nil {
		return
	}
	id, changed, ok := fileIdentity(path)
	if !ok || s.now().Sub(changed) < sumSettle {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, hit := s.entries[key]; hit && e.ID == id && e.Sum == sum {
		return
	}
	s.entries[key] = sumEntry{ID: id, Sum: sum}
	s.dirty = true
}

// Save writes the memo if it changed, atomically (a temp file renamed
// over it), so a concurrent run reads the old memo or the new, never half.
func (s *Sums) Save() error {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.dirty {
		return nil
	}
	b, err := json.Marshal(struct {
		Version int                 `json:"version"`
		Entries map[string]sumEntry `json:"entries"`
	}{sumsVersion, s.entries})
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(s.path), 0o755); err != nil {
		return fmt.Errorf("save plugin sums: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(s.path), ".plugin-sums-*")
	if err != nil {
		return fmt.Errorf("save plugin sums: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return fmt.Errorf("save plugin sums: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("save plugin sums: %w", err)
	}
	if err := os.Rename(tmp.Name(), s.path); err != nil {
		return fmt.Errorf("save plugin sums: %w", err)
	}
	s.dirty = false
	return nil
}

// hexSum is the hex SHA-256 of b.
func hexSum(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
