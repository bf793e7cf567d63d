package resolve

import (
	"testing"

	"github.com/synaptic-graph/synaptic/core/graph"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

func TestGoPlatformFile(t *testing.T) {
	for _, tc := range []struct {
		path string
		want bool
	}{
		{"net/http/roundtrip.go", false},
		{"net/http/roundtrip_js.go", true},
		{"os/exec_unix.go", false}, // unix is a build tag, not a GOOS suffix
		{"os/exec_windows.go", true},
		{"runtime/sys_linux_amd64.go", true},
		{"runtime/asm_arm64.go", true},
		{"os/file_windows_test.go", true},
		{"os/os_test.go", false},
		{"linux.go", false}, // the part before the first _ is ignored
		{"x/linux_test.go", false},
		{"x/a_linux_test.go", true},
		{"x/a_b_c.go", false},
	} {
		if got := goPlatformFile(tc.path); got != tc.want {
			t.Errorf("goPlatformFile(%q) = %v, want %v", tc.path, got, tc.want)
		}
	}
}

// TestGoBuildVariants: Go's same-named declarations are build variants.
// The portable one (no GOOS/GOARCH suffix) is linked; variants that are all
// platform-specific link nothing.
func TestGoBuildVariants(t *testing.T) {
	pkg := func(p string, syms ...abi.Symbol) File {
		return File{Path: p, Language: "go", Family: "go", Facts: &abi.Facts{Package: "http", Symbols: syms}}
	}
	files := []File{
		pkg("http/transport.go", abi.Symbol{Name: "Transport", Kind: "struct", Parent: -1, Span: sp(1)}),
		pkg("http/roundtrip.go",
			abi.Symbol{Name: "RoundTrip", Kind: "method", Receiver: "Transport", Parent: -1, Span: sp(2)},
			abi.Symbol{Name: "dial", Kind: "function", Parent: -1, Span: sp(3)}),
		pkg("http/roundtrip_js.go",
			abi.Symbol{Name: "RoundTrip", Kind: "method", Receiver: "Transport", Parent: -1, Span: sp(2)},
			abi.Symbol{Name: "dial", Kind: "function", Parent: -1, Span: sp(3)}),
		pkg("http/sys_linux.go", abi.Symbol{Name: "sysOpen", Kind: "function", Parent: -1, Span: sp(1)}),
		pkg("http/sys_windows.go", abi.Symbol{Name: "sysOpen", Kind: "function", Parent: -1, Span: sp(1)}),
		{Path: "http/client.go", Language: "go", Family: "go", Facts: &abi.Facts{
			Package: "http",
			Symbols: []abi.Symbol{{Name: "send", Kind: "function", Parent: -1, Span: sp(1)}},
			Calls: []abi.Call{
				{Caller: 0, Name: "RoundTrip", Receiver: "t", ReceiverType: "Transport", Line: 2},
				{Caller: 0, Name: "dial", Line: 3},
				{Caller: 0, Name: "sysOpen", Line: 4},
			},
		}},
	}
	g, st := Build(files, Options{})
	edges := edgeSet(g)
	for _, k := range []string{
		"http_client_send -calls-> http_roundtrip_transport_roundtrip",
		"http_client_send -calls-> http_roundtrip_dial",
	} {
		if e, ok := edges[k]; !ok || e.Confidence != graph.Extracted {
			t.Errorf("missing EXTRACTED edge %s", k)
		}
	}
	for k := range edges {
		if k == "http_client_send -calls-> http_roundtrip_js_transport_roundtrip" || k == "http_client_send -calls-> http_roundtrip_js_dial" {
			t.Errorf("linked the js variant: %s", k)
		}
	}
	if st.Unresolved != 1 {
		t.Errorf("stats = %+v, want sysOpen (linux and windows variants) unresolved", st)
	}
}
