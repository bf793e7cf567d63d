package abi

import (
	"reflect"
	"testing"
)

func TestParseTypeRef(t *testing.T) {
	named := func(n string) TypeStep { return TypeStep{Op: StepNamed, Name: n} }
	result := func(n string) TypeStep { return TypeStep{Op: StepResult, Name: n} }
	field := func(n string) TypeStep { return TypeStep{Op: StepField, Name: n} }
	tests := []struct {
		in   string
		want []TypeStep
	}{
		{"T", []TypeStep{named("T")}},
		{"http.Client", []TypeStep{named("http.Client")}},
		{"NewT()", []TypeStep{result("NewT")}},
		{"pkg.New()", []TypeStep{result("pkg.New")}},
		{"T#f", []TypeStep{named("T"), field("f")}},
		{"T#M()", []TypeStep{named("T"), result("M")}},
		{"New()#a#b#Build()", []TypeStep{result("New"), field("a"), field("b"), result("Build")}},
		{"operate@0.1", []TypeStep{{Op: StepCallbackParam, Name: "operate", Arg: 0, Param: 1}}},
		{"operate@2.0#x", []TypeStep{{Op: StepCallbackParam, Name: "operate", Arg: 2}, field("x")}},
	}
	for _, tt := range tests {
		got, err := ParseTypeRef(tt.in)
		if err != nil {
			t.Errorf("ParseTypeRef(%q): %v", tt.in, err)
			continue
		}
		if !reflect.DeepEqual(got.Steps, tt.want) {
			t.Errorf("ParseTypeRef(%q) = %+v, want %+v", tt.in, got.Steps, tt.want)
		}
		if s := got.String(); s != tt.in {
			t.Errorf("String() of %q = %q", tt.in, s)
		}
	}
	for _, bad := range []string{"", "#f", "T#", "()", "F@x.1", "F@1", "T##f", "F@-1.0"} {
		if r, err := ParseTypeRef(bad); err == nil {
			t.Errorf("ParseTypeRef(%q) = %+v, want an error", bad, r.Steps)
		}
	}
}

func TestTypeRefValidate(t *testing.T) {
	bad := map[string][]TypeStep{
		"empty":          nil,
		"named later":    {{Op: StepResult, Name: "F"}, {Op: StepNamed, Name: "T"}},
		"elem first":     {{Op: StepElem}},
		"unknown op":     {{Op: "cast", Name: "T"}},
		"nameless field": {{Op: StepNamed, Name: "T"}, {Op: StepField}},
	}
	for name, steps := range bad {
		if err := (&TypeRef{Steps: steps}).Validate(); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	ok := &TypeRef{Steps: []TypeStep{{Op: StepNamed, Name: "M"}, {Op: StepElem}, {Op: StepField, Name: "x"}}}
	if err := ok.Validate(); err != nil {
		t.Error(err)
	}
}

// FuzzParseTypeRef: the parser never panics, what it accepts is valid,
// and its String form parses back to the same reference.
func FuzzParseTypeRef(f *testing.F) {
	for _, s := range []string{"T", "pkg.F()", "T#f#M()", "op@0.1#x", "a@b@1.2", "F()()", "#", "@", "x@1.", "()#()"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseTypeRef(s)
		if err != nil {
			return
		}
		if err := r.Validate(); err != nil {
			t.Fatalf("ParseTypeRef(%q) gave an invalid reference: %v", s, err)
		}
		again, err := ParseTypeRef(r.String())
		if err != nil || !reflect.DeepEqual(again, r) {
			t.Fatalf("%q -> %q -> %+v, %v; want %+v", s, r.String(), again, err, r)
		}
	})
}
