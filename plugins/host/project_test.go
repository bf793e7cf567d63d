package host

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// TestProjectEntryPoint runs a real Go guest's project entry point: what
// it answers reaches every instance in Init.Project, and when it loops,
// panics, errs or answers too much the error says so and the instances
// run with no project info.
func TestProjectEntryPoint(t *testing.T) {
	h := newHost(t, Options{})
	m := writePluginABI(t, buildGuest(t, "hostile"), 2, "[project]\nfiles = [\"go.mod\"]\n[limits]\ntimeout = \"300ms\"\n")
	p, err := h.Load(t.Context(), m, []abi.Grammar{fakeGrammar})
	if err != nil {
		t.Fatal(err)
	}
	if got := p.ProjectFiles(); len(got) != 1 || got[0] != "go.mod" {
		t.Fatalf("ProjectFiles = %v", got)
	}
	seen := func(worker int) string {
		t.Helper()
		f, err := p.Extract(t.Context(), worker, "project.fake", 0, fakeRecords(), fakeSource)
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimPrefix(f.Symbols[0].Name, "project:")
	}
	in := func(root string) *abi.ProjectInput {
		return &abi.ProjectInput{Root: "/r/" + root, Files: []abi.ProjectFile{{Path: "../go.mod", Data: []byte("module m")}}}
	}
	if seen(1) != "" {
		t.Fatal("project info before Project")
	}
	out, err := p.Project(t.Context(), in("ok"))
	info := out.Info
	if err != nil || string(info) != "../go.mod=module m;" {
		t.Fatalf("Project = %q, %v", info, err)
	}
	if !slices.Equal(out.Summary, []string{"1 project files"}) || !slices.Equal(out.Warnings, []string{"nothing to fix in ok"}) {
		t.Errorf("Project's lines = %q and %q, want the summary and warning the guest reported", out.Summary, out.Warnings)
	}
	calls := p.Stats().Calls
	if again, err := p.Project(t.Context(), in("ok")); err != nil || string(again.Info) != string(info) || !slices.Equal(again.Summary, out.Summary) || p.Stats().Calls != calls {
		t.Errorf("Project over the same files = %+v, %v after %d guest calls; want the remembered answer and none", again, err, p.Stats().Calls-calls)
	}
	for _, w := range []int{0, 1, 2} { // worker 1's old instance is retired
		if got := seen(w); got != string(info) {
			t.Errorf("worker %d sees project %q, want %q", w, got, info)
		}
	}
	for _, tt := range []struct {
		root   string
		reason Reason
		msg    string
	}{
		{"loop", ReasonTimeout, "synaptic_project did not finish"},
		{"panic", ReasonGuest, "project entry point panic: project boom"},
		{"error", ReasonGuest, "go.mod: no module line"},
		{"huge", ReasonGuest, "project info of 1048577 bytes exceeds 1048576"},
	} {
		out, err := p.Project(t.Context(), in(tt.root))
		var pe *PluginError
		if !errors.As(err, &pe) || pe.Reason != tt.reason || !strings.Contains(err.Error(), tt.msg) || out.Info != nil || out.Summary != nil {
			t.Errorf("%s: Project = %+v, %v; want a %s error with %q", tt.root, out, err, tt.reason, tt.msg)
		}
		if got := seen(0); got != "" {
			t.Errorf("%s: after a failed Project the instance sees %q, want no project", tt.root, got)
		}
	}
	// The earlier answer is not reused blindly: the failures replaced it.
	if out, err := p.Project(t.Context(), in("ok")); err != nil || seen(1) != string(out.Info) || len(out.Info) == 0 {
		t.Errorf("Project after failures = %q, %v; instances see %q", out.Info, err, seen(1))
	}
}

// TestProjectKeepsInstances: a new project answer reaches the live
// instances through synaptic_set_project instead of replacing them (one
// instance per worker, not one more), a failed answer resets them to no
// project, and a guest without the export (built with an older sdk) gets
// fresh instances that see the answer in Init.
func TestProjectKeepsInstances(t *testing.T) {
	for _, tt := range []struct {
		name    string
		replace bool // as a guest without synaptic_set_project
		// instances made after the first Project, and after the failed one
		afterOK, afterFail int64
	}{
		{"set_project", false, 0, 1},
		{"older guest", true, 2, 4},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newHost(t, Options{})
			m := writePluginABI(t, buildGuest(t, "hostile"), 2, "[project]\nfiles = [\"go.mod\"]\n")
			p, err := h.Load(t.Context(), m, []abi.Grammar{fakeGrammar})
			if err != nil {
				t.Fatal(err)
			}
			p.replaceOnProject = tt.replace
			seen := func(worker int) string {
				t.Helper()
				f, err := p.Extract(t.Context(), worker, "project.fake", 0, fakeRecords(), fakeSource)
				if err != nil {
					t.Fatal(err)
				}
				return strings.TrimPrefix(f.Symbols[0].Name, "project:")
			}
			in := func(root string) *abi.ProjectInput {
				return &abi.ProjectInput{Root: "/r/" + root, Files: []abi.ProjectFile{{Path: "go.mod", Data: []byte("module m")}}}
			}
			for w := range 2 {
				if got := seen(w); got != "" {
					t.Fatalf("worker %d sees project %q before Project", w, got)
				}
			}
			base := p.Stats().Instances
			if base != 2 {
				t.Fatalf("%d instances for 2 workers, want 2", base)
			}
			out, err := p.Project(t.Context(), in("ok"))
			if err != nil || len(out.Info) == 0 {
				t.Fatalf("Project = %q, %v", out.Info, err)
			}
			for w := range 2 {
				if got := seen(w); got != string(out.Info) {
					t.Errorf("worker %d sees project %q, want %q", w, got, out.Info)
				}
			}
			if got := p.Stats().Instances - base; got != tt.afterOK {
				t.Errorf("%d instances made after Project, want %d", got, tt.afterOK)
			}
			if _, err := p.Project(t.Context(), in("error")); err == nil {
				t.Fatal("Project over a bad go.mod did not fail")
			}
			for w := range 2 {
				if got := seen(w); got != "" {
					t.Errorf("after a failed Project worker %d sees %q, want no project", w, got)
				}
			}
			// The instance that ran the failing entry point is always replaced.
			if got := p.Stats().Instances - base; got != tt.afterFail {
				t.Errorf("%d instances made after the failed Project, want %d", got, tt.afterFail)
			}
			if st := p.Stats(); st.Failures != 1 {
				t.Errorf("%d failures, want 1 (the entry point's)", st.Failures)
			}
		})
	}
}
