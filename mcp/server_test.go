package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"
)

// testCatalog is a small catalog exercising every feature.
func testCatalog() Catalog {
	return Catalog{
		Tools: func(context.Context) []Tool {
			return []Tool{
				{Name: "echo", Description: "echoes text", InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"},"n":{"type":"integer","minimum":1,"maximum":5}},"required":["text"],"additionalProperties":false}`)},
				{Name: "fail", Description: "always fails"},
				{Name: "boom", Description: "panics"},
				{Name: "slow", Description: "waits for cancellation or 2s"},
				{Name: "ask", Description: "needs input"},
				{Name: "structured", Description: "structured output", OutputSchema: json.RawMessage(`{"type":"object"}`)},
				{Name: "param", Description: "mirrors arguments into headers", InputSchema: json.RawMessage(`{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"},"n":{"type":"integer","x-mcp-header":"N"}}}`)},
			}
		},
		CallTool: func(ctx context.Context, req *CallToolRequest) (*CallToolResult, error) {
			switch req.Name {
			case "echo":
				var a struct{ Text string }
				_ = json.Unmarshal(req.Arguments, &a)
				return &CallToolResult{Content: []Content{TextContent(a.Text)}}, nil
			case "fail":
				return nil, errors.New("it broke")
			case "boom":
				panic("kaboom")
			case "slow":
				select {
				case <-ctx.Done():
					return nil, ctx.Err()
				case <-time.After(2 * time.Second):
					return &CallToolResult{Content: []Content{TextContent("slept")}}, nil
				}
			case "ask":
				if req.RequestState == "s1" {
					return &CallToolResult{Content: []Content{TextContent("got " + string(req.InputResponses["q"]))}}, nil
				}
				return &CallToolResult{InputRequired: InputRequired{InputRequests: map[string]InputRequest{"q": {Method: "roots/list"}}, RequestState: "s1"}}, nil
			case "param":
				return &CallToolResult{Content: []Content{TextContent("ok")}}, nil
			case "structured":
				return &CallToolResult{Content: []Content{TextContent(`{"a":1}`)}, StructuredContent: map[string]int{"a": 1}}, nil
			}
			return nil, errors.New("unreachable")
		},
		Resources: func(context.Context) []Resource {
			return []Resource{{URI: "x://a", Name: "a"}, {URI: "x://b", Name: "b"}, {URI: "x://c", Name: "c"}}
		},
		ResourceTemplates: func(context.Context) []ResourceTemplate {
			return []ResourceTemplate{{URITemplate: "x://t/{id}", Name: "t"}}
		},
		ReadResource: func(_ context.Context, req *ReadResourceRequest) (*ReadResourceResult, error) {
			if req.URI == "x://a" || strings.HasPrefix(req.URI, "x://t/") {
				return &ReadResourceResult{Contents: []ResourceContents{{URI: req.URI, MIMEType: "text/plain", Text: "A"}}}, nil
			}
			return nil, fmt.Errorf("%w: %s", ErrResourceNotFound, req.URI)
		},
		Prompts: func(context.Context) []Prompt {
			return []Prompt{{Name: "greet", Description: "greets", Arguments: []PromptArgument{{Name: "who", Required: true}}}}
		},
		GetPrompt: func(_ context.Context, req *GetPromptRequest) (*GetPromptResult, error) {
			return &GetPromptResult{Messages: []PromptMessage{{Role: "user", Content: TextContent("hi " + req.Arguments["who"])}}}, nil
		},
		Complete: func(_ context.Context, req *CompleteRequest) (*CompleteResult, error) {
			vals := make([]string, 150)
			for i := range vals {
				vals[i] = fmt.Sprintf("%s%d", req.Argument.Value, i)
			}
			return &CompleteResult{Values: vals}, nil
		},
	}
}

func newTestServer(t *testing.T, mutate func(*ServerOptions)) *Server {
	t.Helper()
	opts := &ServerOptions{Catalog: testCatalog(), Instructions: "use it", PageSize: 2, Logger: log.New(io.Discard, "", 0)}
	if mutate != nil {
		mutate(opts)
	}
	return NewServer(Implementation{Name: "test", Version: "1.0"}, opts)
}

const testMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"}}`

// modern builds a 2026-07-28 request line.
func modern(id int, method, params string) string {
	if params != "" {
		params = "," + params
	}
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":{%s%s}}`, id, method, testMeta, params)
}

// legacy builds a legacy request line.
func legacy(id int, method, params string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":{%s}}`, id, method, params)
}

const initLine = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

type reply struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params map[string]any  `json:"params"`
	Result map[string]any  `json:"result"`
	Error  *struct {
		Code    int            `json:"code"`
		Message string         `json:"message"`
		Data    map[string]any `json:"data"`
	} `json:"error"`
}

