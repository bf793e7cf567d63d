package mcp

import (
	"strings"
	"testing"
)

func TestValidateArguments(t *testing.T) {
	const schema = `{"type":"object","properties":{
		"s":{"type":"string","minLength":2,"maxLength":4,"enum":["ab","abc","x"]},
		"i":{"type":"integer","minimum":0,"maximum":10},
		"n":{"type":["number","null"],"exclusiveMinimum":0},
		"b":{"type":"boolean"},
		"a":{"type":"array","items":{"type":"string"},"maxItems":2},
		"o":{"type":"object","properties":{"k":{"const":1}},"additionalProperties":false},
		"free":{}
	},"required":["s"],"additionalProperties":false}`
	tests := []struct {
		args    string
		wantErr string // "" = valid
	}{
		{`{"s":"ab"}`, ""},
		{`{"s":"abc","i":10,"n":0.5,"b":true,"a":["x"],"o":{"k":1},"free":[1,{}]}`, ""},
		{`{"s":"ab","i":2.0}`, ""},
		{`{"s":"ab","i":1e1}`, ""},
		{`{"s":"ab","free":9223372036854775807}`, ""},
		{`{"s":"ab","i":9223372036854775808}`, "outside the 64-bit integer range"},
		{`{"s":"ab","i":1e999}`, "outside the 64-bit integer range"},
		{`{"s":"ab","n":null}`, ""},
		{`{}`, `missing required property "s"`},
		{`{"s":1}`, `argument "s": expected string, got integer`},
		{`{"s":"x"}`, "shorter than"},
		{`{"s":"abcd"}`, "is not one of"},
		{`{"s":"ab","i":1.5}`, "expected integer, got number"},
		{`{"s":"ab","i":-1}`, "less than the minimum"},
		{`{"s":"ab","i":11}`, "greater than the maximum"},
		{`{"s":"ab","n":0}`, "must be greater than"},
		{`{"s":"ab","b":"yes"}`, "expected boolean"},
		{`{"s":"ab","a":[1]}`, `argument "a[0]": expected string`},
		{`{"s":"ab","a":["a","b","c"]}`, "more than"},
		{`{"s":"ab","o":{"k":2}}`, `argument "o.k": must be 1`},
		{`{"s":"ab","o":{"z":1}}`, `unknown property "z"`},
		{`{"s":"ab","zz":1}`, `unknown property "zz" (allowed: a, b, free, i, n, o, s)`},
	}
	for _, tt := range tests {
		err := validateArguments([]byte(schema), []byte(tt.args))
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("validate(%s) = %v, want nil", tt.args, err)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("validate(%s) = %v, want error containing %q", tt.args, err, tt.wantErr)
		}
	}
	// Keywords outside the subset are ignored, not rejected.
	if err := validateArguments([]byte(`{"allOf":[{"required":["x"]}],"$ref":"#/x"}`), []byte(`{}`)); err != nil {
		t.Errorf("unknown keywords: %v", err)
	}
	if err := validateArguments(nil, []byte(`{"x":1}`)); err != nil {
		t.Errorf("no schema: %v", err)
	}
}
