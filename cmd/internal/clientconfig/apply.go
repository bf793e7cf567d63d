package clientconfig

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// Action is what a change does to a config file.
type Action string

// The actions.
const (
	Created   Action = "created"   // the file did not exist
	Added     Action = "added"     // the file existed, the entry did not
	Updated   Action = "updated"   // the entry existed with other values
	Unchanged Action = "unchanged" // the entry is already exactly this
	Removed   Action = "removed"
	Absent    Action = "absent" // uninstall: nothing to remove
)

// maxConfigBytes bounds what is read: ~/.claude.json grows with history,
// but a config file of this size is something else.
const maxConfigBytes = 64 << 20

// Change is one planned edit of one config file; Apply writes it.
type Change struct {
	Client   Client
	Scope    Scope
	File     string // the config file (symlinks resolved: the file written)
	Name     string // the server entry's name
	Action   Action
	Previous *Server // the entry before an update
	Entry    *Server // the entry an install writes
	Backup   string  // set by Apply when a backup was written
	Deleted  bool    // uninstall left nothing in the file, so it goes

	before, after []byte
	exists        bool
	mode          fs.FileMode
}

// Changes reports whether Apply would write anything.
func (ch *Change) Changes() bool {
	return ch.Action != Unchanged && ch.Action != Absent
}

// After is the new file content (what --dry-run shows).
func (ch *Change) After() []byte { return ch.after }

// PlanInstall computes the edit that registers srv for repo.
func PlanInstall(c Client, s Scope, repo string, env Env, srv Server) (*Change, error) {
	ch, err := open(c, s, repo, env)
	if err != nil {
		return nil, err
	}
	if prev, found, err := ch.entry(); err != nil {
		return nil, err
	} else if found {
		ch.Previous = prev
	}
	ch.Entry = &srv
	entry := c.entry(srv)
	if c.Format == TOML {
		ch.after, err = setTOML(ch.File, ch.before, c.Key, ch.Name, entry)
	} else {
		ch.after, err = setJSON(ch.File, ch.before, c.Key, ch.Name, entry)
	}
	if err != nil {
		return nil, err
	}
	switch {
	case !ch.exists:
		ch.Action = Created
	case bytes.Equal(ch.before, ch.after):
		ch.Action = Unchanged
	case ch.Previous != nil:
		ch.Action = Updated
	default:
		ch.Action = Added
	}
	return ch, nil
}

// PlanUninstall computes the edit that removes the entry for repo.
func PlanUninstall(c Client, s Scope, repo string, env Env) (*Change, error) {
	ch, err := open(c, s, repo, env)
	if err != nil {
		return nil, err
	}
	ch.Action = Absent
	if !ch.exists {
		ch.after = ch.before
		return ch, nil
	}
	var removed bool
	if c.Format == TOML {
		ch.after, removed, err = removeTOML(ch.File, ch.before, c.Key, ch.Name)
	} else {
		ch.after, removed, err = removeJSON(ch.File, ch.before, c.Key, ch.Name)
	}
	if err != nil {
		return nil, err
	}
	if removed {
		ch.Action = Removed
		ch.Deleted = len(bytes.TrimSpace(ch.after)) == 0
	}
	return ch, nil
}

// Find reads the entry for repo in the client's config, for `doctor`.
func Find(c Client, s Scope, repo string, env Env) (file string, srv *Server, err error) {
	ch, err := open(c, s, repo, env)
	if err != nil {
		return "", nil, err
	}
	if !ch.exists {
		return ch.File, nil, nil
	}
	srv, _, err = ch.entry()
	return ch.File, srv, err
}

