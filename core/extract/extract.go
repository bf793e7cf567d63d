// Package extract is the extraction pipeline: discover files, parse them
// with tree-sitter, hand each tree to its language's extractor, resolve the
// facts into a graph and write synaptic-out/.
//
// Extractors reach the pipeline through the Extractor interface, so core
// never depends on the plugin host. Per-file facts are cached with the
// content hash and the plugin's sha256: a rerun parses only changed files,
// then resolves everything again from facts, which makes an incremental
// result byte-identical to a full one.
package extract

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"maps"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sourcegraph/conc/pool"
	"github.com/zeebo/blake3"

	"github.com/synaptic-graph/synaptic/core/analysis"
	"github.com/synaptic-graph/synaptic/core/discover"
	"github.com/synaptic-graph/synaptic/core/graph"
	"github.com/synaptic-graph/synaptic/core/internal/cputime"
	"github.com/synaptic-graph/synaptic/core/report"
	"github.com/synaptic-graph/synaptic/core/resolve"
	"github.com/synaptic-graph/synaptic/core/safefile"
	"github.com/synaptic-graph/synaptic/core/syntax"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// Extractor runs one plugin over parsed files. Extract is called
// concurrently with distinct worker numbers; calls with the same worker
// number never overlap.
type Extractor interface {
	Extract(ctx context.Context, worker int, path string, grammar uint32, records, source []byte) (*abi.Facts, error)
}

// Language binds files to a grammar and an extractor.
type Language struct {
	Name         string // "tsx"
	Family       string // "ecmascript"
	Grammar      *syntax.Grammar
	GrammarIndex uint32   // index of Grammar in the plugin's Init
	Extensions   []string // ".tsx"
	Globs        []string // matched against the base name, e.g. "*.d.ts"
	NamedOnly    bool
	MaxFileBytes int64 // 0 = the discovery default
	Plugin       PluginInfo
	Extractor    Extractor
	// ABI is the plugin's extractor ABI (plugin.toml abi); with 2 its
	// facts are resolved by Semantics and the v2 file facts alone.
	ABI       int
	Semantics resolve.Semantics
}

// Options configure a run.
type Options struct {
	Root      string
	OutDir    string // default <Root>/synaptic-out
	Workers   int    // default GOMAXPROCS
	Languages []Language
	// Route picks the language of a file by its repo-relative path (nil =
	// none). The plugin registry decides; core only asks.
	Route func(rel string) *Language
	// ParseTimeout bounds tree-sitter per file (default 10s).
	ParseTimeout time.Duration
	// Progress, if set, is called as files finish (done of total to extract).
	Progress func(done, total int)
	// PhaseDone, if set, is called as each phase ends, with its name (the
	// names of Summary.Phases), so a progress display can say what runs
	// after the last file is done.
	PhaseDone func(name string)
	// Full ignores the previous manifest and cache.
	Full bool
	// KeepMemoryLimit leaves the process's heap limit alone: a run inside
	// serve shares the heap with the served graphs, so memoryLimit (sized
	// for a run alone) would keep the collector running flat out.
	KeepMemoryLimit bool
	// ReleaseExtractors asks each Releaser extractor to let go of what it
	// keeps between files once the files are extracted: a one-shot run
	// extracts nothing more, and resolution and the writers need the
	// memory. A process that runs again (serve, update) leaves it off.
	ReleaseExtractors bool
}

// Releaser is an Extractor that keeps something between files that it can
// give back (a plugin's instances and their guest memory) and rebuild on
// its next call.
type Releaser interface {
	ReleaseIdle()
}

// releaseExtractors calls ReleaseIdle on the languages' extractors that
// have it (a plugin serving several languages is asked once per language;
// the second call finds nothing to release).
func releaseExtractors(langs []Language) {
	for i := range langs {
		if r, ok := langs[i].Extractor.(Releaser); ok {
			r.ReleaseIdle()
		}
	}
}

// Skip is a file left out, with the reason.
type Skip struct {
	Path   string
	Reason string
	Detail string
}

