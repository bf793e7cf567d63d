package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"
)

func newHTTPTest(t *testing.T, opts *HTTPOptions) (*Server, *HTTPHandler, *httptest.Server) {
	t.Helper()
	s := newTestServer(t, nil)
	if opts == nil {
		opts = &HTTPOptions{}
	}
	h := NewHTTPHandler(s, opts)
	ts := httptest.NewServer(h)
	t.Cleanup(func() { s.Close(); ts.Close() })
	return s, h, ts
}

// do sends one request and decodes a JSON body when there is one.
func do(t *testing.T, method, url string, hdr map[string]string, body string) (*http.Response, reply) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var r reply
	if len(b) > 0 && strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatalf("body %q: %v", b, err)
		}
	}
	return resp, r
}

// mh returns the routing headers of a valid modern request.
func mh(method, name string) map[string]string {
	h := map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": method}
	if name != "" {
		h["Mcp-Name"] = name
	}
	return h
}

func with(h map[string]string, kv ...string) map[string]string {
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] == "" {
			delete(h, kv[i])
		} else {
			h[kv[i]] = kv[i+1]
		}
	}
	return h
}

func TestHTTPModern(t *testing.T) {
	_, _, ts := newHTTPTest(t, nil)
	url := ts.URL + "/mcp"
	noMeta := `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`
	v999 := `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"v999","io.modelcontextprotocol/clientCapabilities":{}}}}`
	tests := []struct {
		name       string
		hdr        map[string]string
		body       string
		wantStatus int
		wantCode   int // 0 = success
	}{
		{"discover", mh("server/discover", ""), modern(1, "server/discover", ""), 200, 0},
		{"tools/list", mh("tools/list", ""), modern(1, "tools/list", ""), 200, 0},
		{"session id ignored", with(mh("tools/list", ""), "Mcp-Session-Id", "stale"), modern(1, "tools/list", ""), 200, 0},
		{"missing version header", with(mh("tools/list", ""), "MCP-Protocol-Version", ""), modern(1, "tools/list", ""), 400, CodeHeaderMismatch},
		{"missing meta", mh("tools/list", ""), noMeta, 400, CodeInvalidParams},
		{"header differs from meta", with(mh("tools/list", ""), "MCP-Protocol-Version", "v999"), modern(1, "tools/list", ""), 400, CodeHeaderMismatch},
		{"unsupported version", with(mh("tools/list", ""), "MCP-Protocol-Version", "v999"), v999, 400, CodeUnsupportedProtocolVersion},
		// P8: a bogus version header on a legacy-shaped body is a version error.
		{"bogus version, legacy body", with(mh("tools/list", ""), "MCP-Protocol-Version", "1999-01-01"), noMeta, 400, CodeUnsupportedProtocolVersion},
		{"missing Mcp-Method", with(mh("tools/list", ""), "Mcp-Method", ""), modern(1, "tools/list", ""), 400, CodeHeaderMismatch},
		{"wrong Mcp-Method", mh("prompts/list", ""), modern(1, "tools/list", ""), 400, CodeHeaderMismatch},
		{"Mcp-Method is case-sensitive", mh("TOOLS/LIST", ""), modern(1, "tools/list", ""), 400, CodeHeaderMismatch},
		{"missing Mcp-Name", mh("tools/call", ""), modern(1, "tools/call", `"name":"echo","arguments":{"text":"a"}`), 400, CodeHeaderMismatch},
		{"wrong Mcp-Name", mh("tools/call", "other"), modern(1, "tools/call", `"name":"echo","arguments":{"text":"a"}`), 400, CodeHeaderMismatch},
		{"Mcp-Name with spaces", mh("tools/call", "  echo "), modern(1, "tools/call", `"name":"echo","arguments":{"text":"a"}`), 200, 0},
		{"Mcp-Name base64", mh("tools/call", "=?base64?ZWNobw==?="), modern(1, "tools/call", `"name":"echo","arguments":{"text":"a"}`), 200, 0},
		{"Mcp-Name bad base64", mh("tools/call", "=?base64?ZWNobw?="), modern(1, "tools/call", `"name":"echo","arguments":{"text":"a"}`), 400, CodeHeaderMismatch},
		{"resources/read name is the uri", mh("resources/read", "x://a"), modern(1, "resources/read", `"uri":"x://a"`), 200, 0},
		{"resource not found", mh("resources/read", "x://z"), modern(1, "resources/read", `"uri":"x://z"`), 400, CodeInvalidParams},
		{"prompts/get name", mh("prompts/get", "greet"), modern(1, "prompts/get", `"name":"greet","arguments":{"who":"a"}`), 200, 0},
		{"unknown method", mh("nope", ""), modern(1, "nope", ""), 404, CodeMethodNotFound},
		{"modern initialize", mh("initialize", ""), modern(1, "initialize", ""), 404, CodeMethodNotFound},
		{"modern ping", mh("ping", ""), modern(1, "ping", ""), 404, CodeMethodNotFound},
		{"unknown tool", mh("tools/call", "nope"), modern(1, "tools/call", `"name":"nope"`), 400, CodeInvalidParams},
		{"bad arguments are a tool error", mh("tools/call", "echo"), modern(1, "tools/call", `"name":"echo","arguments":{}`), 200, 0},
		{"arguments not an object", mh("tools/call", "echo"), modern(1, "tools/call", `"name":"echo","arguments":[1]`), 400, CodeInvalidParams},
		{"tool failure is a result", mh("tools/call", "fail"), modern(1, "tools/call", `"name":"fail"`), 200, 0},
		{"param header ok", with(mh("tools/call", "param"), "Mcp-Param-Region", "eu", "Mcp-Param-N", "3"), modern(1, "tools/call", `"name":"param","arguments":{"region":"eu","n":3}`), 200, 0},
		{"param header base64", with(mh("tools/call", "param"), "Mcp-Param-Region", "=?base64?ZXU=?="), modern(1, "tools/call", `"name":"param","arguments":{"region":"eu"}`), 200, 0},
		{"param header literal", with(mh("tools/call", "param"), "Mcp-Param-Region", "=?base64?ZXU="), modern(1, "tools/call", `"name":"param","arguments":{"region":"=?base64?ZXU="}`), 200, 0},
		{"param header missing", mh("tools/call", "param"), modern(1, "tools/call", `"name":"param","arguments":{"region":"eu"}`), 400, CodeHeaderMismatch},
		{"param header wrong", with(mh("tools/call", "param"), "Mcp-Param-Region", "us"), modern(1, "tools/call", `"name":"param","arguments":{"region":"eu"}`), 400, CodeHeaderMismatch},
		{"param header bad base64", with(mh("tools/call", "param"), "Mcp-Param-Region", "=?base64?ZX!!U=?="), modern(1, "tools/call", `"name":"param","arguments":{"region":"eu"}`), 400, CodeHeaderMismatch},
		{"param header numeric", with(mh("tools/call", "param"), "Mcp-Param-N", "3.0"), modern(1, "tools/call", `"name":"param","arguments":{"n":3}`), 200, 0},
		{"invalid json", mh("tools/list", ""), `{"jsonrpc":`, 400, CodeParseError},
		{"invalid request", mh("tools/list", ""), `{"jsonrpc":"2.0","id":1}`, 400, CodeInvalidRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, r := do(t, "POST", url, tt.hdr, tt.body)
			if resp.StatusCode != tt.wantStatus {
				t.Errorf("status = %d, want %d (body %+v)", resp.StatusCode, tt.wantStatus, r)
			}
			switch {
			case tt.wantCode == 0 && (r.Error != nil || r.Result == nil):
				t.Errorf("reply = %+v, want a result", r)
			case tt.wantCode != 0 && (r.Error == nil || r.Error.Code != tt.wantCode):
				t.Errorf("reply = %+v, want error %d", r, tt.wantCode)
			}
			if tt.wantCode != CodeParseError && tt.wantCode != CodeInvalidRequest && string(r.ID) != "1" {
				t.Errorf("reply id = %s, want 1", r.ID)
			}
		})
	}
}

