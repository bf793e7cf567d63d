package tools

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// TestIntegersAsJSONSchemaSays: the catalog's validator agrees with the MCP
// server's (P3): an integral number is an integer however it is written,
// and a value no int64 holds is refused with a reason.
func TestIntegersAsJSONSchemaSays(t *testing.T) {
	c := newFixtureCatalog(t, Options{})
	tests := []struct {
		args    string
		wantErr string // "" = accepted
	}{
		{`{"label":"NewServer","limit":1}`, ""},
		{`{"label":"NewServer","limit":1.0}`, ""},
		{`{"label":"NewServer","limit":2e0}`, ""},
		{`{"label":"NewServer","limit":1.5}`, `"limit" must be of type integer`},
		{`{"label":"NewServer","limit":9223372036854775808}`, "outside the 64-bit integer range"},
		{`{"label":"NewServer","limit":-1e999}`, "outside the 64-bit integer range"},
	}
	for _, tt := range tests {
		_, err := c.Call(context.Background(), "get_neighbors", json.RawMessage(tt.args))
		var ae *ArgsError
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("%s: %v, want accepted", tt.args, err)
		case tt.wantErr != "" && (!errors.As(err, &ae) || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("%s: err = %v, want ArgsError containing %q", tt.args, err, tt.wantErr)
		}
	}
}

func TestCanonicalNumbers(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"a":1.0,"b":[2e1,"1.0"],"c":1.5}`, `{"a":1,"b":[20,"1.0"],"c":1.5}`},
		{`{"label":"x.y","limit":3}`, `{"label":"x.y","limit":3}`}, // untouched bytes
	}
	for _, tt := range tests {
		if got := string(canonicalNumbers(json.RawMessage(tt.in))); got != tt.want {
			t.Errorf("canonicalNumbers(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
}
