package mcp_test

import (
	"context"
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/synaptic-graph/synaptic/mcp"
	"github.com/synaptic-graph/synaptic/mcp/conformance"
)

// The Go SDK (v1.8.0) is a real dual-era client: by default it speaks
// 2026-07-28 via server/discover, and ProtocolVersion "2025-11-25" pins the
// legacy initialize handshake. These tests drive the fixture catalog with
// it over HTTP and over stdio, in both eras.

type transportFunc func(t *testing.T, fx *conformance.Fixture) sdk.Transport

func httpTransport(t *testing.T, fx *conformance.Fixture) sdk.Transport {
	ts := httptest.NewServer(mcp.NewHTTPHandler(fx.Server, &mcp.HTTPOptions{Heartbeat: 100 * time.Millisecond}))
	t.Cleanup(func() { fx.Server.Close(); ts.Close() })
	return &sdk.StreamableClientTransport{Endpoint: ts.URL + "/mcp", MaxRetries: -1}
}

// stdioTransport connects the client to ServeStdio through two pipes.
func stdioTransport(t *testing.T, fx *conformance.Fixture) sdk.Transport {
	toServerR, toServerW := io.Pipe()
	toClientR, toClientW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- fx.Server.ServeStdio(context.Background(), toServerR, toClientW)
		toClientW.Close()
	}()
	t.Cleanup(func() {
		toServerW.Close()
		if err := <-done; err != nil {
			t.Errorf("ServeStdio = %v", err)
		}
	})
	return &sdk.IOTransport{Reader: toClientR, Writer: toServerW}
}

var (
	transports = map[string]transportFunc{"http": httpTransport, "stdio": stdioTransport}
	eras       = map[string]string{"modern": "", "legacy": "2025-11-25"}
)

func connect(t *testing.T, tr sdk.Transport, version string, opts *sdk.ClientOptions) *sdk.ClientSession {
	t.Helper()
	if opts == nil {
		opts = &sdk.ClientOptions{}
	}
	opts.CreateMessageHandler = func(_ context.Context, req *sdk.CreateMessageRequest) (*sdk.CreateMessageResult, error) {
		return &sdk.CreateMessageResult{Role: "assistant", Model: "test", Content: &sdk.TextContent{Text: "Paris"}}, nil
	}
	c := sdk.NewClient(&sdk.Implementation{Name: "sdk-test", Version: "0"}, opts)
	cs, err := c.Connect(t.Context(), tr, &sdk.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func textOf(t *testing.T, res *sdk.CallToolResult) string {
	t.Helper()
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func TestSDKClient(t *testing.T) {
	for tname, tf := range transports {
		for era, version := range eras {
			t.Run(tname+"/"+era, func(t *testing.T) {
				fx := conformance.New()
				cs := connect(t, tf(t, fx), version, nil)
				ctx := t.Context()

				want := "2026-07-28"
				if version != "" {
					want = version
				}
				if got := cs.InitializeResult().ProtocolVersion; got != want {
					t.Errorf("negotiated %q, want %q", got, want)
				}
				if got := cs.InitializeResult().Instructions; got == "" {
					t.Errorf("no instructions")
				}

				tools, err := cs.ListTools(ctx, nil)
				if err != nil || len(tools.Tools) < 20 || tools.Tools[0].Name != "test_simple_text" {
					t.Fatalf("ListTools = %d tools, %v", len(tools.Tools), err)
				}

				res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "test_simple_text", Arguments: map[string]any{}})
				if err != nil || textOf(t, res) != "This is a simple text response for testing." {
					t.Errorf("CallTool = %v, %v", res, err)
				}
				res, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "test_error_handling", Arguments: map[string]any{}})
				if err != nil || !res.IsError {
					t.Errorf("failing tool = %+v, %v; want an isError result", res, err)
				}
				if _, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "no_such_tool", Arguments: map[string]any{}}); err == nil || !strings.Contains(err.Error(), "unknown tool") {
					t.Errorf("unknown tool err = %v", err)
				}
				if res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "test_sampling", Arguments: map[string]any{"prompt": 3}}); err != nil || !res.IsError || !strings.Contains(textOf(t, res), "expected string") {
					t.Errorf("bad arguments = %+v, %v; want an isError result naming the problem", res, err)
				}

				rr, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: "test://static-text"})
				if err != nil || rr.Contents[0].Text != "This is the content of the static text resource." {
					t.Errorf("ReadResource = %+v, %v", rr, err)
				}
				if rr, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: "test://template/42/data"}); err != nil || !strings.Contains(rr.Contents[0].Text, `"id":"42"`) {
					t.Errorf("templated ReadResource = %+v, %v", rr, err)
				}
				if rr, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: "test://static-binary"}); err != nil || len(rr.Contents[0].Blob) == 0 {
					t.Errorf("binary ReadResource = %+v, %v", rr, err)
				}
				if _, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: "test://missing"}); err == nil {
					t.Errorf("unknown resource: no error")
				}

				pr, err := cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: "test_prompt_with_arguments", Arguments: map[string]string{"arg1": "hello", "arg2": "world"}})
				if err != nil || pr.Messages[0].Content.(*sdk.TextContent).Text != "Prompt with arguments: arg1='hello', arg2='world'" {
					t.Errorf("GetPrompt = %+v, %v", pr, err)
				}
				if _, err := cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: "nope"}); err == nil {
					t.Errorf("unknown prompt: no error")
				}

				comp, err := cs.Complete(ctx, &sdk.CompleteParams{
					Ref:      &sdk.CompleteReference{Type: "ref/prompt", Name: "test_prompt_with_arguments"},
					Argument: sdk.CompleteParamsArgument{Name: "arg1", Value: "he"},
				})
				if err != nil || len(comp.Completion.Values) != 2 {
					t.Errorf("Complete = %+v, %v", comp, err)
				}

				// Sampling: a server-to-client request in the legacy era, an
				// input_required round trip (handled by the SDK) in 2026-07-28.
				tool := "test_input_required_result_sampling"
				if version != "" {
					tool = "test_sampling"
				}
				res, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: map[string]any{"prompt": "capital?"}})
				if err != nil || !strings.Contains(textOf(t, res), "Paris") {
					t.Errorf("%s = %+v, %v", tool, res, err)
				}
			})
		}
	}
}

