package viewer

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/synaptic-graph/synaptic/core/tools"
)

type fakeCatalog struct{ calls []string }

func (f *fakeCatalog) Call(_ context.Context, name string, args json.RawMessage) (tools.Result, error) {
	f.calls = append(f.calls, name+" "+string(args))
	switch name {
	case "get_node":
		return tools.Result{Text: "Node: X", Structured: map[string]any{"found": true}}, nil
	case "bad_args":
		return tools.Result{}, &tools.ArgsError{Tool: name, Msg: "nope"}
	}
	return tools.Result{}, fmt.Errorf("%w: %q", tools.ErrUnknownTool, name)
}

func (f *fakeCatalog) ReadResource(context.Context, string) (string, string, error) {
	return "# Report", "text/markdown", nil
}

func TestRoutes(t *testing.T) {
	mux := http.NewServeMux()
	cat := &fakeCatalog{}
	Mount(mux, cat)
	for _, tc := range []struct {
		method, path, ctype, body string
		want                      int
		contains                  string
	}{
		{"GET", "/view/app.js", "", "", 200, "/view/api/call/"},
		{"GET", "/view/vendor/README.md", "", "", 404, ""},
		{"GET", "/view/nothing.js", "", "", 404, ""},
		{"GET", "/view/api/report", "", "", 200, `"# Report"`},
		{"POST", "/view/api/call/get_node", "application/json", `{"label":"X"}`, 200, `"found":true`},
		{"POST", "/view/api/call/get_node", "application/json; charset=utf-8", `{}`, 200, `"text":"Node: X"`},
		{"POST", "/view/api/call/get_node", "text/plain", `{}`, 415, "application/json"},
		{"POST", "/view/api/call/get_node", "application/json", strings.Repeat(" ", maxArgsBytes+1), 413, ""},
		{"POST", "/view/api/call/bad_args", "application/json", `{}`, 400, "nope"},
		{"POST", "/view/api/call/missing", "application/json", `{}`, 404, "unknown tool"},
	} {
		req := httptest.NewRequest(tc.method, tc.path, strings.NewReader(tc.body))
		if tc.ctype != "" {
			req.Header.Set("Content-Type", tc.ctype)
		}
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, req)
		if rec.Code != tc.want || !strings.Contains(rec.Body.String(), tc.contains) {
			t.Errorf("%s %s: %d %q, want %d containing %q", tc.method, tc.path, rec.Code, rec.Body.String(), tc.want, tc.contains)
		}
	}
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	if HasLib() {
		if rec.Code != 200 || !strings.Contains(rec.Body.String(), "cytoscape.min.js") || rec.Header().Get("Content-Security-Policy") == "" {
			t.Errorf("/: %d, CSP %q", rec.Code, rec.Header().Get("Content-Security-Policy"))
		}
	} else if rec.Code != 503 || !strings.Contains(rec.Body.String(), "not vendored") {
		t.Errorf("/ without the library: %d %s", rec.Code, rec.Body.String())
	}
}
