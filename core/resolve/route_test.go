package resolve

import (
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
	g, _ := Build(files, Options{})
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
