package resolve

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

func TestCrossLanguage(t *testing.T) {
	site := func(from int32, kind abi.ChannelKind, name string, line uint32) abi.ChannelSite {
		return abi.ChannelSite{From: from, Kind: kind, Role: abi.ChannelSend, Name: name, Line: line}
	}
	fn := func(name string, line uint32) abi.Symbol {
		return abi.Symbol{Name: name, Kind: "function", Parent: -1, Span: sp(line)}
	}
	files := []File{
		{Path: "tools/build.py", Family: "py", Facts: &abi.Facts{
			Symbols: []abi.Symbol{fn("run", 1)},
			Channels: []abi.ChannelSite{
				site(0, abi.ChannelExec, "gen.sh", 2),            // beside the file: exact
				site(0, abi.ChannelExec, "scripts/deploy.js", 3), // from the root: exact
				site(0, abi.ChannelExec, "bin/report.rb", 4),     // one file of that name elsewhere: by name
				site(0, abi.ChannelExec, "missing.sh", 5),        // no such file: no edge
				site(0, abi.ChannelExec, "/usr/bin/env", 6),      // absolute: outside the repo
				site(0, abi.ChannelLibrary, "libfast.so", 7),
				site(0, abi.ChannelNative, "cc:fast_sum", 8),
				site(0, abi.ChannelNative, "cc:twice", 9), // two definitions: not guessed
				site(0, abi.ChannelNative, "nosep", 10),   // malformed: ignored
			},
		}},
		{Path: "tools/gen.sh", Family: "sh", Facts: &abi.Facts{}},
		{Path: "scripts/deploy.js", Family: "js", Facts: &abi.Facts{
			Channels: []abi.ChannelSite{site(-1, abi.ChannelLibrary, "../build/Release/fast.node", 1)},
		}},
		{Path: "lib/report.rb", Family: "rb", Facts: &abi.Facts{}},
		{Path: "native/fast.c", Family: "cc", Facts: &abi.Facts{Symbols: []abi.Symbol{fn("fast_sum", 3), fn("twice", 9)}}},
		{Path: "native/other.c", Family: "cc", Facts: &abi.Facts{Symbols: []abi.Symbol{fn("twice", 1)}}},
	}
	g, _ := Build(files)
	var got []string
	for _, e := range g.Edges {
		if e.Relation == "invokes" || e.Relation == "binds_native" {
			got = append(got, fmt.Sprintf("%s -%s-> %s %.1f", e.Source, e.Relation, e.Target, e.ConfidenceScore))
		}
	}
	slices.Sort(got)
	want := []string{
		"scripts_deploy_js -binds_native-> native_fast 0.5",
		"tools_build_run -binds_native-> native_fast 0.5",
		"tools_build_run -binds_native-> native_fast_fast_sum 0.5",
		"tools_build_run -invokes-> lib_report_rb 0.4",
		"tools_build_run -invokes-> scripts_deploy_js 0.6",
		"tools_build_run -invokes-> tools_gen_sh 0.6",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("cross-language edges:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	libs := 0
	for _, n := range g.Nodes {
		if n.Kind == "native_library" {
			libs++
			if n.Label != "native #fast" {
				t.Errorf("library node label %q", n.Label)
			}
		}
	}
	if libs != 1 {
		t.Errorf("%d library nodes, want 1 shared by both loaders", libs)
	}
}

func TestLibraryName(t *testing.T) {
	for in, want := range map[string]string{
		"libfast.so": "fast", "./build/libfast.so.1": "fast", "fast": "fast", "fast.dll": "fast",
		"build/Release/addon.node": "addon", "libz.dylib": "z", "lib.so": "lib", `C:\\x\\y.dll`: "y", "": "",
	} {
		if got := libraryName(in); got != want {
			t.Errorf("libraryName(%q) = %q, want %q", in, got, want)
		}
	}
}
