package main

import (
	"strings"

	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// httpVerbs are the route-registration and client methods named after an
// HTTP method.
var httpVerbs = map[string]string{"get": "GET", "post": "POST", "put": "PUT", "delete": "DELETE", "patch": "PATCH", "head": "HEAD", "options": "OPTIONS", "all": "*"}

// routeServers are the receivers an Express/Koa-style app registers routes
// on; routeClients the HTTP client objects.
var (
	routeServers = map[string]bool{"app": true, "router": true, "server": true, "api": true, "routes": true}
	routeClients = map[string]bool{"axios": true, "http": true, "client": true, "apiClient": true}
)

// routeCall records an HTTP route end: app.get("/users/:id", handler)
// (Express, Koa, Fastify style) as a handler, and fetch(url, {method}) or
// axios.get(url) as a client, when the path is a literal, a template or a
// concatenation (computed parts are written "{}").
func (w *walker) routeCall(call, fn extract.Node) {
	t, l := w.t, w.l
	switch {
	case fn == extract.None:
		return
	case w.kind(fn) == l.identifier:
		if string(w.bytes(fn)) != "fetch" {
			return
		}
	case w.kind(fn) == l.memberExpression:
		if prop := t.Child(fn, l.fProperty); prop == extract.None || httpVerbs[string(w.bytes(prop))] == "" {
			return // most member calls: checked without allocating
		}
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
	site := abi.ChannelSite{From: w.caller, Kind: abi.ChannelHTTP, Line: t.StartLine(call)}
	switch w.kind(fn) {
	case l.identifier:
		if string(w.bytes(fn)) != "fetch" {
			return
		}
		path := w.urlTemplate(first, 0)
		if !strings.HasPrefix(path, "/") && !strings.Contains(path, "://") {
			return
		}
		site.Role, site.Name = abi.ChannelSend, w.fetchMethod(second)+" "+path
	case l.memberExpression:
		obj, prop := t.Child(fn, l.fObject), t.Child(fn, l.fProperty)
		if obj == extract.None || prop == extract.None {
			return
		}
		verb, ok := httpVerbs[string(w.bytes(prop))]
		recv := string(w.bytes(obj))
		recv = recv[strings.LastIndexByte(recv, '.')+1:]
		if !ok {
			return
		}
		path, at := w.urlTemplate(first, 0), first
		if named := w.literal(second); routeServers[recv] && !strings.HasPrefix(path, "/") && strings.HasPrefix(named, "/") {
			path, at = named, second // Koa's named route: router.get("user", "/users/:id", h)
		}
		switch {
		case routeServers[recv] && strings.HasPrefix(path, "/") && !strings.Contains(path, "{}"):
			site.Role, site.Name = abi.ChannelHandle, verb+" "+path
			if last := w.lastArg(args); last != at {
				site.Handler = w.handlerName(last)
			}
		case routeClients[recv] && verb != "*" && (strings.HasPrefix(path, "/") || strings.Contains(path, "://")):
			site.Role, site.Name = abi.ChannelSend, verb+" "+path
		default:
			return
		}
	default:
		return
	}
	w.f.ChannelSite(site)
}

// urlTemplate renders a URL expression: a string or template literal,
// or a + concatenation of them, with every computed part written "{}".
func (w *walker) urlTemplate(n extract.Node, depth int) string {
	t, l := w.t, w.l
	switch k := w.kind(n); {
	case depth > 16:
		return "{}"
	case k == l.str:
		return w.stringValue(n)
	case k == l.templateString:
		var b strings.Builder
		s := w.bytes(n)
		start := t.StartByte(n)
		pos := start + 1
		for c := range t.NamedChildren(n) {
			if w.kind(c) != l.templateSubstitution {
				continue
			}
			b.Write(s[pos-start : t.StartByte(c)-start])
			b.WriteString("{}")
			pos = t.EndByte(c)
		}
		if end := t.EndByte(n) - 1; end > pos {
			b.Write(s[pos-start : end-start])
		}
		return b.String()
	case k == l.binaryExpression:
		left, right := t.Child(n, l.fLeft), t.Child(n, l.fRight)
		if left == extract.None || right == extract.None {
			return "{}"
		}
		return w.urlTemplate(left, depth+1) + w.urlTemplate(right, depth+1)
	}
	return "{}"
}

// fetchMethod is the method of fetch's options object, GET without one,
// "*" when it is not a literal.
func (w *walker) fetchMethod(opts extract.Node) string {
	t, l := w.t, w.l
	if opts == extract.None {
		return "GET"
	}
	if w.kind(opts) != l.object {
		return "*"
	}
	for p := range t.NamedChildren(opts) {
		if w.kind(p) != l.pair {
			continue
		}
		if k := t.Child(p, l.fKey); k != extract.None && strings.Trim(string(w.bytes(k)), `"'`) == "method" {
			if v := t.Child(p, l.fValue); v != extract.None && (w.kind(v) == l.str) {
				return strings.ToUpper(w.stringValue(v))
			}
			return "*"
		}
	}
	return "GET"
}

// lastArg is a call's last argument (the handler after any middleware).
func (w *walker) lastArg(args extract.Node) extract.Node {
	last := extract.None
	for a := range w.t.NamedChildren(args) {
		if w.kind(a) != w.l.comment {
			last = a
		}
	}
	return last
}
