package abi

import (
	"bytes"
	"reflect"
	"testing"
)

func TestDynamicSectionRoundTrip(t *testing.T) {
	f := sampleFacts()
	f.Dynamic = []DynamicSite{
		{From: 1, Kind: DynamicReflection, Key: "Serve", Line: 8},
		{From: -1, Kind: DynamicEval, Line: 12},
		{From: 0, Kind: DynamicImport, Key: "plugins.extra", Line: 300},
	}
	b := EncodeFacts(nil, f)
	got, err := DecodeFacts(b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, f) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", got.Dynamic, f.Dynamic)
	}
	// Facts without sites encode exactly as before the section existed.
	base := sampleFacts()
	if !bytes.Equal(EncodeFacts(nil, base), b[:len(EncodeFacts(nil, base))]) {
		t.Fatal("the base encoding changed")
	}
	if !bytes.Equal(EncodeFacts(nil, base), encodeWithEncoder(base)) {
		t.Fatal("facts without sites differ from the reference encoding")
	}
	// Cut inside the section: refused.
	for i := len(EncodeFacts(nil, base)) + 1; i < len(b); i++ {
		if _, err := DecodeFacts(b[:i]); err == nil {
			t.Fatalf("truncation at %d of %d accepted", i, len(b))
		}
	}
}

func TestDynamicSectionValidation(t *testing.T) {
	for name, site := range map[string]DynamicSite{
		"symbol out of range": {From: 3, Kind: DynamicEval},
		"below file level":    {From: -2, Kind: DynamicEval},
		"unknown kind":        {From: -1, Kind: "magic"},
	} {
		f := sampleFacts()
		f.Dynamic = []DynamicSite{site}
		if _, err := DecodeFacts(EncodeFacts(nil, f)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestChannelSectionRoundTrip(t *testing.T) {
	f := sampleFacts()
	f.Dynamic = []DynamicSite{{From: -1, Kind: DynamicEval, Line: 2}}
	f.Channels = []ChannelSite{
		{From: 1, Kind: ChannelIPC, Role: ChannelHandle, Name: "save", Handler: "onSave", Line: 4},
		{From: -1, Kind: ChannelEvent, Role: ChannelSend, Name: "saved", Line: 9},
		{From: 0, Kind: ChannelExec, Role: ChannelSend, Name: "tools/x.py", Line: 10},
		{From: 0, Kind: ChannelNative, Role: ChannelSend, Name: "c:add", Line: 11},
		{From: -1, Kind: ChannelLibrary, Role: ChannelSend, Name: "libfoo.so", Line: 12},
	}
	b := EncodeFacts(nil, f)
	got, err := DecodeFacts(b)
	if err != nil || !reflect.DeepEqual(got, f) {
		t.Fatalf("round trip: %v\n got %+v", err, got)
	}
	// Channels without dynamic sites: the section still decodes.
	f.Dynamic = nil
	if got, err := DecodeFacts(EncodeFacts(nil, f)); err != nil || !reflect.DeepEqual(got, f) {
		t.Fatalf("channels alone: %v", err)
	}
	for name, c := range map[string]ChannelSite{
		"kind":            {From: -1, Kind: "bus", Role: ChannelSend, Name: "x"},
		"role":            {From: -1, Kind: ChannelWS, Role: "listen", Name: "x"},
		"name":            {From: -1, Kind: ChannelWS, Role: ChannelSend},
		"from":            {From: 7, Kind: ChannelWS, Role: ChannelSend, Name: "x"},
		"exec handler":    {From: -1, Kind: ChannelExec, Role: ChannelHandle, Name: "x.sh"},
		"native handler":  {From: -1, Kind: ChannelNative, Role: ChannelHandle, Name: "c:f"},
		"library handler": {From: -1, Kind: ChannelLibrary, Role: ChannelHandle, Name: "foo"},
	} {
		f.Channels = []ChannelSite{c}
		if _, err := DecodeFacts(EncodeFacts(nil, f)); err == nil {
			t.Errorf("bad %s accepted", name)
		}
	}
}
