package mcp

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"strings"
)

// sealState wraps a handler's requestState with an HMAC, because the spec
// makes the client carry it and so it must be treated as attacker-controlled.
func (s *Server) sealState(state string) string {
	payload := base64.RawURLEncoding.EncodeToString([]byte(state))
	return payload + "." + base64.RawURLEncoding.EncodeToString(s.stateMAC(payload))
}

// openState verifies and unwraps a sealed requestState.
func (s *Server) openState(sealed string) (string, bool) {
	payload, sig, ok := strings.Cut(sealed, ".")
	if !ok {
		return "", false
	}
	got, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil || !hmac.Equal(got, s.stateMAC(payload)) {
		return "", false
	}
	b, err := base64.RawURLEncoding.DecodeString(payload)
	return string(b), err == nil
}

func (s *Server) stateMAC(payload string) []byte {
	m := hmac.New(sha256.New, s.stateKey)
	m.Write([]byte(payload))
	return m.Sum(nil)
}
