package abi

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

func callbackFacts() *Facts {
	f := v2Facts()
	f.Symbols[1].Signature.Params[0].Callback = []*TypeRef{nil, {Steps: []TypeStep{{Op: StepNamed, Name: "Subscriber"}}}}
	return f
}

// withoutKeys drops f's import keys, whose section comes after the
// callback one, so the callback section is the last.
func withoutKeys(f *Facts) *Facts {
	for i := range f.Imports {
		f.Imports[i].Keys = nil
	}
	return f
}

func TestCallbackSectionRoundTrip(t *testing.T) {
	f := withoutKeys(callbackFacts())
	b := EncodeFacts(nil, f)
	got, err := DecodeFacts(b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, f) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, f)
	}
	// Facts without callback types encode as before; a cut inside the
	// section is an error.
	base := EncodeFacts(nil, withoutKeys(v2Facts()))
	if !bytes.HasPrefix(b, base) {
		t.Fatal("the callback section is not a trailing addition")
	}
	for i := len(base) + 1; i < len(b); i++ {
		if _, err := DecodeFacts(b[:i]); err == nil {
			t.Fatalf("truncation at %d of %d accepted", i, len(b))
		}
	}
}

func TestCallbackSectionRejected(t *testing.T) {
	tests := map[string]struct {
		mutate func(*Facts)
		want   string
	}{
		"bad ref": {func(f *Facts) {
			f.Symbols[1].Signature.Params[0].Callback = []*TypeRef{{}}
		}, "callback parameter 0"},
		"too many": {func(f *Facts) {
			f.Symbols[1].Signature.Params[0].Callback = make([]*TypeRef, MaxCallbackParams+1)
		}, "callback types"},
	}
	for name, tt := range tests {
		f := callbackFacts()
		tt.mutate(f)
		_, err := DecodeFacts(EncodeFacts(nil, f))
		if err == nil {
			err = f.Validate()
		}
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want %q", name, err, tt.want)
		}
	}
	// A pair naming no parameter is refused at decode.
	b := EncodeFacts(nil, withoutKeys(v2Facts()))
	b = append(b, callbackSectionTag, 1, 0, 9, 1, 0)
	if _, err := DecodeFacts(b); err == nil || !strings.Contains(err.Error(), "no such parameter") {
		t.Errorf("callback types of a missing parameter: err = %v", err)
	}
}
