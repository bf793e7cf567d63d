package gitdiff

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// Status is how a file changed.
type Status string

// File statuses.
const (
	Added     Status = "added"
	Modified  Status = "modified"
	Deleted   Status = "deleted"
	Renamed   Status = "renamed"
	Untracked Status = "untracked"
)

// Hunk is one changed region of `git diff --unified=0`: OldLines lines
// from OldStart were replaced by NewLines lines at NewStart (1-based; a
// zero count means a pure insertion or deletion after that line).
type Hunk struct {
	OldStart, OldLines int
	NewStart, NewLines int
}

// File is one changed file. Path is the new path (the old one for a
// deletion); OldPath is set for renames.
type File struct {
	Path    string
	OldPath string
	Status  Status
	Binary  bool
	Hunks   []Hunk
	Added   int // lines added (0 for binary files)
	Removed int // lines removed
}

// Lines returns the changed-line count, at least 1 for a binary or
// mode-only change.
func (f File) Lines() int { return max(f.Added+f.Removed, 1) }

// Parse reads the output of `git diff --unified=0 --src-prefix=a/
// --dst-prefix=b/` into files, in the order git printed them. It never
// panics on malformed input; what it cannot read is an error naming the
// line.
func Parse(diff []byte) ([]File, error) {
	var files []File
	var cur *File
	lineNo := 0
	for len(diff) > 0 {
		var line []byte
		if i := bytes.IndexByte(diff, '\n'); i >= 0 {
			line, diff = diff[:i], diff[i+1:]
		} else {
			line, diff = diff, nil
		}
		lineNo++
		s := string(line)
		if strings.HasPrefix(s, "diff --git ") {
			files = append(files, File{Status: Modified})
			cur = &files[len(files)-1]
			cur.OldPath, cur.Path = splitGitHeader(s[len("diff --git "):])
			continue
		}
		if cur == nil {
			if strings.TrimSpace(s) == "" {
				continue
			}
			return nil, fmt.Errorf("diff line %d: expected \"diff --git\", got %q", lineNo, clip(s))
		}
		if err := cur.apply(s); err != nil {
			return nil, fmt.Errorf("diff line %d: %v", lineNo, err)
		}
	}
	for i := range files {
		f := &files[i]
		if f.Status != Renamed {
			f.OldPath = ""
		}
		if f.Path == "" {
			return nil, fmt.Errorf("diff: a file header without a path")
		}
	}
	return files, nil
}

// apply folds one line of a file's section into f.
func (f *File) apply(s string) error {
	switch {
	case strings.HasPrefix(s, "@@ "):
		h, err := parseHunk(s)
		if err != nil {
			return err
		}
		f.Hunks = append(f.Hunks, h)
	case strings.HasPrefix(s, "+++ "):
		if p := diffPath(s[4:], "b/"); p != "" {
			f.Path = p
		}
	case strings.HasPrefix(s, "--- "):
		if p := diffPath(s[4:], "a/"); p != "" {
			f.OldPath = p
		}
	case strings.HasPrefix(s, "+"):
		f.Added++
	case strings.HasPrefix(s, "-"):
		f.Removed++
	case strings.HasPrefix(s, "new file mode"):
		f.Status = Added
	case strings.HasPrefix(s, "deleted file mode"):
		f.Status = Deleted
		f.Path = f.OldPath // keep the path the graph knows
	case strings.HasPrefix(s, "rename from "):
		f.OldPath, f.Status = unquote(s[len("rename from "):]), Renamed
	case strings.HasPrefix(s, "rename to "):
		f.Path, f.Status = unquote(s[len("rename to "):]), Renamed
	case strings.HasPrefix(s, "Binary files ") || s == "GIT binary patch":
		f.Binary = true
	}
	return nil
}

// splitGitHeader reads "a/X b/Y" (possibly C-quoted). For unquoted paths
// with spaces it is ambiguous unless X == Y, which holds for every
// non-rename; renames are corrected by their "rename from/to" lines.
func splitGitHeader(s string) (oldPath, newPath string) {
	if strings.HasPrefix(s, `"`) {
		end := quotedEnd(s)
		oldPath = strings.TrimPrefix(unquote(s[:end]), "a/")
		newPath = strings.TrimPrefix(unquote(strings.TrimSpace(s[end:])), "b/")
		return oldPath, newPath
	}
	if n := len(s); n%2 == 1 && s[:n/2] != "" && strings.HasPrefix(s, "a/") && s[n/2] == ' ' && s[2:n/2] == s[n/2+3:] {
		return s[2 : n/2], s[n/2+3:]
	}
	if i := strings.Index(s, " b/"); i >= 0 {
		return strings.TrimPrefix(s[:i], "a/"), s[i+3:]
	}
	return "", ""
}

// quotedEnd returns the index just past the closing quote of a C-quoted
// string starting at s[0].
func quotedEnd(s string) int {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(s)
}

// diffPath reads the path of a ---/+++ line; /dev/null gives "".
func diffPath(s, prefix string) string {
	s = strings.TrimSuffix(s, "\t")
	if s == "/dev/null" {
		return ""
	}
	return strings.TrimPrefix(unquote(s), prefix)
}

// unquote undoes git's C-style path quoting ("a\tb", octal UTF-8 bytes).
func unquote(s string) string {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return s
	}
	s = s[1 : len(s)-1]
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch c = s[i]; c {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'v':
			b.WriteByte('\v')
		case '0', '1', '2', '3':
			if i+2 < len(s) {
				if v, err := strconv.ParseUint(s[i:i+3], 8, 8); err == nil {
					b.WriteByte(byte(v))
					i += 2
					continue
				}
			}
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// parseHunk reads "@@ -a[,b] +c[,d] @@ ...".
func parseHunk(s string) (Hunk, error) {
	rest := strings.TrimPrefix(s, "@@ ")
	end := strings.Index(rest, " @@")
	if end < 0 {
		return Hunk{}, fmt.Errorf("hunk header %q has no closing @@", clip(s))
	}
	parts := strings.Fields(rest[:end])
	if len(parts) != 2 || !strings.HasPrefix(parts[0], "-") || !strings.HasPrefix(parts[1], "+") {
		return Hunk{}, fmt.Errorf("hunk header %q is not -a,b +c,d", clip(s))
	}
	var h Hunk
	var err error
	if h.OldStart, h.OldLines, err = parseRange(parts[0][1:]); err != nil {
		return Hunk{}, fmt.Errorf("hunk header %q: %v", clip(s), err)
	}
	if h.NewStart, h.NewLines, err = parseRange(parts[1][1:]); err != nil {
		return Hunk{}, fmt.Errorf("hunk header %q: %v", clip(s), err)
	}
	return h, nil
}

// maxLine bounds line numbers so range arithmetic cannot overflow.
const maxLine = 1 << 30

func parseRange(s string) (start, count int, err error) {
	a, b, hasCount := strings.Cut(s, ",")
	start, err = strconv.Atoi(a)
	if err != nil || start < 0 || start > maxLine {
		return 0, 0, fmt.Errorf("bad line number %q", a)
	}
	count = 1
	if hasCount {
		count, err = strconv.Atoi(b)
		if err != nil || count < 0 || count > maxLine {
			return 0, 0, fmt.Errorf("bad line count %q", b)
		}
	}
	return start, count, nil
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}
