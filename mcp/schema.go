package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
)

// validateArguments checks args against a tool's input schema. It
// understands the JSON Schema subset tool schemas use in practice (type,
// properties, required, additionalProperties, enum, const, minimum/maximum
// and their exclusive forms, minLength/maxLength, items, minItems/maxItems)
// and ignores every other keyword, so richer schemas still pass through.
func validateArguments(schema, args json.RawMessage) error {
	if len(bytes.TrimSpace(schema)) == 0 {
		return nil
	}
	s, err := decodeJSON(schema)
	if err != nil {
		return fmt.Errorf("tool input schema is not valid JSON: %v", err)
	}
	v, err := decodeJSON(args)
	if err != nil {
		return err
	}
	return validate(s, v, "")
}

func decodeJSON(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	err := d.Decode(&v)
	return v, err
}

// at names a location for error messages.
func at(path string) string {
	if path == "" {
		return "arguments"
	}
	return fmt.Sprintf("argument %q", path)
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func validate(schema, v any, path string) error {
	switch s := schema.(type) {
	case bool:
		if !s {
			return fmt.Errorf("%s: not allowed", at(path))
		}
		return nil
	case map[string]any:
		return validateObjectSchema(s, v, path)
	}
	return nil
}

func validateObjectSchema(s map[string]any, v any, path string) error {
	if t, ok := s["type"]; ok {
		if err := checkType(t, v, path); err != nil {
			return err
		}
	}
	if enum, ok := s["enum"].([]any); ok {
		found := false
		for _, e := range enum {
			if jsonEqual(e, v) {
				found = true
				break
			}
		}
		if !found {
			return fmt.Errorf("%s: %s is not one of %s", at(path), compact(v), compact(enum))
		}
	}
	if c, ok := s["const"]; ok && !jsonEqual(c, v) {
		return fmt.Errorf("%s: must be %s", at(path), compact(c))
	}
	switch x := v.(type) {
	case json.Number:
		return checkNumber(s, x, path)
	case string:
		n := len([]rune(x))
		if m, ok := num(s["minLength"]); ok && float64(n) < m {
			return fmt.Errorf("%s: shorter than %v characters", at(path), m)
		}
		if m, ok := num(s["maxLength"]); ok && float64(n) > m {
			return fmt.Errorf("%s: longer than %v characters", at(path), m)
		}
	case []any:
		if m, ok := num(s["minItems"]); ok && float64(len(x)) < m {
			return fmt.Errorf("%s: fewer than %v items", at(path), m)
		}
		if m, ok := num(s["maxItems"]); ok && float64(len(x)) > m {
			return fmt.Errorf("%s: more than %v items", at(path), m)
		}
		if items, ok := s["items"]; ok {
			for i, e := range x {
				if err := validate(items, e, fmt.Sprintf("%s[%d]", path, i)); err != nil {
					return err
				}
			}
		}
	case map[string]any:
		return checkObject(s, x, path)
	}
	return nil
}

func checkObject(s map[string]any, obj map[string]any, path string) error {
	if req, ok := s["required"].([]any); ok {
		for _, r := range req {
			if name, ok := r.(string); ok {
				if _, present := obj[name]; !present {
					return fmt.Errorf("%s: missing required property %q", at(path), name)
				}
			}
		}
	}
	props, _ := s["properties"].(map[string]any)
	for _, k := range sortedKeys(obj) {
		if ps, ok := props[k]; ok {
			if err := validate(ps, obj[k], join(path, k)); err != nil {
				return err
			}
			continue
		}
		switch ap := s["additionalProperties"].(type) {
		case bool:
			if !ap {
				return fmt.Errorf("%s: unknown property %q (allowed: %s)", at(path), k, strings.Join(sortedKeys(props), ", "))
			}
		case map[string]any:
			if err := validate(ap, obj[k], join(path, k)); err != nil {
				return err
			}
		}
	}
	return nil
}

func checkNumber(s map[string]any, n json.Number, path string) error {
	f, err := n.Float64()
	if err != nil {
		return fmt.Errorf("%s: %s is not a number", at(path), n)
	}
	if m, ok := num(s["minimum"]); ok && f < m {
		return fmt.Errorf("%s: %s is less than the minimum %v", at(path), n, m)
	}
	if m, ok := num(s["maximum"]); ok && f > m {
		return fmt.Errorf("%s: %s is greater than the maximum %v", at(path), n, m)
	}
	if m, ok := num(s["exclusiveMinimum"]); ok && f <= m {
		return fmt.Errorf("%s: %s must be greater than %v", at(path), n, m)
	}
	if m, ok := num(s["exclusiveMaximum"]); ok && f >= m {
		return fmt.Errorf("%s: %s must be less than %v", at(path), n, m)
	}
	return nil
}

func checkType(t, v any, path string) error {
	var types []string
	switch x := t.(type) {
	case string:
		types = []string{x}
	case []any:
		for _, e := range x {
			if s, ok := e.(string); ok {
				types = append(types, s)
			}
		}
	default:
		return nil
	}
	got := jsonType(v)
	for _, want := range types {
		if want == "integer" && got == "integer" && !fitsInt64(v.(json.Number)) {
			// Integral, but no handler can hold it; the tool catalog
			// refuses the same values, so both validators agree.
			return fmt.Errorf("%s: %s is outside the 64-bit integer range", at(path), v)
		}
		if want == got || (want == "number" && got == "integer") {
			return nil
		}
	}
	return fmt.Errorf("%s: expected %s, got %s", at(path), strings.Join(types, " or "), got)
}

// jsonType names v's JSON Schema type; integral numbers are "integer".
func jsonType(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	case json.Number:
		f, err := strconv.ParseFloat(string(x), 64)
		if math.IsInf(f, 0) || (err == nil && f == math.Trunc(f)) { // 1e999 is integral, just too big
			return "integer"
		}
		return "number"
	}
	return "unknown"
}

// fitsInt64 reports whether an integral number lies within int64.
func fitsInt64(n json.Number) bool {
	if _, err := n.Int64(); err == nil {
		return true
	}
	f, err := strconv.ParseFloat(string(n), 64)
	return err == nil && f >= -(1<<63) && f < 1<<63
}

func num(v any) (float64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	f, err := n.Float64()
	return f, err == nil
}

func jsonEqual(a, b any) bool {
	if na, ok := a.(json.Number); ok {
		if nb, ok := b.(json.Number); ok {
			fa, e1 := na.Float64()
			fb, e2 := nb.Float64()
			return e1 == nil && e2 == nil && fa == fb
		}
	}
	return compact(a) == compact(b)
}

func compact(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
