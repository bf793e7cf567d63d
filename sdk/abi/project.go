package abi

import (
	"fmt"
	"path"
	"strings"
	"unicode/utf8"
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

// ProjectOutput is what the project entry point answers after StatusOK:
// the plugin's own info, handed back unread in Init.Project, and the lines
// the host shows the user. Summary says which project the run resolved the
// root in ("module "example.com/shop" (go.mod above the root: …)"), so the
// extraction summary can say it without the host knowing what go.mod is;
// Warnings say what in the metadata could not be used and how to fix it.
type ProjectOutput struct {
	Info     []byte
	Summary  []string
	Warnings []string
	// Parts cut Info into named, digested parts (projectparts.go), sorted
	// by name; nil: the plugin does not say, and any change of the input
	// re-extracts all its files.
	Parts []ProjectPart
}

// Bounds of a ProjectOutput's lines: they go to a terminal, not a parser.
const (
	MaxProjectLines     = 16
	MaxProjectLineBytes = 1024
)

// EncodeProjectOutput encodes out.
func EncodeProjectOutput(out *ProjectOutput) []byte {
	var e Encoder
	e.Uvarint(uint64(len(out.Info)))
	e.Buf = append(e.Buf, out.Info...)
	for _, lines := range [][]string{out.Summary, out.Warnings} {
		e.Uvarint(uint64(len(lines)))
		for _, l := range lines {
			e.String(l)
		}
	}
	appendProjectParts(&e, out.Parts)
	return e.Buf
}

// DecodeProjectOutput decodes what EncodeProjectOutput wrote and checks
// the lines: at most MaxProjectLines of each kind, each valid UTF-8 of at
// most MaxProjectLineBytes (the host bounds Info by MaxProjectInfo).
func DecodeProjectOutput(b []byte) (*ProjectOutput, error) {
	d := NewDecoder(b)
	out := &ProjectOutput{Info: d.Bytes()}
	for _, lines := range []*[]string{&out.Summary, &out.Warnings} {
		n := d.Len(1)
		if n > MaxProjectLines {
			return nil, fmt.Errorf("abi: project output has %d lines of one kind (at most %d)", n, MaxProjectLines)
		}
		for range n {
			l := d.String()
			if d.Err() != nil {
				break
			}
			if len(l) > MaxProjectLineBytes || !utf8.ValidString(l) {
				return nil, fmt.Errorf("abi: project output line of %d bytes is not UTF-8 of at most %d bytes", len(l), MaxProjectLineBytes)
			}
			*lines = append(*lines, l)
		}
	}
	parts, err := decodeProjectParts(d)
	if err != nil {
		return nil, err
	}
	out.Parts = parts
	if err := d.Err(); err != nil {
		return nil, err
	}
	if d.Remaining() != 0 {
		return nil, fmt.Errorf("abi: %d trailing bytes after the project output", d.Remaining())
	}
	return out, nil
}
