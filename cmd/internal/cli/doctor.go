package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/synaptic-graph/synaptic/cmd/internal/clientconfig"
	"github.com/synaptic-graph/synaptic/core/extract"
)

// checkStatus is the outcome of one doctor check.
type checkStatus string

const (
	checkOK   checkStatus = "ok"
	checkWarn checkStatus = "warn"
	checkFail checkStatus = "FAIL"
)

// doctor collects check results and prints them as they come.
type doctor struct {
	w     io.Writer
	fails int
}

func (d *doctor) report(s checkStatus, what, format string, args ...any) {
	if s == checkFail {
		d.fails++
	}
	fmt.Fprintf(d.w, "%-4s  %-9s %s\n", s, what, fmt.Sprintf(format, args...))
}

func runDoctor(ctx context.Context, args []string, stdio IO) error {
	flags := newFlags(stdio, "doctor", "[REPO] [--graph PATH]", `
Check that synaptic is set up for REPO (default: the current directory),
end to end: this binary and whether it is on PATH, the plugins it loads,
the graph (present, and fresh against .manifest.json), every assistant
config that registers it (command and graph they point at), and a real
MCP handshake over stdio (serve is started, initialize and tools/list are
sent). Exits non-zero when a check fails.`)
	graphFlag := flags.String("graph", "", "graph.json to check (default REPO/synaptic-out/graph.json)")
	pos, err := parseInterspersed(flags, args)
	if err != nil {
		return err
	}
	if len(pos) > 1 {
		return usageError{"doctor takes one repository"}
	}
	repo := "."
	if len(pos) == 1 {
		repo = pos[0]
	}
	if repo, err = filepath.Abs(repo); err != nil {
		return err
	}
	graphPath := *graphFlag
	if graphPath == "" {
		graphPath = filepath.Join(repo, "synaptic-out", "graph.json")
	}
	if graphPath, err = filepath.Abs(graphPath); err != nil {
		return err
	}
	d := &doctor{w: stdio.Out}
	exe := d.checkBinary()
	d.checkPlugins(repo)
	graphOK := d.checkGraph(repo, graphPath)
	d.checkClients(repo, graphPath)
	if graphOK && exe != "" {
		d.checkHandshake(ctx, exe, graphPath)
	}
	if d.fails > 0 {
		return fmt.Errorf("%d check(s) failed", d.fails)
	}
	return nil
}

func (d *doctor) checkBinary() string {
	exe, err := selfPath()
	if err != nil {
		d.report(checkFail, "binary", "%v", err)
		return ""
	}
	d.report(checkOK, "binary", "%s (synaptic %s)", exe, Version)
	onPath, err := exec.LookPath("synaptic")
	switch {
	case err != nil:
		d.report(checkWarn, "PATH", "synaptic is not on PATH; installed configs use the absolute path, but for your shell: export PATH=%s:$PATH (or make install)", filepath.Dir(exe))
	case !sameFile(onPath, exe):
		d.report(checkWarn, "PATH", "synaptic on PATH is %s, not this binary (%s)", onPath, exe)
	default:
		d.report(checkOK, "PATH", "synaptic on PATH is this binary")
	}
	return exe
}

func sameFile(a, b string) bool {
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}

func (d *doctor) checkPlugins(repo string) {
	reg := discoverPlugins(repo, envOr("SYNAPTIC_PLUGINS", ""), repoPluginsWanted(false))
	for _, p := range reg.Problems {
		d.report(checkWarn, "plugins", "skipped: %v", p)
	}
	if len(reg.Plugins) == 0 {
		d.report(checkFail, "plugins", "no plugins found: build them with 'make plugins' or pass --plugins DIR to extract")
		return
	}
	var names []string
	for _, p := range reg.Plugins {
		names = append(names, p.Name()+"("+p.Origin+")")
	}
	d.report(checkOK, "plugins", "%d: %s", len(names), strings.Join(names, ", "))
}

