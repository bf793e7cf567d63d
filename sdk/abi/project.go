package abi

import (
	"fmt"
	"path"
	"strings"
)

// The project entry point (ABI v2). A plugin whose manifest lists
// [project] files exports
//
//	synaptic_project(size i32) i64   input = ProjectInput; returns packed output
//
// The host calls it once per extraction with the metadata files it found
// (go.mod, package.json, …); the payload after StatusOK is the plugin's
// own ProjectInfo, at most MaxProjectInfo bytes, which the host hands back
// unread in Init.Project to every instance, so the plugin computes
// FileFacts and Import.Keys from what those files mean.

// MaxProjectInfo bounds the project info a plugin may return.
const MaxProjectInfo = 1 << 20

// SummaryPrefix starts the one line of a ProjectInfo meant for people:
// when the info's first line starts with it, the host shows the rest in
// the run's summary ("project: <plugin>: <text>"), so a plugin says which
// project it placed the root in. The line is still part of the info.
const SummaryPrefix = "# "

// ProjectSummary is the summary line of info (see SummaryPrefix), or "".
func ProjectSummary(info []byte) string {
	s := string(info)
	if !strings.HasPrefix(s, SummaryPrefix) {
		return ""
	}
	s = strings.TrimPrefix(s, SummaryPrefix)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 512 {
		s = s[:512]
	}
	return strings.TrimSpace(strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f {
			return ' '
		}
		return r
	}, strings.ToValidUTF8(s, "?")))
}

// Bounds of a ProjectInput, so a huge monorepo cannot flood the plugin.
const (
	MaxProjectFiles    = 4096
	MaxProjectFileSize = 1 << 20
	MaxProjectBytes    = 32 << 20
)

// ProjectInput is what the host hands the project entry point.
type ProjectInput struct {
	// Root is the extraction root as an absolute slash-separated path,
	// so a plugin can tell where the root sits (…/src/net/http).
	Root  string
	Files []ProjectFile // sorted by Path
}

// ProjectFile is one metadata file. Path is slash-separated and relative
// to the extraction root: "go.mod", "pkg/a/package.json", or "../go.mod"
// for one in a directory above the root.
type ProjectFile struct {
	Path string
	Data []byte
}

// EncodeProjectInput encodes in.
func EncodeProjectInput(in *ProjectInput) []byte {
	var e Encoder
	e.String(in.Root)
	e.Uvarint(uint64(len(in.Files)))
	for _, f := range in.Files {
		e.String(f.Path)
		e.Uvarint(uint64(len(f.Data)))
		e.Buf = append(e.Buf, f.Data...)
	}
	return e.Buf
}

// DecodeProjectInput decodes what EncodeProjectInput wrote and checks the
// paths: clean, relative, slash-separated, each "../" only as a prefix.
func DecodeProjectInput(b []byte) (*ProjectInput, error) {
	d := NewDecoder(b)
	in := &ProjectInput{Root: d.String()}
	n := d.Len(2)
	if n > MaxProjectFiles {
		return nil, fmt.Errorf("abi: project input has %d files (at most %d)", n, MaxProjectFiles)
	}
	for range n {
		f := ProjectFile{Path: d.String(), Data: d.Bytes()}
		if d.Err() != nil {
			break
		}
		if err := checkProjectPath(f.Path); err != nil {
			return nil, err
		}
		in.Files = append(in.Files, f)
	}
	if err := d.Err(); err != nil {
		return nil, err
	}
	if d.Remaining() != 0 {
		return nil, fmt.Errorf("abi: %d trailing bytes after the project input", d.Remaining())
	}
	return in, nil
}

func checkProjectPath(p string) error {
	rest := p
	for strings.HasPrefix(rest, "../") {
		rest = rest[3:]
	}
	if rest == "" || path.Clean(rest) != rest || strings.HasPrefix(rest, "/") || strings.HasPrefix(rest, "..") || strings.Contains(rest, `\`) {
		return fmt.Errorf("abi: project file path %q is not clean and relative", p)
	}
	return nil
}
