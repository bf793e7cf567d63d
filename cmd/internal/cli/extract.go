package cli

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/synaptic-graph/synaptic/core/extract"
	"github.com/synaptic-graph/synaptic/core/textsafe"
)

func runExtract(ctx context.Context, args []string, stdio IO) error {
	fs := newFlags(stdio, "extract", "[flags] [DIR]", `
Extract DIR (default: the current directory) into DIR/synaptic-out/:
graph.json (the knowledge graph), .manifest.json (what it was built from)
and GRAPH_REPORT.md. A rerun re-extracts only files that changed.

Extractors are WebAssembly plugins: the built-in set next to the binary,
then --plugins / $SYNAPTIC_PLUGINS, then DIR/.synaptic/plugins (later
folders override earlier ones with the same plugin name). The repository's
own DIR/.synaptic/plugins run only with --repo-plugins (or
$`+RepoPluginsEnv+`=1): they are code that came with the repository.

The output directory must be a real directory: a synaptic-out (or
synaptic-out/cache) that is a symlink is refused. The manifest and facts
cache are sealed with a per-user key ($`+extract.KeyEnv+`, default
<user cache dir>/synaptic/cache.key), so a cache you did not build (shipped
in the repository, or corrupted) is ignored and every file re-extracted.
SIGINT or SIGTERM stops a run and leaves the previous outputs as they were.`)
	out := fs.String("out", "", "output directory (default DIR/synaptic-out)")
	workers := fs.Int("workers", 0, "parallel workers (default: number of CPUs)")
	pluginDir := fs.String("plugins", envOr("SYNAPTIC_PLUGINS", ""), "extra plugin directory (also $SYNAPTIC_PLUGINS)")
	full := fs.Bool("full", false, "ignore the previous run and extract every file")
	repoOK := fs.Bool("repo-plugins", false, "run the plugins in DIR/.synaptic/plugins (also $"+RepoPluginsEnv+"=1)")
	quiet := fs.Bool("quiet", false, "print only errors")
	verbose := fs.Bool("v", false, "print the time spent in each phase")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 1 {
		return usageError{"extract takes one directory"}
	}
	root := "."
	if len(pos) == 1 {
		root = pos[0]
	}
	loaded, err := loadExtractors(ctx, root, *pluginDir, repoPluginsWanted(*repoOK), stdio.Err)
	if err != nil {
		return err
	}
	defer loaded.close(ctx)
	bar := newProgressBar(stdio.Err, "extracting")
	sum, err := extract.Run(ctx, extract.Options{
		Root: root, OutDir: *out, Workers: *workers, Languages: loaded.languages, Route: loaded.route,
		Progress: bar.update, PhaseDone: bar.phaseDone, Full: *full, ReleaseExtractors: true,
	})
	bar.finish()
	if err != nil {
		return safeError(err)
	}
	if sum.Files == 0 {
		if !*quiet {
			printSummary(stdio.Out, sum, loaded.notes)
		}
		return fmt.Errorf("no supported source file under %s (extensions: %s); nothing to graph. Point it at a source tree, or add a plugin for your language (see 'synaptic plugins')", root, strings.Join(loaded.extensions(), " "))
	}
	if !*quiet {
		printSummary(stdio.Out, sum, loaded.notes)
	}
	if *verbose {
		for _, ph := range sum.Phases {
			fmt.Fprintf(stdio.Err, "  phase %-18s %.3fs  %.2f CPU-s\n", ph.Name, ph.Seconds, ph.CPUSeconds)
		}
		if sum.ResolveMode != "" {
			fmt.Fprintf(stdio.Err, "  resolve: %s\n", sum.ResolveMode)
		}
		wt := sum.Workers
		fmt.Fprintf(stdio.Err, "  workers: parse %.2f CPU-s, serialize %.2f CPU-s, plugins %.2f s, %.2f CPU-s (summed over workers)\n",
			wt.ParseCPU.Seconds(), wt.SerializeCPU.Seconds(), wt.Plugin.Seconds(), wt.PluginCPU.Seconds())
		printLanguageTimes(stdio.Err, wt.ByLanguage)
		for _, line := range loaded.instanceLines() {
			fmt.Fprintf(stdio.Err, "  %s\n", line)
		}
	}
	return nil
}

