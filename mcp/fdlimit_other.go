//go:build !unix

package mcp

// fdLimit is unknown off Unix: the MaxConns default stands.
func fdLimit() int { return 0 }
