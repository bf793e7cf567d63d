package graphbin

import (
	"encoding/binary"
	"hash/crc32"

	"github.com/synaptic-graph/synaptic/core/graph"
)

// Deferred is a sidecar body encoded but for the nodes' communities.
// Communities are the only part of the body that depends on them, and
// they add no string to the table: extract encodes the rest while the
// communities are computed, on the core graph.json's links leave idle,
// and Finish puts the communities in once they are set. The bytes are
// EncodeBodyIndexed's.
type Deferred struct {
	g     *graph.Graph
	table []byte
	nodes []byte  // graph header, node count and node records, communities left out
	cuts  []int32 // per node: where its record starts in nodes, and where its community goes
	edges []byte  // edge count and records
	crc   uint32  // of table
}

// EncodeDeferred encodes x's graph for Finish. Until Finish it reads no
// node's Community, which another goroutine may still be setting.
func EncodeDeferred(x *graph.Index) *Deferred {
	e := indexedEncoder(x)
	e.cuts = make([]int32, 0, 2*len(x.G.Nodes))
	edgesAt := e.records(x.G)
	table := e.table()
	return &Deferred{g: x.G, table: table, nodes: e.rec[:edgesAt:edgesAt], cuts: e.cuts,
		edges: e.rec[edgesAt:], crc: crc32.Checksum(table, castagnoli)}
}

// Finish returns the body with the nodes' communities as they are now.
func (d *Deferred) Finish() *Body {
	nodes := d.g.Nodes
	// A community is a varint of at most binary.MaxVarintLen64 bytes.
	out := make([]byte, 0, len(d.nodes)+binary.MaxVarintLen64*len(nodes))
	from := 0
	if len(nodes) > 0 {
		from = int(d.cuts[0])
	}
	out = append(out, d.nodes[:from]...) // graph header and node count
	for i := range nodes {
		start, hole := int(d.cuts[2*i]), int(d.cuts[2*i+1])
		end := len(d.nodes)
		if 2*i+2 < len(d.cuts) {
			end = int(d.cuts[2*i+2])
		}
		c := nodes[i].Community
		flags := d.nodes[start]
		if c != nil {
			flags |= nodeCommunity
		}
		out = append(out, flags)
		out = append(out, d.nodes[start+1:hole]...)
		if c != nil {
			out = binary.AppendVarint(out, int64(*c))
		}
		out = append(out, d.nodes[hole:end]...)
	}
	if len(nodes) == 0 {
		out = append(out, d.nodes...)
	}
	crc := crc32.Update(crc32.Update(d.crc, castagnoli, out), castagnoli, d.edges)
	b := &Body{table: d.table, rec: out, tail: d.edges, size: len(d.table) + len(out) + len(d.edges), crc: crc}
	*d = Deferred{}
	return b
}
