package clientconfig

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/tailscale/hujson"
)

// The JSON editor changes one member of one object (`mcpServers.synaptic`)
// by splicing bytes, so the rest of the file keeps its order, indentation
// and, in JSONC files (VS Code, Gemini CLI), its comments and trailing
// commas. hujson parses the file and gives the byte offsets to splice at;
// after every edit both versions are decoded and compared, so an edit that
// would change anything but our member is refused instead of written.

// jsonDoc is a parsed JSON or JSONC file.
type jsonDoc struct {
	data []byte
	root hujson.Value
}

func parseJSON(file string, data []byte) (*jsonDoc, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		data = []byte("{}\n")
	}
	root, err := hujson.Parse(data)
	if err != nil {
		msg := strings.TrimPrefix(err.Error(), "hujson: ")
		var line, col int
		if n, _ := fmt.Sscanf(msg, "line %d, column %d:", &line, &col); n == 2 {
			_, msg, _ = strings.Cut(msg, ": ")
			return nil, fmt.Errorf("%s:%d:%d: %s; fix the file (or move it away) and run again; nothing was changed", file, line, col, msg)
		}
		return nil, fmt.Errorf("%s: %s; fix the file (or move it away) and run again; nothing was changed", file, msg)
	}
	if _, ok := root.Value.(*hujson.Object); !ok {
		return nil, fmt.Errorf("%s: the top level is not a JSON object; nothing was changed", file)
	}
	return &jsonDoc{data: data, root: root}, nil
}

// member finds name in obj: its index, or -1. Two members with the same
// name are an error: which one a client reads is not defined.
func member(file string, obj *hujson.Object, data []byte, name string) (int, error) {
	at := -1
	for i, m := range obj.Members {
		lit, ok := m.Name.Value.(hujson.Literal)
		if !ok || lit.String() != name {
			continue
		}
		if at >= 0 {
			line, col := lineColumn(data, m.Name.StartOffset)
			return 0, fmt.Errorf("%s:%d:%d: %q is defined twice; remove one and run again; nothing was changed", file, line, col, name)
		}
		at = i
	}
	return at, nil
}

// servers returns the servers object (root[key]), or nil if absent.
func (d *jsonDoc) servers(file, key string) (*hujson.Object, error) {
	root := d.root.Value.(*hujson.Object)
	i, err := member(file, root, d.data, key)
	if err != nil || i < 0 {
		return nil, err
	}
	v := &root.Members[i].Value
	obj, ok := v.Value.(*hujson.Object)
	if !ok {
		line, col := lineColumn(d.data, v.StartOffset)
		return nil, fmt.Errorf("%s:%d:%d: %q is not an object; fix it and run again; nothing was changed", file, line, col, key)
	}
	return obj, nil
}

// lookupJSON returns the raw entry root[key][name], if present.
func lookupJSON(file string, data []byte, key, name string) (json.RawMessage, bool, error) {
	d, err := parseJSON(file, data)
	if err != nil {
		return nil, false, err
	}
	obj, err := d.servers(file, key)
	if err != nil || obj == nil {
		return nil, false, err
	}
	i, err := member(file, obj, d.data, name)
	if err != nil || i < 0 {
		return nil, false, err
	}
	v := obj.Members[i].Value
	raw, err := hujson.Standardize(append([]byte(nil), d.data[v.StartOffset:v.EndOffset]...))
	return raw, err == nil, err
}

// setJSON returns data with root[key][name] set to entry.
func setJSON(file string, data []byte, key, name string, entry any) ([]byte, error) {
	d, err := parseJSON(file, data)
	if err != nil {
		return nil, err
	}
	unit := d.indentUnit()
	root := d.root.Value.(*hujson.Object)
	obj, err := d.servers(file, key)
	if err != nil {
		return nil, err
	}
	var out []byte
	if obj == nil {
		rootEnd := d.root.EndOffset
		inner := map[string]any{name: entry}
		out = insertMember(d.data, root, rootEnd, "", unit, key, inner)
	} else {
		i, err := member(file, obj, d.data, name)
		if err != nil {
			return nil, err
		}
		serversVal := &root.Members[mustMember(root, key)].Value
		if i >= 0 {
			v := obj.Members[i].Value
			indent := lineIndent(d.data, obj.Members[i].Name.StartOffset)
			text := marshalIndented(entry, indent, unit)
			out = splice(d.data, v.StartOffset, v.EndOffset, text)
		} else {
			indent := lineIndent(d.data, root.Members[mustMember(root, key)].Name.StartOffset)
			out = insertMember(d.data, obj, serversVal.EndOffset, indent, unit, name, entry)
		}
	}
	if err := verifyJSON(file, d.data, out, key, name, entry); err != nil {
		return nil, err
	}
	return out, nil
}