func TestHTTPTransportRules(t *testing.T) {
	_, _, ts := newHTTPTest(t, nil)
	url := ts.URL + "/mcp"
	modernHdr := map[string]string{"MCP-Protocol-Version": "2026-07-28"}
	tests := []struct {
		name, method string
		hdr          map[string]string
		body         string
		want         int
	}{
		{"notification", "POST", mh("notifications/cancelled", ""), `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{` + testMeta + `}}`, 202},
		{"legacy notification", "POST", nil, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, 202},
		{"modern GET", "GET", modernHdr, "", 405},
		{"modern DELETE", "DELETE", modernHdr, "", 405},
		{"GET without session", "GET", nil, "", 400},
		{"GET unknown session", "GET", map[string]string{"Mcp-Session-Id": "nope"}, "", 404},
		{"DELETE without session", "DELETE", nil, "", 400},
		{"DELETE unknown session", "DELETE", map[string]string{"Mcp-Session-Id": "nope"}, "", 404},
		{"PUT", "PUT", nil, "", 405},
		{"other path", "GET", nil, "", 404},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u := url
			if tt.name == "other path" {
				u = ts.URL + "/elsewhere"
			}
			resp, _ := do(t, tt.method, u, tt.hdr, tt.body)
			if resp.StatusCode != tt.want {
				t.Errorf("%s = %d, want %d", tt.method, resp.StatusCode, tt.want)
			}
			if tt.want == 202 && resp.ContentLength > 0 {
				t.Errorf("202 carries a body")
			}
		})
	}
}

