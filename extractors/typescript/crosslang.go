package main

import (
	"path"
	"strings"

	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// childProcess are node:child_process's functions and how each names what
// it runs: a command line (exec), a program and its argv (spawn, execFile)
// or a module run by node (fork).
var childProcess = map[string]byte{
	"exec": 'c', "execSync": 'c', "spawn": 'p', "spawnSync": 'p', "execFile": 'p', "execFileSync": 'p', "fork": 'm',
}

// crossLangCall records child_process running a script of the repository
// (invokes): cp.spawn("node", ["scripts/x.js"]), exec("node scripts/x.js"),
// fork("scripts/worker.js"). A bare exec/spawn counts only in a file that
// imports child_process, so RegExp exec and other namesakes do not.
func (w *walker) crossLangCall(call, fn extract.Node) {
	t, l := w.t, w.l
	name := ""
	switch w.kind(fn) {
	case l.identifier:
		if childProcess[string(w.bytes(fn))] == 0 || !w.isChildProcess("") {
			return
		}
		name = string(w.bytes(fn))
	case l.memberExpression:
		prop := t.Child(fn, l.fProperty)
		if prop == extract.None || childProcess[string(w.bytes(prop))] == 0 {
			return
		}
		if !w.isChildProcess(string(w.bytes(t.Child(fn, l.fObject)))) {
			return
		}
		name = string(w.bytes(prop))
	default:
		return
	}
	args := t.Child(call, l.fArguments)
	if args == extract.None {
		return
	}
	first, second := w.args2(args)
	if first == extract.None {
		return
	}
	prog := w.literal(first)
	if prog == "" {
		return
	}
	var argv []string
	switch childProcess[name] {
	case 'c':
		argv = extract.SplitCommand(prog)
	case 'm':
		argv = []string{"node", prog}
	case 'p':
		argv = []string{prog}
		if second != extract.None && t.KindName(second) == "array" {
			for e := range t.NamedChildren(second) {
				s := w.literal(e)
				if s == "" {
					break
				}
				argv = append(argv, s)
			}
		}
	}
	if script := extract.ScriptOf(argv); script != "" {
		w.f.ChannelSite(abi.ChannelSite{From: w.caller, Kind: abi.ChannelExec, Role: abi.ChannelSend, Name: script, Line: t.StartLine(call)})
	}
}

// isChildProcess reports whether obj names the child_process module:
// its usual names, or the name an import of it so far binds. With obj ""
// it reports whether the file imports child_process at all.
func (w *walker) isChildProcess(obj string) bool {
	if obj == "child_process" || obj == "childProcess" || obj == "cp" {
		return true
	}
	for _, im := range w.f.Imports() {
		if im.Path == "child_process" || im.Path == "node:child_process" {
			if obj == "" || im.Alias == obj {
				return true
			}
		}
	}
	return false
}

// nativeAddon records require("./build/Release/addon.node") and
// require("bindings")("addon"): a native addon loaded by name.
func (w *walker) nativeAddon(call extract.Node, module string) {
	if strings.HasSuffix(module, ".node") {
		w.f.ChannelSite(abi.ChannelSite{From: w.caller, Kind: abi.ChannelLibrary, Role: abi.ChannelSend, Name: module, Line: w.t.StartLine(call)})
		return
	}
	if module != "bindings" {
		return
	}
	p := w.t.Parent(call)
	if p == extract.None || w.kind(p) != w.l.callExpression || w.t.Child(p, w.l.fFunction) != call {
		return
	}
	if args := w.t.Child(p, w.l.fArguments); args != extract.None {
		if first, _ := w.args2(args); first != extract.None {
			if s := w.literal(first); s != "" {
				w.f.ChannelSite(abi.ChannelSite{From: w.caller, Kind: abi.ChannelLibrary, Role: abi.ChannelSend, Name: s, Line: w.t.StartLine(call)})
			}
		}
	}
}

// nextVerbs are the handlers a Next.js app-router route file exports.
var nextVerbs = map[string]bool{"GET": true, "POST": true, "PUT": true, "PATCH": true, "DELETE": true, "HEAD": true, "OPTIONS": true}

// nextRoutes records the routes a Next.js route file declares by where it
// sits: pages/api/users/[id].ts answers every method of /api/users/[id]
// in its default export; app/api/users/[id]/route.ts answers GET, POST…
// in the functions of those names it exports. Route groups "(x)" and
// parallel slots "@x" are not part of the URL.
func (w *walker) nextRoutes() {
	p := w.f.Path
	ext := path.Ext(p)
	switch ext {
	case ".ts", ".js", ".tsx", ".jsx", ".mjs":
	default:
		return
	}
	p = strings.TrimSuffix(p, ext)
	segs := strings.Split(p, "/")
	for i, s := range segs {
		switch {
		case s == "pages" && i+1 < len(segs) && segs[i+1] == "api":
			route := segs[i+1:]
			if route[len(route)-1] == "index" {
				route = route[:len(route)-1]
			}
			w.pagesRoute("/" + strings.Join(route, "/"))
			return
		case s == "app" && segs[len(segs)-1] == "route" && i < len(segs)-1:
			var route []string
			for _, r := range segs[i+1 : len(segs)-1] {
				if !(strings.HasPrefix(r, "(") && strings.HasSuffix(r, ")")) && !strings.HasPrefix(r, "@") {
					route = append(route, r)
				}
			}
			w.appRoutes("/" + strings.Join(route, "/"))
			return
		}
	}
}

// appRoutes records the exported verb functions of an app-router file.
func (w *walker) appRoutes(route string) {
	for i, s := range w.f.Symbols() {
		if s.Parent == -1 && nextVerbs[s.Name] && s.Visibility == abi.VisPublic {
			w.f.ChannelSite(abi.ChannelSite{From: int32(i), Kind: abi.ChannelHTTP, Role: abi.ChannelHandle, Name: s.Name + " " + route, Line: s.Span.StartLine})
		}
	}
}

// pagesRoute records a pages/api file's default export as the handler
// of every method of route; an anonymous default export is the file.
func (w *walker) pagesRoute(route string) {
	t, l := w.t, w.l
	for s := range t.Children(0) {
		if w.kind(s) != l.exportStatement || !strings.HasPrefix(t.Text(s), "export default") {
			continue
		}
		site := abi.ChannelSite{From: -1, Kind: abi.ChannelHTTP, Role: abi.ChannelHandle, Name: "* " + route, Line: t.StartLine(s)}
		name := ""
		if d := t.Child(s, l.fDeclaration); d != extract.None {
			name = string(w.bytes(t.Child(d, l.fName)))
		} else if v := t.Child(s, l.fValue); v != extract.None && w.kind(v) == l.identifier {
			name = string(w.bytes(v))
		}
		for i, sym := range w.f.Symbols() {
			if name != "" && sym.Parent == -1 && sym.Name == name {
				site.From = int32(i)
				break
			}
		}
		w.f.ChannelSite(site)
		return
	}
}