// removeJSON returns data without root[key][name], and whether it was there.
func removeJSON(file string, data []byte, key, name string) ([]byte, bool, error) {
	d, err := parseJSON(file, data)
	if err != nil {
		return nil, false, err
	}
	obj, err := d.servers(file, key)
	if err != nil || obj == nil {
		return data, false, err
	}
	i, err := member(file, obj, d.data, name)
	if err != nil || i < 0 {
		return data, false, err
	}
	root := d.root.Value.(*hujson.Object)
	serversVal := root.Members[mustMember(root, key)].Value
	out := removeMember(d.data, obj, i, serversVal.StartOffset, serversVal.EndOffset)
	if err := verifyJSON(file, d.data, out, key, name, nil); err != nil {
		return nil, false, err
	}
	return out, true, nil
}

func mustMember(obj *hujson.Object, name string) int {
	for i, m := range obj.Members {
		if lit, ok := m.Name.Value.(hujson.Literal); ok && lit.String() == name {
			return i
		}
	}
	panic("member vanished: " + name)
}

// insertMember adds "name": value as the last member of obj, whose closing
// brace is at end-1; indent is the indentation of the line holding obj.
func insertMember(data []byte, obj *hujson.Object, end int, indent, unit, name string, value any) []byte {
	inner := indent + unit
	keyJSON, _ := json.Marshal(name)
	text := string(keyJSON) + ": " + marshalIndented(value, inner, unit)
	if len(obj.Members) == 0 {
		// `{}` or `{ /* comments */ }`: the member goes on its own line.
		open := bytes.LastIndexByte(data[:end-1], '{')
		body := strings.TrimSpace(string(data[open+1 : end-1]))
		repl := "{\n" + inner + text + "\n" + indent + "}"
		if body != "" {
			repl = "{\n" + inner + body + "\n" + inner + text + "\n" + indent + "}"
		}
		return splice(data, open, end, repl)
	}
	last := obj.Members[len(obj.Members)-1]
	inner = lineIndent(data, last.Name.StartOffset)
	text = string(keyJSON) + ": " + marshalIndented(value, inner, unit)
	pos := last.Value.EndOffset
	// A trailing comma (JSONC) stays where it is; ours follows it.
	after := skipSpace(data, pos)
	if after < len(data) && data[after] == ',' {
		return spliceAtLineEnd(data, after+1, inner, text+",")
	}
	out := splice(data, pos, pos, ",")
	return spliceAtLineEnd(out, pos+1, inner, text)
}

// spliceAtLineEnd inserts "\n"+indent+text at the end of the line holding
// pos when the rest of that line is blank or a // comment (the comment stays
// with the member it described), else right at pos.
func spliceAtLineEnd(data []byte, pos int, indent, text string) []byte {
	nl := bytes.IndexByte(data[pos:], '\n')
	if nl >= 0 {
		rest := strings.TrimSpace(string(data[pos : pos+nl]))
		if rest == "" || (strings.HasPrefix(rest, "//") && !strings.Contains(rest, "*/")) {
			return splice(data, pos+nl, pos+nl, "\n"+indent+text)
		}
	}
	if bytes.IndexByte(data[:pos], '\n') < 0 {
		return splice(data, pos, pos, " "+text) // a one-line file stays one line per member
	}
	return splice(data, pos, pos, "\n"+indent+text)
}

// removeMember deletes member i of obj (spanning [objStart, objEnd)).
func removeMember(data []byte, obj *hujson.Object, i, objStart, objEnd int) []byte {
	m := obj.Members[i]
	if len(obj.Members) == 1 {
		return splice(data, objStart, objEnd, "{}")
	}
	if i == len(obj.Members)-1 {
		return removeLast(data, obj.Members[i-1].Value.EndOffset, m)
	}
	// Not last: from the start of its line to the start of the next name's line.
	start := m.Name.StartOffset
	if ls := lineStart(data, start); strings.TrimSpace(string(data[ls:start])) == "" {
		start = ls
	}
	next := obj.Members[i+1].Name.StartOffset
	// Keep comments that precede the next member: cut only to the comma.
	comma := skipSpace(data, m.Value.EndOffset)
	end := next
	if comma < len(data) && data[comma] == ',' {
		end = comma + 1
		if nl := bytes.IndexByte(data[end:next], '\n'); nl >= 0 && strings.TrimSpace(string(data[end:end+nl])) == "" {
			end += nl + 1
		}
	}
	if start == lineStart(data, start) && lineStart(data, end) != end {
		// The member shared its line with the next one: keep that line's indent.
		start = m.Name.StartOffset
	}
	return splice(data, start, end, "")
}