func TestSDKModernListChanged(t *testing.T) {
	for tname, tf := range transports {
		t.Run(tname, func(t *testing.T) {
			fx := conformance.New()
			changed := make(chan struct{}, 1)
			cs := connect(t, tf(t, fx), "", &sdk.ClientOptions{
				ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) {
					select {
					case changed <- struct{}{}:
					default:
					}
				},
			})
			// The client opens subscriptions/listen in the background; retry
			// the trigger until the notification arrives.
			deadline := time.After(5 * time.Second)
			for {
				if _, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "test_trigger_tool_change", Arguments: map[string]any{}}); err != nil {
					t.Fatal(err)
				}
				select {
				case <-changed:
					return
				case <-time.After(100 * time.Millisecond):
				case <-deadline:
					t.Fatal("no tools/list_changed notification on the listen stream")
				}
			}
		})
	}
}

func TestSDKLegacyResourceSubscription(t *testing.T) {
	fx := conformance.New()
	updated := make(chan string, 1)
	cs := connect(t, httpTransport(t, fx), "2025-11-25", &sdk.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, req *sdk.ResourceUpdatedNotificationRequest) {
			select {
			case updated <- req.Params.URI:
			default:
			}
		},
	})
	if err := cs.Subscribe(t.Context(), &sdk.SubscribeParams{URI: conformance.WatchedURI}); err != nil {
		t.Fatal(err)
	}
	deadline := time.After(5 * time.Second)
	for {
		fx.Server.NotifyResourceUpdated(conformance.WatchedURI) // until the GET stream is up
		select {
		case uri := <-updated:
			if uri != conformance.WatchedURI {
				t.Errorf("updated %q", uri)
			}
			return
		case <-time.After(100 * time.Millisecond):
		case <-deadline:
			t.Fatal("no resources/updated notification on the GET stream")
		}
	}
}