// serveLines feeds lines to a stdio server, reads to EOF and returns every
// output message, checking that each output line is one JSON object.
func serveLines(t *testing.T, s *Server, lines ...string) []reply {
	t.Helper()
	var out bytes.Buffer
	in := strings.NewReader(strings.Join(lines, "\n") + "\n")
	if err := s.ServeStdio(t.Context(), in, &out); err != nil {
		t.Fatalf("ServeStdio = %v", err)
	}
	var rs []reply
	for _, l := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
		if l == "" {
			continue
		}
		var r reply
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("stdout line is not JSON: %q", l)
		}
		rs = append(rs, r)
	}
	return rs
}

func byID(rs []reply, id string) *reply {
	for i := range rs {
		if string(rs[i].ID) == id {
			return &rs[i]
		}
	}
	return nil
}

// one serves a single line and returns the single reply.
func one(t *testing.T, s *Server, lines ...string) reply {
	t.Helper()
	rs := serveLines(t, s, lines...)
	last := rs[len(rs)-1]
	return last
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name     string
		lines    []string
		wantCode int
		wantMsg  string
		wantData string // a key that must be in error.data
	}{
		{"modern missing meta", []string{`{"jsonrpc":"2.0","id":1,"method":"server/discover"}`}, CodeInvalidParams, "_meta", ""},
		{"modern missing version", []string{`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{}}}}`}, CodeInvalidParams, "protocolVersion", ""},
		{"modern missing capabilities", []string{`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`}, CodeInvalidParams, "clientCapabilities", ""},
		{"modern bad clientInfo", []string{`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":1}}}}`}, CodeInvalidParams, "clientInfo", ""},
		{"modern bad log level", []string{`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":"loud"}}}`}, CodeInvalidParams, "logLevel", ""},
		{"modern unknown version", []string{`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2099-01-01","io.modelcontextprotocol/clientCapabilities":{}}}}`}, CodeUnsupportedProtocolVersion, "2099-01-01", "supported"},
		{"modern initialize", []string{modern(1, "initialize", `"protocolVersion":"2025-11-25"`)}, CodeMethodNotFound, "initialize", ""},
		{"modern ping", []string{modern(1, "ping", "")}, CodeMethodNotFound, "", ""},
		{"modern setLevel", []string{modern(1, "logging/setLevel", `"level":"info"`)}, CodeMethodNotFound, "", ""},
		{"modern subscribe", []string{modern(1, "resources/subscribe", `"uri":"x://a"`)}, CodeMethodNotFound, "", ""},
		{"modern unknown method", []string{modern(1, "nope/nope", "")}, CodeMethodNotFound, "nope", ""},
		{"legacy unknown method", []string{initLine, legacy(1, "nope/nope", "")}, CodeMethodNotFound, "", ""},
		{"legacy discover", []string{initLine, legacy(1, "server/discover", "")}, CodeInvalidParams, "", ""},
		{"unknown tool", []string{modern(1, "tools/call", `"name":"nope"`)}, CodeInvalidParams, `unknown tool "nope"`, ""},
		{"unknown tool legacy", []string{initLine, legacy(1, "tools/call", `"name":"nope"`)}, CodeInvalidParams, "unknown tool", ""},
		{"missing tool name", []string{modern(1, "tools/call", "")}, CodeInvalidParams, "missing tool name", ""},
		{"args not object", []string{modern(1, "tools/call", `"name":"echo","arguments":[1]`)}, CodeInvalidParams, "must be a JSON object", ""},
		{"panicking tool", []string{modern(1, "tools/call", `"name":"boom"`)}, CodeInternalError, "internal error", ""},
		{"unknown resource modern", []string{modern(1, "resources/read", `"uri":"x://zzz"`)}, CodeInvalidParams, "resource not found", "uri"},
		{"unknown resource legacy", []string{initLine, legacy(1, "resources/read", `"uri":"x://zzz"`)}, CodeResourceNotFound, "resource not found", "uri"},
		{"unknown prompt", []string{modern(1, "prompts/get", `"name":"nope"`)}, CodeInvalidParams, "unknown prompt", ""},
		{"missing prompt arg", []string{modern(1, "prompts/get", `"name":"greet"`)}, CodeInvalidParams, `missing required argument "who"`, ""},
		{"non-string prompt arg", []string{modern(1, "prompts/get", `"name":"greet","arguments":{"who":1}`)}, CodeInvalidParams, "must be a string", ""},
		{"bad cursor", []string{modern(1, "tools/list", `"cursor":"!!"`)}, CodeInvalidParams, "invalid cursor", ""},
		{"bad setLevel", []string{initLine, legacy(1, "logging/setLevel", `"level":"loud"`)}, CodeInvalidParams, "log level", ""},
		{"bad completion ref", []string{modern(1, "completion/complete", `"ref":{"type":"x"},"argument":{"name":"a","value":""}`)}, CodeInvalidParams, "ref.type", ""},
		{"tampered state", []string{modern(1, "tools/call", `"name":"ask","requestState":"abc.def"`)}, CodeInvalidParams, "requestState", ""},
		{"input required in legacy", []string{initLine, legacy(1, "tools/call", `"name":"ask"`)}, CodeInternalError, "2026-07-28", ""},
		{"legacy stdio subscribe", []string{initLine, legacy(1, "resources/subscribe", `"uri":"x://a"`)}, CodeMethodNotFound, "", ""},
		// W5: a message reads one way only; what a case-insensitive,
		// last-wins parser would see differently is refused.
		{"case variant method", []string{`{"jsonrpc":"2.0","id":1,"method":"tools/list","Method":"tools/call","params":{"name":"echo","arguments":{"text":"x"}}}`}, CodeInvalidRequest, `duplicate member "Method"`, ""},
		{"duplicate method", []string{`{"jsonrpc":"2.0","id":1,"method":"tools/list","method":"tools/call"}`}, CodeInvalidRequest, `duplicate member "method"`, ""},
		{"upper-case method", []string{`{"jsonrpc":"2.0","id":1,"METHOD":"tools/list"}`}, CodeInvalidRequest, `missing "method"`, ""},
		{"case variant tool name", []string{modern(1, "tools/call", `"name":"fail","Name":"echo"`)}, CodeInvalidRequest, `duplicate member "Name"`, ""},
		{"upper-case tool name", []string{modern(1, "tools/call", `"NAME":"echo"`)}, CodeInvalidParams, "missing tool name", ""},
		{"duplicate argument", []string{modern(1, "tools/call", `"name":"echo","arguments":{"text":"a","text":"b"}`)}, CodeInvalidRequest, `duplicate member "text" in "params.arguments"`, ""},
		{"case variant argument", []string{modern(1, "tools/call", `"name":"echo","arguments":{"text":"a","TEXT":"b"}`)}, CodeInvalidRequest, `duplicate member "TEXT"`, ""},
		{"deep nesting", []string{modern(1, "tools/call", `"name":"echo","arguments":{"text":`+strings.Repeat("[", 100000)+strings.Repeat("]", 100000)+`}`)}, CodeInvalidRequest, "nesting too deep (max 64", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := byID(serveLines(t, newTestServer(t, nil), tt.lines...), "1")
			if r == nil || r.Error == nil {
				t.Fatalf("reply = %+v, want error %d", r, tt.wantCode)
			}
			if r.Error.Code != tt.wantCode || !strings.Contains(r.Error.Message, tt.wantMsg) {
				t.Errorf("error = %d %q, want %d containing %q", r.Error.Code, r.Error.Message, tt.wantCode, tt.wantMsg)
			}
			if tt.wantData != "" && r.Error.Data[tt.wantData] == nil {
				t.Errorf("error.data = %v, want key %q", r.Error.Data, tt.wantData)
			}
		})
	}
}

