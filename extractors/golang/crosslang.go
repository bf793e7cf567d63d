package main

import (
	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// cgoFamily is the plugin family of the functions cgo's C.f calls.
const cgoFamily = "c"

// sitePasses switches the passes that record dynamic sites, routes and
// cross-language calls (dynamic.go, route.go, this file), so that
// BenchmarkSitePasses can measure what they add to extraction.
var sitePasses = true

// crossLang records the calls that leave Go: exec.Command running a
// script of the repository (invokes), and cgo's C.f (binds_native) in a
// file that imports "C".
func (w *walker) crossLang(call extract.Node, recv, method string) {
	if !sitePasses {
		return
	}
	switch {
	case recv == "C":
		if w.importsC() {
			w.f.ChannelSite(abi.ChannelSite{From: w.caller(), Kind: abi.ChannelNative, Role: abi.ChannelSend,
				Name: cgoFamily + ":" + method, Line: w.t.StartLine(call)})
		}
	case recv == "exec" && (method == "Command" || method == "CommandContext"):
		args := w.argList(call)
		if method == "CommandContext" && len(args) > 0 {
			args = args[1:]
		}
		var argv []string
		for _, a := range args {
			s := w.goString(a)
			if s == "" {
				break // a computed argument ends what is known
			}
			argv = append(argv, s)
		}
		if script := extract.ScriptOf(argv); script != "" {
			w.f.ChannelSite(abi.ChannelSite{From: w.caller(), Kind: abi.ChannelExec, Role: abi.ChannelSend, Name: script, Line: w.t.StartLine(call)})
		}
	}
}

// importsC reports whether the file has imported cgo's "C".
func (w *walker) importsC() bool {
	for _, im := range w.f.Imports() {
		if im.Path == "C" {
			return true
		}
	}
	return false
}
