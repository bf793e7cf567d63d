package extract

import "github.com/synaptic-graph/synaptic/sdk/abi"

// DynamicSite reports a dynamic-dispatch site: reflection, a by-name
// member lookup, eval, a dynamic import. Give Key only when the source
// spells the looked-up name as a string literal; "" records the site as
// opaque.
func (f *File) DynamicSite(s abi.DynamicSite) { f.facts.Dynamic = append(f.facts.Dynamic, s) }

// ChannelSite reports one end of a runtime channel (an event, IPC or
// WebSocket message name): a sender or a handler registration.
func (f *File) ChannelSite(s abi.ChannelSite) { f.facts.Channels = append(f.facts.Channels, s) }
