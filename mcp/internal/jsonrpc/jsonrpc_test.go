package jsonrpc

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestDecode(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		wantCode int // 0 = success
		wantKind string
		wantID   string
	}{
		{"request", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, 0, "request", "1"},
		{"string id", `{"jsonrpc":"2.0","id":"a","method":"x","params":{}}`, 0, "request", `"a"`},
		{"notification", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, 0, "notification", ""},
		{"result", `{"jsonrpc":"2.0","id":7,"result":{}}`, 0, "response", "7"},
		{"error response", `{"jsonrpc":"2.0","id":7,"error":{"code":1,"message":"x"}}`, 0, "response", "7"},
		{"null params", `{"jsonrpc":"2.0","id":1,"method":"x","params":null}`, 0, "request", "1"},
		{"garbage", `{not json`, CodeParseError, "", ""},
		{"empty", ``, CodeParseError, "", ""},
		{"batch", `[{"jsonrpc":"2.0","id":1,"method":"x"}]`, CodeInvalidRequest, "", ""},
		{"scalar", `42`, CodeInvalidRequest, "", ""},
		{"no version", `{"id":1,"method":"x"}`, CodeInvalidRequest, "", "1"},
		{"wrong version", `{"jsonrpc":"1.0","id":1,"method":"x"}`, CodeInvalidRequest, "", "1"},
		{"object id", `{"jsonrpc":"2.0","id":{},"method":"x"}`, CodeInvalidRequest, "", ""},
		{"bool id", `{"jsonrpc":"2.0","id":true,"method":"x"}`, CodeInvalidRequest, "", ""},
		{"empty method", `{"jsonrpc":"2.0","id":1,"method":""}`, CodeInvalidRequest, "", "1"},
		{"number method", `{"jsonrpc":"2.0","id":1,"method":3}`, CodeInvalidRequest, "", "1"},
		{"scalar params", `{"jsonrpc":"2.0","id":1,"method":"x","params":3}`, CodeInvalidRequest, "", "1"},
		{"no method no id", `{"jsonrpc":"2.0"}`, CodeInvalidRequest, "", ""},
		{"result and error", `{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":""}}`, CodeInvalidRequest, "", "1"},
		{"method and result", `{"jsonrpc":"2.0","id":1,"method":"x","result":{}}`, CodeInvalidRequest, "", "1"},
		// Strictness: a second reader must never see a different message.
		{"case variant method", `{"jsonrpc":"2.0","id":1,"method":"tools/list","Method":"tools/call"}`, CodeInvalidRequest, "", "1"},
		{"duplicate method", `{"jsonrpc":"2.0","id":1,"method":"tools/list","method":"tools/call"}`, CodeInvalidRequest, "", "1"},
		{"upper-case method only", `{"jsonrpc":"2.0","id":1,"METHOD":"tools/call"}`, CodeInvalidRequest, "", "1"},
		{"escaped duplicate", `{"jsonrpc":"2.0","id":1,"method":"a","\u006dethod":"b"}`, CodeInvalidRequest, "", "1"},
		{"duplicate id", `{"jsonrpc":"2.0","id":1,"id":2,"method":"x"}`, CodeInvalidRequest, "", ""},
		{"duplicate in arguments", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"limit":1,"limit":99}}}`, CodeInvalidRequest, "", "1"},
		{"case variant in params", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","Name":"b"}}`, CodeInvalidRequest, "", "1"},
		{"same name in sibling objects", `{"jsonrpc":"2.0","id":1,"method":"x","params":{"a":{"k":1},"b":{"k":2}}}`, 0, "request", "1"},
		{"invalid utf-8 id", "{\"jsonrpc\":\"2.0\",\"id\":\"\xff\xfe\",\"method\":\"ping\"}", CodeParseError, "", ""},
		{"null id request", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, CodeInvalidRequest, "", ""},
		{"deep nesting", `{"jsonrpc":"2.0","id":1,"method":"x","params":{"a":` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `}}`, CodeInvalidRequest, "", "1"},
		{"nesting at the limit", `{"jsonrpc":"2.0","id":1,"method":"x","params":{"a":` + strings.Repeat("[", MaxDepth-2) + strings.Repeat("]", MaxDepth-2) + `}}`, 0, "request", "1"},
		{"case variant in a large object", `{"jsonrpc":"2.0","id":1,"method":"x","params":{` + manyMembers(40) + `,"K":1,"k":2}}`, CodeInvalidRequest, "", "1"},
		{"kelvin sign folds to k", `{"jsonrpc":"2.0","id":1,"method":"x","params":{` + manyMembers(40) + `,"k":1,"\u212a":2}}`, CodeInvalidRequest, "", "1"},
		{"large object, distinct names", `{"jsonrpc":"2.0","id":1,"method":"x","params":{` + manyMembers(40) + `}}`, 0, "request", "1"},
		{"trailing garbage", `{"jsonrpc":"2.0","id":1,"method":"x"} x`, CodeParseError, "", ""},
		{"two objects", `{"jsonrpc":"2.0","id":1,"method":"x"}{"jsonrpc":"2.0","id":2,"method":"y"}`, CodeParseError, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, id, err := Decode([]byte(tt.in))
			if len(tt.in) > 200 {
				tt.in = tt.in[:200] + "…"
			}
			if string(id) != tt.wantID {
				t.Errorf("Decode(%q) id = %s, want %s", tt.in, id, tt.wantID)
			}
			if tt.wantCode != 0 {
				var e *Error
				if !errors.As(err, &e) || e.Code != tt.wantCode {
					t.Fatalf("Decode(%q) err = %v, want code %d", tt.in, err, tt.wantCode)
				}
				return
			}
			if err != nil {
				t.Fatalf("Decode(%q) = %v", tt.in, err)
			}
			var kind string
			switch {
			case m.IsRequest():
				kind = "request"
			case m.IsNotification():
				kind = "notification"
			case m.IsResponse():
				kind = "response"
			}
			if kind != tt.wantKind {
				t.Errorf("Decode(%q) kind = %s, want %s", tt.in, kind, tt.wantKind)
			}
		})
	}
}

