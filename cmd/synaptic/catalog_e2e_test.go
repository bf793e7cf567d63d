package main_test

import (
	"context"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func listTools(t *testing.T, cs *sdk.ClientSession) ([]*sdk.Tool, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res)
	return res.Tools, len(b)
}

// TestServeCompactCatalog: --catalog compact, $SYNAPTIC_CATALOG and
// ?catalog=compact advertise the grouped tools, which answer exactly as the
// full tools do.
func TestServeCompactCatalog(t *testing.T) {
	_, graphPath := serveFixture(t)
	stdio := func(env []string, args ...string) *sdk.ClientSession {
		cmd := exec.Command(bin, append([]string{"serve", "--graph", graphPath}, args...)...)
		cmd.Env = env
		cs := connectSDK(t, &sdk.CommandTransport{Command: cmd, TerminateDuration: 20 * time.Second}, "")
		t.Cleanup(func() { cs.Close() })
		return cs
	}
	full := stdio(serveEnv())
	fullTools, fullBytes := listTools(t, full)
	for name, cs := range map[string]*sdk.ClientSession{
		"flag": stdio(serveEnv(), "--catalog", "compact"),
		"env":  stdio(serveEnv("SYNAPTIC_CATALOG=compact")),
	} {
		tools, n := listTools(t, cs)
		t.Logf("%s: tools/list full %d bytes (%d tools), compact %d bytes (%d tools)", name, fullBytes, len(fullTools), n, len(tools))
		if len(tools) >= len(fullTools) || n*2 > fullBytes {
			t.Errorf("%s: compact catalog has %d tools in %d bytes, full %d in %d", name, len(tools), n, len(fullTools), fullBytes)
		}
		want := resultText(callTool(t, full, "find_callers", map[string]any{"label": "WithTax"}))
		got := resultText(callTool(t, cs, "synaptic_relations", map[string]any{"action": "find_callers", "label": "WithTax"}))
		if got != want || !strings.Contains(got, "Total") {
			t.Errorf("%s: grouped find_callers answered\n%s\nfull answered\n%s", name, got, want)
		}
	}
	code, _, stderr := runServe(t, serveEnv(), "--graph", graphPath, "--catalog", "tiny")
	if code != 2 || !strings.Contains(stderr, "full or compact") {
		t.Errorf("--catalog tiny: exit %d\n%s", code, stderr)
	}

	s := startHTTP(t, serveEnv(), "--graph", graphPath)
	cs := connectSDK(t, &sdk.StreamableClientTransport{Endpoint: s.mcpURL + "?catalog=compact", MaxRetries: -1}, "")
	defer cs.Close()
	if tools, _ := listTools(t, cs); len(tools) >= len(fullTools) || tools[0].Name != "synaptic_search" {
		t.Errorf("?catalog=compact listed %d tools, first %q", len(tools), tools[0].Name)
	}
	plain := connectSDK(t, &sdk.StreamableClientTransport{Endpoint: s.mcpURL, MaxRetries: -1}, "")
	defer plain.Close()
	if tools, _ := listTools(t, plain); len(tools) != len(fullTools) {
		t.Errorf("plain URL listed %d tools, want the full %d", len(tools), len(fullTools))
	}
	if code, body, _ := httpDo(t, "POST", s.mcpURL+"?catalog=tiny", "", []byte(`{}`)); code != 400 || !strings.Contains(string(body), "full or compact") {
		t.Errorf("?catalog=tiny: %d %s", code, body)
	}
}
