package mcp

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestMatchTemplate(t *testing.T) {
	tests := []struct {
		tmpl, uri string
		want      bool
	}{
		{"x://t/{id}", "x://t/7", true},
		{"x://t/{id}", "x://t/a/b.go", true},
		{"x://t/{id}", "x://t/", false},
		{"x://t/{id}", "x://u/7", false},
		{"x://a", "x://a", true},
		{"x://a", "x://ab", false},
		{"x://{a}/mid/{b}", "x://1/mid/2", true},
		{"x://{a}/mid/{b}", "x://1/mid/", false},
		{"x://{a}.md", "x://r.md", true},
		{"x://{a}.md", "x://.md", false},
		{"x://{broken", "x://z", false},
	}
	for _, tt := range tests {
		if got := matchTemplate(tt.tmpl, tt.uri); got != tt.want {
			t.Errorf("matchTemplate(%q, %q) = %v, want %v", tt.tmpl, tt.uri, got, tt.want)
		}
	}
}

// TestSubscribeBounds: legacy subscriptions name a real resource, a short
// URI, and at most MaxSubscriptions of them (H3).
func TestSubscribeBounds(t *testing.T) {
	_, _, ts := newHTTPTest(t, nil)
	url := ts.URL + "/mcp"
	resp, _ := do(t, "POST", url, nil, initLine)
	hdr := map[string]string{"Mcp-Session-Id": resp.Header.Get("Mcp-Session-Id")}
	sub := func(id int, uri string) reply {
		_, r := do(t, "POST", url, hdr, legacy(id, "resources/subscribe", fmt.Sprintf(`"uri":%q`, uri)))
		return r
	}
	if r := sub(1, "x://a"); r.Error != nil {
		t.Fatalf("listed resource: %+v", r.Error)
	}
	if r := sub(2, "x://t/42"); r.Error != nil {
		t.Fatalf("template instance: %+v", r.Error)
	}
	if r := sub(3, "x://nope"); r.Error == nil || r.Error.Code != CodeResourceNotFound {
		t.Errorf("unknown URI = %+v, want -32002", r.Error)
	}
	if r := sub(4, "x://t/"+strings.Repeat("a", MaxURIBytes)); r.Error == nil || r.Error.Code != CodeInvalidParams || !strings.Contains(r.Error.Message, "too long") {
		t.Errorf("long URI = %+v, want -32602 too long", r.Error)
	}
	for i := 3; i <= MaxSubscriptions; i++ { // 2 taken above
		if r := sub(100+i, fmt.Sprintf("x://t/n%d", i)); r.Error != nil {
			t.Fatalf("subscription %d: %+v", i, r.Error)
		}
	}
	if r := sub(5, "x://t/one-too-many"); r.Error == nil || !strings.Contains(r.Error.Message, "too many") {
		t.Errorf("subscription %d = %+v, want refused", MaxSubscriptions+1, r.Error)
	}
	if r := sub(6, "x://a"); r.Error != nil {
		t.Errorf("re-subscribing a held URI at the cap = %+v, want ok", r.Error)
	}
}

// TestListenHonorsOnlyKnownURIs: a modern listen acknowledges the URIs it
// took, never more than MaxSubscriptions, and none that do not exist.
func TestListenHonorsOnlyKnownURIs(t *testing.T) {
	_, _, ts := newHTTPTest(t, nil)
	uris := []string{`"x://a"`, `"x://nope"`, `"x://a"`}
	for i := range MaxSubscriptions + 10 {
		uris = append(uris, fmt.Sprintf(`"x://t/%d"`, i))
	}
	body := modern(1, "subscriptions/listen", `"notifications":{"resourceSubscriptions":[`+strings.Join(uris, ",")+`]}`)
	_, sse := openStream(t, t.Context(), "POST", ts.URL+"/mcp", mh("subscriptions/listen", ""), body)
	ack := sse.next(t)
	if !strings.Contains(ack, "acknowledged") || strings.Contains(ack, "x://nope") || strings.Contains(ack, fmt.Sprintf("x://t/%d\"", MaxSubscriptions-1)) {
		t.Fatalf("ack = %.300s", ack)
	}
	if n := strings.Count(ack, "x://"); n != MaxSubscriptions {
		t.Errorf("ack honors %d URIs, want %d", n, MaxSubscriptions)
	}
}

