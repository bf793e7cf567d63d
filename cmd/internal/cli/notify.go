package cli

import (
	"context"
	"crypto/sha256"
	"slices"
	"sync"

	"github.com/synaptic-graph/synaptic/core/tools"
	"github.com/synaptic-graph/synaptic/mcp"
)

// resourceNotifier sends notifications/resources/updated after the served
// graph changes: for every fixed resource, and for each subscribed
// synaptic://node/{label} or synaptic://community/{id} whose text is not
// what it was. It remembers a digest of each subscribed instance's text,
// taken when the client subscribed and after every change.
type resourceNotifier struct {
	cat *tools.Catalog
	srv *mcp.Server // set once the server exists

	mu   sync.Mutex
	seen map[string][32]byte // templated URI -> digest of its text
}

func newResourceNotifier(cat *tools.Catalog) *resourceNotifier {
	return &resourceNotifier{cat: cat, seen: map[string][32]byte{}}
}

// templated reports whether uri is an instance of a resource template
// (the fixed resources are notified on every change).
func (n *resourceNotifier) templated(uri string) bool {
	for _, r := range n.cat.Resources() {
		if r.URI == uri {
			return false
		}
	}
	return true
}

// digest reads uri from the served graph as it is (no catch-up: the
// caller may be the refresh itself); an error (the node is gone) is
// content too.
func (n *resourceNotifier) digest(ctx context.Context, uri string) [32]byte {
	text, _, err := n.cat.ReadResource(tools.WithoutFreshen(ctx), uri)
	if err != nil {
		text = "\x00error: " + err.Error()
	}
	return sha256.Sum256([]byte(text))
}

// subscribed records what the new subscriptions read now. Before the
// first graph is loaded there is nothing to read: baseline fills them in.
func (n *resourceNotifier) subscribed(ctx context.Context, uris []string) {
	if n.cat.Index() == nil {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, u := range uris {
		if _, ok := n.seen[u]; !ok && n.templated(u) {
			n.seen[u] = n.digest(ctx, u)
		}
	}
}

// baseline records the subscriptions made while the first graph loaded.
func (n *resourceNotifier) baseline() {
	if n.srv == nil {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, u := range n.srv.SubscribedURIs() {
		if _, ok := n.seen[u]; !ok && n.templated(u) {
			n.seen[u] = n.digest(context.Background(), u)
		}
	}
}

// graphChanged notifies after the served graph was replaced: every fixed
// resource, and the subscribed templated ones whose text changed (or
// whose earlier text is unknown). Digests of URIs no one is subscribed
// to any more are dropped.
func (n *resourceNotifier) graphChanged() {
	if n.srv == nil {
		return
	}
	for _, r := range n.cat.Resources() {
		n.srv.NotifyResourceUpdated(r.URI)
	}
	subs := n.srv.SubscribedURIs()
	n.mu.Lock()
	var changed []string
	for u := range n.seen {
		if _, ok := slices.BinarySearch(subs, u); !ok {
			delete(n.seen, u)
		}
	}
	for _, u := range subs {
		if !n.templated(u) {
			continue
		}
		d := n.digest(context.Background(), u)
		if old, ok := n.seen[u]; !ok || old != d {
			changed = append(changed, u)
		}
		n.seen[u] = d
	}
	n.mu.Unlock()
	for _, u := range changed {
		n.srv.NotifyResourceUpdated(u)
	}
}
