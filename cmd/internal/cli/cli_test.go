package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"reflect"
	"strings"
	"testing"

	"github.com/synaptic-graph/synaptic/core/tools"
)

func TestParseInterspersed(t *testing.T) {
	tests := []struct {
		args    []string
		pos     []string
		workers int
	}{
		{[]string{"repo", "--workers", "3"}, []string{"repo"}, 3},
		{[]string{"--workers=2", "a", "b"}, []string{"a", "b"}, 2},
		{[]string{"a", "--", "--workers"}, []string{"a", "--workers"}, 0},
		{nil, nil, 0},
	}
	for _, tt := range tests {
		fs := flag.NewFlagSet("x", flag.ContinueOnError)
		w := fs.Int("workers", 0, "")
		pos, err := parseInterspersed(fs, tt.args)
		if err != nil || !reflect.DeepEqual(pos, tt.pos) || *w != tt.workers {
			t.Errorf("parseInterspersed(%q) = %q, workers %d, %v; want %q, %d", tt.args, pos, *w, err, tt.pos, tt.workers)
		}
	}
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.SetOutput(new(bytes.Buffer))
	if _, err := parseInterspersed(fs, []string{"--nope"}); err == nil {
		t.Error("unknown flag accepted")
	}
}

func TestToolArgs(t *testing.T) {
	tool := tools.Tool{Name: "t", InputSchema: json.RawMessage(`{"type":"object","properties":{
		"label":{"type":"string"},"limit":{"type":"integer"},"verbose":{"type":"boolean"},
		"relations":{"type":"array","items":{"type":"string"}},"score":{"type":"number"}}}`)}
	got, err := toolArgs(tool, []string{"label=a=b", "limit=5", "verbose=true", "relations=calls, imports", "score=0.5"})
	want := map[string]any{"label": "a=b", "limit": 5, "verbose": true, "relations": []any{"calls", "imports"}, "score": 0.5}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("toolArgs = %v, %v; want %v", got, err, want)
	}
	for _, bad := range [][]string{{"limit=x"}, {"nokey"}, {"lable=x"}, {"verbose=maybe"}} {
		if _, err := toolArgs(tool, bad); err == nil {
			t.Errorf("toolArgs(%q) accepted", bad)
		}
	}
	if _, err := toolArgs(tool, []string{"lable=x"}); err == nil || !strings.Contains(err.Error(), "label") {
		t.Errorf("misspelt key error should list the real arguments: %v", err)
	}
}

func TestMainUsage(t *testing.T) {
	var out, errb bytes.Buffer
	if code := Main(context.Background(), []string{"nosuch"}, IO{Out: &out, Err: &errb}); code != 2 || !strings.Contains(errb.String(), "unknown command") {
		t.Errorf("unknown command: code %d, stderr %q", code, errb.String())
	}
	for _, cmd := range []string{"extract", "serve", "plugins", "call", "query", "report"} {
		out.Reset()
		if code := Main(context.Background(), []string{cmd, "--help"}, IO{Out: &out, Err: &errb}); code != 0 || !strings.Contains(out.String(), "Usage: synaptic "+cmd) {
			t.Errorf("%s --help: code %d, out %q", cmd, code, out.String())
		}
	}
}