// checkGraph reports whether graph.json exists and whether the files it
// was built from are as they were (new files are not looked for).
func (d *doctor) checkGraph(repo, graphPath string) bool {
	st, err := os.Stat(graphPath)
	if errors.Is(err, fs.ErrNotExist) {
		d.report(checkFail, "graph", "%s does not exist: run 'synaptic extract %s'", graphPath, repo)
		return false
	}
	if err != nil {
		d.report(checkFail, "graph", "%v", err)
		return false
	}
	d.report(checkOK, "graph", "%s (%d bytes, written %s)", graphPath, st.Size(), st.ModTime().UTC().Format(time.RFC3339))
	data, err := os.ReadFile(filepath.Join(filepath.Dir(graphPath), extract.ManifestFile))
	var m extract.Manifest
	if err == nil {
		err = json.Unmarshal(data, &m)
	}
	if err != nil {
		d.report(checkWarn, "fresh", "cannot read %s (%v): freshness unknown; 'synaptic extract %s' rewrites it", extract.ManifestFile, err, repo)
		return true
	}
	changed, removed := 0, 0
	for rel, e := range m.Files {
		fst, err := os.Stat(filepath.Join(repo, filepath.FromSlash(rel)))
		switch {
		case err != nil:
			removed++
		case fst.Size() != e.Size || float64(fst.ModTime().UnixNano())/1e9 != e.MTime:
			changed++
		}
	}
	if m.Graph != nil {
		if out, ok := m.Graph.Outputs["graph.json"]; ok && (out.Size != st.Size() || out.MTimeNS != st.ModTime().UnixNano()) {
			d.report(checkWarn, "fresh", "graph.json was changed after extraction wrote it")
		}
	}
	if changed+removed > 0 {
		d.report(checkWarn, "fresh", "stale: %d of %d files changed and %d removed since extraction; run 'synaptic extract %s' (serve reloads the graph by itself)", changed, len(m.Files), removed, repo)
	} else {
		d.report(checkOK, "fresh", "all %d extracted files unchanged since extraction (new files are not looked for)", len(m.Files))
	}
	return true
}

// checkClients reads every config that could register this repository.
func (d *doctor) checkClients(repo, graphPath string) {
	env, err := clientconfig.DefaultEnv()
	if err != nil {
		d.report(checkWarn, "clients", "%v", err)
		return
	}
	found := 0
	for _, c := range clientconfig.Clients {
		for _, s := range []clientconfig.Scope{clientconfig.Project, clientconfig.Global} {
			if !c.Supports(s) {
				continue
			}
			what := string(c.Name)
			file, srv, err := clientconfig.Find(c, s, repo, env)
			if err != nil {
				d.report(checkFail, what, "%v", err)
				continue
			}
			if srv == nil {
				continue
			}
			found++
			name := clientconfig.ServerName(s, repo)
			d.checkEntry(what, fmt.Sprintf("%s %q in %s", s, name, file), srv, graphPath)
		}
	}
	if found == 0 {
		d.report(checkWarn, "clients", "no assistant config registers this repository: run 'synaptic install <%s>'", strings.Join(clientconfig.Names(), "|"))
	}
}

func (d *doctor) checkEntry(what, where string, srv *clientconfig.Server, graphPath string) {
	if st, err := os.Stat(srv.Command); err != nil || st.IsDir() || st.Mode()&0o111 == 0 {
		d.report(checkFail, what, "%s starts %s, which is not an executable file: run 'synaptic install' again", where, srv.Command)
		return
	}
	graphArg := ""
	for i, a := range srv.Args {
		if a == "--graph" && i+1 < len(srv.Args) {
			graphArg = srv.Args[i+1]
		}
	}
	if graphArg != graphPath {
		d.report(checkWarn, what, "%s serves %q, not %s", where, graphArg, graphPath)
		return
	}
	d.report(checkOK, what, "%s starts %s", where, srv.Command)
}

// checkHandshake starts `serve` over stdio as an assistant would and
// speaks MCP to it: initialize, notifications/initialized, tools/list.
func (d *doctor) checkHandshake(ctx context.Context, exe, graphPath string) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	start := time.Now()
	cmd := exec.CommandContext(ctx, exe, "serve", "--graph", graphPath)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		d.report(checkFail, "handshake", "cannot start %s serve: %v", exe, err)
		return
	}
	defer func() { stdin.Close(); cmd.Wait() }()
	fmt.Fprint(stdin, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"synaptic-doctor","version":"1"}}}`+"\n"+
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"+
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`+"\n")
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	var proto string
	for sc.Scan() {
		var msg struct {
			ID     int `json:"id"`
			Result struct {
				ProtocolVersion string            `json:"protocolVersion"`
				Tools           []json.RawMessage `json:"tools"`
			} `json:"result"`
			Error *struct{ Message string } `json:"error"`
		}
		if err := json.Unmarshal(sc.Bytes(), &msg); err != nil {
			d.report(checkFail, "handshake", "serve wrote something that is not JSON-RPC on stdout: %.80q", sc.Text())
			return
		}
		if msg.Error != nil {
			d.report(checkFail, "handshake", "request %d failed: %s", msg.ID, msg.Error.Message)
			return
		}
		switch msg.ID {
		case 1:
			proto = msg.Result.ProtocolVersion
		case 2:
			d.report(checkOK, "handshake", "stdio MCP %s: initialize and tools/list answered (%d tools) in %d ms", proto, len(msg.Result.Tools), time.Since(start).Milliseconds())
			return
		}
	}
	d.report(checkFail, "handshake", "serve ended before answering tools/list: %s", strings.TrimSpace(stderr.String()))
}