func TestHTTPBodyCap(t *testing.T) {
	s := newTestServer(t, func(o *ServerOptions) { o.MaxMessageBytes = 100 })
	ts := httptest.NewServer(NewHTTPHandler(s, nil))
	defer ts.Close()
	resp, r := do(t, "POST", ts.URL+"/mcp", mh("tools/list", ""), modern(1, "tools/list", `"x":"`+strings.Repeat("a", 200)+`"`))
	if resp.StatusCode != http.StatusRequestEntityTooLarge || r.Error == nil {
		t.Errorf("oversized body = %d %+v, want 413 with a JSON-RPC error", resp.StatusCode, r)
	}
}

func TestHTTPLegacySessions(t *testing.T) {
	_, h, ts := newHTTPTest(t, nil)
	url := ts.URL + "/mcp"
	resp, r := do(t, "POST", url, nil, initLine)
	sid := resp.Header.Get("Mcp-Session-Id")
	if !regexp.MustCompile(`^[0-9a-f]{32}$`).MatchString(sid) || r.Result["protocolVersion"] != "2025-11-25" {
		t.Fatalf("initialize: session %q, result %+v", sid, r.Result)
	}
	if caps := r.Result["capabilities"].(map[string]any); caps["resources"].(map[string]any)["subscribe"] != true {
		t.Errorf("legacy HTTP does not advertise subscribe: %v", caps)
	}
	hdr := map[string]string{"Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-11-25"}
	if resp, _ := do(t, "POST", url, hdr, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); resp.StatusCode != 202 {
		t.Errorf("initialized = %d", resp.StatusCode)
	}
	if resp, r := do(t, "POST", url, hdr, legacy(2, "resources/subscribe", `"uri":"x://a"`)); resp.StatusCode != 200 || r.Error != nil {
		t.Errorf("subscribe = %d %+v", resp.StatusCode, r)
	}
	if resp, r := do(t, "POST", url, hdr, legacy(3, "resources/read", `"uri":"x://z"`)); resp.StatusCode != 200 || r.Error.Code != CodeResourceNotFound {
		t.Errorf("legacy unknown resource = %d %+v, want 200 with -32002", resp.StatusCode, r)
	}
	if resp, _ := do(t, "POST", url, map[string]string{"Mcp-Session-Id": "feedface"}, legacy(4, "tools/list", "")); resp.StatusCode != 404 {
		t.Errorf("unknown session = %d, want 404", resp.StatusCode)
	}
	if resp, r := do(t, "POST", url, nil, legacy(5, "tools/list", "")); resp.StatusCode != 200 || r.Result == nil {
		t.Errorf("no session = %d %+v, want tolerated", resp.StatusCode, r)
	}
	if resp, r := do(t, "POST", url, nil, legacy(6, "resources/subscribe", `"uri":"x://a"`)); r.Error == nil {
		t.Errorf("subscribe without session = %d %+v, want an error", resp.StatusCode, r)
	}
	if resp, _ := do(t, "DELETE", url, hdr, ""); resp.StatusCode != 204 {
		t.Errorf("DELETE = %d, want 204", resp.StatusCode)
	}
	if resp, _ := do(t, "POST", url, hdr, legacy(7, "tools/list", "")); resp.StatusCode != 404 {
		t.Errorf("after DELETE = %d, want 404", resp.StatusCode)
	}
	if resp, _ := do(t, "DELETE", url, hdr, ""); resp.StatusCode != 404 {
		t.Errorf("second DELETE = %d, want 404", resp.StatusCode)
	}
	h.mu.Lock()
	n := len(h.sessions)
	h.mu.Unlock()
	if n != 0 {
		t.Errorf("%d sessions left", n)
	}
}

