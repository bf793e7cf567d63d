package abi

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

func TestImplicitSectionRoundTrip(t *testing.T) {
	f := v2Facts()
	base := EncodeFacts(nil, f)
	f.Calls[1].Implicit = true
	b := EncodeFacts(nil, f)
	got, err := DecodeFacts(b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, f) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got.Calls, f.Calls)
	}
	// Facts without an implicit call encode as before; a cut inside the
	// section is an error.
	if !bytes.HasPrefix(b, base) || len(b) == len(base) {
		t.Fatal("the implicit section is not a trailing addition")
	}
	for i := len(base) + 1; i < len(b); i++ {
		if _, err := DecodeFacts(b[:i]); err == nil {
			t.Fatalf("truncation at %d of %d accepted", i, len(b))
		}
	}
}

func TestImplicitSectionRejected(t *testing.T) {
	base := EncodeFacts(nil, v2Facts()) // two calls
	tests := map[string]struct {
		section []byte
		want    string
	}{
		"empty":        {[]byte{implicitSectionTag, 0}, "empty implicit"},
		"out of range": {[]byte{implicitSectionTag, 1, 2}, "out of range"},
		"repeated":     {[]byte{implicitSectionTag, 2, 1, 1}, "out of order"},
		"falling":      {[]byte{implicitSectionTag, 2, 1, 0}, "out of order"},
	}
	for name, tt := range tests {
		_, err := DecodeFacts(append(bytes.Clone(base), tt.section...))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want %q", name, err, tt.want)
		}
	}
}
