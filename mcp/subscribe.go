package mcp

import (
	"context"
	"maps"
	"slices"
	"strings"
)

// Bounds on what one client may subscribe to, so subscriptions cannot be
// used to grow the server's memory (100 sessions × 1,000 × 1 KB URIs once
// added 257 MB).
const (
	// MaxSubscriptions is the most resource subscriptions one legacy
	// session or one subscriptions/listen request holds.
	MaxSubscriptions = 64
	// MaxURIBytes is the longest resource URI the server accepts for a
	// subscription.
	MaxURIBytes = 2048
)

// checkSubscribable refuses a URI that is too long or names no listed
// resource and matches no resource template.
func (s *Server) checkSubscribable(ctx context.Context, uri string, c *Caller) *Error {
	if len(uri) > MaxURIBytes {
		return invalidParams("resource URI too long (%d bytes, max %d)", len(uri), MaxURIBytes)
	}
	if !s.knownResource(ctx, uri) {
		return resourceNotFound(uri, c)
	}
	return nil
}

// knownResource reports whether uri is a listed resource or an instance
// of a listed template.
func (s *Server) knownResource(ctx context.Context, uri string) bool {
	cat := s.opts.Catalog
	if cat.Resources != nil {
		for _, r := range cat.Resources(ctx) {
			if r.URI == uri {
				return true
			}
		}
	}
	if cat.ResourceTemplates != nil {
		for _, t := range cat.ResourceTemplates(ctx) {
			if matchTemplate(t.URITemplate, uri) {
				return true
			}
		}
	}
	return false
}

// matchTemplate matches uri against an RFC 6570 level-1 template: the
// literal text must appear in order and each {variable} stands for at
// least one character (any, '/' included, since node labels are paths).
func matchTemplate(tmpl, uri string) bool {
	lits := []string{}
	for {
		open := strings.IndexByte(tmpl, '{')
		if open < 0 {
			lits = append(lits, tmpl)
			break
		}
		end := strings.IndexByte(tmpl[open:], '}')
		if end < 0 {
			return false
		}
		lits = append(lits, tmpl[:open])
		tmpl = tmpl[open+end+1:]
	}
	rest, ok := strings.CutPrefix(uri, lits[0])
	if !ok {
		return false
	}
	if len(lits) == 1 {
		return rest == ""
	}
	for _, lit := range lits[1 : len(lits)-1] {
		i := strings.Index(rest[min(1, len(rest)):], lit)
		if rest == "" || i < 0 {
			return false
		}
		rest = rest[1+i+len(lit):]
	}
	last := lits[len(lits)-1]
	return len(rest) > len(last) && strings.HasSuffix(rest, last)
}

// subscribe records a legacy session's subscription within the bounds.
func (s *Server) subscribe(ctx context.Context, se *session, uri string, c *Caller) error {
	if e := s.checkSubscribable(ctx, uri, c); e != nil {
		return e
	}
	se.mu.Lock()
	full := !se.subs[uri] && len(se.subs) >= MaxSubscriptions
	if !full {
		se.subs[uri] = true
	}
	se.mu.Unlock()
	if full {
		return invalidParams("too many resource subscriptions (max %d per session): resources/unsubscribe some first", MaxSubscriptions)
	}
	if hook := s.opts.Catalog.Subscribed; hook != nil {
		hook(ctx, []string{uri})
	}
	return nil
}

// SubscribedURIs lists, sorted, every resource URI some modern listen
// stream or legacy session is subscribed to now: what a refresh must
// check for changes.
func (s *Server) SubscribedURIs() []string {
	s.mu.Lock()
	set := map[string]bool{}
	for l := range s.listeners {
		for u := range l.uris {
			set[u] = true
		}
	}
	sessions := make([]*session, 0, len(s.sessions))
	for se := range s.sessions {
		sessions = append(sessions, se)
	}
	s.mu.Unlock()
	for _, se := range sessions {
		se.mu.Lock()
		for u := range se.subs {
			set[u] = true
		}
		se.mu.Unlock()
	}
	return slices.Sorted(maps.Keys(set))
}

// listenURIs keeps the subscribable URIs of a subscriptions/listen
// request, at most MaxSubscriptions; the acknowledgement lists only these,
// so the client sees which ones were not taken.
func (s *Server) listenURIs(ctx context.Context, uris []string) []string {
	var ok []string
	seen := map[string]bool{}
	for _, u := range uris {
		if len(ok) == MaxSubscriptions {
			break
		}
		if seen[u] || len(u) > MaxURIBytes || !s.knownResource(ctx, u) {
			continue
		}
		seen[u] = true
		ok = append(ok, u)
	}
	return ok
}
