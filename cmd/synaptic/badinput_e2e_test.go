package main_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The bad-input cases of auto-freshen (issue 11): another writer on the
// same output directory, a graph.json replaced from outside, a read-only
// output directory, an event burst and a watcher that stops. Each runs
// the real binary on the small fixture, bounded to seconds.

// hasNode asks for a function by name.
func hasNode(t *testing.T, cs *sdk.ClientSession, name string) bool {
	t.Helper()
	res := callTool(t, cs, "get_node", map[string]any{"label": name + "()"})
	return !res.IsError && strings.Contains(resultText(res), "Node: "+name+"()")
}

// fullGraph extracts root afresh elsewhere and returns its graph.json.
func fullGraph(t *testing.T, root string) []byte {
	t.Helper()
	out := t.TempDir()
	cmd := exec.Command(bin, "extract", "--full", "--out", out, ".")
	cmd.Dir, cmd.Env = root, serveEnv()
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("extract: %v\n%s", err, b)
	}
	return read(t, filepath.Join(out, "graph.json"))
}

// graphWrites counts graph.json being put in place in dir (each atomic
// write is a rename onto it).
func graphWrites(t *testing.T, dir string) func() int {
	t.Helper()
	w, err := fsnotify.NewWatcher()
	if err != nil {
		t.Skipf("no file watcher: %v", err)
	}
	t.Cleanup(func() { w.Close() })
	if err := w.Add(dir); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	n := 0
	go func() {
		for ev := range w.Events {
			if filepath.Base(ev.Name) == "graph.json" && ev.Has(fsnotify.Create) {
				mu.Lock()
				n++
				mu.Unlock()
			}
		}
	}()
	return func() int {
		time.Sleep(100 * time.Millisecond) // let queued events arrive
		mu.Lock()
		defer mu.Unlock()
		return n
	}
}

const failedLine = "answering from the last graph" // freshener.fail's stderr line

