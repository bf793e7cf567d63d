package eval

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
)

// Expect is one expected symbol: a bare name, optionally its owner type
// ("ServeMux.ServeHTTP") and a source path substring ("Marshal@encoding/json").
type Expect struct {
	Owner, Name, Path string
}

func (x Expect) String() string {
	s := x.Name
	if x.Owner != "" {
		s = x.Owner + "." + s
	}
	if x.Path != "" {
		s += "@" + x.Path
	}
	return s
}

// Question is one evaluation question.
type Question struct {
	Text   string
	Expect []Expect
	Line   int
}

// ParseExpect parses "Owner.name@path", where Owner and @path are optional.
func ParseExpect(s string) Expect {
	var x Expect
	if at := strings.IndexByte(s, '@'); at >= 0 {
		s, x.Path = s[:at], s[at+1:]
	}
	if dot := strings.LastIndexByte(s, '.'); dot > 0 {
		x.Owner, s = s[:dot], s[dot+1:]
	}
	x.Name = s
	return x
}

// ReadQuestions parses a questions file: "question | sym sym ..." per line,
// '#' comments and blank lines ignored.
func ReadQuestions(r io.Reader) ([]Question, error) {
	var qs []Question
	sc := bufio.NewScanner(r)
	line := 0
	for sc.Scan() {
		line++
		t := strings.TrimSpace(sc.Text())
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		q, exp, ok := strings.Cut(t, "|")
		if !ok || strings.TrimSpace(q) == "" || len(strings.Fields(exp)) == 0 {
			return nil, fmt.Errorf("line %d: want \"question | symbols\"", line)
		}
		qq := Question{Text: strings.TrimSpace(q), Line: line}
		for _, f := range strings.Fields(exp) {
			qq.Expect = append(qq.Expect, ParseExpect(f))
		}
		qs = append(qs, qq)
	}
	return qs, sc.Err()
}

// ReadQuestionsFile reads a questions file from disk.
func ReadQuestionsFile(path string) ([]Question, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	qs, err := ReadQuestions(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return qs, nil
}
