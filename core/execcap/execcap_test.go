package execcap

import (
	"context"
	"strings"
	"testing"
	"time"
)

func TestRun(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name, cmd string
		exit      int
		timedOut  bool
		out       string
	}{
		{"ok", "echo hi", 0, false, "hi\n"},
		{"exit code", "echo no >&2; exit 3", 3, false, "no\n"},
		{"hang, with a child", "sleep 30 & sleep 30", -1, true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			r, err := Run(ctx, t.TempDir(), tc.cmd, nil, 500*time.Millisecond, 1024)
			if err != nil {
				t.Fatal(err)
			}
			if r.ExitCode != tc.exit || r.TimedOut != tc.timedOut || string(r.Output) != tc.out {
				t.Fatalf("got %+v", r)
			}
			if time.Since(start) > 5*time.Second {
				t.Fatalf("took %s: the process group was not killed", time.Since(start))
			}
		})
	}
	// A flood of output is capped: head and tail kept, the rest counted.
	r, err := Run(ctx, t.TempDir(), "yes 0123456789 | head -c 10000000; echo END", nil, 20*time.Second, 4096)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Output) > 8192 || r.Dropped < 9_000_000 || !strings.HasSuffix(string(r.Output), "END\n") || !strings.HasPrefix(string(r.Output), "0123456789") {
		t.Fatalf("capped output: %d bytes kept, %d dropped, tail %q", len(r.Output), r.Dropped, r.Output[max(0, len(r.Output)-20):])
	}
}
