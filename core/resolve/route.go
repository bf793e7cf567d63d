package resolve

import (
	"encoding/json"
	"net/url"
	"slices"
	"strings"

	"github.com/synaptic-graph/synaptic/core/graph"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// RouteScore is the confidence of a client-to-route link: the method and
// the canonical path match, but a base URL or proxy chosen at run time
// could send the request elsewhere.
const RouteScore = 0.5

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
		case s == "*" || strings.HasPrefix(s, "<path:") || strings.HasSuffix(s, "...}") || strings.HasPrefix(s, "*"):
			out = append(out, "{p*}")
		case s == "{}" || strings.HasPrefix(s, ":") || isWrapped(s, '<', '>') || isWrapped(s, '{', '}') || isWrapped(s, '[', ']'):
			out = append(out, "{p}")
		case strings.Contains(s, "{}"):
			out = append(out, "{p}") // a segment partly computed: "v{}"
		default:
			out = append(out, strings.ToLower(s))
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
			end := routeEnd{host, f.Path, c.Line, method}
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
				r.edge(c.node, id, "calls_service", graph.Inferred, RouteScore, c.file, c.line)
				r.edges[len(r.edges)-1].Context = c.method
			}
			for _, h := range byMethod[m] {
				r.edge(id, h.node, "handled_by", graph.Inferred, RouteScore, h.file, h.line)
				r.edges[len(r.edges)-1].Context = m
			}
		}
	}
}
