package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
)

// Schemas are kept to the JSON Schema subset every layer understands (type,
// properties, required, enum, minimum, maximum, items,
// additionalProperties:false, description, default), so the MCP server's
// validator and ValidateArgs agree on what is valid.

// prop is one input property.
type prop struct {
	name   string
	schema map[string]any
	req    bool
}

func str(name, desc string) prop {
	return prop{name: name, schema: map[string]any{"type": "string", "description": desc}}
}

func enumStr(name, desc string, def string, values ...string) prop {
	p := str(name, desc)
	p.schema["enum"] = values
	if def != "" {
		p.schema["default"] = def
	}
	return p
}

// boolean declares a flag; every flag defaults to false, which JSON Schema
// already means by its absence.
func boolean(name, desc string) prop {
	return prop{name: name, schema: map[string]any{"type": "boolean", "description": desc}}
}

// integer declares an integer; min < 0 or max < 0 leaves that bound open.
// Parameters the spec *clamps* (depth, context_lines, top_n) have no bound
// here, so an out-of-range value is clamped rather than rejected.
func integer(name, desc string, def, min, max int) prop {
	s := map[string]any{"type": "integer", "description": desc}
	if def >= 0 {
		s["default"] = def
	}
	if min >= 0 {
		s["minimum"] = min
	}
	if max >= 0 {
		s["maximum"] = max
	}
	return prop{name: name, schema: s}
}

func strArray(name, desc string) prop {
	return prop{name: name, schema: map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "description": desc}}
}

func (p prop) required() prop { p.req = true; return p }

// object builds an input schema with additionalProperties:false.
func object(props ...prop) json.RawMessage {
	m := map[string]any{}
	var req []string
	for _, p := range props {
		m[p.name] = p.schema
		if p.req {
			req = append(req, p.name)
		}
	}
	s := map[string]any{"type": "object", "properties": m, "additionalProperties": false}
	if len(req) > 0 {
		s["required"] = req
	}
	return mustJSON(s)
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// ArgsError is an argument that does not match the tool's input schema.
// Protocol layers map it to invalid params (-32602).
type ArgsError struct {
	Tool, Msg string
}

func (e *ArgsError) Error() string { return fmt.Sprintf("invalid arguments for %s: %s", e.Tool, e.Msg) }

// normArgs turns absent or null arguments into an empty object.
func normArgs(args json.RawMessage) json.RawMessage {
	t := bytes.TrimSpace(args)
	if len(t) == 0 || string(t) == "null" {
		return json.RawMessage("{}")
	}
	return args
}

// ValidateArgs checks args strictly against t's input schema: types,
// required keys, enums, ranges, array items and unknown keys.
func ValidateArgs(t Tool, args json.RawMessage) error {
	var schema any
	if err := json.Unmarshal(t.InputSchema, &schema); err != nil {
		return &ArgsError{t.Name, "tool schema is invalid: " + err.Error()}
	}
	d := json.NewDecoder(bytes.NewReader(normArgs(args)))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return &ArgsError{t.Name, "arguments are not valid JSON: " + err.Error()}
	}
	if d.More() {
		return &ArgsError{t.Name, "trailing data after the arguments object"}
	}
	if err := check(schema, v, ""); err != nil {
		return &ArgsError{t.Name, err.Error()}
	}
	return nil
}

func where(path string) string {
	if path == "" {
		return "arguments"
	}
	return fmt.Sprintf("argument %q", path)
}

