package main

import (
	"path"
	"strings"

	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// nativeFamily is the plugin family of the C functions a ctypes library
// exposes.
const nativeFamily = "c"

// subprocessCalls run a command: the first argument is an argv list or a
// command line.
var subprocessCalls = map[string]bool{
	"subprocess.run": true, "subprocess.call": true, "subprocess.check_call": true,
	"subprocess.check_output": true, "subprocess.Popen": true, "os.system": true, "os.popen": true,
	"asyncio.create_subprocess_exec": true, "asyncio.create_subprocess_shell": true,
}

// libraryLoaders load a native library by name (ctypes).
var libraryLoaders = map[string]bool{
	"ctypes.CDLL": true, "ctypes.PyDLL": true, "ctypes.WinDLL": true, "ctypes.cdll.LoadLibrary": true,
	"cdll.LoadLibrary": true, "CDLL": true, "ctypes.windll.LoadLibrary": true,
}

// crossLang records the calls that leave the language: a subprocess
// running a script of the repository (invokes), a ctypes library loaded
// by name and the functions called on it (binds_native), and Django
// urls.py routes.
func (x *state) crossLang(call, fn extract.Node) {
	t, l := x.t, x.l
	k := t.Kind(fn)
	if k != l.identifier && k != l.attribute {
		return
	}
	name := t.Bytes(fn)
	switch {
	case subprocessCalls[string(name)]:
		x.subprocess(call)
	case libraryLoaders[string(name)]:
		x.loadLibrary(call)
	case k == l.attribute && len(x.ffiLibs) > 0:
		obj, attr := t.Child(fn, l.fObject), t.Child(fn, l.fAttribute)
		if obj != extract.None && attr != extract.None && x.ffiLibs[string(t.Bytes(obj))] {
			x.f.ChannelSite(abi.ChannelSite{From: x.caller(call), Kind: abi.ChannelNative, Role: abi.ChannelSend,
				Name: nativeFamily + ":" + string(t.Bytes(attr)), Line: t.StartLine(call)})
		}
	case k == l.identifier && (string(name) == "path" || string(name) == "re_path" || string(name) == "url"):
		x.djangoRoute(call)
	}
}

// subprocess records subprocess.run(["python", "tools/x.py"]) and
// os.system("python tools/x.py") when the command runs a script.
func (x *state) subprocess(call extract.Node) {
	t, l := x.t, x.l
	args := t.Child(call, l.fArguments)
	first := extract.None
	for a := range t.NamedChildren(args) {
		if t.Kind(a) != l.comment {
			first = a
			break
		}
	}
	if first == extract.None {
		return
	}
	var argv []string
	switch t.Kind(first) {
	case l.list:
		for e := range t.NamedChildren(first) {
			s, ok := x.plainString(e)
			if !ok {
				break // a computed element ends what is known
			}
			argv = append(argv, s)
		}
	case l.str:
		s, ok := x.plainString(first)
		if !ok {
			return
		}
		argv = extract.SplitCommand(s)
	default:
		return
	}
	if script := extract.ScriptOf(argv); script != "" {
		x.f.ChannelSite(abi.ChannelSite{From: x.caller(call), Kind: abi.ChannelExec, Role: abi.ChannelSend, Name: script, Line: t.StartLine(call)})
	}
}

// loadLibrary records ctypes.CDLL("./libfast.so") and remembers the name
// it is bound to (lib = …, self.lib = …), whose calls are then FFI calls.
func (x *state) loadLibrary(call extract.Node) {
	t, l := x.t, x.l
	lib := x.literalArg(call, 0)
	if lib == "" {
		return
	}
	x.f.ChannelSite(abi.ChannelSite{From: x.caller(call), Kind: abi.ChannelLibrary, Role: abi.ChannelSend, Name: lib, Line: t.StartLine(call)})
	if p := t.Parent(call); p != extract.None && t.KindName(p) == "assignment" {
		if left := t.Child(p, l.fLeft); left != extract.None {
			if x.ffiLibs == nil {
				x.ffiLibs = map[string]bool{}
			}
			x.ffiLibs[string(t.Bytes(left))] = true
		}
	}
}

// djangoRoute records path("api/users/<int:id>/", views.user) and
// re_path(r"^api/users/(?P<id>\d+)/$", views.user) in a urls.py; the
// method is open (a Django view answers every method it implements). A
// class-based view (UserView.as_view()) names no function and is skipped,
// and so is a prefix added by include() in another urls.py.
func (x *state) djangoRoute(call extract.Node) {
	t, l := x.t, x.l
	if path.Base(x.f.Path) != "urls.py" {
		return
	}
	name := string(t.Bytes(t.Child(call, l.fFunction)))
	args := t.Child(call, l.fArguments)
	var pos []extract.Node
	for a := range t.NamedChildren(args) {
		if k := t.Kind(a); k != l.comment && k != l.keywordArgument {
			pos = append(pos, a)
		}
	}
	if len(pos) < 2 {
		return
	}
	route, ok := x.plainString(pos[0])
	if !ok {
		return
	}
	if name != "path" {
		if route, ok = regexRoute(route); !ok {
			return
		}
	}
	handler := ""
	switch t.Kind(pos[1]) {
	case l.identifier:
		handler = string(t.Bytes(pos[1]))
	case l.attribute:
		handler = string(t.Bytes(t.Child(pos[1], l.fAttribute)))
	}
	if handler == "" {
		return
	}
	x.f.ChannelSite(abi.ChannelSite{From: x.caller(call), Kind: abi.ChannelHTTP, Role: abi.ChannelHandle,
		Name: "* /" + strings.TrimPrefix(route, "/"), Handler: handler, Line: t.StartLine(call)})
}

// regexRoute turns a Django re_path pattern into a path: anchors dropped,
// each group (named or not) a parameter "{}". false when any other regex
// syntax is left, since the path would then be a guess.
func regexRoute(re string) (string, bool) {
	re = strings.TrimSuffix(strings.TrimPrefix(re, "^"), "$")
	var b strings.Builder
	for i := 0; i < len(re); i++ {
		switch c := re[i]; c {
		case '(':
			depth, j := 1, i+1
			for ; j < len(re) && depth > 0; j++ {
				switch re[j] {
				case '(':
					depth++
				case ')':
					depth--
				}
			}
			if depth != 0 {
				return "", false
			}
			b.WriteString("{}")
			i = j - 1
		case '\\':
			if i+1 < len(re) && (re[i+1] == '.' || re[i+1] == '-' || re[i+1] == '/') {
				b.WriteByte(re[i+1])
				i++
				continue
			}
			return "", false
		case '.', '*', '+', '?', '[', ']', '|', '{', '}', '^', '$':
			return "", false
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), true
}

// plainString is a string literal's text, raw strings included; false for
// an f-string, a byte string, a concatenation or anything computed.
func (x *state) plainString(n extract.Node) (string, bool) {
	t, l := x.t, x.l
	if t.Kind(n) != l.str {
		return "", false
	}
	b := t.Bytes(n)
	if len(b) > 0 && (b[0] == 'r' || b[0] == 'R') {
		b = b[1:]
	}
	if len(b) == 0 || b[0] != '\'' && b[0] != '"' {
		return "", false
	}
	for c := range t.NamedChildren(n) {
		if t.Kind(c) != l.stringContent && t.KindName(c) != "string_start" && t.KindName(c) != "string_end" {
			return "", false // an interpolation or escape sequence
		}
	}
	c := t.ChildOfKind(n, l.stringContent)
	if c == extract.None {
		return "", true
	}
	return string(t.Bytes(c)), true
}
