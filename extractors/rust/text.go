package main

import (
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// receiverText is the receiver expression as written, on one line and
// clipped to the sdk's one cap (extract.Receiver).
func receiverText(s string) string { return extract.Receiver(s) }
