package mcp

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestGuards(t *testing.T) {
	ok := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusTeapot) })
	tests := []struct {
		name   string
		g      Guards
		host   string
		origin string
		hdr    map[string]string
		want   int
	}{
		{"no key, loopback", Guards{Addr: "127.0.0.1:8765"}, "127.0.0.1:8765", "", nil, 418},
		{"blank key disables auth", Guards{APIKey: "  ", Addr: "127.0.0.1:1"}, "localhost", "", nil, 418},
		{"x-api-key", Guards{APIKey: "s3cret"}, "localhost:1", "", map[string]string{"X-API-Key": "s3cret"}, 418},
		{"bearer", Guards{APIKey: "s3cret"}, "localhost", "", map[string]string{"Authorization": "Bearer s3cret"}, 418},
		{"bearer scheme case-insensitive", Guards{APIKey: "s3cret"}, "localhost", "", map[string]string{"Authorization": "bEaReR s3cret"}, 418},
		{"missing key", Guards{APIKey: "s3cret"}, "localhost", "", nil, 401},
		{"wrong key", Guards{APIKey: "s3cret"}, "localhost", "", map[string]string{"X-API-Key": "nope"}, 401},
		{"key prefix", Guards{APIKey: "s3cret"}, "localhost", "", map[string]string{"X-API-Key": "s3cre"}, 401},
		{"basic scheme", Guards{APIKey: "s3cret"}, "localhost", "", map[string]string{"Authorization": "Basic s3cret"}, 401},
		{"[::1]", Guards{Addr: "[::1]:80"}, "[::1]:80", "", nil, 418},
		{"[::1] no port", Guards{}, "[::1]", "", nil, 418},
		{"LOCALHOST", Guards{}, "LOCALHOST:9", "", nil, 418},
		{"bound ip", Guards{Addr: "10.1.2.3:80"}, "10.1.2.3", "", nil, 418},
		{"bound ip with port", Guards{Addr: "10.1.2.3:80"}, "10.1.2.3:80", "", nil, 418},
		{"evil host", Guards{Addr: "127.0.0.1:80"}, "evil.example.com", "", nil, 403},
		{"evil host with port", Guards{Addr: "127.0.0.1:80"}, "evil.example.com:80", "", nil, 403},
		{"other ip", Guards{Addr: "10.1.2.3:80"}, "10.9.9.9", "", nil, 403},
		{"evil origin", Guards{Addr: "127.0.0.1:80"}, "127.0.0.1:80", "http://evil.example.com", nil, 403},
		{"good origin", Guards{Addr: "127.0.0.1:80"}, "127.0.0.1:80", "http://localhost:3000", nil, 418},
		{"host checked before key", Guards{APIKey: "k", Addr: "127.0.0.1:80"}, "evil.example.com", "", nil, 403},
		{"wildcard v4 disables host check", Guards{Addr: "0.0.0.0:80"}, "evil.example.com", "http://evil.example.com", nil, 418},
		{"wildcard v6 disables host check", Guards{Addr: "[::]:80"}, "evil.example.com", "", nil, 418},
		{"empty host bind disables host check", Guards{Addr: ":80"}, "evil.example.com", "", nil, 418},
		{"wildcard still needs key", Guards{APIKey: "k", Addr: "0.0.0.0:80"}, "evil.example.com", "", nil, 401},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest("POST", "/mcp", nil)
			req.Host = tt.host
			if tt.origin != "" {
				req.Header.Set("Origin", tt.origin)
			}
			for k, v := range tt.hdr {
				req.Header.Set(k, v)
			}
			rec := httptest.NewRecorder()
			tt.g.Wrap(ok).ServeHTTP(rec, req)
			if rec.Code != tt.want {
				t.Errorf("status = %d, want %d", rec.Code, tt.want)
			}
		})
	}
}

func TestGuardsExposed(t *testing.T) {
	tests := []struct {
		g    Guards
		want bool
	}{
		{Guards{Addr: "0.0.0.0:8765"}, true},
		{Guards{Addr: "[::]:8765"}, true},
		{Guards{Addr: "0.0.0.0:8765", APIKey: "k"}, false},
		{Guards{Addr: "127.0.0.1:8765"}, false},
		{Guards{}, false},
	}
	for _, tt := range tests {
		if got := tt.g.Exposed(); got != tt.want {
			t.Errorf("%+v.Exposed() = %v, want %v", tt.g, got, tt.want)
		}
	}
}

// TestOAuthDiscoveryNotFound: the probes OAuth-capable clients send after
// a 401 get a plain 404 JSON answer, before the key is checked.
func TestOAuthDiscoveryNotFound(t *testing.T) {
	ok := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusTeapot) })
	h := Guards{APIKey: "k", Addr: "127.0.0.1:80"}.Wrap(ok)
	for _, path := range []string{
		"/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp",
		"/.well-known/oauth-authorization-server", "/.well-known/oauth-authorization-server/mcp",
		"/.well-known/openid-configuration",
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "http://localhost"+path, nil))
		var body struct {
			ErrorDescription string `json:"error_description"`
		}
		_ = json.Unmarshal(rec.Body.Bytes(), &body)
		if rec.Code != http.StatusNotFound || !strings.Contains(body.ErrorDescription, "X-API-Key") {
			t.Errorf("GET %s = %d %s, want 404 naming the header", path, rec.Code, rec.Body)
		}
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "http://evil.example.com/.well-known/oauth-protected-resource", nil))
	if rec.Code != http.StatusForbidden {
		t.Errorf("probe with a foreign Host = %d, want 403 (the host guard comes first)", rec.Code)
	}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "http://localhost/.well-known/oauth-protected-resourcex", nil))
	if rec.Code != http.StatusUnauthorized {
		t.Errorf("non-probe path = %d, want 401", rec.Code)
	}
}