// manyMembers is n distinct members "m0":0,… (past the small-object path).
func manyMembers(n int) string {
	var parts []string
	for i := range n {
		parts = append(parts, fmt.Sprintf(`"m%d":%d`, i, i))
	}
	return strings.Join(parts, ",")
}

func TestEncodeError(t *testing.T) {
	got := string(EncodeError(nil, &Error{Code: CodeParseError, Message: "bad"}))
	want := `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"bad"}}`
	if got != want {
		t.Errorf("EncodeError = %s, want %s", got, want)
	}
	// Unmarshalable data is dropped rather than losing the response.
	got = string(EncodeError(json.RawMessage("3"), &Error{Code: 1, Message: "m", Data: func() {}}))
	if want := `{"jsonrpc":"2.0","id":3,"error":{"code":1,"message":"m"}}`; got != want {
		t.Errorf("EncodeError(bad data) = %s, want %s", got, want)
	}
}

func FuzzDecodeMessage(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{}}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`,
		`{"jsonrpc":"2.0","id":"x","result":{"content":[]}}`,
		`{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"nope"}}`,
		`[1,2]`, `{`, `null`, `{"id":null}`,
		`{"jsonrpc":"2.0","id":1,"method":"a","Method":"b"}`,
		`{"jsonrpc":"2.0","id":null,"method":"ping"}`,
		"{\"jsonrpc\":\"2.0\",\"id\":\"\xff\",\"method\":\"ping\"}",
		`{"jsonrpc":"2.0","id":1,"method":"x","params":[[[[[[[[]]]]]]]]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, id, err := Decode(data)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || (e.Code != CodeParseError && e.Code != CodeInvalidRequest) {
				t.Fatalf("Decode error %v is not a parse/invalid-request *Error", err)
			}
			// The error response must always be encodable, valid UTF-8 JSON.
			if out := EncodeError(id, e); !json.Valid(out) || !utf8.Valid(out) {
				t.Fatalf("EncodeError produced invalid JSON: %q", out)
			}
			return
		}
		// Whatever was accepted reads the same to a case-insensitive,
		// last-wins decoder (encoding/json): no parser differential.
		var loose struct {
			Method string          `json:"method"`
			ID     json.RawMessage `json:"id"`
		}
		if json.Unmarshal(data, &loose) != nil || loose.Method != m.Method {
			t.Fatalf("method %q, but encoding/json reads %q", m.Method, loose.Method)
		}
		if !utf8.Valid(m.ID) || (m.ID != nil && string(m.ID) == "null") {
			t.Fatalf("accepted id %q", m.ID)
		}
		if m.Method == "" && m.ID == nil {
			t.Fatalf("decoded message has neither method nor id")
		}
		if m.ID != nil && !json.Valid(m.ID) {
			t.Fatalf("id %q is not valid JSON", m.ID)
		}
		if m.IsResponse() && (m.Result == nil) == (m.Error == nil) {
			t.Fatalf("response must have exactly one of result/error")
		}
	})
}

// BenchmarkDecode measures the strict read of a typical tool call and of
// a 1 MB question (the strict pass walks every token once).
func BenchmarkDecode(b *testing.B) {
	for _, bc := range []struct{ name, msg string }{
		{"tools_call", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"get_neighbors","arguments":{"label":"NewServer","limit":20,"relations":["calls","imports"]},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`},
		{"1MB_question", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"query_graph","arguments":{"question":"` + strings.Repeat("how does x work ", 1<<16) + `"}}}`},
	} {
		b.Run(bc.name, func(b *testing.B) {
			data := []byte(bc.msg)
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, _, err := Decode(data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
