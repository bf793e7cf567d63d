//go:build unix

package main_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// These tests replay the extraction side of the attack report (issue 16)
// against the real binary: each attack as it was run, and what must hold.

// runTimed runs the binary with a deadline, so an attack that makes it
// hang fails the test instead of stalling the suite.
func runTimed(t *testing.T, dir string, limit time.Duration, env []string, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "SYNAPTIC_PLUGINS="), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("synaptic %s still running after %v (hang)\n%s", strings.Join(args, " "), limit, out.String())
	}
	return out.String(), err
}

// builtinGo copies the built-in Go plugin into dir with manifest (its
// module renamed m.wasm).
func builtinGo(t *testing.T, dir, manifest string) {
	t.Helper()
	wasm := read(t, filepath.Join(filepath.Dir(bin), "plugins", "golang", "go.wasm"))
	write(t, dir, map[string]string{"plugin.toml": manifest})
	if err := os.WriteFile(filepath.Join(dir, "m.wasm"), wasm, 0o644); err != nil {
		t.Fatal(err)
	}
}

const greedyGo = `name = "go"
version = "6.6.6"
kind = "extractor"
abi = 1
module = "m.wasm"

[[languages]]
name = "go"
extensions = [".go"]

[limits]
memory_pages = 65536
timeout = "10m"
`

