package jsonrpc

import (
	"encoding/json"
	"errors"
	"testing"
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
		{"number method", `{"jsonrpc":"2.0","id":1,"method":3}`, CodeInvalidRequest, "", ""},
		{"scalar params", `{"jsonrpc":"2.0","id":1,"method":"x","params":3}`, CodeInvalidRequest, "", "1"},
		{"no method no id", `{"jsonrpc":"2.0"}`, CodeInvalidRequest, "", ""},
		{"result and error", `{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":""}}`, CodeInvalidRequest, "", "1"},
		{"method and result", `{"jsonrpc":"2.0","id":1,"method":"x","result":{}}`, CodeInvalidRequest, "", "1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, id, err := Decode([]byte(tt.in))
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
			// The error response must always be encodable and valid JSON.
			if !json.Valid(EncodeError(id, e)) {
				t.Fatalf("EncodeError produced invalid JSON")
			}
			return
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