// removeLast deletes the last member m, whose predecessor's value ends at
// prevEnd, so that an insertMember followed by removeLast gives the
// original bytes back: the member's own line goes, and so does the comma
// that separated it, unless the object uses trailing commas (JSONC).
func removeLast(data []byte, prevEnd int, m hujson.ObjectMember) []byte {
	start, end := m.Name.StartOffset, m.Value.EndOffset
	ownLine := strings.TrimSpace(string(data[lineStart(data, start):start])) == ""
	if ownLine {
		start = lineStart(data, start) - 1 // the newline before it
	}
	if after := skipSpace(data, end); after < len(data) && data[after] == ',' {
		// Trailing-comma style: the predecessor keeps its comma.
		if ownLine {
			return splice(data, start, after+1, "")
		}
		return splice(data, prevEnd, after+1, "")
	}
	comma := skipSpace(data, prevEnd)
	if !ownLine || comma >= start {
		return splice(data, prevEnd, end, "")
	}
	out := splice(data, start, end, "")
	return splice(out, comma, comma+1, "")
}

// verifyJSON decodes both versions and checks that only root[key][name]
// changed (to want, or removed when want is nil).
func verifyJSON(file string, before, after []byte, key, name string, want any) error {
	decode := func(b []byte) (map[string]any, error) {
		std, err := hujson.Standardize(append([]byte(nil), b...))
		if err != nil {
			return nil, err
		}
		var m map[string]any
		return m, json.Unmarshal(std, &m)
	}
	old, err := decode(before)
	if err != nil {
		return fmt.Errorf("%s: %v", file, err)
	}
	cur, err := decode(after)
	if err != nil {
		return fmt.Errorf("%s: internal error: the edited file does not parse (%v); nothing was changed", file, err)
	}
	got := pluck(cur, key, name)
	pluck(old, key, name)
	if want != nil {
		wantJSON, _ := json.Marshal(want)
		var w any
		json.Unmarshal(wantJSON, &w)
		if !reflect.DeepEqual(got, w) {
			return fmt.Errorf("%s: internal error: the edited entry reads back as %v; nothing was changed", file, got)
		}
	}
	if !reflect.DeepEqual(old, cur) {
		return fmt.Errorf("%s: internal error: the edit would change other settings; nothing was changed", file)
	}
	return nil
}

// pluck removes and returns m[key][name]; an emptied or created m[key] is
// removed too, so before and after compare equal.
func pluck(m map[string]any, key, name string) any {
	servers, ok := m[key].(map[string]any)
	if !ok {
		return nil
	}
	v := servers[name]
	delete(servers, name)
	if len(servers) == 0 {
		delete(m, key)
	}
	return v
}

func marshalIndented(v any, indent, unit string) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent(indent, unit)
	enc.Encode(v)
	return strings.TrimSuffix(buf.String(), "\n")
}

// indentUnit guesses the file's indentation step from its first indented
// line (two spaces if none).
func (d *jsonDoc) indentUnit() string {
	for _, line := range strings.Split(string(d.data), "\n") {
		trimmed := strings.TrimLeft(line, " \t")
		if trimmed != "" && len(trimmed) < len(line) {
			return line[:len(line)-len(trimmed)]
		}
	}
	return "  "
}

func splice(data []byte, start, end int, text string) []byte {
	out := make([]byte, 0, len(data)+len(text))
	out = append(out, data[:start]...)
	out = append(out, text...)
	return append(out, data[end:]...)
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

func lineStart(data []byte, i int) int {
	return bytes.LastIndexByte(data[:i], '\n') + 1
}

// lineIndent is the leading whitespace of the line holding offset i.
func lineIndent(data []byte, i int) string {
	ls := lineStart(data, i)
	j := ls
	for j < i && (data[j] == ' ' || data[j] == '\t') {
		j++
	}
	return string(data[ls:j])
}

func lineColumn(data []byte, i int) (line, col int) {
	line = 1 + bytes.Count(data[:i], []byte("\n"))
	return line, 1 + i - lineStart(data, i)
}