func check(schema, v any, path string) error {
	s, ok := schema.(map[string]any)
	if !ok {
		return nil
	}
	if typ, ok := s["type"].(string); ok {
		if n, isNum := v.(json.Number); typ == "integer" && isNum {
			if _, integral, inRange := asInt64(n); integral && !inRange {
				return fmt.Errorf("%s: %s is outside the 64-bit integer range", where(path), n)
			}
		}
		if !hasType(typ, v) {
			return fmt.Errorf("%s must be of type %s", where(path), typ)
		}
	}
	if enum, ok := s["enum"].([]any); ok && !slices.ContainsFunc(enum, func(e any) bool { return fmt.Sprint(e) == fmt.Sprint(v) }) {
		return fmt.Errorf("%s must be one of %v", where(path), enum)
	}
	if n, ok := v.(json.Number); ok {
		f, _ := n.Float64()
		if m, ok := s["minimum"].(float64); ok && f < m {
			return fmt.Errorf("%s must be >= %v", where(path), m)
		}
		if m, ok := s["maximum"].(float64); ok && f > m {
			return fmt.Errorf("%s must be <= %v", where(path), m)
		}
	}
	switch v := v.(type) {
	case map[string]any:
		props, _ := s["properties"].(map[string]any)
		if req, ok := s["required"].([]any); ok {
			for _, r := range req {
				if _, ok := v[r.(string)]; !ok {
					return fmt.Errorf("missing required argument %q", r)
				}
			}
		}
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys) // report the same key first every time
		for _, k := range keys {
			ps, known := props[k]
			if !known {
				if ap, ok := s["additionalProperties"].(bool); ok && !ap {
					return fmt.Errorf("unknown argument %q", join(path, k))
				}
				continue
			}
			if err := check(ps, v[k], join(path, k)); err != nil {
				return err
			}
		}
	case []any:
		for i, e := range v {
			if err := check(s["items"], e, fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	}
	return nil
}

func join(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}

func hasType(typ string, v any) bool {
	switch typ {
	case "object":
		_, ok := v.(map[string]any)
		return ok
	case "array":
		_, ok := v.([]any)
		return ok
	case "string":
		_, ok := v.(string)
		return ok
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "number":
		_, ok := v.(json.Number)
		return ok
	case "integer":
		// JSON Schema: any number with a zero fractional part (1.0, 1e2)
		// is an integer; decode rewrites those as plain literals. Like the
		// MCP server's validator, values outside int64 are refused.
		n, ok := v.(json.Number)
		if !ok {
			return false
		}
		_, integral, inRange := asInt64(n)
		return integral && inRange
	case "null":
		return v == nil
	}
	return true
}

// asInt64 reads n as a 64-bit integer: integral is false for a fraction,
// inRange false for an integral value beyond int64.
func asInt64(n json.Number) (v int64, integral, inRange bool) {
	if i, err := n.Int64(); err == nil {
		return i, true, true
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if math.IsInf(f, 0) {
		return 0, true, false // 1e999: integral, far out of range
	}
	if err != nil || f != math.Trunc(f) {
		return 0, false, false
	}
	if f < -(1<<63) || f >= 1<<63 {
		return 0, true, false
	}
	return int64(f), true, true
}

// canonicalNumbers rewrites integral numbers written with a fraction or
// an exponent (1.0, 1e2) as plain integers, so they decode into Go ints.
func canonicalNumbers(args json.RawMessage) json.RawMessage {
	if !bytes.ContainsAny(args, ".eE") {
		return args
	}
	d := json.NewDecoder(bytes.NewReader(args))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return args
	}
	changed := false
	var walk func(any) any
	walk = func(x any) any {
		switch x := x.(type) {
		case json.Number:
			if i, integral, inRange := asInt64(x); integral && inRange && string(x) != strconv.FormatInt(i, 10) {
				changed = true
				return json.Number(strconv.FormatInt(i, 10))
			}
		case map[string]any:
			for k, e := range x {
				x[k] = walk(e)
			}
		case []any:
			for i, e := range x {
				x[i] = walk(e)
			}
		}
		return x
	}
	v = walk(v)
	if !changed {
		return args
	}
	b, err := json.Marshal(v)
	if err != nil {
		return args
	}
	return b
}

// decode unmarshals validated arguments into dst. Validation already
// guaranteed the shape, so an error here is a bug worth surfacing.
func decode(args json.RawMessage, dst any) error {
	if err := json.Unmarshal(canonicalNumbers(args), dst); err != nil {
		return fmt.Errorf("decoding arguments: %w", err)
	}
	return nil
}