// printLanguageTimes prints extract -v's per-language split of the
// worker time, slowest plugin first (ties by name, so the order is stable).
// Plugin CPU is the guest's own time; wall time also counts waiting for a
// core on a loaded machine.
func printLanguageTimes(w io.Writer, by map[string]extract.LanguageTime) {
	langs := slices.Collect(maps.Keys(by))
	slices.SortFunc(langs, func(a, b string) int {
		if c := cmp.Compare(by[b].Plugin, by[a].Plugin); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	for _, l := range langs {
		t := by[l]
		fmt.Fprintf(w, "    %-12s %6d files %8.2f MB: parse %.2f CPU-s, serialize %.2f CPU-s, plugin %.2f s, %.2f CPU-s\n",
			textsafe.Terminal(l), t.Files, float64(t.Bytes)/1e6, t.ParseCPU.Seconds(), t.SerializeCPU.Seconds(), t.Plugin.Seconds(), t.PluginCPU.Seconds())
	}
}

// printSummary prints what a run did. Everything that comes from the tree
// or a plugin (paths, details, notes) goes through textsafe.Terminal: a
// file name must not be able to drive the user's terminal.
func printSummary(w io.Writer, s *extract.Summary, pluginNotes []string) {
	rel, err := filepath.Rel(".", s.OutDir)
	if err != nil || strings.HasPrefix(rel, "..") {
		rel = s.OutDir
	}
	fmt.Fprintf(w, "synaptic: %d files -> %s/graph.json (%d nodes, %d edges) in %.2fs\n", s.Files, textsafe.Terminal(rel), s.Nodes, s.Edges, s.Seconds)
	mode := "incremental"
	if s.FullRebuild {
		mode = "full"
	}
	fmt.Fprintf(w, "  %s run: %d extracted, %d unchanged, %d removed\n", mode, s.Extracted, s.Reused, s.Removed)
	if s.GraphKept {
		fmt.Fprintf(w, "  graph.json and GRAPH_REPORT.md kept: made from these same facts by this same synaptic\n")
	}
	if len(s.PluginChanged) > 0 {
		fmt.Fprintf(w, "  plugins upgraded (their files re-extracted): %s\n", strings.Join(s.PluginChanged, ", "))
	}
	for _, n := range pluginNotes {
		fmt.Fprintf(w, "  plugins: %s\n", textsafe.Terminal(n))
	}
	for _, l := range s.ProjectLines() {
		fmt.Fprintf(w, "  project: %s\n", textsafe.Terminal(l))
	}
	fmt.Fprintf(w, "  files:  %s\n", joinCounts(s.PerLanguage))
	fmt.Fprintf(w, "  edges:  %s\n", joinCounts(s.ByRelation))
	r := s.Resolution
	fmt.Fprintf(w, "  calls:  %d sites: %d linked with proof, %d inferred (unique name), %d ambiguous and %d unresolved left unlinked%s\n",
		r.Calls, r.Extracted, r.Inferred, r.Ambiguous, r.Unresolved, implicitNote(r.Implicit))
	if len(s.Skipped) > 0 {
		byReason := map[string][]extract.Skip{}
		for _, sk := range s.Skipped {
			byReason[sk.Reason] = append(byReason[sk.Reason], sk)
		}
		fmt.Fprintf(w, "  skipped %d files:\n", len(s.Skipped))
		for _, reason := range slices.Sorted(maps.Keys(byReason)) {
			list := byReason[reason]
			fmt.Fprintf(w, "    %s (%d):\n", reason, len(list))
			for i, sk := range list {
				if i == 10 {
					fmt.Fprintf(w, "      … %d more (see GRAPH_REPORT.md)\n", len(list)-10)
					break
				}
				if sk.Detail != "" {
					fmt.Fprintf(w, "      %s: %s\n", textsafe.Terminal(sk.Path), textsafe.Terminal(firstLine(sk.Detail)))
				} else {
					fmt.Fprintf(w, "      %s\n", textsafe.Terminal(sk.Path))
				}
			}
		}
	}
	if s.IgnoredCount > 0 || s.PrunedDirs > 0 {
		fmt.Fprintf(w, "  ignored: %d paths by ignore files, %d noise directories pruned\n", s.IgnoredCount, s.PrunedDirs)
	}
	if n := len(s.Warnings); n > 0 {
		fmt.Fprintf(w, "  notes (%d):\n", n)
		for i, msg := range s.Warnings {
			if i == 10 {
				fmt.Fprintf(w, "    … %d more\n", n-10)
				break
			}
			fmt.Fprintf(w, "    %s\n", textsafe.Terminal(firstLine(msg)))
		}
	}
}

func joinCounts(m map[string]int) string {
	keys := slices.Sorted(maps.Keys(m))
	sort.SliceStable(keys, func(i, j int) bool { return m[keys[i]] > m[keys[j]] })
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", textsafe.Terminal(k), m[k])
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 160 {
		cut := 160
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

// implicitNote says how many unresolved sites are implicit calls (a + b,
// x[k], len(x)), which mostly run builtin types' methods, defined in no
// repository: without it a Python tree reads as mostly unresolved.
func implicitNote(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" (%d of them implicit: operator, subscript and protocol sites such as len(x))", n)
}