// TestUnanswerableIDs covers requests whose id cannot be echoed: each
// still gets exactly one reply (with a null id), and every output line is
// valid UTF-8.
func TestUnanswerableIDs(t *testing.T) {
	tests := []struct {
		name, line string
		wantCode   int
		wantMsg    string
	}{
		{"null id", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, CodeInvalidRequest, "not null"},
		{"invalid utf-8 id", "{\"jsonrpc\":\"2.0\",\"id\":\"\xff\xfe\",\"method\":\"ping\"}", CodeParseError, "UTF-8"},
		{"duplicate id", `{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}`, CodeInvalidRequest, `duplicate member "id"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			s := newTestServer(t, nil)
			if err := s.ServeStdio(t.Context(), strings.NewReader(tt.line+"\n"), &out); err != nil {
				t.Fatal(err)
			}
			if !utf8.Valid(out.Bytes()) {
				t.Fatalf("output is not UTF-8: %q", out.Bytes())
			}
			rs := serveLines(t, newTestServer(t, nil), tt.line)
			if len(rs) != 1 || string(rs[0].ID) != "null" || rs[0].Error == nil {
				t.Fatalf("replies = %+v, want one error with id null", rs)
			}
			if e := rs[0].Error; e.Code != tt.wantCode || !strings.Contains(e.Message, tt.wantMsg) {
				t.Errorf("error = %d %q, want %d containing %q", e.Code, e.Message, tt.wantCode, tt.wantMsg)
			}
		})
	}
}

// TestHugeURIEchoedOnce: an unknown 3 MB URI comes back cut, once (P10).
func TestHugeURIEchoedOnce(t *testing.T) {
	uri := "x://" + strings.Repeat("a", 3<<20)
	var out bytes.Buffer
	line := modern(1, "resources/read", fmt.Sprintf(`"uri":%q`, uri))
	if err := newTestServer(t, nil).ServeStdio(t.Context(), strings.NewReader(line+"\n"), &out); err != nil {
		t.Fatal(err)
	}
	if out.Len() > 1024 {
		t.Fatalf("error reply is %d bytes, want under 1 KiB", out.Len())
	}
	var r reply
	if err := json.Unmarshal(out.Bytes(), &r); err != nil || r.Error == nil || r.Error.Code != CodeInvalidParams {
		t.Fatalf("reply = %s", out.Bytes())
	}
	if got, _ := r.Error.Data["uri"].(string); !strings.HasPrefix(uri, strings.TrimSuffix(got, "…")) || r.Error.Data["uriLength"] != float64(len(uri)) {
		t.Errorf("data = %v", r.Error.Data)
	}
}

func TestModernResults(t *testing.T) {
	s := newTestServer(t, func(o *ServerOptions) { o.CacheTTL = 1500 * time.Millisecond })
	rs := serveLines(t, s,
		modern(1, "server/discover", ""),
		modern(2, "tools/list", ""),
		modern(3, "resources/read", `"uri":"x://t/7"`),
		modern(4, "tools/call", `"name":"echo","arguments":{"text":"hi"}`),
		modern(5, "tools/call", `"name":"fail"`),
		modern(6, "completion/complete", `"ref":{"type":"ref/prompt","name":"greet"},"argument":{"name":"who","value":"v"}`),
		modern(7, "prompts/get", `"name":"greet","arguments":{"who":"bob"}`),
		modern(8, "resources/templates/list", ""),
	)
	for i := 1; i <= 8; i++ {
		r := byID(rs, fmt.Sprint(i))
		if r == nil || r.Error != nil {
			t.Fatalf("reply %d = %+v", i, r)
		}
		if r.Result["resultType"] != "complete" {
			t.Errorf("reply %d resultType = %v", i, r.Result["resultType"])
		}
		meta, _ := r.Result["_meta"].(map[string]any)
		if si, _ := meta[metaServerInfo].(map[string]any); si["name"] != "test" {
			t.Errorf("reply %d _meta serverInfo = %v", i, meta)
		}
		_, hasTTL := r.Result["ttlMs"]
		wantTTL := i == 1 || i == 2 || i == 3 || i == 8
		if hasTTL != wantTTL || (wantTTL && (r.Result["ttlMs"] != 1500.0 || r.Result["cacheScope"] != "public")) {
			t.Errorf("reply %d ttlMs/cacheScope = %v/%v, want present=%v", i, r.Result["ttlMs"], r.Result["cacheScope"], wantTTL)
		}
	}
	d := byID(rs, "1").Result
	if d["instructions"] != "use it" || len(d["supportedVersions"].([]any)) != 5 {
		t.Errorf("discover = %v", d)
	}
	caps := d["capabilities"].(map[string]any)
	for _, k := range []string{"tools", "resources", "prompts", "completions"} {
		if caps[k] == nil {
			t.Errorf("discover capabilities lack %s: %v", k, caps)
		}
	}
	if caps["logging"] != nil {
		t.Errorf("modern discover advertises logging")
	}
	if r := byID(rs, "5").Result; r["isError"] != true || !strings.Contains(fmt.Sprint(r["content"]), "it broke") {
		t.Errorf("failing tool = %v, want isError result", r)
	}
	comp := byID(rs, "6").Result["completion"].(map[string]any)
	if len(comp["values"].([]any)) != 100 || comp["hasMore"] != true || comp["total"] != 150.0 {
		t.Errorf("completion = values %d hasMore %v total %v", len(comp["values"].([]any)), comp["hasMore"], comp["total"])
	}
}

func TestPagination(t *testing.T) {
	s := newTestServer(t, nil) // PageSize 2
	r1 := one(t, s, modern(1, "resources/list", ""))
	if n := len(r1.Result["resources"].([]any)); n != 2 {
		t.Fatalf("page 1 has %d items, want 2", n)
	}
	cur, _ := r1.Result["nextCursor"].(string)
	if cur == "" {
		t.Fatal("no nextCursor")
	}
	r2 := one(t, s, modern(2, "resources/list", fmt.Sprintf(`"cursor":%q`, cur)))
	if n := len(r2.Result["resources"].([]any)); n != 1 || r2.Result["nextCursor"] != nil {
		t.Errorf("page 2 = %v", r2.Result)
	}
	if r2.Result["cacheScope"] != r1.Result["cacheScope"] {
		t.Errorf("cacheScope differs between pages")
	}
	r3 := byID(serveLines(t, s, initLine, legacy(3, "resources/list", `"cursor":""`)), "3") // empty cursor = first page
	if n := len(r3.Result["resources"].([]any)); n != 2 {
		t.Errorf("empty cursor page has %d items", n)
	}
}

func TestLegacyHandshake(t *testing.T) {
	tests := []struct{ requested, want string }{
		{"2025-11-25", "2025-11-25"},
		{"2025-06-18", "2025-06-18"},
		{"2025-03-26", "2025-03-26"},
		{"2024-11-05", "2024-11-05"},
		{"2026-07-28", "2025-11-25"},
		{"1999-01-01", "2025-11-25"},
	}
	for _, tt := range tests {
		t.Run(tt.requested, func(t *testing.T) {
			s := newTestServer(t, nil)
			rs := serveLines(t, s,
				fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`, tt.requested),
				`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
				legacy(2, "ping", ""),
				legacy(3, "logging/setLevel", `"level":"info"`),
				legacy(4, "tools/call", `"name":"structured"`),
			)
			if len(rs) != 4 {
				t.Fatalf("got %d replies, want 4 (notification unanswered): %+v", len(rs), rs)
			}
			init := byID(rs, "1").Result
			if init["protocolVersion"] != tt.want {
				t.Errorf("negotiated %v, want %s", init["protocolVersion"], tt.want)
			}
			if init["serverInfo"].(map[string]any)["name"] != "test" || init["instructions"] != "use it" {
				t.Errorf("initialize result = %v", init)
			}
			caps := init["capabilities"].(map[string]any)
			if caps["logging"] == nil || caps["resources"].(map[string]any)["subscribe"] != nil {
				t.Errorf("legacy stdio capabilities = %v (want logging, no subscribe)", caps)
			}
			if _, ok := caps["completions"]; ok == (tt.want == Version20241105) {
				t.Errorf("completions advertised = %v at %s", ok, tt.want)
			}
			for _, id := range []string{"2", "3"} {
				if r := byID(rs, id); r.Error != nil || len(r.Result) != 0 {
					t.Errorf("reply %s = %+v, want {}", id, r)
				}
			}
			tool := byID(rs, "4").Result
			if _, ok := tool["resultType"]; ok {
				t.Errorf("legacy result carries resultType")
			}
			_, hasSC := tool["structuredContent"]
			if wantSC := tt.want == "2025-11-25" || tt.want == "2025-06-18"; hasSC != wantSC {
				t.Errorf("structuredContent present = %v at %s", hasSC, tt.want)
			}
		})
	}
}

func TestStdioFraming(t *testing.T) {
	s := newTestServer(t, nil)
	rs := serveLines(t, s,
		"", "   ", // blank lines are ignored
		`{"jsonrpc":"2.0","id":1,"method":`, // malformed
		`[]`,                                // batch
		`{"jsonrpc":"2.0","method":"notifications/whatever"}`,
		`{"jsonrpc":"2.0","id":9,"result":{}}`, // stray response
		modern(2, "tools/list", ""),
	)
	if len(rs) != 3 {
		t.Fatalf("got %d replies, want 3: %+v", len(rs), rs)
	}
	if rs[0].Error == nil || rs[0].Error.Code != CodeParseError || string(rs[0].ID) != "null" {
		t.Errorf("malformed line reply = %+v, want -32700 with null id", rs[0])
	}
	if rs[1].Error == nil || rs[1].Error.Code != CodeInvalidRequest {
		t.Errorf("batch reply = %+v, want -32600", rs[1])
	}
}

func TestStdioTooLong(t *testing.T) {
	s := newTestServer(t, func(o *ServerOptions) { o.MaxMessageBytes = 64 })
	rs := serveLines(t, s, modern(1, "tools/call", `"name":"echo","arguments":{"text":"`+strings.Repeat("x", 200)+`"}`), legacy(2, "ping", ""))
	if len(rs) != 2 || rs[0].Error == nil || rs[0].Error.Code != CodeInvalidRequest || byID(rs, "2") == nil {
		t.Fatalf("replies = %+v, want -32600 then the ping answer", rs)
	}
}

// pipeClient drives ServeStdio interactively.
type pipeClient struct {
	t    *testing.T
	in   *io.PipeWriter
	out  *bufio.Scanner
	done chan error
}

func startPipe(t *testing.T, s *Server) *pipeClient {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &pipeClient{t: t, in: inW, out: bufio.NewScanner(outR), done: make(chan error, 1)}
	go func() { c.done <- s.ServeStdio(context.Background(), inR, outW); outW.Close() }()
	t.Cleanup(func() { inW.Close() })
	return c
}

func (c *pipeClient) send(line string) {
	if _, err := io.WriteString(c.in, line+"\n"); err != nil {
		c.t.Fatal(err)
	}
}

func (c *pipeClient) recv() reply {
	c.t.Helper()
	if !c.out.Scan() {
		c.t.Fatalf("no output: %v", c.out.Err())
	}
	var r reply
	if err := json.Unmarshal(c.out.Bytes(), &r); err != nil {
		c.t.Fatalf("bad line %q", c.out.Bytes())
	}
	return r
}

func TestStdioConcurrentAndCancel(t *testing.T) {
	s := newTestServer(t, nil)
	c := startPipe(t, s)
	c.send(modern(1, "tools/call", `"name":"slow"`))
	c.send(modern(2, "tools/list", ""))
	if r := c.recv(); string(r.ID) != "2" { // answered while 1 is still running
		t.Fatalf("first reply id = %s, want 2", r.ID)
	}
	c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`)
	c.send(legacy(3, "ping", ""))
	if r := c.recv(); string(r.ID) != "3" {
		t.Fatalf("reply id = %s, want 3 (cancelled request 1 must stay unanswered)", r.ID)
	}
	c.in.Close()
	if err := <-c.done; err != nil {
		t.Fatalf("ServeStdio = %v", err)
	}
}

func TestStdioEOFWaitsForInFlight(t *testing.T) {
	s := newTestServer(t, func(o *ServerOptions) {
		inner := o.Catalog.CallTool
		o.Catalog.CallTool = func(ctx context.Context, req *CallToolRequest) (*CallToolResult, error) {
			if req.Name == "echo" {
				time.Sleep(100 * time.Millisecond)
			}
			return inner(ctx, req)
		}
	})
	r := one(t, s, modern(1, "tools/call", `"name":"echo","arguments":{"text":"late"}`))
	if r.Error != nil || !strings.Contains(fmt.Sprint(r.Result["content"]), "late") {
		t.Errorf("reply = %+v, want the late answer", r)
	}
}

func TestStdioListen(t *testing.T) {
	s := newTestServer(t, nil)
	c := startPipe(t, s)
	c.send(modern(7, "subscriptions/listen", `"notifications":{"toolsListChanged":true,"resourceSubscriptions":["x://a"]}`))
	ack := c.recv()
	if ack.Method != "notifications/subscriptions/acknowledged" {
		t.Fatalf("first message = %+v, want acknowledgement", ack)
	}
	if id := ack.Params["_meta"].(map[string]any)[metaSubscriptionID]; id != 7.0 {
		t.Errorf("ack subscriptionId = %v", id)
	}
	s.NotifyResourceUpdated("x://other") // not subscribed: filtered out
	s.NotifyResourceUpdated("x://a")
	s.NotifyListChanged(PromptList) // not asked for
	s.NotifyListChanged(ToolList)
	for _, want := range []string{"notifications/resources/updated", "notifications/tools/list_changed"} {
		n := c.recv()
		if n.Method != want || n.Params["_meta"].(map[string]any)[metaSubscriptionID] != 7.0 {
			t.Fatalf("got %+v, want %s tagged with subscription 7", n, want)
		}
	}
	c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}`)
	c.send(legacy(8, "ping", ""))
	if r := c.recv(); string(r.ID) != "8" {
		t.Fatalf("after cancel got %+v, want ping reply (no listen result)", r)
	}
	waitNoListeners(t, s)
}

// waitNoListeners waits for cancelled listen requests to unregister.
func waitNoListeners(t *testing.T, s *Server) {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		s.mu.Lock()
		n := len(s.listeners)
		s.mu.Unlock()
		if n == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d listeners left after cancel", n)
		}
	}
}

func TestListenServerClose(t *testing.T) {
	s := newTestServer(t, nil)
	c := startPipe(t, s)
	c.send(modern(7, "subscriptions/listen", `"notifications":{}`))
	c.recv() // ack
	s.Close()
	r := c.recv()
	if string(r.ID) != "7" || r.Result["resultType"] != "complete" || r.Result["_meta"].(map[string]any)[metaSubscriptionID] != 7.0 {
		t.Errorf("close result = %+v", r)
	}
}

func TestLegacyStdioNotifications(t *testing.T) {
	s := newTestServer(t, nil)
	c := startPipe(t, s)
	c.send(initLine)
	c.recv()
	s.NotifyListChanged(ToolList)
	if n := c.recv(); n.Method != "notifications/tools/list_changed" {
		t.Errorf("got %+v, want list_changed", n)
	}
}

func TestCallerFeatures(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	s := newTestServer(t, func(o *ServerOptions) {
		o.Catalog.CallTool = func(ctx context.Context, req *CallToolRequest) (*CallToolResult, error) {
			c := req.Caller
			c.Progress(1, 2, "half")
			c.Log("debug", "", "quiet")
			c.Log("error", "lg", "loud")
			mu.Lock()
			seen = append(seen, fmt.Sprintf("%v %v %s", c.Modern(), c.HasCapability("sampling"), c.ProtocolVersion))
			mu.Unlock()
			if c.Modern() {
				if _, err := c.Request(ctx, "roots/list", nil); !errors.Is(err, ErrNoClientRequests) {
					t.Errorf("modern Request err = %v", err)
				}
			}
			return &CallToolResult{}, nil
		}
	})
	rs := serveLines(t, s, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"a"},"_meta":{"progressToken":"p","io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"sampling":{}},"io.modelcontextprotocol/logLevel":"warning"}}}`)
	var methods []string
	for _, r := range rs {
		if r.Method != "" {
			methods = append(methods, r.Method)
		}
	}
	if got := strings.Join(methods, ","); got != "notifications/progress,notifications/message" {
		t.Errorf("notifications = %s", got)
	}
	if seen[0] != "true true 2026-07-28" {
		t.Errorf("caller = %s", seen[0])
	}
	// No log level and no progress token: nothing but the result.
	if rs := serveLines(t, s, modern(1, "tools/call", `"name":"echo","arguments":{"text":"a"}`)); len(rs) != 1 {
		t.Errorf("got %d messages without logLevel/progressToken, want 1", len(rs))
	}
}

