package abi

import (
	"fmt"
	"unicode/utf8"
)

// SQLSite is one SQL string literal that code hands to a database call
// (database/sql Query, DB-API execute, pg query, JDBC prepareStatement...).
// The host links it to the tables it names with queries / writes_to /
// calls_proc edges that carry the text, so the audit reads the graph
// instead of the source.
type SQLSite struct {
	From  int32  // enclosing symbol, -1 at file level
	Text  string // the statement text, whitespace collapsed, at most MaxSQLText bytes
	Built string // BuiltLiteral, BuiltConcatenation or BuiltInterpolation
	Line  uint32 // line of the database call
}

// MaxSQLText bounds a site's text: a statement, never a whole dump.
const MaxSQLText = 4000

// MaxSQLSites bounds the sites of one file.
const MaxSQLSites = 2000

// sqlSectionTag starts the SQL-sites section, written after the doc
// section and only when there are sites, so facts without them encode
// exactly as before.
const sqlSectionTag = 'S'

func appendSQLSection(b []byte, f *Facts) []byte {
	if len(f.SQL) == 0 {
		return b
	}
	b = append(b, sqlSectionTag)
	b = appendUvarint(b, uint64(len(f.SQL)))
	for i := range f.SQL {
		s := &f.SQL[i]
		b = appendVarint(b, int64(s.From))
		b = appendString(b, s.Text)
		b = appendString(b, s.Built)
		b = appendUvarint(b, uint64(s.Line))
	}
	return b
}

func decodeSQLSection(d *Decoder, f *Facts) {
	if !d.openSection(sqlSectionTag) {
		return
	}
	if n := d.Len(4); n > 0 {
		f.SQL = make([]SQLSite, n)
	}
	for i := range f.SQL {
		f.SQL[i] = SQLSite{From: d.Int32(), Text: d.String(), Built: d.String(), Line: d.Uint32()}
	}
}

func (f *Facts) validateSQL() error {
	if len(f.SQL) > MaxSQLSites {
		return fmt.Errorf("abi: %d SQL sites, over the %d a file may report", len(f.SQL), MaxSQLSites)
	}
	n := int32(len(f.Symbols))
	for i, s := range f.SQL {
		switch {
		case s.From < -1 || s.From >= n:
			return fmt.Errorf("abi: SQL site %d has symbol %d out of range", i, s.From)
		case s.Text == "" || len(s.Text) > MaxSQLText || !utf8.ValidString(s.Text):
			return fmt.Errorf("abi: SQL site %d text is empty, over %d bytes or not UTF-8", i, MaxSQLText)
		case s.Built != BuiltLiteral && s.Built != BuiltConcatenation && s.Built != BuiltInterpolation:
			return fmt.Errorf("abi: SQL site %d has unknown construction %q", i, s.Built)
		}
	}
	return nil
}