// Summary says what a run did.
type Summary struct {
	Root         string
	OutDir       string
	Files        int            // files in the graph
	PerLanguage  map[string]int // files per language
	Extracted    int            // files parsed and extracted this run
	Reused       int            // files whose cached facts were reused
	Removed      int            // files gone since the previous run
	Nodes        int
	Edges        int
	ByRelation   map[string]int
	ByKind       map[string]int
	Skipped      []Skip
	IgnoredCount int
	PrunedDirs   int
	Resolution   resolve.Stats
	Warnings     []string // e.g. a corrupted manifest, a plugin upgrade
	Seconds      float64
	Graph        *graph.Graph
	GraphBytes   int
	// GraphInfo is graph.json as this run wrote it, stat'ed before its
	// rename (nil when the graph was kept): a reader can tell it from a
	// file put in its place since.
	GraphInfo fs.FileInfo
	// GraphSHA256 is the digest of the graph.json written (zero when kept).
	GraphSHA256 [32]byte
	FullRebuild bool
	// GraphKept: the inputs were those of the graph on disk, which was
	// left as it is (Graph is then nil; the counts come from the stamp).
	GraphKept     bool
	PluginChanged []string
	Phases        []Phase // wall time per pipeline phase, in order
	Workers       WorkerTime
	// ResolveMode says how resolution used the previous run's memo:
	// "incremental, N of M files" or "full, because …".
	ResolveMode string
	// Projects are the lines the plugins' project entry points answered
	// ("go: module …"): which project each resolved the root in.
	Projects []string
}

// WorkerTime splits the parse+extract phase's worker time by stage, summed
// over workers: where extraction spends its time next to tree-sitter.
type WorkerTime struct {
	ParseCPU     time.Duration // tree-sitter parsing (thread CPU time)
	SerializeCPU time.Duration // flat-tree serialization in C (thread CPU time)
	Plugin       time.Duration // the extractor plugin call, wall time
	PluginCPU    time.Duration // the same calls' thread CPU time (0 off Linux)
	// ByLanguage is the same split per language (files extracted, not
	// reused from the cache), so a slow plugin shows by name.
	ByLanguage map[string]LanguageTime
}

// LanguageTime is one language's share of WorkerTime.
type LanguageTime struct {
	Files        int
	Bytes        int64
	ParseCPU     time.Duration
	SerializeCPU time.Duration
	Plugin       time.Duration
	PluginCPU    time.Duration
}

// add accumulates o into t.
func (t *LanguageTime) add(o LanguageTime) {
	t.Files += o.Files
	t.Bytes += o.Bytes
	t.ParseCPU += o.ParseCPU
	t.SerializeCPU += o.SerializeCPU
	t.Plugin += o.Plugin
	t.PluginCPU += o.PluginCPU
}

// merge adds one worker's per-language times into t.
func (t *WorkerTime) merge(by map[string]LanguageTime) {
	if t.ByLanguage == nil {
		t.ByLanguage = map[string]LanguageTime{}
	}
	for lang, lt := range by {
		acc := t.ByLanguage[lang]
		acc.add(lt)
		t.ByLanguage[lang] = acc
	}
}

// Phase is the wall and process CPU time of one pipeline step: CPU above
// wall means both cores worked, equal means the step ran on one.
type Phase struct {
	Name       string
	Seconds    float64
	CPUSeconds float64
}

// Run extracts opts.Root. Canceling ctx (SIGINT, SIGTERM) stops the run
// at the next file or phase; the previous outputs are then left as they
// were, since every output is replaced by a rename of a complete file.
func Run(ctx context.Context, opts Options) (*Summary, error) {
	sum, err := run(ctx, opts)
	if err != nil && ctx.Err() != nil {
		return nil, fmt.Errorf("extraction canceled; the previous outputs are left as they were: %w", ctx.Err())
	}
	return sum, err
}

