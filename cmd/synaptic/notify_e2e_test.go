package main_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// updates collects the URIs of notifications/resources/updated.
type updates struct {
	mu   sync.Mutex
	uris map[string]int
}

func (u *updates) add(uri string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.uris == nil {
		u.uris = map[string]int{}
	}
	u.uris[uri]++
}

// take returns and clears what was collected.
func (u *updates) take() map[string]int {
	u.mu.Lock()
	defer u.mu.Unlock()
	m := u.uris
	u.uris = nil
	return m
}

// listenModern opens a 2026-07-28 subscriptions/listen stream for uris
// and collects its resource updates until the test ends.
func listenModern(t *testing.T, mcpURL string, uris []string, into *updates) {
	t.Helper()
	list, _ := json.Marshal(uris)
	body := `{"jsonrpc":"2.0","id":"L1","method":"subscriptions/listen","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"e2e","version":"1"}},"notifications":{"resourceSubscriptions":` + string(list) + `}}}`
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "POST", mcpURL, strings.NewReader(body))
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "subscriptions/listen")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	sc := bufio.NewScanner(resp.Body)
	acked := make(chan string, 1)
	go func() {
		for sc.Scan() {
			data, ok := strings.CutPrefix(sc.Text(), "data: ")
			if !ok {
				continue
			}
			var msg struct {
				Method string `json:"method"`
				Params struct {
					URI           string `json:"uri"`
					Notifications struct {
						Subs []string `json:"resourceSubscriptions"`
					} `json:"notifications"`
				} `json:"params"`
			}
			if json.Unmarshal([]byte(data), &msg) != nil {
				continue
			}
			switch msg.Method {
			case "notifications/subscriptions/acknowledged":
				acked <- strings.Join(msg.Params.Notifications.Subs, " ")
			case "notifications/resources/updated":
				into.add(msg.Params.URI)
			}
		}
	}()
	select {
	case got := <-acked:
		if got != strings.Join(uris, " ") {
			t.Fatalf("listen took %q, want %q", got, uris)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no subscriptions/listen acknowledgement")
	}
}

// TestServeNotifiesChangedNodes: after a refresh, subscribers to
// synaptic://node/{label} and synaptic://community/{id} (a modern listen
// stream and a legacy session's SSE stream) are notified exactly of the
// instances whose text changed: an edit that changes no node sends none,
// an edit that gives WithTax a new caller notifies WithTax's URI.
func TestServeNotifiesChangedNodes(t *testing.T) {
	root, graphPath := serveFixture(t)
	s := startHTTP(t, serveEnv("SYNAPTIC_SERVE_AUTOFRESH_DEBOUNCE_MS=0"), "--graph", graphPath)
	cs := connectSDK(t, &sdk.StreamableClientTransport{Endpoint: s.mcpURL, MaxRetries: -1}, "")
	defer cs.Close()
	callTool(t, cs, "graph_stats", nil) // loaded, first catch-up done
	node := callTool(t, cs, "get_node", map[string]any{"label": "WithTax()"})
	comm := ""
	for _, l := range strings.Split(resultText(node), "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(l), "community: "); ok {
			comm = v
		}
	}
	if _, err := strconv.Atoi(comm); err != nil {
		t.Fatalf("no community in get_node:\n%s", resultText(node))
	}
	uris := []string{"synaptic://community/" + comm, "synaptic://node/WithTax()", "synaptic://node/money()", "synaptic://stats"}

	var modern, legacy updates
	listenModern(t, s.mcpURL, uris, &modern)
	lc := sdk.NewClient(&sdk.Implementation{Name: "e2e-legacy", Version: "0"}, &sdk.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, r *sdk.ResourceUpdatedNotificationRequest) { legacy.add(r.Params.URI) },
	})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	lcs, err := lc.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: s.mcpURL, MaxRetries: -1}, &sdk.ClientSessionOptions{ProtocolVersion: "2025-06-18"})
	if err != nil {
		t.Fatal(err)
	}
	defer lcs.Close()
	for _, u := range uris {
		if err := lcs.Subscribe(ctx, &sdk.SubscribeParams{URI: u}); err != nil {
			t.Fatalf("subscribe %s: %v", u, err)
		}
	}
	read := func() map[string]string {
		m := map[string]string{}
		for _, u := range uris {
			r, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: u})
			if err != nil {
				m[u] = "error: " + err.Error()
				continue
			}
			m[u] = r.Contents[0].Text
		}
		return m
	}
	// refresh edits, asks (auto-freshen patches the edit in) and waits
	// for the exact graph behind the patch, then a little for delivery.
	exact := func() int { return strings.Count(s.stderr.String(), "exact graph served") }
	refresh := func(files map[string]string) {
		n := exact()
		write(t, root, files)
		time.Sleep(20 * time.Millisecond) // a new mtime
		callTool(t, cs, "graph_stats", nil)
		waitFor(t, time.Minute, "the exact graph behind the patch", func() bool { return exact() > n })
		time.Sleep(300 * time.Millisecond)
	}
	templated := func(m map[string]int) map[string]int {
		out := map[string]int{}
		for u, n := range m {
			if strings.Contains(u, "/node/") || strings.Contains(u, "/community/") {
				out[u] = n
			}
		}
		return out
	}

	price := fixtureRepo["price/price.go"]
	before := read()
	refresh(map[string]string{"price/price.go": price + "\n// A trailing comment changes no node.\n"})
	if got := read(); got["synaptic://node/WithTax()"] != before["synaptic://node/WithTax()"] {
		t.Fatalf("a comment changed WithTax's text:\n%s\n---\n%s", before["synaptic://node/WithTax()"], got["synaptic://node/WithTax()"])
	}
	for name, u := range map[string]*updates{"modern": &modern, "legacy": &legacy} {
		if got := templated(u.take()); len(got) > 0 {
			t.Errorf("%s: an edit that changed no node notified %v", name, got)
		}
	}

	before = read()
	refresh(map[string]string{"price/price.go": price + "\nfunc Discount(c int) int { return WithTax(c) / 2 }\n"})
	after := read()
	if after["synaptic://node/WithTax()"] == before["synaptic://node/WithTax()"] {
		t.Fatal("a new caller did not change WithTax's text")
	}
	for name, u := range map[string]*updates{"modern": &modern, "legacy": &legacy} {
		got := u.take()
		for _, uri := range uris {
			if after[uri] != before[uri] && got[uri] == 0 {
				t.Errorf("%s: %s changed but was not notified (got %v)", name, uri, got)
			}
		}
		if got["synaptic://stats"] == 0 {
			t.Errorf("%s: the fixed resource was not notified (got %v)", name, got)
		}
	}

	// A templated read right after an edit catches up first, as a tool
	// call does.
	write(t, root, map[string]string{"price/late.go": "package price\n\nfunc Late() int { return WithTax(1) }\n"})
	if txt := readResourceText(t, cs, "synaptic://node/Late()"); !strings.Contains(txt, "Node: Late()") {
		t.Errorf("synaptic://node/Late() right after the edit:\n%s", txt)
	}
}
