package resolve

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

func TestCanonicalPath(t *testing.T) {
	for in, want := range map[string]string{
		"/api/users/<id>":                     "/api/users/{p}",
		"/api/users/<int:id>/":                "/api/users/{p}",
		"/api/users/:id":                      "/api/users/{p}",
		"/api/users/{id}":                     "/api/users/{p}",
		"/api/users/{}":                       "/api/users/{p}",
		"http://localhost:3000/API/Items?x=1": "/api/items",
		"/files/<path:rest>":                  "/files/{p*}",
		"/static/*":                           "/static/{p*}",
		"/":                                   "/",
		"https://example.com":                 "",
		"/v{}/x":                              "/{p}/x",
		"/api/posts/[...slug]":                "/api/posts/{p*}",
		"/api/docs/[[...path]]":               "/api/docs/{p*}",
		"/api/users/[id]":                     "/api/users/{p}",
	} {
		if got := canonicalPath(in); got != want {
			t.Errorf("canonicalPath(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRoutes(t *testing.T) {
	route := func(from int32, role abi.ChannelRole, name, handler string, line uint32) abi.ChannelSite {
		return abi.ChannelSite{From: from, Kind: abi.ChannelHTTP, Role: role, Name: name, Handler: handler, Line: line}
	}
	files := []File{
		{Path: "api/app.py", Language: "python", Family: "python", Facts: &abi.Facts{
			Symbols: []abi.Symbol{{Name: "get_user", Kind: "function", Parent: -1, Span: sp(4)}, {Name: "delete_user", Kind: "function", Parent: -1, Span: sp(8)}},
			Channels: []abi.ChannelSite{
				route(0, abi.ChannelHandle, "GET /api/users/<id>", "", 3),
				route(1, abi.ChannelHandle, "DELETE /api/users/<id>", "", 7),
			},
		}},
		{Path: "web/client.ts", Language: "typescript", Family: "ecmascript", Facts: &abi.Facts{
			Symbols: []abi.Symbol{{Name: "loadUser", Kind: "function", Parent: -1, Span: sp(1)}},
			Channels: []abi.ChannelSite{
				route(0, abi.ChannelSend, "GET /api/users/{}", "", 2),
				route(0, abi.ChannelSend, "GET /api/unknown", "", 3), // no handler: no node
			},
		}},
		{Path: "cmd/cli.go", Language: "go", Family: "go", Facts: &abi.Facts{
			Package:  "main",
			Symbols:  []abi.Symbol{{Name: "main", Kind: "function", Parent: -1, Span: sp(1)}},
			Channels: []abi.ChannelSite{route(0, abi.ChannelSend, "* http://localhost:5000/api/users/{}", "", 4)}, // method unknown: every route of the path
		}},
	}
	g, _ := Build(files)
	var got []string
	for _, e := range g.Edges {
		if e.Relation == "calls_service" || e.Relation == "handled_by" {
			got = append(got, e.Source+" -"+e.Relation+"-> "+e.Target)
		}
	}
	want := []string{
		"cmd_cli_main -calls_service-> route_delete_api_users_p",
		"cmd_cli_main -calls_service-> route_get_api_users_p",
		"route_delete_api_users_p -handled_by-> api_app_delete_user",
		"route_get_api_users_p -handled_by-> api_app_get_user",
		"web_client_loaduser -calls_service-> route_get_api_users_p",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("route edges:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestRouteScores: both methods spelled > one left open > a concrete
// client path fitted into the one template it matches; two templates
// that fit are not guessed between.
func TestRouteScores(t *testing.T) {
	route := func(from int32, role abi.ChannelRole, name string, line uint32) abi.ChannelSite {
		return abi.ChannelSite{From: from, Kind: abi.ChannelHTTP, Role: role, Name: name, Line: line}
	}
	files := []File{
		{Path: "srv/app.py", Family: "py", Facts: &abi.Facts{
			Symbols: []abi.Symbol{{Name: "user", Kind: "function", Parent: -1, Span: sp(1)}, {Name: "any", Kind: "function", Parent: -1, Span: sp(5)},
				{Name: "a", Kind: "function", Parent: -1, Span: sp(9)}, {Name: "b", Kind: "function", Parent: -1, Span: sp(12)}},
			Channels: []abi.ChannelSite{
				route(0, abi.ChannelHandle, "GET /users/<id>", 1),
				route(1, abi.ChannelHandle, "* /health", 5),
				route(2, abi.ChannelHandle, "GET /x/{a}/y", 9),
				route(3, abi.ChannelHandle, "GET /x/z/{b}", 12),
			},
		}},
		{Path: "web/c.ts", Family: "es", Facts: &abi.Facts{
			Symbols: []abi.Symbol{{Name: "exact", Kind: "function", Parent: -1, Span: sp(1)}, {Name: "open", Kind: "function", Parent: -1, Span: sp(3)},
				{Name: "fitted", Kind: "function", Parent: -1, Span: sp(5)}, {Name: "twofit", Kind: "function", Parent: -1, Span: sp(7)}},
			Channels: []abi.ChannelSite{
				route(0, abi.ChannelSend, "GET /users/{}", 1),
				route(1, abi.ChannelSend, "GET /health", 3),
				route(2, abi.ChannelSend, "GET /users/7", 5),
				route(3, abi.ChannelSend, "GET /x/z/y", 7),
			},
		}},
	}
	g, _ := Build(files)
	var got []string
	for _, e := range g.Edges {
		if e.Relation == "calls_service" {
			got = append(got, fmt.Sprintf("%s -> %s %.1f", e.Source, e.Target, e.ConfidenceScore))
		}
	}
	want := []string{
		"web_c_exact -> route_get_users_p 0.6",
		"web_c_fitted -> route_get_users_p 0.4",
		"web_c_open -> route_health 0.5",
	}
	slices.Sort(got)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("client edges:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// FuzzRoutePaths: canonical paths from untrusted URLs are canonical
// (canonicalising again changes nothing), and matching a template never
// panics.
func FuzzRoutePaths(f *testing.F) {
	for _, s := range []string{"/api/users/<int:id>/", "http://h:1/a?b", "/x/[...slug]", "/a/{p*}", "", "//", "%zz", "/a%252Fb"} {
		f.Add(s, "/api/users/7")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		ca, cb := canonicalPath(a), canonicalPath(b)
		if ca != "" && !strings.HasPrefix(ca, "/") {
			t.Fatalf("canonicalPath(%q) = %q", a, ca)
		}
		if again := canonicalPath(ca); ca != "" && again != ca {
			t.Fatalf("canonicalPath(%q) = %q, then %q", a, ca, again)
		}
		templateMatches(ca, cb)
		libraryName(a)
	})
}