// sseReader reads "data:" payloads and comments from an event stream.
type sseReader struct{ sc *bufio.Scanner }

func (r sseReader) next(t *testing.T) string {
	t.Helper()
	for r.sc.Scan() {
		l := r.sc.Text()
		if strings.HasPrefix(l, "data: ") {
			return strings.TrimPrefix(l, "data: ")
		}
		if strings.HasPrefix(l, ":") {
			return l
		}
	}
	t.Fatalf("stream ended: %v", r.sc.Err())
	return ""
}

func openStream(t *testing.T, ctx context.Context, method, url string, hdr map[string]string, body string) (*http.Response, sseReader) {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, method, url, strings.NewReader(body))
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type = %q (status %d)", ct, resp.StatusCode)
	}
	return resp, sseReader{bufio.NewScanner(resp.Body)}
}

func TestHTTPLegacyGETStream(t *testing.T) {
	s, _, ts := newHTTPTest(t, &HTTPOptions{Heartbeat: 50 * time.Millisecond})
	url := ts.URL + "/mcp"
	resp, _ := do(t, "POST", url, nil, initLine)
	hdr := map[string]string{"Mcp-Session-Id": resp.Header.Get("Mcp-Session-Id")}
	do(t, "POST", url, hdr, legacy(2, "resources/subscribe", `"uri":"x://a"`))
	_, sse := openStream(t, t.Context(), "GET", url, hdr, "")
	if c := sse.next(t); !strings.HasPrefix(c, ":") {
		t.Fatalf("first event = %q, want a keep-alive comment", c)
	}
	s.NotifyResourceUpdated("x://other")
	s.NotifyResourceUpdated("x://a")
	for {
		ev := sse.next(t)
		if strings.HasPrefix(ev, ":") {
			continue // heartbeat
		}
		if !strings.Contains(ev, `"method":"notifications/resources/updated"`) || !strings.Contains(ev, `"uri":"x://a"`) {
			t.Fatalf("event = %s", ev)
		}
		break
	}
	s.NotifyListChanged(ToolList)
	for {
		if ev := sse.next(t); strings.Contains(ev, "tools/list_changed") {
			break
		}
	}
}

func TestHTTPListen(t *testing.T) {
	s, _, ts := newHTTPTest(t, &HTTPOptions{Heartbeat: time.Hour})
	ctx, cancel := context.WithCancel(t.Context())
	_, sse := openStream(t, ctx, "POST", ts.URL+"/mcp", mh("subscriptions/listen", ""),
		`{"jsonrpc":"2.0","id":"L1","method":"subscriptions/listen","params":{`+testMeta+`,"notifications":{"resourceSubscriptions":["x://a"],"promptsListChanged":true}}}`)
	ack := sse.next(t)
	if !strings.Contains(ack, `"method":"notifications/subscriptions/acknowledged"`) || !strings.Contains(ack, `"io.modelcontextprotocol/subscriptionId":"L1"`) {
		t.Fatalf("ack = %s", ack)
	}
	s.NotifyListChanged(ToolList) // not requested
	s.NotifyResourceUpdated("x://a")
	if ev := sse.next(t); !strings.Contains(ev, "resources/updated") || !strings.Contains(ev, `subscriptionId":"L1"`) {
		t.Fatalf("event = %s", ev)
	}
	cancel() // closing the stream cancels the subscription
	waitNoListeners(t, s)
}