// TestServeWaitsForAnotherWriter: while another synaptic process holds
// the output directory's lock (as extract, update and every serve's
// write-back take it), serve still answers edits from memory, writes
// nothing, says once that another process writes, and reports no
// failure; once the lock is free it writes the exact graph.
func TestServeWaitsForAnotherWriter(t *testing.T) {
	root, graphPath := serveFixture(t)
	out := filepath.Dir(graphPath)
	lock, err := os.OpenFile(filepath.Join(out, ".lock"), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	s := startHTTP(t, serveEnv("SYNAPTIC_SERVE_AUTOFRESH_DEBOUNCE_MS=0"), "--graph", graphPath)
	cs := connectSDK(t, &sdk.StreamableClientTransport{Endpoint: s.mcpURL, MaxRetries: -1}, "")
	defer cs.Close()
	callTool(t, cs, "graph_stats", nil) // the first catch-up is done
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	writes := graphWrites(t, out)
	before := read(t, graphPath)
	write(t, root, map[string]string{"price/discount.go": "package price\n\nfunc Discount(c int) int { return WithTax(c) / 2 }\n"})
	if !hasNode(t, cs, "Discount") {
		t.Fatal("the edit is not served while another process holds the output directory")
	}
	waitFor(t, 30*time.Second, "serve to notice the other writer", func() bool {
		return strings.Contains(s.stderr.String(), "another synaptic process is writing")
	})
	time.Sleep(1200 * time.Millisecond) // a few retries
	if n := writes(); n != 0 || !bytes.Equal(read(t, graphPath), before) {
		t.Fatalf("graph.json written %d time(s) while another process held the lock", n)
	}
	if strings.Count(s.stderr.String(), "another synaptic process is writing") != 1 || strings.Contains(s.stderr.String(), failedLine) {
		t.Errorf("want one line about the other writer and no failure:\n%s", s.stderr.String())
	}
	syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	waitFor(t, time.Minute, "the exact graph once the lock is free", func() bool {
		return strings.Contains(s.stderr.String(), "exact graph served")
	})
	if !bytes.Equal(read(t, graphPath), fullGraph(t, root)) {
		t.Error("the graph written after the wait differs from a full extraction")
	}
}

// TestServeTwoOnOneRepository: two servers keep one repository current;
// after an edit both answer with it, graph.json is written exactly once
// (the other server waits for the lock, then finds the graph current and
// serves it), it equals a full extraction, and neither reports a failure.
func TestServeTwoOnOneRepository(t *testing.T) {
	root, graphPath := serveFixture(t)
	env := serveEnv("SYNAPTIC_SERVE_AUTOFRESH_DEBOUNCE_MS=0")
	a := startHTTP(t, env, "--graph", graphPath)
	b := startHTTP(t, env, "--graph", graphPath)
	ca := connectSDK(t, &sdk.StreamableClientTransport{Endpoint: a.mcpURL, MaxRetries: -1}, "")
	defer ca.Close()
	cb := connectSDK(t, &sdk.StreamableClientTransport{Endpoint: b.mcpURL, MaxRetries: -1}, "")
	defer cb.Close()
	callTool(t, ca, "graph_stats", nil)
	callTool(t, cb, "graph_stats", nil)
	writes := graphWrites(t, filepath.Dir(graphPath))
	write(t, root, map[string]string{"price/discount.go": "package price\n\nfunc Discount(c int) int { return WithTax(c) / 2 }\n"})
	var wg sync.WaitGroup
	for name, cs := range map[string]*sdk.ClientSession{"a": ca, "b": cb} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if !hasNode(t, cs, "Discount") {
				t.Errorf("server %s does not serve the edit", name)
			}
		}()
	}
	wg.Wait()
	for _, s := range []*httpServer{a, b} {
		waitFor(t, time.Minute, "both servers' exact graphs", func() bool { return strings.Contains(s.stderr.String(), "exact graph served") })
	}
	time.Sleep(1500 * time.Millisecond) // past the reload watcher's poll
	if n := writes(); n != 1 {
		t.Errorf("graph.json written %d times, want once", n)
	}
	for name, cs := range map[string]*sdk.ClientSession{"a": ca, "b": cb} {
		txt := resultText(callTool(t, cs, "find_callers", map[string]any{"label": "WithTax"}))
		if !strings.Contains(txt, "Discount") || strings.Contains(txt, "stale") {
			t.Errorf("server %s after settling:\n%s", name, txt)
		}
	}
	for _, s := range []*httpServer{a, b} {
		if strings.Contains(s.stderr.String(), failedLine) {
			t.Errorf("a server reported a failure:\n%s", s.stderr.String())
		}
	}
	ca.Close()
	cb.Close()
	a.stop(t)
	b.stop(t)
	if !bytes.Equal(read(t, graphPath), fullGraph(t, root)) {
		t.Error("graph.json differs from a full extraction")
	}
}

