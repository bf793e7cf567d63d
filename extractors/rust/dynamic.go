package main

import (
	"strconv"
	"strings"

	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// downcasts are std::any's checked casts to a type named at the call.
var downcasts = map[string]bool{"downcast_ref": true, "downcast_mut": true, "downcast": true, "is": true}

// dynamic records the calls static analysis cannot follow in Rust: a
// method called on a `dyn Trait` parameter (the implementation is picked
// at run time; the key is the method), Any's downcast_ref::<T>() (key
// T), and libloading: Library::new(path) loads a native library and
// lib.get(b"symbol") looks a function up by name. It also records
// std::process::Command running a script of the repository (invokes).
func (w *walker) dynamic(call node, c *abi.Call) {
	switch {
	case c.Receiver == "" || c.Name == "":
		return
	case downcasts[c.Name]:
		if c.Name == "is" && !strings.Contains(w.text(w.t.Child(call, w.g.fFunction)), "::<") {
			return // x.is(…): not Any::is::<T>()
		}
		w.site(call, abi.DynamicReflection, w.turbofish(call))
	case c.Name == "get" && w.byteStringArg(call) != "":
		w.site(call, abi.DynamicReflection, w.byteStringArg(call))
	case c.Name == "new" && (c.Receiver == "Library" || strings.HasSuffix(c.Receiver, "::Library")):
		if lib := w.stringArgs(call); len(lib) > 0 {
			w.f.ChannelSite(abi.ChannelSite{From: w.parent(), Kind: abi.ChannelLibrary, Role: abi.ChannelSend, Name: lib[0], Line: w.t.StartLine(call)})
		}
	case c.Name == "new" && (c.Receiver == "Command" || strings.HasSuffix(c.Receiver, "::Command")):
		w.command(call)
	case len(w.dyns) > 0 && w.isDynParam(call, c.Receiver):
		w.site(call, abi.DynamicReflection, c.Name)
	}
}

func (w *walker) site(call node, kind abi.DynamicKind, key string) {
	w.f.DynamicSite(abi.DynamicSite{From: w.parent(), Kind: kind, Key: key, Line: w.t.StartLine(call)})
}

// turbofish is the last segment of the type argument of x.f::<T>(), ""
// when the call has none (the type is inferred: opaque here).
func (w *walker) turbofish(call node) string {
	t, g := w.t, w.g
	fn := t.Child(call, g.fFunction)
	if t.Kind(fn) != g.genericFunction {
		return ""
	}
	args := t.Child(fn, g.fTypeArguments)
	s := strings.Trim(extract.OneLine(w.text(args)), "<>")
	if strings.ContainsAny(s, ",<> &") {
		return ""
	}
	return s[strings.LastIndex(s, ":")+1:]
}

// byteStringArg is the first argument when it is a byte string b"name"
// (a trailing NUL dropped), as libloading's Library::get takes.
func (w *walker) byteStringArg(call node) string {
	t, g := w.t, w.g
	for a := range t.NamedChildren(t.Child(call, g.fArguments)) {
		s := w.text(a)
		if !strings.HasPrefix(s, `b"`) {
			return ""
		}
		v, err := strconv.Unquote(strings.Replace(s[1:], `\0"`, `"`, 1)) // Rust's \0 is not Go's
		if err != nil {
			return ""
		}
		return v
	}
	return ""
}

// stringArgs are the call's leading plain string-literal arguments.
func (w *walker) stringArgs(call node) []string {
	t, g := w.t, w.g
	var out []string
	for a := range t.NamedChildren(t.Child(call, g.fArguments)) {
		if t.KindName(a) != "string_literal" {
			break
		}
		v, err := strconv.Unquote(w.text(a))
		if err != nil {
			break
		}
		out = append(out, v)
	}
	return out
}

// command records Command::new("python3").arg("tools/x.py") and
// Command::new("./scripts/x.sh") when the command line runs a script.
func (w *walker) command(call node) {
	t, g := w.t, w.g
	argv := w.stringArgs(call)
	if len(argv) == 0 {
		return
	}
	// Up the builder chain: Command::new(p).arg(a).args([b, c])…
	for n := call; ; {
		fe := t.Parent(n)
		if fe == extract.None || t.Kind(fe) != g.fieldExpr {
			break
		}
		outer := t.Parent(fe)
		if outer == extract.None || t.Kind(outer) != g.callExpr {
			break
		}
		if m := w.text(t.Child(fe, g.fField)); m == "arg" {
			a := w.stringArgs(outer)
			if len(a) == 0 {
				break
			}
			argv = append(argv, a...)
		} else if m != "current_dir" && m != "env" && m != "stdout" && m != "stderr" && m != "stdin" {
			break
		}
		n = outer
	}
	if script := extract.ScriptOf(argv); script != "" {
		w.f.ChannelSite(abi.ChannelSite{From: w.parent(), Kind: abi.ChannelExec, Role: abi.ChannelSend, Name: script, Line: t.StartLine(call)})
	}
}

// dynParam is a parameter declared as a trait object, in scope up to
// the end of its function.
type dynParam struct {
	name string
	end  node
}

// noteParam remembers a parameter whose type is a trait object (&dyn T,
// Box<dyn T>, Arc<dyn T>), for isDynParam.
func (w *walker) noteParam(name string, ty node) {
	if len(w.frames) > 0 && strings.Contains(w.text(ty), "dyn ") {
		w.dyns = append(w.dyns, dynParam{name, w.frames[len(w.frames)-1].end})
	}
}

// isDynParam reports whether name is a trait-object parameter of a
// function enclosing call.
func (w *walker) isDynParam(call node, name string) bool {
	for len(w.dyns) > 0 && w.dyns[len(w.dyns)-1].end <= call {
		w.dyns = w.dyns[:len(w.dyns)-1]
	}
	for i := len(w.dyns) - 1; i >= 0; i-- {
		if d := w.dyns[i]; d.name == name && call < d.end {
			return true
		}
	}
	return false
}