func TestLegacyClientRequestOverStdio(t *testing.T) {
	s := newTestServer(t, func(o *ServerOptions) {
		o.Catalog.CallTool = func(ctx context.Context, req *CallToolRequest) (*CallToolResult, error) {
			res, err := req.Caller.Request(ctx, "roots/list", nil)
			if err != nil {
				return nil, err
			}
			return &CallToolResult{Content: []Content{TextContent(string(res))}}, nil
		}
	})
	c := startPipe(t, s)
	c.send(initLine)
	c.recv()
	c.send(legacy(1, "tools/call", `"name":"echo","arguments":{"text":"a"}`))
	req := c.recv()
	if req.Method != "roots/list" || req.ID == nil {
		t.Fatalf("got %+v, want a roots/list request", req)
	}
	c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"roots":[]}}`, req.ID))
	r := c.recv()
	if !strings.Contains(fmt.Sprint(r.Result["content"]), `{"roots":[]}`) {
		t.Errorf("tool result = %+v", r)
	}
}

func TestRequestStateRoundTrip(t *testing.T) {
	s := newTestServer(t, nil)
	r := one(t, s, modern(1, "tools/call", `"name":"ask"`))
	if r.Result["resultType"] != "input_required" || r.Result["ttlMs"] != nil {
		t.Fatalf("first round = %+v", r.Result)
	}
	state := r.Result["requestState"].(string)
	if state == "s1" {
		t.Fatal("requestState is not sealed")
	}
	r = one(t, s, modern(2, "tools/call", fmt.Sprintf(`"name":"ask","requestState":%q,"inputResponses":{"q":{"roots":[]}}`, state)))
	if !strings.Contains(fmt.Sprint(r.Result["content"]), "got") {
		t.Errorf("second round = %+v", r)
	}
}

// FuzzServeStdio feeds arbitrary lines to the stdio transport: it must not
// panic, and everything it writes must be line-delimited JSON objects.
func FuzzServeStdio(f *testing.F) {
	for _, s := range []string{
		modern(1, "tools/call", `"name":"echo","arguments":{"text":"a"}`),
		modern(2, "resources/read", `"uri":"x://a"`),
		initLine, legacy(3, "prompts/get", `"name":"greet","arguments":{"who":"x"}`),
		`{"jsonrpc":"2.0","id":4,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"greet"},"argument":{"name":"who","value":""}}}`,
		`{"jsonrpc":"2.0","id":5,"method":"subscriptions/listen","params":{` + testMeta + `,"notifications":{"toolsListChanged":true}}}`,
		`{`, `[]`, `{"jsonrpc":"2.0","id":null,"method":"x"}`,
	} {
		f.Add(s)
	}
	s := NewServer(Implementation{Name: "fuzz", Version: "0"}, &ServerOptions{Catalog: testCatalog(), Logger: log.New(io.Discard, "", 0)})
	f.Fuzz(func(t *testing.T, line string) {
		if strings.Contains(line, `"slow"`) {
			t.Skip("the slow tool only waits")
		}
		var out bytes.Buffer
		if err := s.ServeStdio(context.Background(), strings.NewReader(line+"\n"), &out); err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
			if l != "" && !isJSONObject(json.RawMessage(l)) {
				t.Fatalf("output line %q is not a JSON object", l)
			}
		}
	})
}

// TestBadArgumentsAreToolErrors: arguments that break a tool's input schema
// come back as an isError result naming the problem, so the model can fix
// its call (MCP 2025-11-25, SEP-1303; the conformance suite's
// http-header-validation relies on it), not as a JSON-RPC error.
func TestBadArgumentsAreToolErrors(t *testing.T) {
	tests := []struct {
		name, line, wantMsg string
	}{
		{"args missing required", modern(1, "tools/call", `"name":"echo","arguments":{}`), `missing required property "text"`},
		{"args wrong type", modern(1, "tools/call", `"name":"echo","arguments":{"text":3}`), `argument "text": expected string, got integer`},
		{"args extra property", modern(1, "tools/call", `"name":"echo","arguments":{"text":"a","x":1}`), `unknown property "x"`},
		{"args above maximum", modern(1, "tools/call", `"name":"echo","arguments":{"text":"a","n":9}`), "maximum"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := byID(serveLines(t, newTestServer(t, nil), tt.line), "1")
			if r == nil || r.Error != nil || r.Result == nil {
				t.Fatalf("reply = %+v, want a result", r)
			}
			if r.Result["isError"] != true {
				t.Errorf("isError = %v, want true", r.Result["isError"])
			}
			var content []struct{ Text string }
			b, _ := json.Marshal(r.Result["content"])
			_ = json.Unmarshal(b, &content)
			if len(content) != 1 || !strings.Contains(content[0].Text, tt.wantMsg) || !strings.Contains(content[0].Text, "invalid arguments") {
				t.Errorf("content = %s, want it to name %q", b, tt.wantMsg)
			}
		})
	}
}