func run(ctx context.Context, opts Options) (*Summary, error) {
	start := time.Now()
	root, err := filepath.Abs(opts.Root)
	if err != nil {
		return nil, err
	}
	if st, err := os.Stat(root); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("%s is not a directory", opts.Root)
	}
	// Every input is read relative to the repository held open here, and
	// every output written relative to the output directory held open
	// below: renaming or symlinking things during the run cannot redirect
	// a read or a write out of them.
	repo, err := os.OpenRoot(root)
	if err != nil {
		return nil, err
	}
	defer repo.Close()
	out, err := openOutDir(repo, root, opts.OutDir)
	if err != nil {
		return nil, err
	}
	defer out.Close()
	lock, err := lockOutDir(out)
	if err != nil {
		return nil, err
	}
	defer lock.Close()
	defer waitRetired() // before the lock goes: see retiring
	removeStaleTemps(out.root)
	if c, err := out.cacheDir(false); err == nil {
		removeStaleTemps(c)
		c.Close()
	}
	if opts.Workers <= 0 {
		opts.Workers = defaultWorkers()
	}
	if opts.ParseTimeout == 0 {
		opts.ParseTimeout = 10 * time.Second
	}
	if !opts.KeepMemoryLimit {
		defer limitMemory()()
	}
	sum := &Summary{Root: root, OutDir: out.path, PerLanguage: map[string]int{}}
	key, err := loadKey()
	if err != nil {
		sum.Warnings = append(sum.Warnings, err.Error()+"; without it no cache can be trusted: doing a full extraction")
	}
	last, lastCPU := time.Now(), cputime.Process()
	phase := func(name string) {
		now, cpu := time.Now(), cputime.Process()
		sum.Phases = append(sum.Phases, Phase{name, now.Sub(last).Seconds(), (cpu - lastCPU).Seconds()})
		last, lastCPU = now, cpu
		if opts.PhaseDone != nil {
			opts.PhaseDone(name)
		}
	}

	match := opts.Route
	if match == nil {
		return nil, errors.New("extract: no Route function")
	}
	projects := newProjectRun(opts.Languages)
	walked, err := walkInputs(root, match, projects)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	sum.IgnoredCount, sum.PrunedDirs = walked.IgnoredCount, walked.PrunedDirs
	for _, s := range walked.Skipped {
		if projects.wants(s.Rel) && match(s.Rel) == nil {
			continue // read as project metadata only, never a source file
		}
		sum.Skipped = append(sum.Skipped, Skip{Path: s.Rel, Reason: string(s.Reason), Detail: s.Detail})
	}

	phase("discover")
	prev := loadManifest(out, key, opts.Full, sum)
	plugins := map[string]PluginInfo{}
	for _, l := range opts.Languages {
		plugins[l.Plugin.Name] = l.Plugin
	}
	if prev != nil {
		for name, p := range plugins {
			if old, ok := prev.Plugins[name]; ok && old.SHA256 != p.SHA256 {
				sum.PluginChanged = append(sum.PluginChanged, name)
			}
		}
		slices.Sort(sum.PluginChanged)
	}

	projects.collect(repo, root, walked.Files, sum)
	routed := routeFiles(walked.Files, match, sum, projects)
	// The root's place in its projects is in each file's plugin key (the
	// plugins' project info), no longer in the inputs digest: "" keeps
	// the caches of roots that never had one valid.
	const rootKey = ""
	quick := quickDigest(buildID(), rootKey, sum.Skipped, routed)
	if prev != nil && prev.Graph != nil && prev.Graph.current(out.root, prev.Graph.Quick, quick) {
		sum.Projects = projectLines(projects.summaries(routed, prev))
		// Every file as it was when the graph was made: not even the
		// facts cache is read.
		return keepGraph(ctx, out, key, sum, prev, nil, nil, false, routed, quick, phase, start)
	}
	cache := loadCache(out, key, &prev, sum)
	memoCh := loadMemo(out, key, prev != nil, opts.Full)
	phase("load cache")
	projects.revalidate(ctx, routed, cache, prev, sum)

	var jobs []*job
	results := map[string]*cachedFile{}
	for _, j := range routed {
		f := j.file
		if prev != nil {
			if e, ok := prev.Files[f.Rel]; ok && e.Size == f.Size && e.MTime == mtime(f.ModTime) {
				if c, ok := cache[f.Rel]; ok && c.Hash == e.Hash && c.Plugin == j.pluginKey {
					results[f.Rel] = &c
					sum.Reused++
					continue
				}
			}
			j.prevHash = prev.Files[f.Rel].Hash
		}
		jobs = append(jobs, j)
	}
	// Keep only the cached facts this run can still use (a touched but
	// unchanged file): after a plugin upgrade that re-extracts everything,
	// the old facts must not stay in memory next to the new ones.
	usable := make(map[string]bool, len(jobs))
	for _, j := range jobs {
		if c, ok := cache[j.file.Rel]; ok && c.Plugin == j.pluginKey {
			usable[j.file.Rel] = true
		}
	}
	for p := range cache {
		if !usable[p] {
			delete(cache, p) // reused files hold their own copy in results
		}
	}
	if prev != nil {
		pending := make(map[string]bool, len(jobs))
		for _, j := range jobs {
			pending[j.file.Rel] = true
		}
		for p := range prev.Files {
			if _, ok := results[p]; !ok && !pending[p] {
				sum.Removed++
			}
		}
	}

	phase("stat")
	if projects.run(ctx, jobs, sum) {
		quick += "!" // the next run must not keep a graph made without project info
	}
	summaries := projects.summaries(routed, prev)
	sum.Projects = projectLines(summaries)
	if err := runJobs(ctx, opts, repo, jobs, cache, &sum.Workers); err != nil {
		return nil, err
	}
	if opts.ReleaseExtractors {
		releaseExtractors(opts.Languages)
	}
	phase("parse+extract")
	for _, j := range jobs {
		results[j.file.Rel] = &j.result
		if j.reused {
			sum.Reused++
		} else if j.result.Skip == "" {
			sum.Extracted++
		}
	}

	// Assemble in path order; failed files are reported, not graphed.
	manifest := &Manifest{Version: manifestVersion, Files: map[string]ManifestEntry{}, Plugins: plugins, Root: root, Projects: nonEmpty(summaries)}
	projects.record(manifest, routed, prev)
	var files []resolve.File
	var cached []cachedFile
	var failed []Skip      // files whose extraction failed
	var factNotes []string // what the plugins noted (syntax errors)
	langs := map[string]*Language{}
	for i := range opts.Languages {
		langs[opts.Languages[i].Name] = &opts.Languages[i]
	}
	fileInfo := map[string]discover.File{}
	for _, f := range walked.Files {
		fileInfo[f.Rel] = f
	}
	var encBuf []byte
	for _, p := range slices.Sorted(maps.Keys(results)) {
		c := results[p]
		cached = append(cached, *c)
		f := fileInfo[p]
		if c.Hash != "" {
			manifest.Files[p] = ManifestEntry{Size: f.Size, MTime: mtime(f.ModTime), Hash: c.Hash, Plugin: strings.SplitN(c.Plugin, "@", 2)[0]}
		}
		if c.Skip != "" {
			reason, detail, _ := strings.Cut(c.Skip, ": ")
			failed = append(failed, Skip{Path: p, Reason: reason, Detail: detail})
			sum.Skipped = append(sum.Skipped, failed[len(failed)-1])
			continue
		}
		l := langs[c.Language]
		if l == nil || c.Facts == nil {
			continue
		}
		rf := resolve.File{Path: p, Language: l.Name, Family: l.Family, Facts: c.Facts, Generated: c.Generated,
			ABI: l.ABI, Semantics: l.Semantics}
		if prev != nil {
			// Incremental: the resolution memo compares facts by key
			// before resolving. A full run learns them writing the cache.
			enc := c.encoded
			if enc == nil {
				encBuf = abi.EncodeFacts(encBuf[:0], c.Facts)
				enc = encBuf
			}
			rf.Key = factsKey(c, enc)
		}
		files = append(files, rf)
		sum.PerLanguage[l.Name]++
		for _, e := range c.Facts.Errors {
			factNotes = append(factNotes, p+": "+e)
		}
	}
	sum.Warnings = append(sum.Warnings, factNotes...)
	var digest string
	if prev != nil && prev.Graph != nil {
		// Incremental: only this run's facts need encoding for the digest;
		// a full run digests them while writing the facts cache.
		digest = inputsDigest(buildID(), rootKey, sum.Skipped, cached)
		if prev.Graph.current(out.root, prev.Graph.Inputs, digest) {
			changed := len(jobs) > 0 || sum.Removed > 0 // touched or edited without new facts
			if !changed && prev.Graph.Quick == quick {
				manifest = nil // nothing to rewrite
			}
			return keepGraph(ctx, out, key, sum, prev, manifest, cached, changed, routed, quick, phase, start)
		}
	}
	// The facts cache does not depend on the graph: write it on the other
	// core while resolution runs on this one.
	cacheDir, err := out.cacheDir(true)
	if err != nil {
		return nil, err
	}
	defer cacheDir.Close()
	factsDone := make(chan error, 1)
	skipped := slices.Clone(sum.Skipped) // sorted below while the digest reads it
	var factKeys []string
	if prev == nil {
		factKeys = make([]string, len(cached))
	}
	go func() {
		var h hash.Hash
		if digest == "" {
			h = newDigest(buildID(), rootKey, skipped)
		}
		err := writeFacts(ctx, cacheDir, key, cached, h, factKeys)
		if h != nil {
			digest = finishDigest(h)
		}
		factsDone <- err
	}()
	ml := <-memoCh
	g, res, rerr := resolve.BuildIncremental(ctx, files, resolve.Options{Build: buildID(), Prev: ml.memo, NoPrev: ml.why})
	ml = memoLoad{} // let the collector have the old memo
	rs := res.Stats
	sum.ResolveMode = res.Reuse.String()
	if err := <-factsDone; err != nil {
		return nil, writeError(ctx, out, FactsFile, err)
	}
	if rerr != nil {
		return nil, writeError(ctx, out, GraphFile, rerr)
	}
	for i, k := range factKeys {
		res.Memo.SetKey(cached[i].Path, k)
	}
	memoDone := make(chan error, 1)
	go func(m *resolve.Memo) {
		if buildID() == "" || !memoWorthRewriting(res.Reuse) {
			memoDone <- nil
			return
		}
		memoDone <- writeMemo(ctx, cacheDir, key, m)
	}(res.Memo)
	res.Memo = nil // the collector may have it once written
	// Facts are in the cache and in the graph: let the collector have them
	// before the graph's index, communities and writers need memory.
	nfiles := len(files)
	clear(cached)
	clear(files)
	clear(results)
	clear(jobs)
	clear(cache)
	cached, files, results, jobs, cache = nil, nil, nil, nil, nil
	phase("resolve")
	if err := ctx.Err(); err != nil {
		return nil, writeError(ctx, out, GraphFile, err)
	}
	// graph.json holds its links before its nodes, and only nodes carry a
	// community: the links (most of the bytes) are written on the other
	// core while communities are computed on this one.
	commsSet := make(chan struct{})
	type written struct {
		w   *hashingWriter
		err error
	}
	graphDone := make(chan written, 1)
	go func() {
		w, err := writeGraph(ctx, out.root, g, func() { <-commsSet })
		graphDone <- written{w, err}
	}()
	// Communities are a pure function of the graph (no memory of earlier
	// runs), so an incremental run stays byte-identical to a full one.
	x := graph.NewIndex(g)
	sidecar := stageSidecar(out.root, x, commsSet)
	comms := analysis.Communities(x, nil)
	for _, c := range comms {
		id := c.ID
		for _, m := range c.Members {
			g.Nodes[m].Community = &id
		}
	}
	close(commsSet)
	phase("communities")
	sum.Graph, sum.Resolution, sum.Files = g, rs, nfiles
	sum.Nodes, sum.Edges = len(g.Nodes), len(g.Edges)
	sum.ByRelation, sum.ByKind = map[string]int{}, map[string]int{}
	for i := range g.Edges {
		sum.ByRelation[g.Edges[i].Relation]++
	}
	for i := range g.Nodes {
		k := g.Nodes[i].Kind
		if k == "" {
			k = "external"
		}
		sum.ByKind[k]++
	}
	sortSkipped(sum.Skipped)

	// The report reads the same graph: build it on the other core while
	// graph.json is written.
	repDone := make(chan error, 1)
	go func() {
		var rep bytes.Buffer
		in := report.Input{Graph: g, Index: x, Communities: comms}
		for _, s := range sum.Skipped {
			in.Skipped = append(in.Skipped, report.Skip{Path: s.Path, Reason: s.Reason, Detail: s.Detail})
		}
		if err := report.Write(&rep, in); err != nil {
			repDone <- err
			return
		}
		if err := writeFileAtomic(ctx, out.root, ReportFile, rep.Bytes()); err != nil {
			repDone <- writeError(ctx, out, ReportFile, err)
			return
		}
		repDone <- nil
	}()
	gw := <-graphDone
	repErr := <-repDone
	staged := <-sidecar
	if gw.err != nil {
		staged.discard()
		return nil, writeError(ctx, out, GraphFile, gw.err)
	}
	n := gw.w.n
	if repErr != nil {
		staged.discard()
		return nil, repErr
	}
	if err := staged.commit(ctx, gw.w.header()); err != nil {
		return nil, writeError(ctx, out, SidecarFile, err)
	}
	sum.GraphBytes, sum.GraphInfo, sum.GraphSHA256 = n, gw.w.info, gw.w.header().JSONSum
	phase("write graph+report")
	if outputs, err := stampOutputs(out.root); err == nil {
		// graph.json as written, not as found now: one replaced since its
		// rename must not pass for this run's.
		outputs[GraphFile] = FileStamp{Size: gw.w.info.Size(), MTimeNS: gw.w.info.ModTime().UnixNano()}
		st := StampSummary{
			Files: sum.Files, PerLanguage: sum.PerLanguage, Nodes: sum.Nodes, Edges: sum.Edges,
			ByRelation: sum.ByRelation, ByKind: sum.ByKind, Resolution: sum.Resolution, GraphBytes: sum.GraphBytes,
			Failed: failed, Notes: factNotes,
		}
		manifest.Graph = &GraphStamp{Inputs: digest, Quick: quick, Outputs: outputs, Summary: st}
	}
	if err := <-memoDone; err != nil {
		return nil, writeError(ctx, out, MemoFile, err)
	}
	// The manifest goes last: if anything above failed, the next run still
	// sees the old manifest and redoes the work.
	// Past graph.json's rename the manifest is written even when the run
	// is being canceled: it is small, and it makes the new graph one the
	// next run can keep.
	if err := writeManifest(context.WithoutCancel(ctx), out.root, key, manifest); err != nil {
		return nil, writeError(ctx, out, ManifestFile, err)
	}
	sum.Seconds = time.Since(start).Seconds()
	return sum, nil
}

