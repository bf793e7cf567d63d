package abi

import (
	"reflect"
	"strings"
	"testing"
)

func TestProjectPartsRoundTrip(t *testing.T) {
	for _, parts := range [][]ProjectPart{nil, {}, {{"cfg:.", "d1"}, {"pkg:zod", "d2"}}} {
		out := &ProjectOutput{Info: []byte("x"), Summary: []string{"s"}, Parts: parts}
		back, err := DecodeProjectOutput(EncodeProjectOutput(out))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(back.Parts, parts) {
			t.Errorf("parts %#v came back as %#v", parts, back.Parts)
		}
	}
	if got := PartsDigestOf([]ProjectPart{{"a", "1"}, {"b", "2"}}, "b"); got != "2" {
		t.Errorf("PartsDigestOf = %q", got)
	}
	if got := PartsDigestOf(nil, "b"); got != "" {
		t.Errorf("PartsDigestOf(nil) = %q", got)
	}
	sorted := SortProjectParts([]ProjectPart{{"b", "2"}, {"a", "1"}, {"b", "3"}})
	if !reflect.DeepEqual(sorted, []ProjectPart{{"a", "1"}, {"b", "2"}}) {
		t.Errorf("SortProjectParts = %v", sorted)
	}
}

func TestProjectPartsRefused(t *testing.T) {
	for name, tt := range map[string]struct {
		parts []ProjectPart
		want  string
	}{
		"unsorted":     {[]ProjectPart{{"b", "1"}, {"a", "1"}}, "not sorted"},
		"empty name":   {[]ProjectPart{{"", "1"}}, "empty"},
		"empty digest": {[]ProjectPart{{"a", ""}}, "digest"},
	} {
		_, err := DecodeProjectOutput(EncodeProjectOutput(&ProjectOutput{Parts: tt.parts}))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one saying %q", name, err, tt.want)
		}
	}
}

func TestProjectDepsRoundTrip(t *testing.T) {
	f := &Facts{File: FileFacts{Modules: []string{"a"}, ProjectDeps: SortedDeps([]string{"pkg:zod", "cfg:.", "pkg:zod"})}}
	back, err := DecodeFacts(EncodeFacts(nil, f))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"cfg:.", "pkg:zod"}; !reflect.DeepEqual(back.File.ProjectDeps, want) {
		t.Errorf("deps = %q, want %q", back.File.ProjectDeps, want)
	}
	// Facts without dependencies encode as before.
	plain := &Facts{File: FileFacts{Modules: []string{"a"}}}
	if enc := EncodeFacts(nil, plain); enc[len(enc)-1] == projectDepsSectionTag {
		t.Error("a dependency section written for facts without dependencies")
	}
	bad := EncodeFacts(nil, &Facts{File: FileFacts{ProjectDeps: []string{"b", "a"}}})
	if _, err := DecodeFacts(bad); err == nil || !strings.Contains(err.Error(), "not sorted") {
		t.Errorf("unsorted dependencies: %v", err)
	}
}

func TestKeysSection(t *testing.T) {
	keys := []string{"src/x", "src/x.ts", "src/x.tsx", "src/x/index.ts", "lib/y", ""}
	f := &Facts{Imports: []Import{{Path: "./x", Kind: ImportSymbols, Keys: keys}, {Path: "z", Kind: ImportSideEffect}, {Path: "w", Keys: []string{"w"}}}}
	b := EncodeFacts(nil, f)
	for _, dec := range []func([]byte) (*Facts, error){DecodeFacts, DecodeFactsShared} {
		got, err := dec(b)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.Imports, f.Imports) {
			t.Errorf("imports %+v, want %+v", got.Imports, f.Imports)
		}
	}
	// Front coding: a TypeScript probe list takes a fraction of its
	// spelled-out bytes.
	var probes []string
	spelled := 0
	for _, e := range []string{"", ".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts", "/index.ts", "/index.tsx", "/index.d.ts", "/index.js"} {
		probes = append(probes, "src/internal/operators/map"+e)
		spelled += len(probes[len(probes)-1])
	}
	one := func(keys []string) int {
		return len(EncodeFacts(nil, &Facts{Imports: []Import{{Path: "./map", Kind: ImportSymbols, Keys: keys}}}))
	}
	if size := one(probes) - one(nil); size*3 > spelled {
		t.Errorf("%d bytes for %d bytes of keys: want at most a third", size, spelled)
	}
	// A shared prefix longer than the previous key is refused.
	bad := EncodeFacts(nil, &Facts{Imports: []Import{{Path: "a", Kind: ImportModule}}})
	bad = append(bad, keysSectionTag, 1, 0, 2, 0, 1, 'a', 5, 1, 'b')
	if _, err := DecodeFacts(bad); err == nil || !strings.Contains(err.Error(), "shares 5 bytes") {
		t.Errorf("bad prefix: %v", err)
	}
}
