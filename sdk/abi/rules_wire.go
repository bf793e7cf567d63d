package abi

import (
	"encoding/binary"
	"errors"
	"math"
	"slices"
)

// Rule-pack messages cross the sandbox in the same varint encoding as
// facts: JSON was 10× slower to decode inside the guest (1.7 MB of schema
// took seconds), and the audit of a large schema must stay under a second.
// The JSON tags remain for fixtures (input.json) and reports.

func putStrings(e *Encoder, ss []string) {
	e.Uvarint(uint64(len(ss)))
	for _, s := range ss {
		e.String(s)
	}
}

func getStrings(d *Decoder) []string {
	n := d.Len(1)
	if n == 0 {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = d.String()
	}
	return out
}

// EncodeRuleInput appends the encoding of in to dst.
func EncodeRuleInput(dst []byte, in *RuleInput) []byte {
	e := &Encoder{Buf: dst}
	e.Uvarint(uint64(in.Version))
	e.String(string(in.Mode))
	e.String(in.Profile)
	e.String(in.Dialect)
	e.Bool(in.Query != nil)
	if in.Query != nil {
		putStatement(e, in.Query)
	}
	e.Bool(in.Schema != nil)
	if s := in.Schema; s != nil {
		e.Uvarint(uint64(len(s.Tables)))
		for i := range s.Tables {
			putTable(e, &s.Tables[i])
		}
		e.Uvarint(uint64(len(s.Views)))
		for _, v := range s.Views {
			e.String(v.Name)
			putStrings(e, v.Reads)
			e.Bool(v.SecurityInvoker)
			e.String(v.NodeID)
			e.String(v.Location)
		}
		e.Uvarint(uint64(len(s.Policies)))
		for _, p := range s.Policies {
			e.String(p.Name)
			e.String(p.Table)
			e.String(p.Command)
			putStrings(e, p.Roles)
			e.String(p.Using)
			e.String(p.WithCheck)
			e.String(p.NodeID)
			e.String(p.Location)
		}
		e.Uvarint(uint64(len(s.Grants)))
		for _, g := range s.Grants {
			putStrings(e, g.Privileges)
			putStrings(e, g.Tables)
			putStrings(e, g.Roles)
			e.String(g.NodeID)
			e.String(g.Location)
		}
		e.Uvarint(uint64(len(s.Statements)))
		for i := range s.Statements {
			putStatement(e, &s.Statements[i])
		}
	}
	e.Uvarint(uint64(len(in.Nodes)))
	for _, n := range in.Nodes {
		e.String(n.ID)
		e.String(n.Label)
		e.String(n.Kind)
		e.String(n.File)
		e.Uvarint(uint64(n.Line))
		e.Uvarint(uint64(n.EndLine))
		e.String(n.Language)
		e.Bool(n.Test)
		e.Bool(n.Generated)
	}
	e.Uvarint(uint64(len(in.Snippets)))
	for _, s := range in.Snippets {
		e.String(s.NodeID)
		e.String(s.File)
		e.Uvarint(uint64(s.Line))
		e.String(s.Text)
	}
	e.Bool(in.Project != nil)
	if p := in.Project; p != nil {
		putStrings(e, p.Files)
		e.Uvarint(uint64(p.TestNodes))
	}
	return e.Buf
}

func putTable(e *Encoder, t *SQLTable) {
	e.String(t.Name)
	e.String(t.Dialect)
	e.String(t.NodeID)
	e.String(t.Location)
	e.Uvarint(uint64(len(t.Columns)))
	for _, c := range t.Columns {
		e.String(c.Name)
		e.String(c.Type)
		e.Bool(c.NotNull)
		e.Bool(c.PrimaryKey)
		e.Bool(c.Unique)
		e.String(c.References)
		e.String(c.NodeID)
		e.String(c.Location)
	}
	putStrings(e, t.PrimaryKey)
	e.Uvarint(uint64(len(t.Indexes)))
	for _, ix := range t.Indexes {
		e.String(ix.Name)
		putStrings(e, ix.Columns)
		e.Bool(ix.Unique)
		e.String(ix.NodeID)
		e.String(ix.Location)
	}
	e.Bool(t.RLSEnabled)
	e.Bool(t.RLSForced)
	e.Bool(t.SecurityPolicy)
}

func putStatement(e *Encoder, s *SQLStatement) {
	e.String(s.Text)
	e.String(s.Verb)
	putStrings(e, s.Tables)
	e.String(s.NodeID)
	e.String(s.Caller)
	e.String(s.Location)
	e.String(s.Built)
	putStrings(e, s.Context)
}

