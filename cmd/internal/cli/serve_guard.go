package cli

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// checkAPIKey trims the key and refuses one that is only whitespace when
// serving HTTP: an operator who passed a key meant to turn auth on, and a
// blank one silently turned it off. An absent or empty $SYNAPTIC_API_KEY
// still means "no key".
func checkAPIKey(key string, explicit, http bool) (string, error) {
	trimmed := strings.TrimSpace(key)
	if trimmed != "" || !http {
		return trimmed, nil
	}
	switch {
	case explicit:
		return "", usageError{"--api-key is blank: pass the key clients must send, or leave the flag out to serve without authentication"}
	case key != "":
		return "", usageError{"$SYNAPTIC_API_KEY holds only whitespace: set it to the key clients must send, or unset it to serve without authentication"}
	}
	return "", nil
}

// checkReadyFile fails early, before loading anything, if the ready file
// cannot be published safely later.
func checkReadyFile(p string) error {
	if _, err := os.Lstat(p); err == nil {
		return fmt.Errorf("--ready-file %s already exists: it is never overwritten; remove it or pick a new path", p)
	}
	dir := filepath.Dir(p)
	st, err := os.Stat(dir)
	if err != nil || !st.IsDir() {
		return fmt.Errorf("--ready-file %s: parent directory %s must already exist", p, dir)
	}
	return checkReadyDir(dir, st)
}

// checkReadyDir refuses a parent another local user could write into
// (world-writable without the sticky bit): they could swap the file
// between the bind and the reader opening it.
func checkReadyDir(dir string, st fs.FileInfo) error {
	m := st.Mode()
	if m.Perm()&0o002 != 0 && m&fs.ModeSticky == 0 {
		return fmt.Errorf("--ready-file: parent directory %s is writable by every user (mode %04o, no sticky bit), so another user could replace the file: use a directory only you can write (chmod o-w %s), or one with the sticky bit like /tmp", dir, m.Perm(), dir)
	}
	return nil
}

// publishReadyFile writes {address, mcp_url} through a descriptor held on
// the parent directory: a new temporary file (O_EXCL, mode 0600) is
// hard-linked into place, which fails if the path exists (a symlink
// included), so the file appears whole, once, never replaces anything and
// never lands outside that directory. The directory is checked again on
// the held descriptor, so swapping it after startup does not help.
func publishReadyFile(p, addr, mcpURL string) error {
	data, _ := json.Marshal(map[string]string{"address": addr, "mcp_url": mcpURL})
	dir, name := filepath.Dir(p), filepath.Base(p)
	root, err := os.OpenRoot(dir)
	if err != nil {
		return fmt.Errorf("--ready-file: %w", err)
	}
	defer root.Close()
	st, err := root.Stat(".")
	if err != nil {
		return fmt.Errorf("--ready-file: %w", err)
	}
	if err := checkReadyDir(dir, st); err != nil {
		return err
	}
	var rnd [8]byte
	_, _ = rand.Read(rnd[:])
	tmp := ".ready-" + hex.EncodeToString(rnd[:])
	f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("--ready-file: %w", err)
	}
	defer root.Remove(tmp)
	werr := f.Chmod(0o600) // exactly 0600, whatever the umask
	if werr == nil {
		_, werr = f.Write(append(data, '\n'))
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return fmt.Errorf("--ready-file %s: %w", p, werr)
	}
	if err := root.Link(tmp, name); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("--ready-file %s appeared after startup: it is never overwritten", p)
		}
		return fmt.Errorf("--ready-file %s: %w (it is never overwritten)", p, err)
	}
	return nil
}
