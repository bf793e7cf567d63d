package main

import (
	"reflect"
	"testing"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

func TestVariants(t *testing.T) {
	os := func(neg bool, v ...string) abi.Constraint {
		return abi.Constraint{Axis: axisOS, Values: v, Negated: neg}
	}
	arch := func(v ...string) abi.Constraint { return abi.Constraint{Axis: axisArch, Values: v} }
	tests := []struct {
		path, src string
		want      []abi.Constraint
	}{
		{"net/sock_linux.go", "package net\n", []abi.Constraint{os(false, "android", "linux")}},
		{"x/zsys_windows_amd64_test.go", "package x\n", []abi.Constraint{os(false, "windows"), arch("amd64")}},
		{"x/mmap_arm64.go", "package x\n", []abi.Constraint{arch("arm64")}},
		{"x/linux.go", "package x\n", nil}, // before the first _ is the name
		{"net/sys_cloexec.go", "// Copyright\n\n//go:build aix || darwin\n\npackage net\n", []abi.Constraint{os(false, "aix", "darwin", "ios")}},
		{"net/sock_posix.go", "//go:build unix || windows\n\npackage net\n", []abi.Constraint{os(false, append(unixOS[:len(unixOS):len(unixOS)], "windows")...)}},
		{"http/roundtrip.go", "//go:build !js\n\npackage http\n", []abi.Constraint{os(true, "js")}},
		{"x/a.go", "//go:build linux && !cgo && amd64\n\npackage x\n", []abi.Constraint{os(false, "android", "linux"), arch("amd64")}},
		{"x/b.go", "//go:build linux || arm64\n\npackage x\n", nil}, // || across axes: not said
		// each branch of an || says something of goos: their union
		{"socktest/switch_unix.go", "//go:build unix || (js && wasm) || wasip1\n\npackage socktest\n", []abi.Constraint{os(false, append(unixOS[:len(unixOS):len(unixOS)], "js", "wasip1")...)}},
		{"x/e.go", "//go:build (linux && amd64) || (darwin && arm64)\n\npackage x\n", []abi.Constraint{os(false, "android", "darwin", "ios", "linux"), arch("amd64", "arm64")}},
		{"x/f.go", "//go:build (linux && cgo) || windows\n\npackage x\n", []abi.Constraint{os(false, "android", "linux", "windows")}},
		// negations inside ||: the complement among go/build's values
		{"net/tcpsock_unix.go", "//go:build (!windows && !solaris) || illumos\n\npackage net\n", []abi.Constraint{os(false, "aix", "android", "darwin", "dragonfly", "freebsd", "hurd", "illumos", "ios", "js", "linux", "nacl", "netbsd", "openbsd", "plan9", "wasip1", "zos")}},
		{"x/g.go", "//go:build !(linux && amd64) || windows\n\npackage x\n", nil}, // the negation of two axes: not said
		// wasm is js's and wasip1's only GOARCH, and theirs only
		{"runtime/lock_spinbit.go", "//go:build !wasm\n\npackage runtime\n", []abi.Constraint{{Axis: axisArch, Values: []string{"wasm"}, Negated: true}, os(true, "js", "wasip1")}},
		{"runtime/lock_wasip1.go", "package runtime\n", []abi.Constraint{os(false, "wasip1"), arch("wasm")}},
		{"x/c.go", "package x\n\n//go:build linux\n", nil}, // after the package clause: no constraint
		{"x/d_windows.go", "//go:build !arm\n\npackage x\n", []abi.Constraint{os(false, "windows"), {Axis: axisArch, Values: []string{"arm"}, Negated: true}}},
	}
	for _, tt := range tests {
		got := variants(tt.path, tt.src)
		for i := range got {
			if got[i].Axis == axisOS && len(got[i].Values) > 1 {
				// order as written is not part of the contract
				sortStrings(got[i].Values)
				sortStrings(tt.want[i].Values)
			}
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("variants(%s) = %+v, want %+v", tt.path, got, tt.want)
		}
	}
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
