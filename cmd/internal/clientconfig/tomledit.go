package clientconfig

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strings"

	"github.com/BurntSushi/toml"
)

// The TOML editor owns exactly the lines of one table, [mcp_servers.NAME]
// and its sub-tables: it replaces them in place or appends them at the end,
// and never re-encodes the rest of the file (comments, order and spacing
// stay). BurntSushi/toml parses the file before and after; an edit that
// would change any other value is refused.

// tomlHeader matches a table header line and captures its dotted key.
var tomlHeader = regexp.MustCompile(`^\s*\[\[?\s*([^\[\]]+?)\s*\]\]?\s*(#.*)?$`)

func decodeTOML(file string, data []byte) (map[string]any, error) {
	var m map[string]any
	if _, err := toml.Decode(string(data), &m); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("%s:%d:%d: %s; fix the file (or move it away) and run again; nothing was changed", file, pe.Position.Line, pe.Position.Col, pe.Message)
		}
		return nil, fmt.Errorf("%s: %v; nothing was changed", file, err)
	}
	if m == nil {
		m = map[string]any{}
	}
	return m, nil
}

// tomlKey normalizes a dotted header key: `mcp_servers . "synaptic"` ->
// `mcp_servers.synaptic` (quotes dropped; our names are bare keys).
func tomlKey(k string) string {
	parts := strings.Split(k, ".")
	for i, p := range parts {
		parts[i] = strings.Trim(strings.TrimSpace(p), `"'`)
	}
	return strings.Join(parts, ".")
}

// tableSpan returns the line range [start, end) of table `section.name`
// and its sub-tables, or -1, -1. Comment and blank lines just before the
// next table belong to that table, not to ours.
func tableSpan(lines []string, section, name string) (int, int) {
	own := section + "." + name
	start := -1
	for i, line := range lines {
		m := tomlHeader.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		k := tomlKey(m[1])
		mine := k == own || strings.HasPrefix(k, own+".")
		switch {
		case start < 0 && mine:
			start = i
		case start >= 0 && !mine:
			end := i
			for end > start+1 && (strings.TrimSpace(lines[end-1]) == "" || strings.HasPrefix(strings.TrimSpace(lines[end-1]), "#")) {
				end--
			}
			return start, end
		}
	}
	if start < 0 {
		return -1, -1
	}
	end := len(lines)
	for end > start+1 && strings.TrimSpace(lines[end-1]) == "" {
		end--
	}
	return start, end
}

func splitLines(data []byte) []string {
	s := string(data)
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

func joinLines(lines []string) []byte {
	if len(lines) == 0 {
		return nil
	}
	return []byte(strings.Join(lines, "\n") + "\n")
}

// lookupTOML returns section.name decoded, if present.
func lookupTOML(file string, data []byte, section, name string) (map[string]any, bool, error) {
	m, err := decodeTOML(file, data)
	if err != nil {
		return nil, false, err
	}
	sec, _ := m[section].(map[string]any)
	e, ok := sec[name].(map[string]any)
	return e, ok, nil
}

// setTOML returns data with [section.name] holding exactly entry.
func setTOML(file string, data []byte, section, name string, entry any) ([]byte, error) {
	before, err := decodeTOML(file, data)
	if err != nil {
		return nil, err
	}
	var body bytes.Buffer
	enc := toml.NewEncoder(&body)
	enc.Indent = ""
	if err := enc.Encode(entry); err != nil {
		return nil, err
	}
	block := append([]string{"[" + section + "." + name + "]"}, splitLines(body.Bytes())...)
	lines := splitLines(data)
	start, end := tableSpan(lines, section, name)
	if start < 0 {
		if sec, ok := before[section].(map[string]any); ok && sec[name] != nil {
			return nil, fmt.Errorf("%s: %s.%s is defined inline, not as a [%s.%s] table; change it by hand or turn it into a table; nothing was changed", file, section, name, section, name)
		}
		if len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) != "" {
			lines = append(lines, "")
		}
		lines = append(lines, block...)
	} else {
		lines = append(lines[:start:start], append(block, lines[end:]...)...)
	}
	out := joinLines(lines)
	return out, verifyTOML(file, before, out, section, name, entry)
}

// removeTOML returns data without [section.name], and whether it was there.
func removeTOML(file string, data []byte, section, name string) ([]byte, bool, error) {
	before, err := decodeTOML(file, data)
	if err != nil {
		return nil, false, err
	}
	lines := splitLines(data)
	start, end := tableSpan(lines, section, name)
	if start < 0 {
		if sec, ok := before[section].(map[string]any); ok && sec[name] != nil {
			return nil, false, fmt.Errorf("%s: %s.%s is defined inline, not as a [%s.%s] table; remove it by hand; nothing was changed", file, section, name, section, name)
		}
		return data, false, nil
	}
	// Drop the blank line that separated an appended table from the rest.
	if start > 0 && strings.TrimSpace(lines[start-1]) == "" && (end == len(lines) || strings.TrimSpace(lines[end]) == "") {
		start--
	}
	lines = append(lines[:start:start], lines[end:]...)
	out := joinLines(lines)
	return out, true, verifyTOML(file, before, out, section, name, nil)
}

// verifyTOML checks that only section.name changed (to want, or removed).
func verifyTOML(file string, before map[string]any, after []byte, section, name string, want any) error {
	cur, err := decodeTOML(file, after)
	if err != nil {
		return fmt.Errorf("%s: internal error: the edited file does not parse (%v); nothing was changed", file, err)
	}
	got := pluck(cur, section, name)
	pluck(before, section, name)
	if want != nil {
		var w map[string]any
		var buf bytes.Buffer
		toml.NewEncoder(&buf).Encode(want)
		toml.Decode(buf.String(), &w)
		if !reflect.DeepEqual(got, w) {
			return fmt.Errorf("%s: internal error: the edited entry reads back as %v; nothing was changed", file, got)
		}
	}
	if !reflect.DeepEqual(before, cur) {
		return fmt.Errorf("%s: the [%s.%s] table is followed by lines that belong to it in a way this editor cannot follow; edit it by hand; nothing was changed", file, section, name)
	}
	return nil
}
