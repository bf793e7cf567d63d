package main

import (
	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// shellFunctions run a command line.
var shellFunctions = map[string]bool{
	"exec": true, "shell_exec": true, "system": true, "passthru": true, "proc_open": true, "popen": true,
}

// crossLang records exec("php scripts/x.php") and its kin when the
// command runs a script of the repository (invokes).
func (x *state) crossLang(n node, name string) {
	if !shellFunctions[name] {
		return
	}
	t, g := x.t, x.g
	cmd, ok := x.stringLit(firstArg(t, g, t.Child(n, g.fArguments)))
	if !ok {
		return
	}
	if script := extract.ScriptOf(extract.SplitCommand(cmd)); script != "" {
		x.f.ChannelSite(abi.ChannelSite{From: x.caller(), Kind: abi.ChannelExec, Role: abi.ChannelSend, Name: script, Line: t.StartLine(n)})
	}
}
