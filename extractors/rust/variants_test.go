//go:build !wasip1

package main

import (
	"reflect"
	"testing"

	"github.com/synaptic-graph/synaptic/plugins/plugintest"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

func TestCfgConstraints(t *testing.T) {
	fam := func(v ...string) abi.Constraint { return abi.Constraint{Axis: axisFamily, Values: v} }
	os := func(neg bool, v ...string) abi.Constraint {
		return abi.Constraint{Axis: axisOS, Values: v, Negated: neg}
	}
	tests := map[string][]abi.Constraint{
		"(unix)":                     {fam("unix")},
		"(windows)":                  {fam("windows")},
		`(target_os = "linux")`:      {os(false, "linux")},
		`(not(target_os = "macos"))`: {os(true, "macos")},
		`(any(target_os = "linux", target_os = "android"))`:    {os(false, "linux", "android")},
		`(all(unix, not(target_os = "macos"), feature = "x"))`: {fam("unix"), os(true, "macos")},
		`(target_arch = "x86_64")`:                             {{Axis: axisArch, Values: []string{"x86_64"}}},
		`(any(unix, target_os = "wasi"))`:                      nil, // two axes: not exact, left out
		`(not(any(unix, windows)))`:                            {{Axis: axisFamily, Values: []string{"unix", "windows"}, Negated: true}},
		`(feature = "std")`:                                    nil,
		`(not(not(unix)))`:                                     nil,
		"(test)":                                               nil,
		"(unix":                                                nil,
		`(target_os = "linux)`:                                 nil,
		"":                                                     nil,
	}
	for args, want := range tests {
		if got := cfgConstraints(args); !reflect.DeepEqual(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Errorf("cfgConstraints(%q) = %+v, want %+v", args, got, want)
		}
	}
}

// TestFileVariants: only a file-level #![cfg(…)] makes the file a build
// variant; #![cfg(test)] makes it a test file; an item's #[cfg] does
// neither.
func TestFileVariants(t *testing.T) {
	f := plugintest.ExtractSource(t, Extractor{}, "src/sys/unix.rs", []byte("//! Unix.\n#![cfg(unix)]\n#![allow(dead_code)]\nfn f() {}\n#[cfg(windows)]\nfn g() {}\n"))
	if want := []abi.Constraint{{Axis: axisFamily, Values: []string{"unix"}}}; !reflect.DeepEqual(f.File.Variants, want) || f.File.Test {
		t.Errorf("file facts %+v, want variants %+v, no test", f.File, want)
	}
	f = plugintest.ExtractSource(t, Extractor{}, "src/checks.rs", []byte("#![cfg(test)]\nfn f() {}\n"))
	if !f.File.Test || len(f.File.Variants) != 0 {
		t.Errorf("file facts %+v, want a test file without variants", f.File)
	}
	f = plugintest.ExtractSource(t, Extractor{}, "src/m.rs", []byte("mod inner {\n    #![cfg(unix)]\n}\n"))
	if len(f.File.Variants) != 0 {
		t.Errorf("an inner module's cfg made the file a variant: %+v", f.File.Variants)
	}
}

// FuzzCfgConstraints: any attribute arguments parse without a panic into
// constraints on the known axes only.
func FuzzCfgConstraints(f *testing.F) {
	f.Add(`(all(unix, not(target_os = "macos"), any(target_arch = "x86", target_arch = "arm")))`)
	f.Add("(((((")
	f.Fuzz(func(t *testing.T, args string) {
		for _, c := range cfgConstraints(args) {
			if c.Axis != axisFamily && c.Axis != axisOS && c.Axis != axisArch || len(c.Values) == 0 {
				t.Fatalf("%q: constraint %+v", args, c)
			}
		}
	})
}