// keepGraph ends a run whose graph inputs are those the previous run's
// graph was made from (see GraphStamp): graph.json and GRAPH_REPORT.md
// stay as they are and the summary's graph figures come from the stamp.
// The manifest is rewritten when it is not nil, the facts cache when
// files changed without changing their facts (a touched file, an edited
// comment). cached is nil when the cache was not even read.
func keepGraph(ctx context.Context, out *outDir, key sealKey, sum *Summary, prev, manifest *Manifest, cached []cachedFile, filesChanged bool, routed []*job, quick string, phase func(string), start time.Time) (*Summary, error) {
	st := prev.Graph.Summary
	sum.Files, sum.PerLanguage, sum.Nodes, sum.Edges = st.Files, st.PerLanguage, st.Nodes, st.Edges
	sum.ByRelation, sum.ByKind, sum.Resolution, sum.GraphBytes = st.ByRelation, st.ByKind, st.Resolution, st.GraphBytes
	if sum.PerLanguage == nil {
		sum.PerLanguage = map[string]int{}
	}
	if cached == nil { // the cache's failures and notes were not read: the stamp has them
		sum.Reused = len(routed)
		sum.Skipped = append(sum.Skipped, st.Failed...)
		sum.Warnings = append(sum.Warnings, st.Notes...)
	}
	sum.GraphKept = true
	sortSkipped(sum.Skipped)
	if filesChanged {
		cacheDir, err := out.cacheDir(true)
		if err != nil {
			return nil, err
		}
		defer cacheDir.Close()
		if err := writeFacts(ctx, cacheDir, key, cached, nil, nil); err != nil {
			return nil, writeError(ctx, out, FactsFile, err)
		}
	}
	if manifest != nil {
		kept := *prev.Graph
		kept.Quick = quick // the files' new times
		manifest.Graph = &kept
		if err := writeManifest(ctx, out.root, key, manifest); err != nil {
			return nil, writeError(ctx, out, ManifestFile, err)
		}
	}
	phase("graph unchanged")
	sum.Seconds = time.Since(start).Seconds()
	return sum, nil
}