// TestServeGraphReplacedDuringRefresh: graph.json replaced from outside
// at several moments of a refresh (before, during and after the exact run
// writes). Whatever lands last, once things settle the server serves what
// graph.json holds, never its own graph behind a file it did not load;
// and the next catch-up brings graph.json back to the tree's.
func TestServeGraphReplacedDuringRefresh(t *testing.T) {
	root, graphPath := serveFixture(t)
	other := t.TempDir()
	write(t, other, fixtureRepo)
	write(t, other, map[string]string{"price/extra.go": "package price\n\nfunc Surcharge(c int) int { return WithTax(c) + 1 }\n"})
	cmd := exec.Command(bin, "extract", ".")
	cmd.Dir, cmd.Env = other, serveEnv()
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("extract: %v\n%s", err, b)
	}
	foreign := read(t, filepath.Join(other, "synaptic-out", "graph.json"))
	s := startHTTP(t, serveEnv("SYNAPTIC_SERVE_AUTOFRESH_DEBOUNCE_MS=0"), "--graph", graphPath)
	cs := connectSDK(t, &sdk.StreamableClientTransport{Endpoint: s.mcpURL, MaxRetries: -1}, "")
	defer cs.Close()
	callTool(t, cs, "graph_stats", nil)
	for i, delay := range []time.Duration{0, 900 * time.Millisecond, 1100 * time.Millisecond, 1400 * time.Millisecond, 2 * time.Second} {
		write(t, root, map[string]string{"price/discount.go": fmt.Sprintf("package price\n\nfunc Discount%d(c int) int { return WithTax(c) / 2 }\n", i)})
		if !hasNode(t, cs, fmt.Sprintf("Discount%d", i)) {
			t.Fatalf("round %d: edit not served", i)
		}
		time.Sleep(delay)
		tmp := graphPath + ".outside"
		if err := os.WriteFile(tmp, foreign, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, graphPath); err != nil {
			t.Fatal(err)
		}
		// Settle: the exact run is done and the reload watcher (1 s poll)
		// has seen the last write, so served and on-disk graphs agree.
		waitFor(t, time.Minute, "the refresh to settle", func() bool {
			return !strings.Contains(resultText(callTool(t, cs, "graph_stats", nil)), "provisional")
		})
		time.Sleep(2500 * time.Millisecond)
		// Asking runs a catch-up first (after a reload, an exact run that
		// may rewrite graph.json), then answers: ask, then read the disk.
		served := strings.Contains(readResourceText(t, cs, "synaptic://node/Surcharge()"), "Node: Surcharge()")
		onDisk := bytes.Contains(read(t, graphPath), []byte("Surcharge()"))
		if served != onDisk {
			t.Errorf("round %d (replaced %v after the edit): graph.json has Surcharge: %v, the server serves it: %v\n%s", i, delay, onDisk, served, s.stderr.String())
		}
	}
	// The next catch-ups make graph.json the tree's again.
	callTool(t, cs, "graph_stats", nil)
	waitFor(t, time.Minute, "graph.json to be the tree's again", func() bool {
		callTool(t, cs, "graph_stats", nil)
		return !bytes.Contains(read(t, graphPath), []byte("Surcharge()"))
	})
	if hasNode(t, cs, "Surcharge") {
		t.Error("the foreign graph is still served after graph.json became the tree's")
	}
}

// readResourceText reads a resource ("" when it cannot).
func readResourceText(t *testing.T, cs *sdk.ClientSession, uri string) string {
	t.Helper()
	r, err := cs.ReadResource(t.Context(), &sdk.ReadResourceParams{URI: uri})
	if err != nil || len(r.Contents) == 0 {
		return ""
	}
	return r.Contents[0].Text
}

// TestServeReadOnlyOutput: with an output directory serve cannot write,
// edits are still answered (patched in memory), the answer says the
// graph is provisional and why, stderr says once that nothing can be
// saved, and graph.json is left as it was. As root (which ignores file
// modes) the tree is extracted and served as the nobody user, with
// synaptic-out then owned by root.
func TestServeReadOnlyOutput(t *testing.T) {
	needBin(t)
	root := t.TempDir()
	write(t, root, fixtureRepo)
	out := filepath.Join(root, "synaptic-out")
	graphPath := filepath.Join(out, "graph.json")
	env := serveEnv("SYNAPTIC_SERVE_AUTOFRESH_DEBOUNCE_MS=0")
	var cred *syscall.Credential
	extract := exec.Command(bin, "extract", ".")
	extract.Dir = root
	if os.Geteuid() == 0 {
		u, err := user.Lookup("nobody")
		if err != nil {
			t.Skipf("running as root and no nobody user: %v", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
		// nobody owns the tree and its own cache and key, extracts it,
		// and then loses synaptic-out to root.
		home := t.TempDir()
		for _, d := range []string{root, home} {
			os.Chmod(filepath.Dir(d), 0o755)
			chownTree(t, d, uid, gid)
		}
		env = append(env, "HOME="+home, "XDG_CACHE_HOME="+filepath.Join(home, "cache"), "TMPDIR="+home,
			"SYNAPTIC_CACHE_KEY="+filepath.Join(home, "key"))
		extract.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	}
	extract.Env = env
	if b, err := extract.CombinedOutput(); err != nil {
		t.Fatalf("extract: %v\n%s", err, b)
	}
	if cred != nil {
		chownTree(t, out, 0, 0)
	} else {
		for _, d := range []string{out, filepath.Join(out, "cache")} {
			if err := os.Chmod(d, 0o555); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.Chmod(d, 0o755) })
		}
	}
	before := read(t, graphPath)
	s := launchServeAs(t, env, cred, "--graph", graphPath)
	cs := connectSDK(t, &sdk.StreamableClientTransport{Endpoint: s.mcpURL, MaxRetries: -1}, "")
	defer cs.Close()
	for i := range 2 {
		write(t, root, map[string]string{"price/discount.go": fmt.Sprintf("package price\n\nfunc Discount%d(c int) int { return WithTax(c) / 2 }\n", i)})
		res := callTool(t, cs, "get_node", map[string]any{"label": fmt.Sprintf("Discount%d()", i)})
		if txt := resultText(res); res.IsError || !strings.Contains(txt, "read-only") {
			t.Fatalf("edit %d: want the new function, said to be patched in memory only:\n%s\n%s", i, txt, s.stderr.String())
		}
	}
	time.Sleep(1500 * time.Millisecond) // past the exact run's quiet time
	if n := strings.Count(s.stderr.String(), "cannot write"); n != 1 {
		t.Errorf("said %d times that it cannot write, want once:\n%s", n, s.stderr.String())
	}
	if strings.Contains(s.stderr.String(), failedLine) {
		t.Errorf("a read-only output directory was reported as a failure:\n%s", s.stderr.String())
	}
	if !bytes.Equal(read(t, graphPath), before) {
		t.Error("graph.json changed in a read-only output directory")
	}
}

