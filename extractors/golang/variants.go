package main

import (
	"go/build/constraint"
	"path"
	"slices"
	"strings"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// Build variants: what GOOS/GOARCH a file is built for, from its name
// (name_GOOS_GOARCH.go, by go/build's rules) and its //go:build line, as
// ABI constraints on the axes goos and goarch. Same-named definitions of
// one package in mutually exclusive files are then twins, and a call links
// to every twin its own file can be built with. A constraint this cannot
// say exactly (other tags, || across axes) is left out: the file then
// counts as built everywhere, which never makes two files exclusive wrongly.

const (
	axisOS   = "goos"
	axisArch = "goarch"
)

// knownOS and knownArch are go/build's lists (internal/syslist).
var knownOS = []string{"aix", "android", "darwin", "dragonfly", "freebsd", "hurd", "illumos", "ios", "js",
	"linux", "nacl", "netbsd", "openbsd", "plan9", "solaris", "wasip1", "windows", "zos"}

var knownArch = []string{"386", "amd64", "amd64p32", "arm", "armbe", "arm64", "arm64be", "loong64", "mips",
	"mipsle", "mips64", "mips64le", "mips64p32", "mips64p32le", "ppc", "ppc64", "ppc64le", "riscv",
	"riscv64", "s390", "s390x", "sparc", "sparc64", "wasm"}

// unixOS is what the "unix" build tag means (go/build's unixOS list).
var unixOS = []string{"aix", "android", "darwin", "dragonfly", "freebsd", "hurd", "illumos", "ios", "linux",
	"netbsd", "openbsd", "solaris"}

// variants returns the file's build constraints.
func variants(p, src string) []abi.Constraint {
	out := nameConstraints(p)
	if expr := buildLine(src); expr != nil {
		out = append(out, exprConstraints(expr)...)
	}
	return wasmPairs(out)
}

// wasmOS are the only GOOS values of GOARCH wasm, and the only GOARCH of
// theirs is wasm (go tool dist list): a //go:build !wasm file can never be
// built with a wasip1 one, which the axes alone do not say.
var wasmOS = []string{"js", "wasip1"}

// wasmPairs adds what the valid GOOS/GOARCH pairs imply for wasm: goarch
// wasm only with goos js or wasip1, and the other way round.
func wasmPairs(cs []abi.Constraint) []abi.Constraint {
	var add []abi.Constraint
	for _, c := range cs {
		switch {
		case c.Axis == axisArch && !c.Negated && len(c.Values) == 1 && c.Values[0] == "wasm":
			add = append(add, abi.Constraint{Axis: axisOS, Values: slices.Clone(wasmOS)})
		case c.Axis == axisArch && c.Negated && slices.Contains(c.Values, "wasm"):
			add = append(add, abi.Constraint{Axis: axisOS, Values: slices.Clone(wasmOS), Negated: true})
		case c.Axis == axisOS && !c.Negated && len(c.Values) > 0 && allIn(c.Values, wasmOS):
			add = append(add, abi.Constraint{Axis: axisArch, Values: []string{"wasm"}})
		}
	}
	return append(cs, add...)
}

func allIn(vals, set []string) bool {
	for _, v := range vals {
		if !slices.Contains(set, v) {
			return false
		}
	}
	return true
}

// nameConstraints reads name_GOOS_GOARCH.go, name_GOOS.go, name_GOARCH.go,
// each optionally followed by _test. Everything before the first _ is the
// name, so a file called linux.go is no constraint.
func nameConstraints(p string) []abi.Constraint {
	name := strings.TrimSuffix(path.Base(p), ".go")
	i := strings.IndexByte(name, '_')
	if i < 0 {
		return nil
	}
	parts := strings.Split(name[i+1:], "_")
	if n := len(parts); n > 0 && parts[n-1] == "test" {
		parts = parts[:n-1]
	}
	n := len(parts)
	switch {
	case n >= 2 && slices.Contains(knownOS, parts[n-2]) && slices.Contains(knownArch, parts[n-1]):
		return []abi.Constraint{{Axis: axisOS, Values: goosValues(parts[n-2])}, {Axis: axisArch, Values: []string{parts[n-1]}}}
	case n >= 1 && slices.Contains(knownOS, parts[n-1]):
		return []abi.Constraint{{Axis: axisOS, Values: goosValues(parts[n-1])}}
	case n >= 1 && slices.Contains(knownArch, parts[n-1]):
		return []abi.Constraint{{Axis: axisArch, Values: []string{parts[n-1]}}}
	}
	return nil
}

// goosValues: a _linux file also builds for android, a _solaris one for
// illumos and a _darwin one for ios, as go/build matches them.
func goosValues(os string) []string {
	switch os {
	case "linux":
		return []string{"android", "linux"}
	case "solaris":
		return []string{"illumos", "solaris"}
	case "darwin":
		return []string{"darwin", "ios"}
	}
	return []string{os}
}

// buildLine finds the //go:build line in the file's header (the comments
// before the package clause).
func buildLine(src string) constraint.Expr {
	for len(src) > 0 {
		line, rest, _ := strings.Cut(src, "\n")
		src = rest
		line = strings.TrimSpace(line)
		switch {
		case line == "" || strings.HasPrefix(line, "//") && !constraint.IsGoBuild(line):
			continue
		case constraint.IsGoBuild(line):
			expr, err := constraint.Parse(line)
			if err != nil {
				return nil
			}
			return expr
		}
		return nil // /* comments, the package clause: the header is over
	}
	return nil
}

// exprConstraints turns an expression into constraints that all hold
// (AND), keeping only what one axis can say.
func exprConstraints(e constraint.Expr) []abi.Constraint {
	switch e := e.(type) {
	case *constraint.AndExpr:
		return append(exprConstraints(e.X), exprConstraints(e.Y)...)
	case *constraint.NotExpr:
		if c, ok := tagConstraint(e.X); ok {
			c.Negated = true
			return []abi.Constraint{c}
		}
	case *constraint.TagExpr:
		if c, ok := tagConstraint(e); ok {
			return []abi.Constraint{c}
		}
	case *constraint.OrExpr:
		// unix || (js && wasm) || wasip1: on each axis, the values some
		// branch allows (js && wasm allows goos js), a superset of the
		// file's real ones, so it is never made exclusive wrongly.
		var out []abi.Constraint
		for _, axis := range []string{axisOS, axisArch} {
			if vals, ok := onAxis(e, axis); ok {
				out = append(out, abi.Constraint{Axis: axis, Values: vals})
			}
		}
		return out
	}
	return nil
}

// onAxis is the set of values of axis that e allows, sorted, when e
// restricts that axis at all (ok); a branch that does not (another axis, a
// tag of no axis, a negation) allows every value.
func onAxis(e constraint.Expr, axis string) ([]string, bool) {
	switch e := e.(type) {
	case *constraint.TagExpr:
		if c, ok := tagConstraint(e); ok && c.Axis == axis {
			return c.Values, true
		}
	case *constraint.OrExpr:
		x, ok1 := onAxis(e.X, axis)
		y, ok2 := onAxis(e.Y, axis)
		if ok1 && ok2 {
			vals := append(slices.Clone(x), y...)
			slices.Sort(vals)
			return slices.Compact(vals), true
		}
	case *constraint.NotExpr:
		// !windows: every other value, when what is negated speaks of
		// this axis alone (the complement of a superset would be too small).
		if x, ok := onAxis(e.X, axis); ok && onlyAxis(e.X, axis) {
			var rest []string
			for _, v := range axisValues(axis) {
				if !slices.Contains(x, v) {
					rest = append(rest, v)
				}
			}
			return rest, true
		}
	case *constraint.AndExpr:
		x, ok1 := onAxis(e.X, axis)
		y, ok2 := onAxis(e.Y, axis)
		switch {
		case ok1 && ok2:
			var both []string
			for _, v := range x {
				if slices.Contains(y, v) {
					both = append(both, v)
				}
			}
			return both, true
		case ok1:
			return x, true
		case ok2:
			return y, true
		}
	}
	return nil, false
}

// tagConstraint reads a tag, or an || of tags on one axis.
func tagConstraint(e constraint.Expr) (abi.Constraint, bool) {
	switch e := e.(type) {
	case *constraint.TagExpr:
		switch {
		case e.Tag == "unix":
			return abi.Constraint{Axis: axisOS, Values: slices.Clone(unixOS)}, true
		case slices.Contains(knownOS, e.Tag):
			return abi.Constraint{Axis: axisOS, Values: goosValues(e.Tag)}, true
		case slices.Contains(knownArch, e.Tag):
			return abi.Constraint{Axis: axisArch, Values: []string{e.Tag}}, true
		}
	case *constraint.OrExpr:
		x, ok1 := tagConstraint(e.X)
		y, ok2 := tagConstraint(e.Y)
		if ok1 && ok2 && x.Axis == y.Axis {
			vals := append(x.Values, y.Values...)
			slices.Sort(vals)
			return abi.Constraint{Axis: x.Axis, Values: slices.Compact(vals)}, true
		}
	}
	return abi.Constraint{}, false
}

// onlyAxis reports whether every tag of e is a value of axis.
func onlyAxis(e constraint.Expr, axis string) bool {
	switch e := e.(type) {
	case *constraint.TagExpr:
		c, ok := tagConstraint(e)
		return ok && c.Axis == axis
	case *constraint.NotExpr:
		return onlyAxis(e.X, axis)
	case *constraint.AndExpr:
		return onlyAxis(e.X, axis) && onlyAxis(e.Y, axis)
	case *constraint.OrExpr:
		return onlyAxis(e.X, axis) && onlyAxis(e.Y, axis)
	}
	return false
}

// axisValues lists every value of axis, sorted.
func axisValues(axis string) []string {
	vals := knownArch
	if axis == axisOS {
		vals = knownOS
	}
	return slices.Sorted(slices.Values(vals))
}
