// Package cli implements synaptic's commands. It is the composition root:
// the only place that wires the plugin host into the core pipeline and the
// graph catalog into the MCP server.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"sort"
	"strings"
)

// IO is the command's standard streams.
type IO struct {
	In       io.Reader
	Out, Err io.Writer
}

type command struct {
	name    string
	summary string
	run     func(ctx context.Context, args []string, io IO) error
}

func commands() []command {
	return []command{
		{"extract", "build synaptic-out/graph.json from a source tree", runExtract},
		{"update", "bring synaptic-out/ up to date with the source, quietly (for scripts and git hooks)", runUpdate},
		{"hook", "install or uninstall git hooks that run synaptic update after commits, merges and checkouts", runHook},
		{"plugins", "list the loaded plugins, or validate a plugin folder", runPlugins},
		{"parse", "write the syntax trees a plugin would receive for some files (for plugin tests)", runParse},
		{"serve", "serve a graph.json to AI assistants over MCP (stdio or HTTP)", runServe},
		{"call", "run one serve tool from the command line (same output as MCP)", runCall},
		{"query", "ask the graph a question (the query_graph tool)", runQuery},
		{"report", "regenerate GRAPH_REPORT.md from an existing graph.json", runReport},
		{"rules", "list, test and scaffold rule packs", runRules},
		{"audit", "run the SQL or readiness audit and write findings.json and audit.md", runAudit},
		{"predict", "forecast the impact of the working changes or of FILES (predict_impact)", runPredict},
		{"refactor", "plan a rename (never edits) and verify it after applying", runRefactor},
		{"affected-tests", "the tests that reach the working changes or FILES (affected_tests)", runAffectedTests},
		{"install", "register synaptic in an assistant's MCP config (claude, codex, cursor, vscode, gemini, windsurf)", runInstall},
		{"doctor", "check a setup end to end: binary, plugins, graph freshness, assistant configs, a real MCP handshake", runDoctor},
		{"uninstall", "remove synaptic from an assistant's MCP config", runUninstall},
		{"view", "browse the graph in a local web page (search, neighbourhoods, communities, source)", runView},
		{"version", "print the version, commit, Go version and plugin ABI", runVersion},
	}
}

// usageError makes Main print the command's usage and exit with status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// Main runs the command line and returns the process exit status.
func Main(ctx context.Context, args []string, io IO) int {
	cmds := commands()
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		if len(args) > 1 {
			return Main(ctx, []string{args[1], "--help"}, io)
		}
		printUsage(io.Out, cmds)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	if args[0] == "--version" || args[0] == "-version" {
		args[0] = "version"
	}
	for _, c := range cmds {
		if c.name != args[0] {
			continue
		}
		stop := startProfiles(io.Err)
		err := c.run(ctx, args[1:], io)
		stop()
		switch {
		case err == nil:
			return 0
		case errors.Is(err, flag.ErrHelp):
			return 0
		case errors.As(err, new(usageError)):
			fmt.Fprintf(io.Err, "synaptic %s: %v\nRun 'synaptic %s --help' for usage.\n", c.name, err, c.name)
			return 2
		default:
			fmt.Fprintf(io.Err, "synaptic %s: %v\n", c.name, err)
			return 1
		}
	}
	fmt.Fprintf(io.Err, "synaptic: unknown command %q\n\n", args[0])
	printUsage(io.Err, cmds)
	return 2
}

func printUsage(w io.Writer, cmds []command) {
	fmt.Fprint(w, "synaptic turns a source tree into a code knowledge graph and serves it over MCP.\n\nUsage:\n\n  synaptic <command> [arguments]\n\nCommands:\n\n")
	sort.Slice(cmds, func(i, j int) bool { return cmds[i].name < cmds[j].name })
	for _, c := range cmds {
		fmt.Fprintf(w, "  %-14s %s\n", c.name, c.summary)
	}
	fmt.Fprint(w, "\nRun 'synaptic <command> --help' for a command's flags.\n\nTypical use:\n\n  synaptic extract path/to/repo\n  synaptic install claude path/to/repo   (or codex, cursor, vscode, gemini, windsurf --global)\n  synaptic view --graph path/to/repo\n")
}

// newFlags returns a FlagSet whose usage prints a synopsis and the flags.
func newFlags(io IO, name, synopsis, about string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Err)
	fs.Usage = func() {
		fmt.Fprintf(io.Out, "Usage: synaptic %s %s\n\n%s\n\nFlags:\n", name, synopsis, strings.TrimSpace(about))
		fs.SetOutput(io.Out)
		fs.PrintDefaults()
		fs.SetOutput(io.Err)
	}
	return fs
}

// parseInterspersed parses flags that may come before or after positional
// arguments ("extract repo --workers 2") and returns the positionals.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, usageError{err.Error()}
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// startProfiles writes CPU and heap profiles when SYNAPTIC_CPUPROFILE /
// SYNAPTIC_MEMPROFILE name files: for measuring, not for users.
func startProfiles(warn io.Writer) func() {
	var stops []func()
	if p := os.Getenv("SYNAPTIC_CPUPROFILE"); p != "" {
		if f, err := os.Create(p); err == nil {
			if err := pprof.StartCPUProfile(f); err == nil {
				stops = append(stops, func() { pprof.StopCPUProfile(); f.Close() })
			}
		} else {
			fmt.Fprintf(warn, "synaptic: cpu profile: %v\n", err)
		}
	}
	if p := os.Getenv("SYNAPTIC_MEMPROFILE"); p != "" {
		stops = append(stops, func() {
			if f, err := os.Create(p); err == nil {
				pprof.Lookup("heap").WriteTo(f, 0)
				f.Close()
			}
		})
	}
	return func() {
		for _, s := range stops {
			s()
		}
	}
}

func envOr(name, def string) string {
	if v, ok := os.LookupEnv(name); ok {
		return v
	}
	return def
}
