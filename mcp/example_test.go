package mcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"syscall"
	"time"

	"github.com/oklog/run"

	"github.com/synaptic-graph/synaptic/mcp"
)

// exampleCatalog serves one tool and one resource.
func exampleCatalog() mcp.Catalog {
	return mcp.Catalog{
		Tools: func(context.Context) []mcp.Tool {
			return []mcp.Tool{{
				Name:        "greet",
				Description: "Greets someone.",
				InputSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"],"additionalProperties":false}`),
				Annotations: &mcp.ToolAnnotations{ReadOnlyHint: new(true)},
			}}
		},
		CallTool: func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var a struct{ Name string }
			if err := json.Unmarshal(req.Arguments, &a); err != nil {
				return nil, err // becomes an isError result
			}
			return &mcp.CallToolResult{Content: []mcp.Content{mcp.TextContent("hello " + a.Name)}}, nil
		},
		Resources: func(context.Context) []mcp.Resource {
			return []mcp.Resource{{URI: "app://status", Name: "status", MIMEType: "text/plain"}}
		},
		ReadResource: func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			if req.URI != "app://status" {
				return nil, fmt.Errorf("%w: %s", mcp.ErrResourceNotFound, req.URI)
			}
			return &mcp.ReadResourceResult{Contents: []mcp.ResourceContents{{URI: req.URI, Text: "ok"}}}, nil
		},
	}
}

// Serving over stdio: the embedder prints its status line on standard
// error; standard output carries only JSON-RPC.
func ExampleServer_ServeStdio() {
	s := mcp.NewServer(mcp.Implementation{Name: "app", Version: "1.0"}, &mcp.ServerOptions{Catalog: exampleCatalog()})
	fmt.Fprintln(os.Stderr, "[app] MCP server ready on stdio")
	if err := s.ServeStdio(context.Background(), os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
	}
}

// Serving over HTTP with oklog/run: the endpoint, an extra REST route
// behind the same guards, the session reaper, and a producer of resource
// updates.
func ExampleNewHTTPHandler() {
	s := mcp.NewServer(mcp.Implementation{Name: "app", Version: "1.0"}, &mcp.ServerOptions{Catalog: exampleCatalog()})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	guards := mcp.Guards{APIKey: os.Getenv("APP_API_KEY"), Addr: ln.Addr().String()}
	if guards.Exposed() {
		fmt.Fprintln(os.Stderr, "warning: serving on a wildcard address without an API key")
	}
	h := mcp.NewHTTPHandler(s, &mcp.HTTPOptions{Guards: guards})
	h.Handle("GET /api/status", http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprintln(w, `{"text":"ok"}`)
	}))
	srv := mcp.NewHTTPServer(h, mcp.HTTPLimits{})
	fmt.Fprintf(os.Stderr, "[app] MCP server on http://%s/mcp\n", ln.Addr())

	ctx, cancel := context.WithCancel(context.Background())
	var g run.Group
	g.Add(func() error {
		if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	}, func(error) {
		s.Close() // end listen and GET streams so Shutdown can finish
		_ = srv.Shutdown(context.Background())
	})
	g.Add(func() error { return h.RunReaper(ctx) }, func(error) { cancel() })
	g.Add(func() error { // e.g. a file watcher
		t := time.NewTicker(time.Minute)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return nil
			case <-t.C:
				s.NotifyResourceUpdated("app://status")
			}
		}
	}, func(error) { cancel() })
	g.Add(run.SignalHandler(ctx, os.Interrupt, syscall.SIGTERM))
	_ = g.Run()
}