// walkInputs lists the files a run reads: sources some plugin takes and
// the project files the plugins' [project] lists.
func walkInputs(root string, match func(string) *Language, projects *projectRun) (*discover.Result, error) {
	return discover.Walk(root, discover.Options{Match: func(rel string) bool {
		return match(rel) != nil || projects.wants(rel)
	}})
}

// routeFiles gives each walked file its language (files no plugin takes
// are left out: project files; too-large ones are skipped into sum).
func routeFiles(walked []discover.File, match func(string) *Language, sum *Summary, projects *projectRun) (routed []*job) {
	for _, f := range walked {
		lang := match(f.Rel)
		if lang == nil {
			continue
		}
		if lang.MaxFileBytes > 0 && f.Size > lang.MaxFileBytes {
			sum.Skipped = append(sum.Skipped, Skip{Path: f.Rel, Reason: string(discover.SkipTooLarge),
				Detail: fmt.Sprintf("%d bytes > %s plugin limit %d", f.Size, lang.Plugin.Name, lang.MaxFileBytes)})
			continue
		}
		routed = append(routed, &job{file: f, lang: lang, pluginKey: lang.Plugin.Name + "@" + lang.Plugin.SHA256 + projects.keySuffix(lang),
			projectKey: projects.inputKey(lang)})
	}
	return routed
}