// TestRepoPluginsNeedOptIn: a repository's own plugins are listed but not
// run without --repo-plugins; with it, a same-named plugin replacing the
// built-in one is named in the summary and its limits are capped (H4, P7).
func TestRepoPluginsNeedOptIn(t *testing.T) {
	needBin(t)
	repo := t.TempDir()
	write(t, repo, fixtureRepo)
	builtinGo(t, filepath.Join(repo, ".synaptic", "plugins", "evilgo"), greedyGo)

	out, err := runTimed(t, repo, time.Minute, nil, "extract", ".")
	if err != nil {
		t.Fatalf("extract: %v\n%s", err, out)
	}
	for _, want := range []string{"1 plugin folder(s)", "not loaded (go)", "--repo-plugins", "go 3"} {
		if !strings.Contains(out, want) {
			t.Errorf("extract without opt-in lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "replaces") {
		t.Errorf("the repository plugin ran without opt-in:\n%s", out)
	}
	list, _ := runTimed(t, repo, time.Minute, nil, "plugins")
	if !strings.Contains(list, "repo (disabled)") || !strings.Contains(list, "6.6.6") {
		t.Errorf("plugins listing does not show the disabled repository plugin:\n%s", list)
	}

	for _, optIn := range [][]string{{"--repo-plugins"}, nil} {
		var env []string
		if optIn == nil {
			env = []string{"SYNAPTIC_REPO_PLUGINS=1"}
		}
		args := append(append([]string{"extract", "--full"}, optIn...), ".")
		out, err = runTimed(t, repo, time.Minute, env, args...)
		if err != nil {
			t.Fatalf("extract %v: %v\n%s", optIn, err, out)
		}
		for _, want := range []string{"plugins: plugin go from", "replaces the one in", "memory_pages = 65536", "capped at 16384", `timeout = "10m0s"`} {
			if !strings.Contains(out, want) {
				t.Errorf("extract with opt-in %v env %v lacks %q:\n%s", optIn, env, want, out)
			}
		}
	}
}

// TestHostileModuleFailsFast: a module that is /dev/zero, a FIFO or a
// link out of its folder fails at once, with the reason, in extract and
// in plugins --check (H4, P6); so does an unknown grammar (P6).
func TestHostileModuleFailsFast(t *testing.T) {
	needBin(t)
	outside := t.TempDir()
	write(t, outside, map[string]string{"evil.wasm": "\x00asm\x01\x00\x00\x00"})
	manifest := strings.Replace(greedyGo, `name = "go"`, `name = "evil"`, 1)
	manifest = strings.Replace(manifest, `extensions = [".go"]`, `extensions = [".ev"]`, 1)
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string)
		want  string
	}{
		{"dev-zero", func(t *testing.T, dir string) { must(t, os.Symlink("/dev/zero", filepath.Join(dir, "m.wasm"))) }, "leads outside the plugin folder"},
		{"fifo", func(t *testing.T, dir string) { must(t, syscall.Mkfifo(filepath.Join(dir, "m.wasm"), 0o644)) }, "FIFO"},
		{"outside", func(t *testing.T, dir string) {
			must(t, os.Symlink(filepath.Join(outside, "evil.wasm"), filepath.Join(dir, "m.wasm")))
		}, "leads outside the plugin folder"},
		{"cobol", func(t *testing.T, dir string) {
			must(t, os.WriteFile(filepath.Join(dir, "m.wasm"), []byte("\x00asm\x01\x00\x00\x00"), 0o644))
			must(t, os.WriteFile(filepath.Join(dir, "plugin.toml"), []byte(strings.Replace(manifest, "[limits]", "grammar = \"cobol\"\n\n[limits]", 1)), 0o644))
		}, `grammar "cobol"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			repo := t.TempDir()
			write(t, repo, map[string]string{"a.ev": "x\n", "b.go": "package b\n"})
			dir := filepath.Join(repo, ".synaptic", "plugins", "evil")
			write(t, dir, map[string]string{"plugin.toml": manifest})
			tc.setup(t, dir)
			out, err := runTimed(t, repo, 30*time.Second, nil, "plugins", "--check", dir)
			if err == nil || !strings.Contains(out, tc.want) {
				t.Errorf("plugins --check: err=%v, want a failure naming %q:\n%s", err, tc.want, out)
			}
			out, err = runTimed(t, repo, 30*time.Second, nil, "extract", "--repo-plugins", ".")
			if tc.name == "cobol" {
				tc.want = "cobol"
			}
			if err != nil || !strings.Contains(out, tc.want) {
				t.Errorf("extract: err=%v, want success with a note naming %q:\n%s", err, tc.want, out)
			}
		})
	}
}

// TestSymlinkedOutputRefused: synaptic-out, or its cache/, shipped as a
// link out of the repository is refused and the target untouched (D1).
func TestSymlinkedOutputRefused(t *testing.T) {
	needBin(t)
	for _, link := range []string{"synaptic-out", "synaptic-out/cache"} {
		t.Run(strings.ReplaceAll(link, "/", "_"), func(t *testing.T) {
			base := t.TempDir()
			repo, victim := filepath.Join(base, "h1"), filepath.Join(base, "victim")
			write(t, repo, map[string]string{"a.go": "package a; func A(){}\n"})
			write(t, victim, map[string]string{"graph.json": "VICTIM DATA\n", "facts.bin": "VICTIM DATA\n"})
			must(t, os.MkdirAll(filepath.Dir(filepath.Join(repo, link)), 0o755))
			must(t, os.Symlink("../"+strings.Repeat("../", strings.Count(link, "/"))+"victim", filepath.Join(repo, link)))
			out, err := runTimed(t, base, time.Minute, nil, "extract", "h1")
			if err == nil || !strings.Contains(out, "is a symlink") {
				t.Errorf("extract: err=%v, want a refusal:\n%s", err, out)
			}
			for _, name := range []string{"graph.json", "facts.bin"} {
				if b := read(t, filepath.Join(victim, name)); string(b) != "VICTIM DATA\n" {
					t.Errorf("victim %s overwritten", name)
				}
			}
			if ents, _ := os.ReadDir(victim); len(ents) != 2 {
				t.Errorf("victim gained files: %v", ents)
			}
		})
	}
}

// TestTerminalEscapesNotPrinted: file names holding OSC 52, OSC 0, CSI
// and RLO reach the terminal spelled out, never raw (W4).
func TestTerminalEscapesNotPrinted(t *testing.T) {
	needBin(t)
	repo := t.TempDir()
	write(t, repo, map[string]string{
		"a.go": "package a\n",
		"k\x1b]52;c;SGVsbG8=\a\x1b]0;PWNED\a.pem":     "key\n",
		"red\x1b[31mX\x1b[0m\u202egpj.go":             "package a\n\x00\x01binary",
		"lsep\u2028NODE fake\u2029.go":                "package a\nfunc {{{\n",
		"tag\U000E0049\U000E0047\U000E004E.lock.json": "{}",
	})
	out, err := runTimed(t, repo, time.Minute, nil, "extract", ".")
	if err != nil {
		t.Fatalf("extract: %v\n%s", err, out)
	}
	for _, raw := range []string{"\x1b", "\a", "\u202e", "\u2028", "\U000E0049"} {
		if strings.Contains(out, raw) {
			t.Errorf("output holds %q raw:\n%s", raw, out)
		}
	}
	for _, shown := range []string{`k\x1b]52;c;SGVsbG8=\x07`, `\u{202E}gpj.go`} {
		if !strings.Contains(out, shown) {
			t.Errorf("output lacks the escaped name %q:\n%s", shown, out)
		}
	}
}

// TestForeignCacheIgnored: a repository shipping its own synaptic-out
// (manifest + facts cache made by someone else) does not get its facts
// reused: the run says so and extracts everything (W1).
func TestForeignCacheIgnored(t *testing.T) {
	needBin(t)
	base := t.TempDir()
	attacker := []string{"SYNAPTIC_CACHE_KEY=" + filepath.Join(base, "attacker.key")}
	user := []string{"SYNAPTIC_CACHE_KEY=" + filepath.Join(base, "user.key")}
	repo := filepath.Join(base, "repo")
	write(t, repo, map[string]string{"go.mod": "module m\n", "a.go": "package a\n\nfunc Evil() {}\n\nfunc Main() { Evil() }\n"})
	// The attacker extracts, then forges the cached call away.
	if out, err := runTimed(t, repo, time.Minute, attacker, "extract", "."); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	facts := filepath.Join(repo, "synaptic-out", "cache", "facts.bin")
	b := read(t, facts)
	must(t, os.WriteFile(facts, bytes.Replace(b, []byte("Evil"), []byte("Nope"), -1), 0o644))
	out, err := runTimed(t, repo, time.Minute, user, "extract", ".")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(out, "not written by your synaptic") || !strings.Contains(out, "full run: 2 extracted") && !strings.Contains(out, "full run: 1 extracted") {
		t.Errorf("the foreign cache was not refused:\n%s", out)
	}
	callers, _ := runTimed(t, repo, time.Minute, user, "call", "find_callers", "label=Evil")
	if !strings.Contains(callers, "Main") {
		t.Errorf("find_callers Evil after a forged cache:\n%s", callers)
	}
}

// TestExtractStopsOnSIGTERM: SIGTERM stops a run promptly, and the
// outputs of the previous run stay as they were (H5).
func TestExtractStopsOnSIGTERM(t *testing.T) {
	needBin(t)
	repo := t.TempDir()
	files := map[string]string{"go.mod": "module m\n"}
	for i := range 3000 {
		files[filepath.Join("p", "f"+strconv.Itoa(i)+".go")] = "package p\n\nfunc F" + strconv.Itoa(i) + "() { F" + strconv.Itoa(i+1) + "() }\n"
	}
	write(t, repo, files)
	run(t, repo, false, "extract", "--quiet", ".")
	graph := read(t, filepath.Join(repo, "synaptic-out", "graph.json"))
	manifest := read(t, filepath.Join(repo, "synaptic-out", ".manifest.json"))
	// A FIFO in the tree must not hold the run either.
	must(t, syscall.Mkfifo(filepath.Join(repo, "p", "fifo.go"), 0o644))
	// On a loaded machine the signal can land before main has installed
	// its handler; the process then dies of it, which says nothing about
	// extraction. Try again later in the run, a few times, before failing.
	for wait := 100 * time.Millisecond; ; wait *= 2 {
		if !sigtermDuringExtract(t, repo, wait) {
			break
		}
		if wait >= 1600*time.Millisecond {
			t.Fatal("extract died of SIGTERM every time: no handler stops it cleanly")
		}
	}
	out := filepath.Join(repo, "synaptic-out")
	if now := read(t, filepath.Join(out, "graph.json")); !bytes.Equal(now, graph) {
		t.Error("SIGTERM during extraction replaced graph.json")
	}
	if now := read(t, filepath.Join(out, ".manifest.json")); !bytes.Equal(now, manifest) {
		t.Error("SIGTERM during extraction replaced .manifest.json")
	}
	checkConsistent(t, out)
}

// sigtermDuringExtract starts a full extraction of repo, sends SIGTERM
// after wait and checks the run stops, saying so. It reports true when
// the process died of the signal itself (no handler yet).
func sigtermDuringExtract(t *testing.T, repo string, wait time.Duration) (killedBySignal bool) {
	t.Helper()
	cmd := exec.Command(bin, "extract", "--full", ".")
	cmd.Dir = repo
	cmd.Env = append(os.Environ(), "SYNAPTIC_PLUGINS=")
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	must(t, cmd.Start())
	time.Sleep(wait)
	must(t, cmd.Process.Signal(syscall.SIGTERM))
	sent := time.Now()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err == nil {
			t.Skipf("the run finished before SIGTERM arrived; nothing to check\n%s", stderr.String())
		}
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			t.Logf("SIGTERM after %v arrived before the handler (killed by the signal); trying later", wait)
			return true
		}
		if !strings.Contains(stderr.String(), "canceled") || !strings.Contains(stderr.String(), "left as they were") {
			t.Errorf("exit after SIGTERM: %v\n%s", err, stderr.String())
		}
		t.Logf("stopped %v after SIGTERM", time.Since(sent).Round(time.Millisecond))
	case <-time.After(15 * time.Second):
		cmd.Process.Kill()
		t.Fatal("extract ignored SIGTERM for 15 s")
	}
	return false
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
