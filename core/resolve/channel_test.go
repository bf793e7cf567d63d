package resolve

import (
	"strings"
	"testing"

	"github.com/synaptic-graph/synaptic/core/graph"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

func TestChannels(t *testing.T) {
	files := []File{
		{Path: "main.ts", Language: "typescript", Family: "ecmascript", Facts: &abi.Facts{
			Symbols: []abi.Symbol{{Name: "saveDocument", Kind: "function", Parent: -1, Span: sp(3)}, {Name: "setup", Kind: "function", Parent: -1, Span: sp(7)}},
			Channels: []abi.ChannelSite{
				{From: 1, Kind: abi.ChannelIPC, Role: abi.ChannelHandle, Name: "save-doc", Handler: "saveDocument", Line: 8},
				{From: 1, Kind: abi.ChannelIPC, Role: abi.ChannelHandle, Name: "log", Line: 9},                        // inline: the registrar
				{From: 1, Kind: abi.ChannelIPC, Role: abi.ChannelHandle, Name: "orphan", Line: 10},                    // no sender: no node
				{From: 1, Kind: abi.ChannelIPC, Role: abi.ChannelHandle, Name: "save-doc", Handler: "nope", Line: 11}, // unresolved: not guessed
			},
		}},
		{Path: "renderer.ts", Language: "typescript", Family: "ecmascript", Facts: &abi.Facts{
			Symbols: []abi.Symbol{{Name: "save", Kind: "function", Parent: -1, Span: sp(3)}},
			Channels: []abi.ChannelSite{
				{From: 0, Kind: abi.ChannelIPC, Role: abi.ChannelSend, Name: "save-doc", Line: 4},
				{From: 0, Kind: abi.ChannelIPC, Role: abi.ChannelSend, Name: "log", Line: 5},
				{From: -1, Kind: abi.ChannelEvent, Role: abi.ChannelSend, Name: "log", Line: 9}, // another kind: another channel
			},
		}},
	}
	g, _ := Build(files)
	var got []string
	for _, e := range g.Edges {
		if e.Relation == "calls_service" || e.Relation == "handled_by" {
			if e.Confidence != graph.Inferred || e.Score() != ChannelScore || e.Context != "ipc" {
				t.Errorf("edge %+v", e)
			}
			got = append(got, e.Source+" -"+e.Relation+"-> "+e.Target)
		}
	}
	want := "channel_ipc_log -handled_by-> main_setup|channel_ipc_save_doc -handled_by-> main_savedocument|renderer_save -calls_service-> channel_ipc_log|renderer_save -calls_service-> channel_ipc_save_doc"
	if strings.Join(got, "|") != want {
		t.Fatalf("channel edges:\n got %s\nwant %s", strings.Join(got, "|"), want)
	}
	var labels []string
	for _, n := range g.Nodes {
		if n.Kind == "channel" {
			labels = append(labels, n.Label+" "+string(n.Extra["_node_type"]))
		}
	}
	if strings.Join(labels, ",") != `ipc #log "ipc_channel",ipc #save-doc "ipc_channel"` {
		t.Fatalf("channel nodes %v", labels)
	}
}
