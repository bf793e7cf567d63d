package pkg

import "testing"

func TestServe(t *testing.T) {
	NewServer().Serve()
}