// chownTree gives every file under dir to uid:gid.
func chownTree(t *testing.T, dir string, uid, gid int) {
	t.Helper()
	err := filepath.Walk(dir, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, uid, gid)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// launchServeAs is startHTTP run with cred (nil: as the test).
func launchServeAs(t *testing.T, env []string, cred *syscall.Credential, args ...string) *httpServer {
	t.Helper()
	if cred == nil {
		return startHTTP(t, env, args...)
	}
	dir := t.TempDir()
	os.Chmod(filepath.Dir(dir), 0o755)
	if err := os.Chown(dir, int(cred.Uid), int(cred.Gid)); err != nil {
		t.Fatal(err)
	}
	ready := filepath.Join(dir, "ready.json")
	s := &httpServer{stderr: &syncBuffer{}, exited: make(chan struct{})}
	s.cmd = exec.Command(bin, append(append([]string{"serve"}, args...), "--http", "127.0.0.1:0", "--ready-file", ready)...)
	s.cmd.Env, s.cmd.Stderr = env, s.stderr
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { s.waitErr = s.cmd.Wait(); close(s.exited) }()
	t.Cleanup(func() { s.stop(t) })
	var data []byte
	waitFor(t, time.Minute, "serve (as another user) to be ready", func() bool {
		if s.done() {
			t.Fatalf("serve exited: %v\n%s", s.waitErr, s.stderr.String())
		}
		var err error
		data, err = os.ReadFile(ready)
		return err == nil
	})
	var r struct {
		MCPURL string `json:"mcp_url"`
	}
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatalf("ready file %q: %v", data, err)
	}
	s.mcpURL = r.MCPURL
	return s
}

// TestServeWatchBurst10000: serve --watch through a burst of 10,000 file
// writes (a branch switch's worth, 50 files rewritten 200 times each,
// enough to overflow inotify's queue): a request during the burst is
// answered, the first request after it serves every file's last content,
// and what is written back equals a full extraction.
func TestServeWatchBurst10000(t *testing.T) {
	root, graphPath := serveFixture(t)
	s := startHTTP(t, serveEnv("SYNAPTIC_SERVE_AUTOFRESH_DEBOUNCE_MS=60000"), "--graph", graphPath, "--watch")
	cs := connectSDK(t, &sdk.StreamableClientTransport{Endpoint: s.mcpURL, MaxRetries: -1}, "")
	defer cs.Close()
	callTool(t, cs, "graph_stats", nil)
	waitFor(t, 30*time.Second, "the watcher", func() bool { return strings.Contains(s.stderr.String(), "--watch: watching") })
	const files, rounds = 50, 200
	done := make(chan struct{})
	go func() {
		defer close(done)
		for r := range rounds {
			for i := range files {
				body := fmt.Sprintf("package price\n\nfunc Burst%d_%d(c int) int { return WithTax(c) + %d }\n", i, r, r)
				if err := os.WriteFile(filepath.Join(root, "price", fmt.Sprintf("burst%02d.go", i)), []byte(body), 0o644); err != nil {
					t.Error(err)
					return
				}
			}
		}
	}()
	t0 := time.Now()
	if res := callTool(t, cs, "graph_stats", nil); res.IsError {
		t.Fatalf("during the burst: %s", resultText(res))
	}
	t.Logf("answered during the burst in %v", time.Since(t0).Round(time.Millisecond))
	<-done
	for i := range files {
		if name := fmt.Sprintf("Burst%d_%d", i, rounds-1); !hasNode(t, cs, name) {
			t.Fatalf("after the burst %s is not served:\n%s", name, s.stderr.String())
		}
	}
	if hasNode(t, cs, "Burst0_0") && rounds > 1 {
		t.Error("a stale version of a burst file is still served")
	}
	cs.Close()
	s.stop(t)
	if !bytes.Equal(read(t, graphPath), fullGraph(t, root)) {
		t.Error("the graph written back after the burst differs from a full extraction")
	}
}

