package resolve

import (
	"path"
	"strings"
)

// Go has no overloads: two top-level functions, or two methods of one
// type, with the same name are build variants, one per platform
// (roundtrip.go with `//go:build !js` next to roundtrip_js.go). When
// exactly one variant sits in a file without a GOOS/GOARCH name suffix,
// it is the portable declaration and the one resolution links; variants
// that are all platform-specific (exec_unix.go, exec_windows.go) stay
// ambiguous and link nothing.

// knownOS and knownArch are go/build's lists (internal/syslist), which name
// suffixes are matched against.
var knownOS = setOf("aix", "android", "darwin", "dragonfly", "freebsd", "hurd", "illumos", "ios", "js",
	"linux", "nacl", "netbsd", "openbsd", "plan9", "solaris", "wasip1", "windows", "zos")

var knownArch = setOf("386", "amd64", "amd64p32", "arm", "armbe", "arm64", "arm64be", "loong64", "mips",
	"mipsle", "mips64", "mips64le", "mips64p32", "mips64p32le", "ppc", "ppc64", "ppc64le", "riscv",
	"riscv64", "s390", "s390x", "sparc", "sparc64", "wasm")

func setOf(xs ...string) map[string]bool {
	m := make(map[string]bool, len(xs))
	for _, x := range xs {
		m[x] = true
	}
	return m
}

// goPlatformFile reports whether a Go file name carries an implicit build
// constraint (name_GOOS.go, name_GOARCH.go, name_GOOS_GOARCH.go, each
// optionally followed by _test), by go/build's rules.
func goPlatformFile(p string) bool {
	name := strings.TrimSuffix(path.Base(p), ".go")
	i := strings.IndexByte(name, '_')
	if i < 0 {
		return false
	}
	parts := strings.Split(name[i:], "_") // everything before the first _ is ignored
	if n := len(parts); n > 0 && parts[n-1] == "test" {
		parts = parts[:n-1]
	}
	n := len(parts)
	if n >= 2 && knownOS[parts[n-2]] && knownArch[parts[n-1]] {
		return true
	}
	return n >= 1 && (knownOS[parts[n-1]] || knownArch[parts[n-1]])
}

// portableGo picks, among several Go candidates, the only one declared in a
// file without a platform suffix; -1 when there is not exactly one or a
// candidate is not Go.
func (r *resolver) portableGo(cands []int32) int32 {
	found := int32(-1)
	for _, c := range cands {
		f := &r.files[r.syms[c].file]
		if f.Family != "go" {
			return -1
		}
		if goPlatformFile(f.Path) {
			continue
		}
		if found >= 0 {
			return -1
		}
		found = c
	}
	return found
}