type job struct {
	file      discover.File
	lang      *Language
	pluginKey string
	// projectKey is the hash of the plugin's project input, which
	// pluginKey leaves out for a plugin keyed by parts.
	projectKey string
	prevHash   string
	result     cachedFile
	reused     bool
}

// loadManifest reads the previous run's manifest; nil means a full run
// (asked for, first run, or a manifest that cannot be read).
func loadManifest(out *outDir, key sealKey, full bool, sum *Summary) *Manifest {
	if full || key == nil {
		sum.FullRebuild = true
		return nil
	}
	m, err := readManifest(out.root, key)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			sum.Warnings = append(sum.Warnings, err.Error())
		}
		sum.FullRebuild = true
		return nil
	}
	return m
}

// loadCache reads the facts cache of the run *prev describes. Without one
// the run is a full one: *prev becomes nil.
func loadCache(out *outDir, key sealKey, prev **Manifest, sum *Summary) map[string]cachedFile {
	if *prev == nil {
		return nil
	}
	var cache map[string]cachedFile
	dir, err := out.cacheDir(false)
	if err == nil {
		cache, err = readFacts(dir, key)
		dir.Close()
	}
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			sum.Warnings = append(sum.Warnings, fmt.Sprintf("%s: %v; doing a full extraction", FactsFile, err))
		}
		sum.FullRebuild = true
		*prev = nil
		return nil
	}
	return cache
}