func open(c Client, s Scope, repo string, env Env) (*Change, error) {
	file, err := c.Path(s, repo, env)
	if err != nil {
		return nil, err
	}
	ch := &Change{Client: c, Scope: s, File: file, Name: ServerName(s, repo), mode: 0o644}
	if s == Global {
		ch.mode = 0o600 // user files may hold other servers' tokens
	}
	if real, err := filepath.EvalSymlinks(file); err == nil {
		ch.File = real // a symlinked dotfile stays a symlink
	}
	st, err := os.Stat(ch.File)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return ch, nil
	case err != nil:
		return nil, fmt.Errorf("%s: %w", ch.File, err)
	case !st.Mode().IsRegular():
		return nil, fmt.Errorf("%s is not a regular file (%s); move it away and run again; nothing was changed", ch.File, st.Mode().Type())
	case st.Size() > maxConfigBytes:
		return nil, fmt.Errorf("%s is %d bytes, more than a config file should be (%d); nothing was changed", ch.File, st.Size(), maxConfigBytes)
	}
	f, err := os.Open(ch.File)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", ch.File, err)
	}
	defer f.Close()
	ch.before, err = io.ReadAll(io.LimitReader(f, maxConfigBytes+1))
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", ch.File, err)
	}
	ch.exists, ch.mode = true, st.Mode().Perm()
	return ch, nil
}

// entry decodes the current entry, if any.
func (ch *Change) entry() (*Server, bool, error) {
	var raw []byte
	if ch.Client.Format == TOML {
		m, ok, err := lookupTOML(ch.File, ch.before, ch.Client.Key, ch.Name)
		if err != nil || !ok {
			return nil, false, err
		}
		raw, _ = json.Marshal(m)
	} else {
		r, ok, err := lookupJSON(ch.File, ch.before, ch.Client.Key, ch.Name)
		if err != nil || !ok {
			return nil, false, err
		}
		raw = r
	}
	var e struct {
		Command string   `json:"command"`
		Args    []string `json:"args"`
	}
	json.Unmarshal(raw, &e) // an entry of another shape reads as empty: it is replaced
	return &Server{Command: e.Command, Args: e.Args}, true, nil
}

// Apply backs up the file (if it exists and changes) and writes the new
// content atomically. now names the backup.
func (ch *Change) Apply(now time.Time) error {
	if !ch.Changes() {
		return nil
	}
	dir := filepath.Dir(ch.File)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("cannot create %s: %w; nothing was changed", dir, err)
	}
	if ch.exists {
		b, err := writeBackup(ch.File, ch.before, ch.mode, now)
		if err != nil {
			return err
		}
		ch.Backup = b
	}
	if ch.Deleted {
		if err := os.Remove(ch.File); err != nil {
			return fmt.Errorf("cannot remove the emptied %s: %w", ch.File, err)
		}
		return nil
	}
	return writeAtomic(ch.File, ch.after, ch.mode)
}

// writeBackup writes FILE.TIMESTAMP.bak, never over an existing file.
func writeBackup(file string, data []byte, mode fs.FileMode, now time.Time) (string, error) {
	stamp := now.UTC().Format("20060102T150405Z")
	for i := 1; i < 100; i++ {
		name := fmt.Sprintf("%s.%s.bak", file, stamp)
		if i > 1 {
			name = fmt.Sprintf("%s.%s-%d.bak", file, stamp, i)
		}
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("cannot write the backup %s: %w; nothing was changed", name, err)
		}
		_, werr := f.Write(data)
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			os.Remove(name)
			return "", fmt.Errorf("cannot write the backup %s: %w; nothing was changed", name, werr)
		}
		return name, nil
	}
	return "", fmt.Errorf("too many backups of %s this second; nothing was changed", file)
}

// writeAtomic writes a temp file beside file and renames it into place, so
// a client never reads half a config.
func writeAtomic(file string, data []byte, mode fs.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(file), "."+filepath.Base(file)+".tmp-*")
	if err != nil {
		return fmt.Errorf("cannot write %s: %w; nothing was changed", file, err)
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Chmod(mode)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), file)
	}
	if err != nil {
		return fmt.Errorf("cannot write %s: %w; nothing was changed", file, err)
	}
	return nil
}
