package abi

import (
	"fmt"
	"slices"
	"unicode/utf8"
)

// Project parts (ABI v2): what lets the host re-extract, after an edit of
// a project file, only the files whose facts depend on what changed. The
// entry point cuts its project info into named parts and gives each a
// digest (ProjectOutput.Parts: "cfg:src" the tsconfig that applies to
// src, "pkg:zod" the packages called zod); while extracting a file the
// plugin names the parts it read (FileFacts.ProjectDeps), including
// parts that do not exist (a package name a specifier could have meant).
// A cached file stays valid while every part it names has the digest it
// had, a missing part counting as the empty digest. Facts read from no
// part are never re-extracted for a project edit. A plugin that answers
// no Parts keeps the whole-input rule: any edit re-extracts all its files.

// ProjectPart is one named piece of a plugin's project info.
type ProjectPart struct {
	Name   string
	Digest string // any string that changes when the part does; "" is reserved for "absent"
}

// Bounds of the parts and of a file's dependencies on them.
const (
	MaxProjectParts    = 1 << 14
	MaxProjectPartName = 512
	MaxProjectDeps     = 1024
)

// projectPartsTag starts the optional parts block after a project
// output's warnings; projectDepsSectionTag the facts section of a file's
// dependencies, written after the callback section and only when set.
const (
	projectPartsTag       = 'P'
	projectDepsSectionTag = 'p'
)

func appendProjectParts(e *Encoder, parts []ProjectPart) {
	if parts == nil {
		return
	}
	e.Buf = append(e.Buf, projectPartsTag)
	e.Uvarint(uint64(len(parts)))
	for _, p := range parts {
		e.String(p.Name)
		e.String(p.Digest)
	}
}

// decodeProjectParts reads the parts block when it is next: names
// strictly rising, bounded, UTF-8; digests non-empty.
func decodeProjectParts(d *Decoder) ([]ProjectPart, error) {
	if !d.openSection(projectPartsTag) {
		return nil, nil
	}
	n := d.Len(2)
	if n > MaxProjectParts {
		return nil, fmt.Errorf("abi: %d project parts (at most %d)", n, MaxProjectParts)
	}
	parts := make([]ProjectPart, 0, n)
	for range n {
		p := ProjectPart{Name: d.String(), Digest: d.String()}
		if d.Err() != nil {
			return nil, d.Err()
		}
		if err := checkPartName(p.Name); err != nil {
			return nil, err
		}
		if p.Digest == "" || len(p.Digest) > MaxProjectPartName {
			return nil, fmt.Errorf("abi: project part %q has an empty or oversized digest", p.Name)
		}
		if len(parts) > 0 && parts[len(parts)-1].Name >= p.Name {
			return nil, fmt.Errorf("abi: project parts not sorted by name (%q after %q)", p.Name, parts[len(parts)-1].Name)
		}
		parts = append(parts, p)
	}
	return parts, nil
}

func checkPartName(n string) error {
	if n == "" || len(n) > MaxProjectPartName || !utf8.ValidString(n) {
		return fmt.Errorf("abi: project part name %q is empty, longer than %d bytes or not UTF-8", truncate(n), MaxProjectPartName)
	}
	return nil
}

// SortProjectParts sorts parts by name and drops repeated names (the
// first digest stays), as DecodeProjectOutput requires.
func SortProjectParts(parts []ProjectPart) []ProjectPart {
	slices.SortStableFunc(parts, func(a, b ProjectPart) int {
		switch {
		case a.Name < b.Name:
			return -1
		case a.Name > b.Name:
			return 1
		}
		return 0
	})
	return slices.CompactFunc(parts, func(a, b ProjectPart) bool { return a.Name == b.Name })
}

// PartsDigestOf is the digest parts gives name, "" when it has none.
func PartsDigestOf(parts []ProjectPart, name string) string {
	i, ok := slices.BinarySearchFunc(parts, name, func(p ProjectPart, n string) int {
		switch {
		case p.Name < n:
			return -1
		case p.Name > n:
			return 1
		}
		return 0
	})
	if !ok {
		return ""
	}
	return parts[i].Digest
}

func appendProjectDepsSection(b []byte, f *Facts) []byte {
	deps := f.File.ProjectDeps
	if len(deps) == 0 {
		return b
	}
	b = append(b, projectDepsSectionTag)
	b = appendUvarint(b, uint64(len(deps)))
	for _, d := range deps {
		b = appendString(b, d)
	}
	return b
}

// decodeProjectDepsSection reads the section when it is next: names
// strictly rising (SortedDeps makes them so), bounded.
func decodeProjectDepsSection(d *Decoder, f *Facts) {
	if !d.openSection(projectDepsSectionTag) {
		return
	}
	n := d.Len(1)
	if n == 0 || n > MaxProjectDeps {
		d.fail(fmt.Errorf("abi: %d project dependencies (want 1 to %d)", n, MaxProjectDeps))
		return
	}
	deps := make([]string, n)
	for i := range deps {
		deps[i] = d.String()
		if d.err != nil {
			return
		}
		if err := checkPartName(deps[i]); err != nil {
			d.fail(err)
			return
		}
		if i > 0 && deps[i-1] >= deps[i] {
			d.fail(fmt.Errorf("abi: project dependencies not sorted (%q after %q)", deps[i], deps[i-1]))
			return
		}
	}
	f.File.ProjectDeps = deps
}

// SortedDeps is deps sorted, without repeats: the form FileFacts wants.
func SortedDeps(deps []string) []string {
	slices.Sort(deps)
	return slices.Compact(deps)
}