func runJobs(ctx context.Context, opts Options, repo *os.Root, jobs []*job, cache map[string]cachedFile, times *WorkerTime) error {
	if len(jobs) == 0 {
		return nil
	}
	var timeMu sync.Mutex
	// Big files first, so a huge file does not start last and stretch the run.
	order := slices.Clone(jobs)
	slices.SortStableFunc(order, func(a, b *job) int { return int(b.file.Size - a.file.Size) })
	next := atomic.Int64{}
	var done atomic.Int64
	workers := min(opts.Workers, len(jobs))
	p := pool.New().WithErrors().WithContext(ctx)
	var progressMu sync.Mutex
	for w := 0; w < workers; w++ {
		p.Go(func(ctx context.Context) error {
			// One thread per worker, so thread CPU clocks measure its calls.
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			parser := syntax.NewParser()
			var plugin, pluginCPU time.Duration
			var buf []byte
			byLang := map[string]LanguageTime{}
			defer func() {
				st := parser.Stats()
				parser.Close()
				timeMu.Lock()
				times.ParseCPU += st.ParseCPU
				times.SerializeCPU += st.SerializeCPU
				times.Plugin += plugin
				times.PluginCPU += pluginCPU
				times.merge(byLang)
				timeMu.Unlock()
			}()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(order) {
					return nil
				}
				if err := ctx.Err(); err != nil {
					return err
				}
				j := order[i]
				before := parser.Stats()
				d, cpu := extractOne(ctx, opts, repo, w, parser, j, cache, &buf)
				plugin += d
				pluginCPU += cpu
				if !j.reused {
					after := parser.Stats()
					lt := byLang[j.lang.Name]
					lt.add(LanguageTime{Files: 1, Bytes: j.file.Size, Plugin: d, PluginCPU: cpu,
						ParseCPU: after.ParseCPU - before.ParseCPU, SerializeCPU: after.SerializeCPU - before.SerializeCPU})
					byLang[j.lang.Name] = lt
				}
				n := int(done.Add(1))
				if opts.Progress != nil {
					progressMu.Lock()
					opts.Progress(n, len(jobs))
					progressMu.Unlock()
				}
			}
		})
	}
	return p.Wait()
}

// extractOne fills j.result and returns the time spent in the plugin,
// wall and thread CPU.
// buf is the worker's read buffer, reused across files (nothing keeps the
// source once extractOne returns).
func extractOne(ctx context.Context, opts Options, repo *os.Root, worker int, parser *syntax.Parser, j *job, cache map[string]cachedFile, buf *[]byte) (plugin, pluginCPU time.Duration) {
	j.result = cachedFile{Path: j.file.Rel, Plugin: j.pluginKey, Language: j.lang.Name}
	src, err := readInput(repo, j, buf)
	if err != nil {
		j.result.Skip = err.Error()
		return plugin, pluginCPU
	}
	sum := blake3.Sum256(src)
	j.result.Hash = hex.EncodeToString(sum[:16])
	if j.prevHash == j.result.Hash { // touched, not changed
		if c, ok := cache[j.file.Rel]; ok && c.Plugin == j.pluginKey {
			j.result = c
			j.reused = true
			return plugin, pluginCPU
		}
	}
	if discover.IsBinary(src) {
		j.result.Skip = string(discover.SkipBinary) + ": binary content"
		return plugin, pluginCPU
	}
	tree, err := parser.Parse(j.lang.Grammar, src, syntax.ParseOptions{NamedOnly: j.lang.NamedOnly, Timeout: opts.ParseTimeout})
	if err != nil {
		j.result.Skip = "parse-failed: " + err.Error()
		return plugin, pluginCPU
	}
	t0, c0 := time.Now(), cputime.Thread()
	facts, err := j.lang.Extractor.Extract(ctx, worker, j.file.Rel, j.lang.GrammarIndex, tree.Records, src)
	plugin, pluginCPU = time.Since(t0), cputime.Thread()-c0
	if err != nil {
		j.result.Skip = "plugin-failed: " + err.Error()
		return plugin, pluginCPU
	}
	if tree.HasError {
		facts.Errors = append(facts.Errors, "syntax errors: extracted what parses")
	}
	if isGenerated(src) {
		facts = trimGenerated(facts)
		j.result.Generated = true
	}
	j.result.Facts = facts
	return plugin, pluginCPU
}