// DecodeRuleInput decodes what EncodeRuleInput wrote.
func DecodeRuleInput(b []byte) (*RuleInput, error) {
	d := NewDecoder(b)
	in := &RuleInput{Version: int(d.Uint32()), Mode: RuleMode(d.String()), Profile: d.String(), Dialect: d.String()}
	if d.Bool() {
		in.Query = getStatement(d)
	}
	if d.Bool() {
		s := &SQLSchema{}
		in.Schema = s
		s.Tables = make([]SQLTable, d.Len(8))
		for i := range s.Tables {
			s.Tables[i] = getTable(d)
		}
		s.Views = make([]SQLView, d.Len(5))
		for i := range s.Views {
			s.Views[i] = SQLView{Name: d.String(), Reads: getStrings(d), SecurityInvoker: d.Bool(), NodeID: d.String(), Location: d.String()}
		}
		s.Policies = make([]SQLPolicy, d.Len(8))
		for i := range s.Policies {
			s.Policies[i] = SQLPolicy{Name: d.String(), Table: d.String(), Command: d.String(), Roles: getStrings(d), Using: d.String(),
				WithCheck: d.String(), NodeID: d.String(), Location: d.String()}
		}
		s.Grants = make([]SQLGrant, d.Len(5))
		for i := range s.Grants {
			s.Grants[i] = SQLGrant{Privileges: getStrings(d), Tables: getStrings(d), Roles: getStrings(d), NodeID: d.String(), Location: d.String()}
		}
		s.Statements = make([]SQLStatement, d.Len(8))
		for i := range s.Statements {
			s.Statements[i] = *getStatement(d)
		}
	}
	in.Nodes = make([]CodeNode, d.Len(9))
	for i := range in.Nodes {
		in.Nodes[i] = CodeNode{ID: d.String(), Label: d.String(), Kind: d.String(), File: d.String(), Line: int(d.Uint32()),
			EndLine: int(d.Uint32()), Language: d.String(), Test: d.Bool(), Generated: d.Bool()}
	}
	in.Snippets = make([]Snippet, d.Len(4))
	for i := range in.Snippets {
		in.Snippets[i] = Snippet{NodeID: d.String(), File: d.String(), Line: int(d.Uint32()), Text: d.String()}
	}
	if d.Bool() {
		in.Project = &ProjectMeta{Files: getStrings(d), TestNodes: int(d.Uint32())}
	}
	return in, finish(d)
}

func getTable(d *Decoder) SQLTable {
	t := SQLTable{Name: d.String(), Dialect: d.String(), NodeID: d.String(), Location: d.String()}
	t.Columns = make([]SQLColumn, d.Len(8))
	for i := range t.Columns {
		t.Columns[i] = SQLColumn{Name: d.String(), Type: d.String(), NotNull: d.Bool(), PrimaryKey: d.Bool(), Unique: d.Bool(),
			References: d.String(), NodeID: d.String(), Location: d.String()}
	}
	t.PrimaryKey = getStrings(d)
	t.Indexes = make([]SQLIndex, d.Len(5))
	for i := range t.Indexes {
		t.Indexes[i] = SQLIndex{Name: d.String(), Columns: getStrings(d), Unique: d.Bool(), NodeID: d.String(), Location: d.String()}
	}
	t.RLSEnabled, t.RLSForced, t.SecurityPolicy = d.Bool(), d.Bool(), d.Bool()
	return t
}

func getStatement(d *Decoder) *SQLStatement {
	return &SQLStatement{Text: d.String(), Verb: d.String(), Tables: getStrings(d), NodeID: d.String(), Caller: d.String(),
		Location: d.String(), Built: d.String(), Context: getStrings(d)}
}

func finish(d *Decoder) error {
	if err := d.Err(); err != nil {
		return err
	}
	if d.Remaining() != 0 {
		return errors.New("abi: trailing bytes after the message")
	}
	return nil
}

// EncodeRuleOutput appends the encoding of o to dst.
func EncodeRuleOutput(dst []byte, o *RuleOutput) []byte {
	// Grown once to its final size: thousands of findings appended into a
	// doubling buffer cost several times the output in copies and garbage,
	// which a guest's collector pays dearly.
	e := &Encoder{Buf: slices.Grow(dst, ruleOutputSize(o))}
	e.Uvarint(uint64(o.Version))
	e.Uvarint(uint64(len(o.Findings)))
	for _, f := range o.Findings {
		e.String(f.RuleID)
		e.String(string(f.Severity))
		e.String(f.Category)
		e.String(f.Subsystem)
		e.String(f.Title)
		e.String(f.Detail)
		e.String(f.Location)
		putStrings(e, f.NodeIDs)
		e.String(f.Evidence)
		e.String(f.Remediation)
		e.Uvarint(math.Float64bits(f.Confidence))
	}
	e.Uvarint(uint64(o.Dropped))
	return e.Buf
}

// ruleOutputSize bounds the encoding of o: each string's bytes plus a
// maximal varint length.
func ruleOutputSize(o *RuleOutput) int {
	n := 3 * binary.MaxVarintLen64
	for i := range o.Findings {
		f := &o.Findings[i]
		n += len(f.RuleID) + len(f.Severity) + len(f.Category) + len(f.Subsystem) + len(f.Title) + len(f.Detail) +
			len(f.Location) + len(f.Evidence) + len(f.Remediation) + (12+len(f.NodeIDs))*binary.MaxVarintLen64
		for _, id := range f.NodeIDs {
			n += len(id)
		}
	}
	return n
}

// DecodeRuleOutput decodes what EncodeRuleOutput wrote. It never trusts
// counts or lengths: a hostile pack gets an error, not an allocation.
func DecodeRuleOutput(b []byte) (*RuleOutput, error) {
	d := NewDecoder(b)
	o := &RuleOutput{Version: int(d.Uint32())}
	o.Findings = make([]Finding, d.Len(12))
	for i := range o.Findings {
		o.Findings[i] = Finding{RuleID: d.String(), Severity: Severity(d.String()), Category: d.String(), Subsystem: d.String(),
			Title: d.String(), Detail: d.String(), Location: d.String(), NodeIDs: getStrings(d), Evidence: d.String(),
			Remediation: d.String(), Confidence: math.Float64frombits(d.Uvarint())}
	}
	o.Dropped = int(d.Uint32())
	return o, finish(d)
}
