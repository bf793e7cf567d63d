package mcp

import (
	"crypto/sha256"
	"crypto/subtle"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/synaptic-graph/synaptic/mcp/internal/jsonrpc"
)

// Guards are the checks every HTTP request passes before any handler runs:
// the Host/Origin allowlist against DNS rebinding, then the API key. Use
// Wrap to put them in front of /mcp and any other route (such as /api/*).
type Guards struct {
	// APIKey, when not blank, must arrive as "X-API-Key: <key>" or
	// "Authorization: Bearer <key>" (scheme case-insensitive); otherwise 401.
	APIKey string
	// Addr is the address the listener is bound to (host:port, e.g. from
	// net.Listener.Addr). Requests must name localhost, 127.0.0.1, [::1] or
	// this host, with or without a port, in Host (and Origin, when sent);
	// otherwise 403. A wildcard bind (0.0.0.0, ::, or an empty host)
	// disables the check as an intentional public exposure.
	Addr string
}

// Wrap returns next behind the guards.
func (g Guards) Wrap(next http.Handler) http.Handler {
	key := strings.TrimSpace(g.APIKey)
	bound, wildcard := boundHost(g.Addr)
	var keySum [sha256.Size]byte
	if key != "" {
		keySum = sha256.Sum256([]byte(key))
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !wildcard && (!allowedHost(r.Host, bound) || !allowedOrigin(r.Header.Get("Origin"), bound)) {
			refuse(w, http.StatusForbidden, "forbidden host: requests must name localhost, 127.0.0.1, [::1] or the bound address in Host and Origin")
			return
		}
		if isOAuthDiscovery(r.URL.Path) {
			// Clients that met a 401 look for an OAuth server to register
			// with; say plainly there is none, so they stop and ask for
			// the key instead.
			writeOAuthNotFound(w)
			return
		}
		if key != "" {
			// Comparing digests keeps the comparison constant-time even
			// in the key's length.
			presented := presentedKey(r)
			got := sha256.Sum256([]byte(presented))
			if subtle.ConstantTimeCompare(got[:], keySum[:]) != 1 {
				w.Header().Set("WWW-Authenticate", `Bearer realm="synaptic", error="invalid_token", error_description="send the API key as X-API-Key: <key> or Authorization: Bearer <key>"`)
				msg := "unauthorized: missing API key"
				if presented != "" {
					msg = "unauthorized: wrong API key"
				}
				refuse(w, http.StatusUnauthorized, msg+`: send it in the header "X-API-Key: <key>" or "Authorization: Bearer <key>" (the key the server was started with, --api-key or $SYNAPTIC_API_KEY); this server does not use OAuth`)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// Exposed reports whether the guards leave a public bind unauthenticated:
// a wildcard address and no API key. Embedders print a warning for it.
func (g Guards) Exposed() bool {
	_, wildcard := boundHost(g.Addr)
	return wildcard && strings.TrimSpace(g.APIKey) == ""
}

func presentedKey(r *http.Request) string {
	if k := r.Header.Get("X-API-Key"); k != "" {
		return strings.TrimSpace(k)
	}
	scheme, token, ok := strings.Cut(strings.TrimSpace(r.Header.Get("Authorization")), " ")
	if ok && strings.EqualFold(scheme, "Bearer") {
		return strings.TrimSpace(token)
	}
	return ""
}

// boundHost returns the normalized host of addr and whether it is a
// wildcard. An empty addr means "unknown": only loopback names pass.
func boundHost(addr string) (host string, wildcard bool) {
	if addr == "" {
		return "", false
	}
	h, _, err := net.SplitHostPort(addr)
	if err != nil {
		h = addr
	}
	h = normalizeHost(h)
	if h == "" {
		return "", true
	}
	if ip := net.ParseIP(h); ip != nil && ip.IsUnspecified() {
		return "", true
	}
	return h, false
}

// normalizeHost lower-cases a host and strips IPv6 brackets.
func normalizeHost(h string) string {
	return strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(h, "["), "]"))
}

func allowedHost(hostport, bound string) bool {
	h, _, err := net.SplitHostPort(hostport)
	if err != nil {
		h = hostport // no port
	}
	switch h = normalizeHost(h); h {
	case "localhost", "127.0.0.1", "::1":
		return true
	case "":
		return false
	}
	return h == bound
}

func allowedOrigin(origin, bound string) bool {
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false
	}
	return allowedHost(u.Host, bound)
}

// refuse answers a request the guards turn away without reading its body,
// and closes the connection: a client that is not allowed in does not get
// to hold a connection open by stalling or trickling its body.
func refuse(w http.ResponseWriter, status int, msg string) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Connection", "close") // also stops net/http draining the body first
	w.WriteHeader(status)
	_, _ = w.Write(jsonrpc.EncodeError(nil, &Error{Code: CodeInvalidRequest, Message: msg}))
	rc := http.NewResponseController(w)
	_ = rc.Flush()
	// The unread body is discarded on the way out; end that read now.
	_ = rc.SetReadDeadline(time.Now())
}

// isOAuthDiscovery reports the well-known paths OAuth-capable MCP clients
// probe (RFC 9728, RFC 8414, OpenID discovery), with any suffix.
func isOAuthDiscovery(path string) bool {
	for _, p := range []string{"/.well-known/oauth-protected-resource", "/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"} {
		if path == p || strings.HasPrefix(path, p+"/") {
			return true
		}
	}
	return false
}

func writeOAuthNotFound(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Connection", "close")
	w.WriteHeader(http.StatusNotFound)
	_, _ = io.WriteString(w, `{"error":"not_found","error_description":"synaptic does not use OAuth: there is nothing to register with. If the server was started with an API key, send it in the header X-API-Key: <key> or Authorization: Bearer <key>."}`+"\n")
	_ = http.NewResponseController(w).SetReadDeadline(time.Now())
}
