package extracttest

import (
	"bytes"
	"fmt"
	"os"
	"strings"
)

// A fixture is a txtar archive (the golang.org/x/tools/txtar format, read
// here with the standard library only, as sdk packages must): a comment,
// then "-- name --" lines each starting a file.
type fixture struct {
	files []fixtureFile
}

type fixtureFile struct {
	name string
	data []byte
}

func readFixture(path string) (fixture, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return fixture{}, err
	}
	fx := parseTxtar(b)
	if len(fx.files) == 0 {
		return fx, fmt.Errorf("%s has no files: add -- name.ext -- sections", path)
	}
	return fx, nil
}

// parseTxtar splits an archive into its files. A "facts" section (the
// golden dump plugins/plugintest keeps) is not a source file and is left out.
func parseTxtar(b []byte) fixture {
	var fx fixture
	var cur *fixtureFile
	for len(b) > 0 {
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line, b = b[:i+1], b[i+1:]
		} else {
			b = nil
		}
		if name, ok := marker(line); ok {
			fx.files = append(fx.files, fixtureFile{name: name})
			cur = &fx.files[len(fx.files)-1]
			continue
		}
		if cur != nil {
			cur.data = append(cur.data, line...)
		}
	}
	out := fx.files[:0]
	for _, f := range fx.files {
		if f.name != "facts" {
			out = append(out, f)
		}
	}
	fx.files = out
	return fx
}

// marker reports a "-- name --" line and its name.
func marker(line []byte) (string, bool) {
	s := strings.TrimRight(string(line), "\r\n")
	if !strings.HasPrefix(s, "-- ") || !strings.HasSuffix(s, " --") || len(s) < 7 {
		return "", false
	}
	name := strings.TrimSpace(s[3 : len(s)-3])
	return name, name != ""
}
