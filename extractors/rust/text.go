package main

import (
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// maxReceiver bounds the receiver text of a call. A receiver that is itself
// a call chain or a lambda can span many lines; repeating it for every link
// of a long chain would make the facts quadratic in the chain length, and
// the core cannot resolve such receivers anyway.
const maxReceiver = 64

// receiverText is the receiver expression as written, on one line and
// clipped to maxReceiver bytes.
func receiverText(s string) string { return extract.ReceiverText(s, maxReceiver) }
