package abi

import (
	"reflect"
	"strings"
	"testing"
)

// TestProjectOutputRoundTrip: what a plugin answers is what the host
// reads, and out-of-bounds answers are refused with the reason.
func TestProjectOutputRoundTrip(t *testing.T) {
	for _, out := range []ProjectOutput{
		{},
		{Info: []byte("mod\t.\tstd")},
		{Info: []byte{0, 1, 2}, Summary: []string{`module "m" (go.mod at the root: /m/go.mod)`}, Warnings: []string{"a", "b"}},
	} {
		got, err := DecodeProjectOutput(EncodeProjectOutput(&out))
		if err != nil {
			t.Fatalf("%+v: %v", out, err)
		}
		if len(got.Info) == 0 {
			got.Info = out.Info // nil and empty are one answer
		}
		if !reflect.DeepEqual(*got, out) {
			t.Errorf("round trip = %+v, want %+v", *got, out)
		}
	}
	many := make([]string, MaxProjectLines+1)
	for _, tt := range []struct {
		name string
		raw  []byte
		want string
	}{
		{"too many lines", EncodeProjectOutput(&ProjectOutput{Summary: many}), "lines of one kind"},
		{"line too long", EncodeProjectOutput(&ProjectOutput{Warnings: []string{strings.Repeat("x", MaxProjectLineBytes+1)}}), "at most 1024"},
		{"not UTF-8", EncodeProjectOutput(&ProjectOutput{Summary: []string{"\xff"}}), "not UTF-8"},
		{"trailing bytes", append(EncodeProjectOutput(&ProjectOutput{}), 7), "trailing"},
		{"raw info of an older sdk", []byte("mod\t.\tstd"), ""},
	} {
		if _, err := DecodeProjectOutput(tt.raw); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want one containing %q", tt.name, err, tt.want)
		}
	}
}

// FuzzDecodeProjectOutput: the host decodes a plugin's project answer,
// which is untrusted: no panic, and what decodes re-encodes the same.
func FuzzDecodeProjectOutput(f *testing.F) {
	f.Add(EncodeProjectOutput(&ProjectOutput{Info: []byte("root\tnet/http"), Summary: []string{"s"}, Warnings: []string{"w"}}))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		out, err := DecodeProjectOutput(b)
		if err != nil {
			return
		}
		again, err := DecodeProjectOutput(EncodeProjectOutput(out))
		if err != nil || string(again.Info) != string(out.Info) || !reflect.DeepEqual(again.Summary, out.Summary) || !reflect.DeepEqual(again.Warnings, out.Warnings) {
			t.Fatalf("re-decoding %+v = %+v, %v", out, again, err)
		}
	})
}
