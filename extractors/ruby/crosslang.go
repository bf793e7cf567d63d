package main

import (
	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// shellCalls run a command line (Kernel, Open3).
var shellCalls = map[string]bool{
	"system": true, "exec": true, "spawn": true, "capture2": true, "capture2e": true, "capture3": true,
	"popen2": true, "popen3": true, "popen": true,
}

// crossLang records a command run through Kernel#system/exec/spawn,
// Open3 or IO.popen when it runs a script of the repository (invokes):
// system("ruby", "scripts/x.rb") or system("ruby scripts/x.rb").
func (x *state) crossLang(name string, recv, args node, line uint32) {
	t := x.t
	if !shellCalls[name] || args == None {
		return
	}
	if recv != None {
		if r := t.Text(recv); r != "Open3" && r != "IO" && r != "Kernel" && r != "Process" {
			return
		}
	}
	var argv []string
	for a := range t.NamedChildren(args) {
		s, ok := x.stringLit(a)
		if !ok {
			if len(argv) == 0 && t.KindName(a) == "hash" {
				continue // system({"ENV" => "x"}, "cmd")
			}
			break
		}
		argv = append(argv, s)
	}
	if len(argv) == 1 {
		argv = extract.SplitCommand(argv[0])
	}
	if script := extract.ScriptOf(argv); script != "" {
		x.f.ChannelSite(abi.ChannelSite{From: x.caller(), Kind: abi.ChannelExec, Role: abi.ChannelSend, Name: script, Line: line})
	}
}

// dynamicDef records a def of method_missing (or respond_to_missing?):
// the class answers names no definition spells, an opaque site.
func (x *state) dynamicDef(name string, sym int32, line uint32) {
	if name == "method_missing" || name == "respond_to_missing?" {
		x.f.DynamicSite(abi.DynamicSite{From: sym, Kind: abi.DynamicReflection, Line: line})
	}
}