// readInput reads j's file relative to the held repository root into
// *buf (reused across a worker's files: no fresh allocation and page
// faults per file). The walk's view is not trusted: a file replaced since
// by a FIFO, a device or a link out of the tree, or grown past the size
// cap, is refused here, by the open itself or the descriptor's fstat,
// with the skip reason as the error's text ("reason: detail").
func readInput(repo *os.Root, j *job, buf *[]byte) ([]byte, error) {
	limit := int64(discover.DefaultMaxFileSize)
	if m := j.lang.MaxFileBytes; m > 0 && m < limit {
		limit = m
	}
	b, err := safefile.ReadFile(repo, filepath.FromSlash(j.file.Real), limit, *buf)
	var notReg *safefile.NotRegularError
	var large *safefile.TooLargeError
	switch {
	case err == nil:
		*buf = b
		return b, nil
	case errors.As(err, &notReg):
		return nil, fmt.Errorf("%s: now a %s (replaced after the scan); not read", discover.SkipSpecial, safefile.Kind(notReg.Mode))
	case errors.As(err, &large):
		return nil, fmt.Errorf("%s: grew past the %d byte limit after the scan; not read", discover.SkipTooLarge, large.Max)
	case safefile.EscapesRoot(err):
		return nil, fmt.Errorf("%s: now leads outside the root (replaced after the scan); not read", discover.SkipSymlinkOutside)
	}
	return nil, fmt.Errorf("%s: %v", discover.SkipUnreadable, err)
}

// sortSkipped orders skipped files by reason, then path.
func sortSkipped(s []Skip) {
	sort.Slice(s, func(a, b int) bool {
		if s[a].Reason != s[b].Reason {
			return s[a].Reason < s[b].Reason
		}
		return s[a].Path < s[b].Path
	})
}

// writeGraph writes graph.json into dir; see graph.WriteStaged for
// beforeNodes. The writer returned has its size and digest. The writer returned has its size and digest.
func writeGraph(ctx context.Context, dir *os.Root, g *graph.Graph, beforeNodes func()) (*hashingWriter, error) {
	n := newHashingWriter()
	info, err := writeAtomicInfo(ctx, dir, GraphFile, func(w io.Writer) error {
		n.w = w
		return graph.WriteStaged(n, g, beforeNodes)
	})
	n.info = info
	return n, err
}

// memoryLimit is the soft heap limit of a run. With the default GOGC the
// heap goal at the end of a large run (facts, graph and index live at once)
// is twice the live heap; the limit makes the collector work harder there
// instead of growing RSS past it. Go bounds the collector's CPU share, so a
// repository whose live heap exceeds the limit is slower, never stuck.
// Measured on GOROOT/src (2 cores): 512 MiB gave 953 MB peak RSS and 31
// user-CPU-s, 640 MiB 943 MB and 27 s (the collector no longer runs flat
// out during resolution), 768 MiB 993 MB. The rest of the RSS is plugin
// memory and parser buffers.
// Since then the facts and the graph grew (ABI v2, 14% more edges): at 640
// MiB resolution's live heap (~545 MB) sat within 40 MB of the goal and the
// collector ran back to back, marking 4.0-4.4 GB over a run; 704 MiB marks
// 2.2-2.4 GB. The plugins' instances are released before resolution
// (ReleaseExtractors), so peak RSS is lower than before all the same:
// 890 MB, where 640 MiB with the instances kept peaked at 0.92-1.02 GB
// (GODEBUG=gctrace=1, the heap after each mark summed; /usr/bin/time).
const memoryLimit = 704 << 20

// limitMemory sets memoryLimit for the run unless the user set one
// (GOMEMLIMIT), and returns the function that restores the previous limit.
func limitMemory() func() {
	prev := debug.SetMemoryLimit(-1)
	if prev != math.MaxInt64 {
		return func() {}
	}
	debug.SetMemoryLimit(memoryLimit)
	return func() { debug.SetMemoryLimit(prev) }
}

func mtime(t time.Time) float64 { return float64(t.UnixNano()) / 1e9 }

// nonEmpty is m without its empty entries (nil when none is left).
func nonEmpty(m map[string][]string) map[string][]string {
	var out map[string][]string
	for k, v := range m {
		if len(v) > 0 {
			if out == nil {
				out = map[string][]string{}
			}
			out[k] = v
		}
	}
	return out
}
