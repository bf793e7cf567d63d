package resolve

import (
	"encoding/json"
	"net/url"
	"slices"
	"strings"

	"github.com/synaptic-graph/synaptic/core/graph"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// Confidence of a client-to-route link. The canonical path matches, but
// a base URL or proxy chosen at run time could send the request
// elsewhere: RouteScore when both ends spell the method, less when one
// leaves it open, and least when a concrete client path ("/users/7") was
// fitted into the one server template it matches ("/users/{p}").
const (
	RouteScore         = 0.6
	RouteAnyMethod     = 0.5
	RouteTemplateScore = 0.4
)

// anyMethod is a method the source does not say.
const anyMethod = "*"

// splitRoute splits an http channel name "GET /x" into method and path.
func splitRoute(name string) (method, path string) {
	m, p, ok := strings.Cut(name, " ")
	if !ok {
		return anyMethod, name
	}
	return strings.ToUpper(m), p
}

// canonicalPath makes client and server spellings of a route comparable:
// scheme, host, query and fragment dropped, a trailing slash trimmed,
// literal segments lower-cased, and every parameter (<id>, <int:id>,
// :id, {id}, [id], a computed part "{}") written {p}; a catch-all
// (<path:rest>, *, {rest...}) is {p*}. "" when nothing is left.
func canonicalPath(p string) string {
	if i := strings.Index(p, "://"); i >= 0 {
		rest := p[i+3:]
		j := strings.IndexByte(rest, '/')
		if j < 0 {
			return ""
		}
		p = rest[j:]
	}
	if i := strings.IndexAny(p, "?#"); i >= 0 {
		p = p[:i]
	}
	if u, err := url.PathUnescape(p); err == nil {
		p = u
	}
	segs := strings.Split(strings.Trim(p, "/"), "/")
	out := make([]string, 0, len(segs))
	for _, s := range segs {
		switch {
		case s == "":
			continue
		case s == "{p*}" || s == "*" || strings.HasPrefix(s, "<path:") || strings.HasSuffix(s, "...}") || strings.HasPrefix(s, "*") ||
			strings.HasPrefix(s, "[...") || strings.HasPrefix(s, "[[..."):
			out = append(out, "{p*}")
		case s == "{}" || strings.HasPrefix(s, ":") || isWrapped(s, '<', '>') || isWrapped(s, '{', '}') || isWrapped(s, '[', ']'):
			out = append(out, "{p}")
		case strings.Contains(s, "{}"):
			out = append(out, "{p}") // a segment partly computed: "v{}"
		default:
			// A '%' left after unescaping stays escaped, so the canonical
			// form is a fixed point ("/a%252F" is "/a%252f", not "/a/").
			out = append(out, strings.ReplaceAll(strings.ToLower(s), "%", "%25"))
		}
	}
	return "/" + strings.Join(out, "/")
}

func isWrapped(s string, open, close byte) bool {
	return len(s) >= 2 && s[0] == open && s[len(s)-1] == close
}

// routeEnd is a client call or a route registration.
type routeEnd struct {
	node, file string
	line       uint32
	method     string
	fitted     bool // a concrete client path fitted into a template
}

// score is the confidence of the link between client c and handler h.
func (c routeEnd) score(h routeEnd) float64 {
	switch {
	case c.fitted:
		return RouteTemplateScore
	case c.method == anyMethod || h.method == anyMethod:
		return RouteAnyMethod
	}
	return RouteScore
}

// fitTemplates moves each client whose path no handler declares to the
// one parameterised handler path it matches segment by segment, if
// exactly one does: "/users/7" to "/users/{p}".
func fitTemplates(clients, handlers map[string][]routeEnd) {
	var templates []string
	for p := range handlers {
		if strings.Contains(p, "{p") {
			templates = append(templates, p)
		}
	}
	if len(templates) == 0 {
		return
	}
	slices.Sort(templates)
	var concrete []string
	for p := range clients {
		if len(handlers[p]) == 0 && !strings.Contains(p, "{p") {
			concrete = append(concrete, p)
		}
	}
	slices.Sort(concrete)
	for _, p := range concrete {
		match := ""
		for _, t := range templates {
			if templateMatches(t, p) {
				if match != "" {
					match = ""
					break // two templates fit: not guessed
				}
				match = t
			}
		}
		if match == "" {
			continue
		}
		for _, c := range clients[p] {
			c.fitted = true
			clients[match] = append(clients[match], c)
		}
	}
}

// templateMatches reports whether canonical template t ("/a/{p}/b",
// "/files/{p*}") matches concrete canonical path p.
func templateMatches(t, p string) bool {
	ts, ps := strings.Split(t, "/"), strings.Split(p, "/")
	for i, s := range ts {
		if s == "{p*}" && i == len(ts)-1 {
			return len(ps) > i
		}
		if i >= len(ps) || s != "{p}" && s != ps[i] {
			return false
		}
	}
	return len(ps) == len(ts)
}

// resolveRoutes joins HTTP clients and route handlers, across languages,
// on one route node per (method, canonical path): "route GET /api/users/{p}".
// client -calls_service-> route -handled_by-> handler, INFERRED; a client
// whose method is unknown reaches every method of the path. Only routes
// that both a client and a handler in the repository name get a node.
func (r *resolver) resolveRoutes() {
	clients := map[string][]routeEnd{}
	handlers := map[string][]routeEnd{}
	for fi := range r.files {
		f := &r.files[fi]
		for _, c := range f.Facts.Channels {
			if c.Kind != abi.ChannelHTTP {
				continue
			}
			method, raw := splitRoute(c.Name)
			path := canonicalPath(raw)
			if path == "" {
				continue
			}
			host := f.id
			if c.From >= 0 {
				host = r.syms[f.first+c.From].id
			}
			end := routeEnd{node: host, file: f.Path, line: c.Line, method: method}
			if c.Role == abi.ChannelSend {
				clients[path] = append(clients[path], end)
				continue
			}
			if c.Handler != "" {
				t := r.handlerTarget(f, c.Handler)
				if t < 0 {
					continue
				}
				end.node = r.syms[t].id
			}
			handlers[path] = append(handlers[path], end)
		}
	}
	fitTemplates(clients, handlers)
	paths := make([]string, 0, len(handlers))
	for p := range handlers {
		if len(clients[p]) > 0 {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	nt, _ := json.Marshal("route")
	for _, p := range paths {
		byMethod := map[string][]routeEnd{}
		for _, h := range handlers[p] {
			byMethod[h.method] = append(byMethod[h.method], h)
		}
		methods := make([]string, 0, len(byMethod))
		for m := range byMethod {
			methods = append(methods, m)
		}
		slices.Sort(methods)
		for _, m := range methods {
			var callers []routeEnd
			for _, c := range clients[p] {
				if c.method == m || c.method == anyMethod || m == anyMethod {
					callers = append(callers, c)
				}
			}
			if len(callers) == 0 {
				continue
			}
			id := r.uniqueID(graph.MakeID("route", m, p), 0)
			canon, _ := json.Marshal(m + " " + p)
			r.nodes = append(r.nodes, graph.Node{
				ID: id, Label: "route " + m + " " + p, FileType: "code", Kind: "route",
				Extra: map[string]json.RawMessage{"_node_type": nt, "_route_canon": canon},
			})
			for _, c := range callers {
				best := 0.0
				for _, h := range byMethod[m] {
					best = max(best, c.score(h))
				}
				r.edge(c.node, id, "calls_service", graph.Inferred, best, c.file, c.line)
				r.edges[len(r.edges)-1].Context = c.method
			}
			for _, h := range byMethod[m] {
				score := RouteScore
				if m == anyMethod {
					score = RouteAnyMethod
				}
				r.edge(id, h.node, "handled_by", graph.Inferred, score, h.file, h.line)
				r.edges[len(r.edges)-1].Context = m
			}
		}
	}
}
