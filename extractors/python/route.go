package main

import (
	"bytes"
	"strings"

	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// routeVerbs are decorator and client methods named after an HTTP method.
var routeVerbs = map[string]string{"get": "GET", "post": "POST", "put": "PUT", "delete": "DELETE", "patch": "PATCH", "head": "HEAD", "options": "OPTIONS"}

// httpClients are the modules and client objects whose verb methods send
// requests (requests.get, httpx.post, session.get, client.put).
var httpClients = map[string]bool{"requests": true, "httpx": true, "session": true, "client": true}

// routes records the HTTP routes a decorated def handles:
// @app.route("/users/<id>", methods=["GET", "POST"]) (Flask) and
// @app.get("/users/{id}") / @router.post(...) (Flask 2, FastAPI).
func (x *state) routes(start extract.Node, fn int32) {
	t, l := x.t, x.l
	if t.Kind(start) != l.decoratedDefinition {
		return
	}
	for d := range t.NamedChildren(start) {
		if t.Kind(d) != l.decorator {
			continue
		}
		for call := range t.NamedChildren(d) {
			if t.Kind(call) != l.call {
				continue
			}
			attr := t.Child(t.Child(call, l.fFunction), l.fAttribute)
			if t.Kind(t.Child(call, l.fFunction)) != l.attribute || attr == extract.None {
				continue
			}
			path := x.literalArg(call, 0)
			if !strings.HasPrefix(path, "/") {
				continue
			}
			var methods []string
			switch verb := string(t.Bytes(attr)); {
			case verb == "route" || verb == "api_route":
				methods = x.methodsArg(call)
			case routeVerbs[verb] != "":
				methods = []string{routeVerbs[verb]}
			default:
				continue
			}
			for _, m := range methods {
				x.f.ChannelSite(abi.ChannelSite{From: fn, Kind: abi.ChannelHTTP, Role: abi.ChannelHandle, Name: m + " " + path, Line: t.StartLine(call)})
			}
		}
	}
}

// methodsArg reads methods=["GET", ...]; Flask's default is GET.
func (x *state) methodsArg(call extract.Node) []string {
	t, l := x.t, x.l
	args := t.Child(call, l.fArguments)
	for a := range t.NamedChildren(args) {
		if t.Kind(a) != l.keywordArgument || string(t.Bytes(t.Child(a, l.fName))) != "methods" {
			continue
		}
		v := t.Child(a, l.fValue)
		var out []string
		for m := range t.NamedChildren(v) {
			if c := t.ChildOfKind(m, l.stringContent); t.Kind(m) == l.str && c != extract.None {
				out = append(out, strings.ToUpper(string(t.Bytes(c))))
			}
		}
		if len(out) > 0 {
			return out
		}
		return []string{"*"}
	}
	return []string{"GET"}
}

// httpClient records requests.get(url) / httpx.post(url) / session.put(url)
// with a literal URL, or an f-string whose computed parts become "{}".
func (x *state) httpClient(call, fn extract.Node) {
	t, l := x.t, x.l
	if t.Kind(fn) != l.attribute {
		return
	}
	obj, attr := t.Child(fn, l.fObject), t.Child(fn, l.fAttribute)
	if obj == extract.None || attr == extract.None {
		return
	}
	verb := routeVerbs[string(t.Bytes(attr))]
	if verb == "" {
		return // most calls: decided without allocating
	}
	ob := t.Bytes(obj)
	if !httpClients[string(ob[bytes.LastIndexByte(ob, '.')+1:])] {
		return
	}
	url := x.urlArg(call)
	if !strings.HasPrefix(url, "/") && !strings.Contains(url, "://") {
		return
	}
	x.f.ChannelSite(abi.ChannelSite{From: x.caller(call), Kind: abi.ChannelHTTP, Role: abi.ChannelSend, Name: verb + " " + url, Line: t.StartLine(call)})
}

// urlArg renders the first argument: a plain string, or an f-string with
// each {…} replaced by "{}".
func (x *state) urlArg(call extract.Node) string {
	t, l := x.t, x.l
	args := t.Child(call, l.fArguments)
	if args == extract.None {
		return ""
	}
	for a := range t.NamedChildren(args) {
		if t.Kind(a) == l.comment {
			continue
		}
		if t.Kind(a) != l.str {
			return ""
		}
		var b strings.Builder
		for c := range t.NamedChildren(a) {
			switch t.KindName(c) {
			case "string_content":
				b.Write(t.Bytes(c))
			case "interpolation":
				b.WriteString("{}")
			}
		}
		return b.String()
	}
	return ""
}