// TestServeWatcherStops: a watcher that stops (here: more directories
// appear than SYNAPTIC_SERVE_WATCH_MAX_DIRS allows) says so once, and
// serve falls back to the debounced check: edits are still seen on the
// next request.
func TestServeWatcherStops(t *testing.T) {
	root, graphPath := serveFixture(t)
	s := startHTTP(t, serveEnv("SYNAPTIC_SERVE_AUTOFRESH_DEBOUNCE_MS=0", "SYNAPTIC_SERVE_WATCH_MAX_DIRS=30"), "--graph", graphPath, "--watch")
	cs := connectSDK(t, &sdk.StreamableClientTransport{Endpoint: s.mcpURL, MaxRetries: -1}, "")
	defer cs.Close()
	callTool(t, cs, "graph_stats", nil)
	waitFor(t, 30*time.Second, "the watcher", func() bool { return strings.Contains(s.stderr.String(), "--watch: watching") })
	for i := range 40 {
		if err := os.MkdirAll(filepath.Join(root, "more", fmt.Sprintf("d%02d", i)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	const stopped = "the file watcher stopped"
	waitFor(t, 30*time.Second, "the watcher to stop", func() bool { return strings.Contains(s.stderr.String(), stopped) })
	for i := range 3 {
		write(t, root, map[string]string{fmt.Sprintf("more/d%02d/f.go", i): fmt.Sprintf("package d\n\nfunc AfterStop%d() int { return %d }\n", i, i)})
		if !hasNode(t, cs, fmt.Sprintf("AfterStop%d", i)) {
			t.Fatalf("edit %d after the watcher stopped is not served:\n%s", i, s.stderr.String())
		}
	}
	if n := strings.Count(s.stderr.String(), stopped); n != 1 {
		t.Errorf("said %d times that the watcher stopped, want once:\n%s", n, s.stderr.String())
	}
}

// TestServeFirstAnswerWaitsOutABriefWriter: a serve whose first data
// request finds another process holding the output directory for a
// moment (a second serve checking the same clean tree) waits for it
// rather than answering "another process is re-extracting".
func TestServeFirstAnswerWaitsOutABriefWriter(t *testing.T) {
	_, graphPath := serveFixture(t)
	lock, err := os.OpenFile(filepath.Join(filepath.Dir(graphPath), ".lock"), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	s := startHTTP(t, serveEnv(), "--graph", graphPath)
	cs := connectSDK(t, &sdk.StreamableClientTransport{Endpoint: s.mcpURL, MaxRetries: -1}, "")
	defer cs.Close()
	fd := int(lock.Fd()) // once: Fd from two goroutines races
	if err := syscall.Flock(fd, syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	released := make(chan struct{})
	time.AfterFunc(700*time.Millisecond, func() { syscall.Flock(fd, syscall.LOCK_UN); close(released) })
	defer func() { <-released }() // before the deferred Close
	got := resultText(callTool(t, cs, "find_callers", map[string]any{"label": "WithTax"}))
	if strings.Contains(got, "another synaptic process") || !strings.Contains(got, "Total") {
		t.Errorf("first answer beside a brief writer:\n%s", got)
	}
}
