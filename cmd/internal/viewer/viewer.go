// Package viewer serves a local web page over the graph: search, a
// neighbourhood graph to expand, communities, god nodes, the report, and
// source through the get_source jail.
//
// The page holds no graph logic: it calls the same catalog tools MCP
// serves (POST /view/api/call/{tool}), so it can never show something
// MCP would not answer. Its assets, the graph library included
// (cytoscape, fetched from npm by `make`), are embedded in the binary:
// nothing is loaded from the network at run time.
package viewer

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"path"

	"github.com/synaptic-graph/synaptic/core/tools"
)

//go:embed assets
var assets embed.FS

// LibFile is the vendored graph library, relative to assets/.
const LibFile = "vendor/cytoscape.min.js"

// maxArgsBytes bounds a tool call's arguments.
const maxArgsBytes = 64 << 10

// Mux is where the viewer's routes go (mcp.HTTPHandler's Handle, behind
// the same guards as /mcp).
type Mux interface {
	Handle(pattern string, h http.Handler)
}

// Catalog is what the page asks: the tool catalog behind MCP.
type Catalog interface {
	Call(ctx context.Context, name string, args json.RawMessage) (tools.Result, error)
	ReadResource(ctx context.Context, uri string) (text, mimeType string, err error)
}

// HasLib reports whether this build embeds the graph library.
func HasLib() bool {
	_, err := fs.Stat(assets, path.Join("assets", LibFile))
	return err == nil
}

// Mount adds GET / (the page), GET /view/… (its assets) and the two API
// routes the page uses.
func Mount(m Mux, c Catalog) {
	static, _ := fs.Sub(assets, "assets")
	m.Handle("GET /{$}", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !HasLib() {
			http.Error(w, "this synaptic build has no viewer: its graph library was not vendored (build with make, which fetches cytoscape from npm)", http.StatusServiceUnavailable)
			return
		}
		serveAsset(w, static, "index.html")
	}))
	m.Handle("GET /view/{file...}", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		serveAsset(w, static, r.PathValue("file"))
	}))
	m.Handle("POST /view/api/call/{tool}", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		callTool(w, r, c)
	}))
	m.Handle("GET /view/api/report", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		text, _, err := c.ReadResource(r.Context(), "synaptic://report")
		if err != nil {
			writeJSON(w, http.StatusNotFound, map[string]string{"error": err.Error()})
			return
		}
		writeJSON(w, http.StatusOK, map[string]string{"text": text})
	}))
}

func serveAsset(w http.ResponseWriter, static fs.FS, name string) {
	data, err := fs.ReadFile(static, name)
	if err != nil || path.Base(name) == "README.md" {
		http.NotFound(w, nil)
		return
	}
	if t := mime.TypeByExtension(path.Ext(name)); t != "" {
		w.Header().Set("Content-Type", t)
	}
	w.Header().Set("Content-Security-Policy", "default-src 'self'; style-src 'self' 'unsafe-inline'")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Write(data)
}

// callTool runs one catalog tool. Only application/json is accepted: a
// page of another origin cannot send it without a CORS preflight, which
// this server never grants.
func callTool(w http.ResponseWriter, r *http.Request, c Catalog) {
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
		writeJSON(w, http.StatusUnsupportedMediaType, map[string]string{"error": "send the arguments as Content-Type: application/json"})
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxArgsBytes+1))
	if err != nil || len(body) > maxArgsBytes {
		writeJSON(w, http.StatusRequestEntityTooLarge, map[string]string{"error": "arguments too large"})
		return
	}
	res, err := c.Call(r.Context(), r.PathValue("tool"), body)
	var ae *tools.ArgsError
	switch {
	case errors.Is(err, tools.ErrUnknownTool):
		writeJSON(w, http.StatusNotFound, map[string]string{"error": err.Error()})
		return
	case errors.As(err, &ae):
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
		return
	case err != nil:
		writeJSON(w, http.StatusInternalServerError, map[string]string{"error": err.Error()})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"text": res.Text, "structured": res.Structured, "isError": res.IsError})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}