func TestHTTPProgressUpgradesToSSE(t *testing.T) {
	s := newTestServer(t, func(o *ServerOptions) {
		o.Catalog.CallTool = func(_ context.Context, req *CallToolRequest) (*CallToolResult, error) {
			req.Caller.Progress(1, 1, "")
			return &CallToolResult{Content: []Content{TextContent("done")}}, nil
		}
	})
	ts := httptest.NewServer(NewHTTPHandler(s, nil))
	defer ts.Close()
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"a"},"_meta":{"progressToken":5,"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
	_, sse := openStream(t, t.Context(), "POST", ts.URL+"/mcp", mh("tools/call", "echo"), body)
	if ev := sse.next(t); !strings.Contains(ev, "notifications/progress") {
		t.Fatalf("first event = %s", ev)
	}
	if ev := sse.next(t); !strings.Contains(ev, `"id":1`) || !strings.Contains(ev, "done") {
		t.Fatalf("second event = %s", ev)
	}
}

func TestReaper(t *testing.T) {
	_, h, ts := newHTTPTest(t, &HTTPOptions{SessionIdle: time.Hour})
	resp, _ := do(t, "POST", ts.URL+"/mcp", nil, initLine)
	sid := resp.Header.Get("Mcp-Session-Id")
	h.reap(time.Now().Add(30 * time.Minute))
	if h.session(sid) == nil {
		t.Fatal("session reaped before its idle timeout")
	}
	h.reap(time.Now().Add(61 * time.Minute))
	if h.session(sid) != nil {
		t.Fatal("idle session not reaped")
	}
	if resp, _ := do(t, "POST", ts.URL+"/mcp", map[string]string{"Mcp-Session-Id": sid}, legacy(1, "ping", "")); resp.StatusCode != 404 {
		t.Errorf("expired session = %d, want 404", resp.StatusCode)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- h.RunReaper(ctx) }()
	cancel()
	if err := <-done; err != nil {
		t.Errorf("RunReaper = %v, want nil", err)
	}
}

func TestHTTPPanicIsInternalError(t *testing.T) {
	_, _, ts := newHTTPTest(t, nil)
	resp, r := do(t, "POST", ts.URL+"/mcp", mh("tools/call", "boom"), modern(1, "tools/call", `"name":"boom"`))
	if resp.StatusCode != 500 || r.Error == nil || r.Error.Code != CodeInternalError {
		t.Errorf("panic = %d %+v", resp.StatusCode, r)
	}
	if resp, _ := do(t, "POST", ts.URL+"/mcp", mh("tools/list", ""), modern(2, "tools/list", "")); resp.StatusCode != 200 {
		t.Errorf("server unusable after a panic: %d", resp.StatusCode)
	}
}

func TestHTTPExtraRoutes(t *testing.T) {
	s := newTestServer(t, nil)
	h := NewHTTPHandler(s, &HTTPOptions{Guards: Guards{APIKey: "k"}})
	h.Handle("GET /api/stats", http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, `{"text":"ok"}`)
	}))
	ts := httptest.NewServer(h)
	defer ts.Close()
	if resp, _ := do(t, "GET", ts.URL+"/api/stats", nil, ""); resp.StatusCode != 401 {
		t.Errorf("unauthenticated /api = %d, want 401", resp.StatusCode)
	}
	if resp, _ := do(t, "GET", ts.URL+"/api/stats", map[string]string{"X-API-Key": "k"}, ""); resp.StatusCode != 200 {
		t.Errorf("authenticated /api = %d, want 200", resp.StatusCode)
	}
}
