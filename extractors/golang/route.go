package main

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// routeVerb maps gin/echo (GET) and chi (Get) route registrations to
// their method ("*" for Any), "" for any other name. A switch, not a map:
// it runs for every call.
func routeVerb(m string) string {
	switch m {
	case "GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS":
		return m
	case "Get":
		return "GET"
	case "Post":
		return "POST"
	case "Put":
		return "PUT"
	case "Delete":
		return "DELETE"
	case "Patch":
		return "PATCH"
	case "Head":
		return "HEAD"
	case "Options":
		return "OPTIONS"
	case "Any":
		return "*"
	}
	return ""
}

// clientVerb maps net/http's request helpers (http.Get, client.Post).
func clientVerb(m string) string {
	switch m {
	case "Get":
		return "GET"
	case "Head":
		return "HEAD"
	case "Post", "PostForm":
		return "POST"
	}
	return ""
}

// route records an HTTP route end: mux.HandleFunc("GET /users/{id}", h)
// (net/http, method patterns included), r.GET("/x", h) (gin, echo) and
// r.Get("/x", h) (chi) as handlers; http.Get(url), client.Post(url, …),
// http.NewRequest(method, url, …) as clients.
func (w *walker) route(call extract.Node, recv, method string) {
	if !sitePasses {
		return
	}
	switch {
	case method == "HandleFunc", method == "Handle", routeVerb(method) != "",
		clientVerb(method) != "" && (recv == "http" || strings.HasSuffix(recv, "Client") || recv == "client"),
		recv == "http" && (method == "NewRequest" || method == "NewRequestWithContext"):
	default:
		return // most calls: decided before reading the arguments
	}
	var buf [8]extract.Node
	args := w.argsInto(buf[:0], call) // on the stack: h.Get(k) is everywhere
	if len(args) == 0 {
		return
	}
	site := abi.ChannelSite{From: w.caller(), Kind: abi.ChannelHTTP, Line: w.t.StartLine(call)}
	switch {
	case method == "HandleFunc" || method == "Handle":
		pattern := w.goString(args[0])
		m, path, ok := strings.Cut(pattern, " ")
		if !ok {
			m, path = "*", pattern
		}
		if !strings.HasPrefix(path, "/") {
			return
		}
		site.Role, site.Name = abi.ChannelHandle, m+" "+path
		if len(args) > 1 {
			site.Handler = w.goHandler(args[len(args)-1])
		}
	case clientVerb(method) != "" && (recv == "http" || strings.HasSuffix(recv, "Client") || recv == "client"):
		url := w.urlExpr(args[0], 0)
		if !strings.HasPrefix(url, "/") && !strings.Contains(url, "://") {
			return
		}
		site.Role, site.Name = abi.ChannelSend, clientVerb(method)+" "+url
	case routeVerb(method) != "" && len(args) > 1:
		path := w.goString(args[0])
		if !strings.HasPrefix(path, "/") {
			return
		}
		site.Role, site.Name = abi.ChannelHandle, routeVerb(method)+" "+path
		site.Handler = w.goHandler(args[len(args)-1])
	case recv == "http" && (method == "NewRequest" || method == "NewRequestWithContext"):
		if method == "NewRequestWithContext" {
			args = args[1:]
		}
		if len(args) < 2 {
			return
		}
		m := strings.ToUpper(w.goString(args[0]))
		if m == "" {
			m = httpMethodConst(w.text(args[0]))
		}
		url := w.urlExpr(args[1], 0)
		if !strings.HasPrefix(url, "/") && !strings.Contains(url, "://") {
			return
		}
		site.Role, site.Name = abi.ChannelSend, m+" "+url
	default:
		return
	}
	w.f.ChannelSite(site)
}

// httpMethodConst maps http.MethodGet and friends; "*" otherwise.
func httpMethodConst(s string) string {
	if m, ok := strings.CutPrefix(s, "http.Method"); ok && m != "" {
		return strings.ToUpper(m)
	}
	return "*"
}

// argsInto appends a call's arguments, comments skipped, to buf.
func (w *walker) argsInto(buf []extract.Node, call extract.Node) []extract.Node {
	args := w.t.Child(call, w.k.fArguments)
	if args == extract.None {
		return buf
	}
	for a := range w.t.NamedChildren(args) {
		if w.t.KindName(a) != "comment" {
			buf = append(buf, a)
		}
	}
	return buf
}

// argList is a call's arguments, comments skipped.
func (w *walker) argList(call extract.Node) []extract.Node {
	args := w.t.Child(call, w.k.fArguments)
	if args == extract.None {
		return nil
	}
	var out []extract.Node
	for a := range w.t.NamedChildren(args) {
		if w.t.KindName(a) != "comment" {
			out = append(out, a)
		}
	}
	return out
}

// goString is a string literal's value, "" for anything else.
func (w *walker) goString(n extract.Node) string {
	switch w.t.KindName(n) {
	case "interpreted_string_literal", "raw_string_literal":
		if s, err := strconv.Unquote(w.text(n)); err == nil {
			return s
		}
	}
	return ""
}

// goHandler names the handler function passed to a route registration:
// h, pkg.h or s.h (its last selector), or http.HandlerFunc(h).
func (w *walker) goHandler(n extract.Node) string {
	switch w.t.KindName(n) {
	case "identifier":
		return w.text(n)
	case "selector_expression":
		if f := w.t.Child(n, w.k.fField); f != extract.None {
			return w.text(f)
		}
	case "call_expression":
		if args := w.argList(n); len(args) == 1 && strings.HasSuffix(w.text(w.t.Child(n, w.k.fFunction)), "HandlerFunc") {
			return w.goHandler(args[0])
		}
	}
	return ""
}

// printfVerb is a fmt verb, a computed part of a Sprintf URL.
var printfVerb = regexp.MustCompile(`%[-+# 0-9.]*[a-zA-Z]`)

// urlExpr renders a URL expression: a string literal, a + concatenation
// or fmt.Sprintf with a literal format, computed parts written "{}".
func (w *walker) urlExpr(n extract.Node, depth int) string {
	t := w.t
	if depth > 16 {
		return "{}"
	}
	switch t.KindName(n) {
	case "interpreted_string_literal", "raw_string_literal":
		return w.goString(n)
	case "binary_expression":
		l, r := t.Child(n, w.k.fLeft), t.Child(n, w.k.fRight)
		if l == extract.None || r == extract.None {
			return "{}"
		}
		return w.urlExpr(l, depth+1) + w.urlExpr(r, depth+1)
	case "call_expression":
		if w.text(t.Child(n, w.k.fFunction)) == "fmt.Sprintf" {
			if args := w.argList(n); len(args) > 0 {
				if f := w.goString(args[0]); f != "" {
					return printfVerb.ReplaceAllString(strings.ReplaceAll(f, "%%", "%"), "{}")
				}
			}
		}
	}
	return "{}"
}
