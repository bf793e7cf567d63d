package main_test

import (
	"strings"
	"testing"
)

// TestCLIPolyglotRoutes: a TypeScript fetch('/api/users/' + id) reaches a
// Flask @app.route('/api/users/<id>'), and a Go http.Get reaches an
// Express route, through route nodes, so affected crosses languages and
// graph_stats counts the coupling.
func TestCLIPolyglotRoutes(t *testing.T) {
	needBin(t)
	root := t.TempDir()
	write(t, root, map[string]string{
		"api/app.py": `from flask import Flask

app = Flask(__name__)


@app.route("/api/users/<id>")
def get_user(id):
    return {"id": id}
`,
		"web/users.ts": `export async function loadUser(id: string) {
  const res = await fetch("/api/users/" + id);
  return res.json();
}
`,
		"gateway/server.js": `const express = require("express");
const app = express();

function listItems(req, res) {
  res.json([]);
}

app.get("/api/items", listItems);
`,
		"cli/go.mod": "module example.com/cli\n\ngo 1.22\n",
		"cli/main.go": `package main

import "net/http"

func fetchItems() {
	http.Get("http://localhost:3000/api/items")
}

func main() { fetchItems() }
`,
	})
	run(t, root, false, "extract", "--quiet", ".")
	out := run(t, root, false, "call", "affected", "label=get_user")
	if !strings.Contains(out, "route GET /api/users/{p}") || !strings.Contains(out, "loadUser()") {
		t.Errorf("affected get_user does not reach the TypeScript client:\n%s", out)
	}
	out = run(t, root, false, "call", "find_callers", "label=listItems")
	if !strings.Contains(out, "route GET /api/items") {
		t.Errorf("find_callers listItems:\n%s", out)
	}
	out = run(t, root, false, "call", "affected", "label=listItems")
	if !strings.Contains(out, "fetchItems()") {
		t.Errorf("affected listItems does not reach the Go client:\n%s", out)
	}
	if out := run(t, root, false, "call", "graph_stats"); !strings.Contains(out, "Cross-language: 4 coupling edge(s)") {
		t.Errorf("graph_stats:\n%s", out)
	}
}