// TestSessionCap: at MaxSessions, initialize evicts the least recently
// used idle session; when every session has an open stream it is refused.
func TestSessionCap(t *testing.T) {
	_, h, ts := newHTTPTest(t, &HTTPOptions{MaxSessions: 3, Heartbeat: time.Hour})
	url := ts.URL + "/mcp"
	var sids []string
	for range 5 {
		resp, r := do(t, "POST", url, nil, initLine)
		if resp.StatusCode != 200 || r.Error != nil {
			t.Fatalf("initialize = %d %+v", resp.StatusCode, r)
		}
		sids = append(sids, resp.Header.Get("Mcp-Session-Id"))
	}
	h.mu.Lock()
	n := len(h.sessions)
	h.mu.Unlock()
	if n != 3 {
		t.Fatalf("%d sessions held, want 3", n)
	}
	if resp, _ := do(t, "POST", url, map[string]string{"Mcp-Session-Id": sids[0]}, legacy(1, "ping", "")); resp.StatusCode != http.StatusNotFound {
		t.Errorf("evicted oldest session = %d, want 404", resp.StatusCode)
	}
	for _, sid := range sids[2:] {
		openStream(t, t.Context(), "GET", url, map[string]string{"Mcp-Session-Id": sid}, "")
	}
	resp, r := do(t, "POST", url, nil, initLine)
	if resp.StatusCode != http.StatusServiceUnavailable || r.Error == nil || !strings.Contains(r.Error.Message, "too many open sessions (max 3)") || resp.Header.Get("Mcp-Session-Id") != "" {
		t.Errorf("initialize with all sessions busy = %d %+v", resp.StatusCode, r.Error)
	}
	for _, sid := range sids[2:] {
		if resp, _ := do(t, "POST", url, map[string]string{"Mcp-Session-Id": sid}, legacy(2, "ping", "")); resp.StatusCode != 200 {
			t.Errorf("busy session %s dropped: %d", sid, resp.StatusCode)
		}
	}
}

// FuzzMatchTemplate: a client's URI never panics the matcher, and a match
// always keeps the template's literal prefix and suffix.
func FuzzMatchTemplate(f *testing.F) {
	for _, s := range []string{"x://t/7", "x://t/", "synaptic://node/a/b.go", "", "{", "x://t/{id}"} {
		f.Add("x://t/{id}", s)
		f.Add("synaptic://node/{label}", s)
		f.Add("x://{a}/mid/{b}.md", s)
	}
	f.Fuzz(func(t *testing.T, tmpl, uri string) {
		if !matchTemplate(tmpl, uri) {
			return
		}
		open := strings.IndexByte(tmpl, '{')
		if open < 0 {
			if uri != tmpl {
				t.Fatalf("literal template %q matched %q", tmpl, uri)
			}
			return
		}
		close := strings.LastIndexByte(tmpl, '}')
		if !strings.HasPrefix(uri, tmpl[:open]) || (close > open && !strings.HasSuffix(uri, tmpl[close+1:])) {
			t.Fatalf("%q matched %q without its literal ends", tmpl, uri)
		}
	})
}

// TestSubscribedURIs: the Subscribed hook hears every subscription taken
// (legacy subscribe, and a listen's accepted URIs, not the refused ones),
// and SubscribedURIs lists the live ones, sorted, until they end.
func TestSubscribedURIs(t *testing.T) {
	var mu sync.Mutex
	var heard []string
	s := newTestServer(t, func(o *ServerOptions) {
		o.Catalog.Subscribed = func(_ context.Context, uris []string) {
			mu.Lock()
			heard = append(heard, uris...)
			mu.Unlock()
		}
	})
	ts := httptest.NewServer(NewHTTPHandler(s, nil))
	t.Cleanup(func() { s.Close(); ts.Close() })
	url := ts.URL + "/mcp"
	resp, _ := do(t, "POST", url, nil, initLine)
	hdr := map[string]string{"Mcp-Session-Id": resp.Header.Get("Mcp-Session-Id")}
	do(t, "POST", url, hdr, legacy(1, "resources/subscribe", `"uri":"x://t/9"`))
	do(t, "POST", url, hdr, legacy(2, "resources/subscribe", `"uri":"x://nope"`)) // refused
	ctx, cancel := context.WithCancel(t.Context())
	_, sse := openStream(t, ctx, "POST", url, mh("subscriptions/listen", ""),
		`{"jsonrpc":"2.0","id":"L1","method":"subscriptions/listen","params":{`+testMeta+`,"notifications":{"resourceSubscriptions":["x://a","x://nope"]}}}`)
	sse.next(t) // the acknowledgement
	if got, want := s.SubscribedURIs(), []string{"x://a", "x://t/9"}; !slices.Equal(got, want) {
		t.Errorf("SubscribedURIs = %v, want %v", got, want)
	}
	mu.Lock()
	if got, want := heard, []string{"x://t/9", "x://a"}; !slices.Equal(got, want) {
		t.Errorf("Subscribed heard %v, want %v", got, want)
	}
	mu.Unlock()
	cancel()
	waitNoListeners(t, s)
	do(t, "POST", url, hdr, legacy(3, "resources/unsubscribe", `"uri":"x://t/9"`))
	if got := s.SubscribedURIs(); len(got) != 0 {
		t.Errorf("after the listen ended and the unsubscribe: %v", got)
	}
}
