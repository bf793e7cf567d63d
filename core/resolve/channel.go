package resolve

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/synaptic-graph/synaptic/core/graph"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// ChannelScore is the confidence of the edges through a channel node: the
// names match as literals, but whether a message is sent at run time, and
// to which registered handler, is not provable statically.
const ChannelScore = 0.5

// channelNodeTypes are the "_node_type" marks of channel nodes, the
// vocabulary Synaptic's boundary nodes use.
var channelNodeTypes = map[abi.ChannelKind]string{
	abi.ChannelEvent: "event_channel", abi.ChannelIPC: "ipc_channel", abi.ChannelWS: "ws_message",
}

type channelEnd struct {
	node string // sender host, or the handler
	file string
	line uint32
}

type channelKey struct {
	kind abi.ChannelKind
	name string
}

// resolveChannels joins the senders and handlers of each runtime channel
// (kind and name) on one channel node, "ipc #save": sender -calls_service->
// channel -handled_by-> handler, both INFERRED, so affected, find_callers
// and shortest_path cross the boundary. A channel seen from one side only
// gets no node; a handler passed by a name that resolves to no single
// function is not guessed.
func (r *resolver) resolveChannels() {
	senders := map[channelKey][]channelEnd{}
	handlers := map[channelKey][]channelEnd{}
	for fi := range r.files {
		f := &r.files[fi]
		for _, c := range f.Facts.Channels {
			if channelNodeTypes[c.Kind] == "" {
				continue // http: route.go; exec, native, library: crosslang.go
			}
			host := f.id
			if c.From >= 0 {
				host = r.syms[f.first+c.From].id
			}
			k := channelKey{c.Kind, c.Name}
			if c.Role == abi.ChannelSend {
				senders[k] = append(senders[k], channelEnd{host, f.Path, c.Line})
				continue
			}
			target := host
			if c.Handler != "" {
				t := r.handlerTarget(f, c.Handler)
				if t < 0 {
					continue
				}
				target = r.syms[t].id
			}
			handlers[k] = append(handlers[k], channelEnd{target, f.Path, c.Line})
		}
	}
	keys := make([]channelKey, 0, len(senders))
	for k := range senders {
		if len(handlers[k]) > 0 {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, func(a, b channelKey) int {
		if a.kind != b.kind {
			return strings.Compare(string(a.kind), string(b.kind))
		}
		return strings.Compare(a.name, b.name)
	})
	for _, k := range keys {
		id := r.uniqueID(graph.MakeID("channel", string(k.kind), k.name), 0)
		nt, _ := json.Marshal(channelNodeTypes[k.kind])
		r.nodes = append(r.nodes, graph.Node{
			ID: id, Label: string(k.kind) + " #" + k.name, FileType: "code", Kind: "channel",
			Extra: map[string]json.RawMessage{"_node_type": nt},
		})
		for _, s := range senders[k] {
			r.edge(s.node, id, "calls_service", graph.Inferred, ChannelScore, s.file, s.line)
			r.edges[len(r.edges)-1].Context = string(k.kind)
		}
		for _, h := range handlers[k] {
			r.edge(id, h.node, "handled_by", graph.Inferred, ChannelScore, h.file, h.line)
			r.edges[len(r.edges)-1].Context = string(k.kind)
		}
	}
}

// handlerTarget is the one callable a handler name denotes: in the
// registering file first, else the only one of the language family.
func (r *resolver) handlerTarget(f *fileInfo, name string) int32 {
	found := int32(-1)
	for g := f.first; g < f.first+int32(len(f.Facts.Symbols)); g++ {
		if s := &r.syms[g]; s.name == name && isCallable(s.kind) {
			if found >= 0 {
				return -1
			}
			found = g
		}
	}
	if found >= 0 {
		return found
	}
	var one int32 = -1
	for _, g := range r.byFamily[f.Family][name] {
		if isCallable(r.syms[g].kind) {
			if one >= 0 {
				return -1
			}
			one = g
		}
	}
	return one
}
