package eval

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestQuestionFiles keeps the evaluation honest: at least 60 questions over
// at least three corpora, every line well-formed.
func TestQuestionFiles(t *testing.T) {
	files, err := filepath.Glob("questions/*.txt")
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, f := range files {
		qs, err := ReadQuestionsFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if len(qs) < 15 {
			t.Errorf("%s: only %d questions", f, len(qs))
		}
		seen := map[string]bool{}
		for _, q := range qs {
			if seen[q.Text] {
				t.Errorf("%s:%d: duplicate question %q", f, q.Line, q.Text)
			}
			seen[q.Text] = true
		}
		total += len(qs)
	}
	if len(files) < 3 || total < 60 {
		t.Errorf("%d corpora, %d questions; want >= 3 and >= 60", len(files), total)
	}
}

func TestReadQuestions(t *testing.T) {
	qs, err := ReadQuestions(strings.NewReader("# c\n\nhow does x work | A.b c@d/e Owner.name@p\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []Expect{{Owner: "A", Name: "b"}, {Name: "c", Path: "d/e"}, {Owner: "Owner", Name: "name", Path: "p"}}
	if len(qs) != 1 || qs[0].Text != "how does x work" || len(qs[0].Expect) != 3 {
		t.Fatalf("%+v", qs)
	}
	for k, x := range want {
		if qs[0].Expect[k] != x {
			t.Errorf("expect %d = %+v, want %+v", k, qs[0].Expect[k], x)
		}
	}
	for _, bad := range []string{"no separator\n", "| A\n", "question |\n"} {
		if _, err := ReadQuestions(strings.NewReader(bad)); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
