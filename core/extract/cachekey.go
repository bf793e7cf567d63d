package extract

import (
	"crypto/rand"
	"crypto/subtle"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/zeebo/blake3"

	"github.com/synaptic-graph/synaptic/core/safefile"
)

// The manifest and the facts cache decide what a run does not re-read: a
// forged one (shipped in a repository, or one flipped byte) would put
// facts in the graph that the source does not have. Both are sealed with
// a keyed hash under a per-user key kept outside every repository, so a
// run trusts only what this user's synaptic wrote.

// KeyEnv names the environment variable that can point at the key file
// instead of the default <user cache dir>/synaptic/cache.key.
const KeyEnv = "SYNAPTIC_CACHE_KEY"

const keySize = 32

// sealKey is the user's key; nil when none could be read or made, and
// then nothing on disk is trusted (every run is a full one).
type sealKey []byte

// seal domains keep a manifest's seal from passing as a facts cache's.
const (
	domainManifest = "synaptic manifest v1\x00"
	domainFacts    = "synaptic facts v1\x00"
	domainMemo     = "synaptic resolve memo v1\x00"
)

// hasher returns a keyed hash for domain.
func (k sealKey) hasher(domain string) *blake3.Hasher {
	var h *blake3.Hasher
	if len(k) == keySize {
		h, _ = blake3.NewKeyed(k)
	} else {
		h = blake3.New() // writes a seal no reader accepts (see verify)
	}
	h.WriteString(domain)
	return h
}

// sum seals data under domain.
func (k sealKey) sum(domain string, data []byte) []byte {
	h := k.hasher(domain)
	h.Write(data)
	return h.Sum(nil)
}

// verify reports whether mac seals data under domain with this key.
func (k sealKey) verify(domain string, data, mac []byte) bool {
	if len(k) != keySize || len(mac) != keySize {
		return false
	}
	return subtle.ConstantTimeCompare(k.sum(domain, data), mac) == 1
}

// errUntrusted is a manifest or cache that this user's key did not seal.
var errUntrusted = errors.New("corrupted or not written by your synaptic (no valid seal from your cache key)")

// keyPath is where the key lives.
func keyPath() (string, error) {
	if p := os.Getenv(KeyEnv); p != "" {
		return p, nil
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "synaptic", "cache.key"), nil
}

// loadKey reads the user's key, making one on first use. It refuses a key
// file that others can read or replace, since whoever knows the key can
// forge caches this user trusts.
func loadKey() (sealKey, error) {
	p, err := keyPath()
	if err != nil {
		return nil, fmt.Errorf("no place for the cache key (%v); set $%s to a file path", err, KeyEnv)
	}
	k, err := readKey(p)
	if errors.Is(err, fs.ErrNotExist) {
		if err = makeKey(p); err == nil {
			k, err = readKey(p)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("cache key %s: %w", p, err)
	}
	return k, nil
}

func readKey(p string) (sealKey, error) {
	b, err := safefile.ReadPath(p, keySize)
	if err != nil {
		return nil, err
	}
	fi, err := os.Lstat(p)
	if err != nil {
		return nil, err
	}
	if fi.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("mode %v lets others read it; run chmod 600 on it (or delete it: a new one is made)", fi.Mode().Perm())
	}
	if uid, ok := ownerOf(fi); ok && uid != os.Geteuid() {
		return nil, fmt.Errorf("owned by uid %d, not you; delete it (a new one is made)", uid)
	}
	if len(b) != keySize {
		return nil, fmt.Errorf("has %d bytes, want %d; delete it (a new one is made)", len(b), keySize)
	}
	return sealKey(b), nil
}

// makeKey writes a fresh random key, atomically: a hard link publishes
// the complete file or nothing, and a concurrent run's key wins.
func makeKey(p string) error {
	dir := filepath.Dir(p)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".cache.key.tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	k := make([]byte, keySize)
	rand.Read(k)
	if _, err := tmp.Write(k); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Link(tmp.Name(), p); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	return nil
}
