package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestEditHookFile(t *testing.T) {
	block := hookBlock("/opt/it's/synaptic", "services/billing")
	for _, tc := range []struct {
		name     string
		old      *string // nil: no file
		block    string
		want     hookAction
		wantBody *string // nil: no file after
		wantErr  string
	}{
		{name: "fresh", block: block, want: hookCreated, wantBody: hookText("#!/bin/sh\n" + block)},
		{name: "existing kept, block after shebang", old: hookText("#!/bin/sh\necho mine\nexit 0\n"), block: block,
			want: hookAdded, wantBody: hookText("#!/bin/sh\n" + block + "echo mine\nexit 0\n")},
		{name: "no shebang", old: hookText("echo mine\n"), block: block, want: hookAdded, wantBody: hookText(block + "echo mine\n")},
		{name: "second install", old: hookText("#!/bin/sh\n" + block + "echo mine\n"), block: block, want: hookUnchanged,
			wantBody: hookText("#!/bin/sh\n" + block + "echo mine\n")},
		{name: "other dir replaces", old: hookText("#!/bin/sh\n" + hookBlock("/bin/synaptic", "") + "echo mine\n"), block: block,
			want: hookUpdated, wantBody: hookText("#!/bin/sh\n" + block + "echo mine\n")},
		{name: "bash ok", old: hookText("#!/usr/bin/env bash\necho\n"), block: block, want: hookAdded,
			wantBody: hookText("#!/usr/bin/env bash\n" + block + "echo\n")},
		{name: "python refused", old: hookText("#!/usr/bin/env python3\nprint()\n"), block: block, wantErr: "not a shell script",
			wantBody: hookText("#!/usr/bin/env python3\nprint()\n")},
		{name: "unterminated block refused", old: hookText("#!/bin/sh\n" + hookBegin + "\necho\n"), block: block, wantErr: "without",
			wantBody: hookText("#!/bin/sh\n" + hookBegin + "\necho\n")},
		{name: "uninstall keeps the rest", old: hookText("#!/bin/sh\n" + block + "echo mine\n"), want: hookRemoved,
			wantBody: hookText("#!/bin/sh\necho mine\n")},
		{name: "uninstall deletes a shebang-only file", old: hookText("#!/bin/sh\n" + block), want: hookDeleted},
		{name: "uninstall without block", old: hookText("#!/bin/sh\necho mine\n"), want: hookAbsent, wantBody: hookText("#!/bin/sh\necho mine\n")},
		{name: "uninstall without file", want: hookAbsent},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "post-commit")
			if tc.old != nil {
				if err := os.WriteFile(p, []byte(*tc.old), 0o750); err != nil {
					t.Fatal(err)
				}
			}
			act, err := editHookFile(p, tc.block)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Errorf("err = %v, want %q", err, tc.wantErr)
				}
			} else if err != nil || act != tc.want {
				t.Errorf("editHookFile = %q, %v; want %q", act, err, tc.want)
			}
			data, err := os.ReadFile(p)
			switch {
			case tc.wantBody == nil && err == nil:
				t.Errorf("file left behind:\n%s", data)
			case tc.wantBody != nil && string(data) != *tc.wantBody:
				t.Errorf("file =\n%s\nwant\n%s", data, *tc.wantBody)
			}
			if st, err := os.Stat(p); err == nil && st.Mode().Perm()&0o100 == 0 {
				t.Errorf("mode %v: not executable", st.Mode())
			}
		})
	}
}

func TestHookBlockQuoting(t *testing.T) {
	b := hookBlock("/opt/it's/synaptic", "")
	if !strings.Contains(b, `'/opt/it'\''s/synaptic' update '.'`) || !strings.Contains(b, "'./synaptic-out/graph.json'") {
		t.Errorf("block:\n%s", b)
	}
}

func hookText(s string) *string { return &s }

func TestUpdateAndHookHelp(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		out  string
	}{
		{[]string{"update", "--help"}, 0, "Usage: synaptic update"},
		{[]string{"hook", "--help"}, 0, "Usage: synaptic hook install|uninstall"},
		{[]string{"hook"}, 2, "want 'synaptic hook install [DIR]'"},
		{[]string{"update", "--wait", "-1s"}, 2, "--wait must not be negative"},
	} {
		var out, errb bytes.Buffer
		code := Main(context.Background(), tc.args, IO{Out: &out, Err: &errb})
		if code != tc.code || !strings.Contains(out.String()+errb.String(), tc.out) {
			t.Errorf("%v: code %d, out %q, stderr %q", tc.args, code, out.String(), errb.String())
		}
	}
}
