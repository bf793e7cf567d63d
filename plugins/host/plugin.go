package host

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
	"github.com/tetratelabs/wazero/sys"

	"github.com/synaptic-graph/synaptic/plugins/manifest"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// exitFatal is the exit code the host gives a guest it stops after a fatal
// runtime error.
const exitFatal = 0xfa7a1

// MaxWorkers bounds the worker index passed to Extract.
const MaxWorkers = 1024

// Plugin is a loaded, compiled plugin. Extract is safe for concurrent use
// by different workers; calls for one worker are serialised.
type Plugin struct {
	m        *manifest.Manifest
	sum      string
	rt       wazero.Runtime
	cm       wazero.CompiledModule
	init     []byte // encoded abi.Init, sent to every new instance (guarded by mu after Load)
	grammars []abi.Grammar
	project  []byte // the Init.Project in init (see setProject)
	// lastProject memoises Project (guarded by mu).
	lastProject *projectAnswer
	ngram       int
	maxOut      int
	recycle     uint64
	memLimit    uint64          // bytes
	limits      manifest.Limits // the manifest's, within the host's caps (see Host.Cap)
	maxFile     time.Duration   // the host's cap on one file's budget

	mu     sync.Mutex
	slots  []*slot
	closed atomic.Bool
	// replaceOnProject ignores synaptic_set_project, as with a guest
	// built before it (tests of that fallback).
	replaceOnProject bool

	calls, instances, recycled, failures, fastChecks atomic.Int64
}

// slot is one worker's instance.
type slot struct {
	mu   sync.Mutex
	inst *instance
	stub *termStub // cheap loop checks for the slot's instances (termcheck_*.go)
}

// instance is one module instance with its exports resolved and a reusable
// call stack, so a call allocates nothing on the wazero side.
type instance struct {
	gm      *guestMemory // nil: wazero's own memory
	mod     api.Module
	mem     api.Memory
	inBuf   api.Function
	initFn  api.Function
	extract api.Function
	project api.Function // nil unless the manifest has [project]
	// setProject is synaptic_set_project, nil in a guest built before it
	// (then new project info replaces the instance instead).
	setProject api.Function
	stack      []uint64
	out        *tail // guest stdout+stderr, for diagnostics
}

// Stats are counters over a plugin's lifetime.
type Stats struct {
	Calls     int64 // guest calls: Extract, the project entry point, synaptic_set_project
	Instances int64 // instances created
	Recycled  int64 // instances discarded because their memory grew past the threshold
	Failures  int64 // failed calls (each discards its instance)
	// FastChecks counts instances whose deadline checks run through the
	// cheap counting stub (termcheck_amd64.go) instead of exiting to Go on
	// every loop iteration.
	FastChecks int64
}

// Load reads, verifies and compiles the plugin m describes, checks its
// exports and ABI version, and initialises a first instance with grammars,
// which Extract's grammar argument indexes. Compiling hits the on-disk
// cache after the first run.
func (h *Host) Load(ctx context.Context, m *manifest.Manifest, grammars []abi.Grammar) (*Plugin, error) {
	lerr := func(err error, format string, args ...any) error {
		return &LoadError{Plugin: m.Name, Dir: m.Dir, Msg: fmt.Sprintf(format, args...), Err: err}
	}
	if m.Kind != manifest.KindExtractor && m.Kind != manifest.KindRules {
		return nil, lerr(nil, "kind %q cannot be run as an extractor", m.Kind)
	}
	wasm, err := manifest.ReadModule(m)
	if err != nil {
		return nil, lerr(err, "%v", err)
	}
	sum := sha256.Sum256(wasm)
	hexSum := hex.EncodeToString(sum[:])
	if m.SHA256 != "" && m.SHA256 != hexSum {
		return nil, lerr(nil, "sha256 of %s is %s, but %s pins %s; if you rebuilt the plugin on purpose, update the sha256 pin (or remove it), otherwise restore the original module", m.Module, hexSum, manifest.FileName, m.SHA256)
	}

	h.mu.Lock()
	closed := h.closed
	h.mu.Unlock()
	if closed {
		return nil, lerr(nil, "host is closed")
	}
	limits, _ := h.Cap(m.Limits)
	// One runtime per plugin: the memory limit is a runtime setting. The
	// compilation cache is shared, so compiled code is too.
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfig().
		WithCompilationCache(h.cache).
		WithCloseOnContextDone(true).
		WithMemoryLimitPages(limits.MemoryPages))
	p := &Plugin{
		m: m, sum: hexSum, rt: rt, ngram: len(grammars),
		grammars: grammars,
		init:     abi.EncodeInit(&abi.Init{ABI: uint32(m.ABI), Plugin: m.Name, Grammars: grammars}),
		maxOut:   h.opts.MaxOutputBytes,
		memLimit: uint64(limits.MemoryPages) << 16,
		limits:   limits,
		maxFile:  h.opts.MaxFileTimeout,
		recycle:  h.opts.RecycleBytes,
	}
	if p.recycle == 0 {
		p.recycle = min(p.memLimit/2, 64<<20)
	}
	if err := p.compile(ctx, wasm); err != nil {
		rt.Close(ctx)
		return nil, lerr(err, "%v", err)
	}
	// Probe: a first instance proves the module instantiates, speaks our ABI
	// and accepts the grammars; it then serves worker 0.
	s0 := &slot{}
	inst, err := p.newInstance(ctx, s0)
	if err != nil {
		rt.Close(ctx)
		return nil, lerr(err, "%v", err)
	}
	s0.inst = inst
	p.slots = []*slot{s0}

	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		rt.Close(ctx)
		return nil, lerr(nil, "host is closed")
	}
	h.plugins = append(h.plugins, p)
	return p, nil
}

// signatures of the required exports.
var exports = map[string][2][]api.ValueType{
	abi.ExportVersion: {nil, {api.ValueTypeI32}},
	abi.ExportInBuf:   {{api.ValueTypeI32}, {api.ValueTypeI32}},
	abi.ExportInit:    {{api.ValueTypeI32}, {api.ValueTypeI64}},
	abi.ExportExtract: {{api.ValueTypeI32}, {api.ValueTypeI64}},
}

func (p *Plugin) compile(ctx context.Context, wasm []byte) error {
	if _, err := wasi_snapshot_preview1.Instantiate(ctx, p.rt); err != nil {
		return fmt.Errorf("instantiate WASI: %w", err)
	}
	cm, err := p.rt.CompileModule(ctx, wasm)
	if err != nil {
		return fmt.Errorf("compile %s: %w; is it a WebAssembly module built for wasip1?", p.m.Module, err)
	}
	for _, f := range cm.ImportedFunctions() {
		mod, name, _ := f.Import()
		if mod != wasi_snapshot_preview1.ModuleName {
			return fmt.Errorf("module imports %s.%s, but plugins may only import %s", mod, name, wasi_snapshot_preview1.ModuleName)
		}
	}
	defs := cm.ExportedFunctions()
	var problems []string
	required := []string{abi.ExportVersion, abi.ExportInBuf, abi.ExportInit, entryExport(p.m.Kind)}
	if p.m.Project != nil {
		required = append(required, abi.ExportProject)
		if _, ok := defs[abi.ExportSetProject]; ok { // optional, but then well-typed
			required = append(required, abi.ExportSetProject)
		}
	}
	for _, name := range required {
		sig := exports[name]
		d, ok := defs[name]
		switch {
		case !ok:
			problems = append(problems, fmt.Sprintf("missing export %s", name))
		case !equalTypes(d.ParamTypes(), sig[0]) || !equalTypes(d.ResultTypes(), sig[1]):
			problems = append(problems, fmt.Sprintf("export %s has signature %v -> %v, want %v -> %v", name,
				typeNames(d.ParamTypes()), typeNames(d.ResultTypes()), typeNames(sig[0]), typeNames(sig[1])))
		}
	}
	if len(problems) > 0 {
		hint := "build the plugin with sdk/extract (extract.Register) and -buildmode=c-shared"
		if p.m.Project != nil {
			hint += "; a [project] table needs extract.RegisterProject"
		}
		return fmt.Errorf("%s; %s", strings.Join(problems, "; "), hint)
	}
	p.cm = cm
	return nil
}

func equalTypes(a, b []api.ValueType) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func typeNames(ts []api.ValueType) string {
	s := make([]string, len(ts))
	for i, t := range ts {
		s[i] = api.ValueTypeName(t)
	}
	return "(" + strings.Join(s, ",") + ")"
}

// fileTimeout is the time budget for a file of size bytes.
func (p *Plugin) fileTimeout(size int) time.Duration {
	return min(p.limits.FileTimeout(size), p.maxFile)
}

// Name returns the plugin name.
func (p *Plugin) Name() string { return p.m.Name }

// Manifest returns the plugin's manifest.
func (p *Plugin) Manifest() *manifest.Manifest { return p.m }

// SHA256 returns the lowercase hex sha256 of the plugin's .wasm module.
func (p *Plugin) SHA256() string { return p.sum }

// Stats returns the plugin's counters.
func (p *Plugin) Stats() Stats {
	return Stats{Calls: p.calls.Load(), Instances: p.instances.Load(), Recycled: p.recycled.Load(), Failures: p.failures.Load(),
		FastChecks: p.fastChecks.Load()}
}

// newInstance instantiates the module, checks its ABI version and sends
// Init. Instantiation runs the guest (_initialize, init), so it gets a
// deadline too.
func (p *Plugin) newInstance(ctx context.Context, s *slot) (*instance, error) {
	ctx, cancel := context.WithTimeout(ctx, 4*p.fileTimeout(0))
	defer cancel()
	out := &tail{max: 4096}
	cfg := wazero.NewModuleConfig().
		WithName(""). // anonymous: many instances of one module
		WithStartFunctions("_initialize").
		WithStdout(out).WithStderr(out).
		WithSysNanotime().WithSysWalltime().WithSysNanosleep()
	ictx, alloc := withAllocator(ctx)
	mod, err := p.rt.InstantiateModule(ictx, p.cm, cfg)
	alloc.mem.leave() // instantiation ran guest code in it
	if err != nil {
		return nil, p.callError("", "instantiate", err, out, nil)
	}
	p.instances.Add(1)
	in := &instance{
		gm:      alloc.mem,
		mod:     mod,
		mem:     mod.Memory(),
		inBuf:   mod.ExportedFunction(abi.ExportInBuf),
		initFn:  mod.ExportedFunction(abi.ExportInit),
		extract: mod.ExportedFunction(entryExport(p.m.Kind)),
		project: mod.ExportedFunction(abi.ExportProject),
		stack:   make([]uint64, 1),
		out:     out,
	}
	if p.m.Project != nil {
		in.setProject = mod.ExportedFunction(abi.ExportSetProject)
	}
	// Stop a guest as soon as its runtime reports a fatal error instead of
	// waiting for the deadline. CloseWithExitCode from within the guest's
	// own fd_write makes the call return an ExitError at the next check.
	out.onFatal = func() { mod.CloseWithExitCode(context.Background(), exitFatal) }
	if in.mem == nil || in.inBuf == nil || in.initFn == nil || in.extract == nil {
		mod.Close(ctx)
		return nil, &PluginError{Plugin: p.m.Name, Reason: ReasonABI, Message: "module has no memory or lacks an export"}
	}
	if s.stub == nil {
		s.stub = newTermStub()
	}
	if patchTermCheck(s.stub, in.inBuf, in.initFn, in.extract) {
		p.fastChecks.Add(1)
	}
	if err := in.run(ctx, mod.ExportedFunction(abi.ExportVersion)); err != nil {
		mod.Close(ctx)
		return nil, p.callError("", abi.ExportVersion, err, out, in.mem)
	}
	if err := p.checkVersion(uint32(in.stack[0])); err != nil {
		mod.Close(ctx)
		return nil, err
	}
	p.mu.Lock()
	init := p.init
	p.mu.Unlock()
	if _, err := in.call(ctx, p, in.initFn, init, "", 0, nil, nil); err != nil {
		mod.Close(ctx)
		var pe *PluginError
		if errors.As(err, &pe) {
			pe.Message = "init: " + pe.Message
		}
		return nil, err
	}
	return in, nil
}

// checkVersion checks the ABI a module reports against its manifest's
// abi and this host: a guest built with a newer sdk also speaks the
// older ABIs, so it may report more than it declares, never less.
func (p *Plugin) checkVersion(v uint32) error {
	msg := ""
	switch {
	case v > abi.Version:
		msg = fmt.Sprintf("module speaks extractor ABI %d; this synaptic speaks %d–%d; upgrade synaptic", v, abi.MinVersion, abi.Version)
	case v < uint32(p.m.ABI):
		msg = fmt.Sprintf("%s declares abi = %d, but the module speaks ABI %d; rebuild the plugin against the current sdk, or set abi = %d", manifest.FileName, p.m.ABI, v, v)
	default:
		return nil
	}
	return &PluginError{Plugin: p.m.Name, Reason: ReasonABI, Message: msg}
}

// Extract runs the plugin over one file on the given worker's instance and
// returns the facts, which no longer reference guest memory. grammar indexes
// the grammars given to Load. A failure is a *PluginError; the instance is
// then discarded and the next call on the worker gets a fresh one.
func (p *Plugin) Extract(ctx context.Context, worker int, path string, grammar uint32, records, source []byte) (*abi.Facts, error) {
	if worker < 0 || worker >= MaxWorkers {
		return nil, fmt.Errorf("host: worker %d out of range [0,%d)", worker, MaxWorkers)
	}
	if int(grammar) >= p.ngram {
		return nil, fmt.Errorf("host: grammar %d out of range: plugin %s was loaded with %d grammars", grammar, p.m.Name, p.ngram)
	}
	if int64(len(source)) > p.limits.MaxFileBytes {
		return nil, &PluginError{Plugin: p.m.Name, File: path, Reason: ReasonLimit,
			Message: fmt.Sprintf("file has %d bytes, over the plugin's max_file_bytes %d", len(source), p.limits.MaxFileBytes)}
	}
	if len(records)%abi.RecordSize != 0 {
		return nil, fmt.Errorf("host: %d record bytes is not a multiple of %d", len(records), abi.RecordSize)
	}
	var facts *abi.Facts
	err := p.onInstance(ctx, worker, path, len(source), func(ctx context.Context, in *instance) error {
		var err error
		facts, err = in.call(ctx, p, in.extract, nil, path, grammar, records, source)
		return err
	})
	return facts, err
}

// onInstance runs call on the worker's instance, creating it if needed,
// under the plugin's timeout for size input bytes (as capped by the host).
// A failed call discards the instance, and one whose memory grew past the
// recycle size is replaced on the next call. Extract and RunRules share it,
// so a rule pack gets exactly the limits an extractor gets.
func (p *Plugin) onInstance(ctx context.Context, worker int, file string, size int, call func(context.Context, *instance) error) error {
	s := p.slot(worker)
	s.mu.Lock()
	defer s.mu.Unlock()
	if p.closed.Load() {
		return &PluginError{Plugin: p.m.Name, File: file, Reason: ReasonCanceled, Message: "plugin is closed", Err: ErrCanceled}
	}
	if s.inst == nil {
		inst, err := p.newInstance(ctx, s)
		if err != nil {
			p.failures.Add(1)
			var pe *PluginError
			if file != "" && errors.As(err, &pe) {
				pe.File = file
			}
			return err
		}
		s.inst = inst
	}
	in := s.inst
	ctx, cancel := context.WithTimeout(ctx, p.fileTimeout(size))
	defer cancel()
	p.calls.Add(1)
	if err := call(ctx, in); err != nil {
		p.failures.Add(1)
		in.mod.Close(context.Background())
		s.inst = nil
		return err
	}
	if uint64(in.mem.Size()) > p.recycle {
		p.recycled.Add(1)
		in.mod.Close(context.Background())
		s.inst = nil
	}
	return nil
}

func (p *Plugin) slot(worker int) *slot {
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(p.slots) <= worker {
		p.slots = append(p.slots, &slot{})
	}
	return p.slots[worker]
}

// run calls fn with in.stack, marking the guest memory busy meanwhile
// (nested in call, which marks it for its whole use of guest memory).
func (in *instance) run(ctx context.Context, fn api.Function) error {
	in.gm.enter()
	defer in.gm.leave()
	return fn.CallWithStack(ctx, in.stack)
}

// call writes one input into the guest and runs fn over it. The input is
// either raw (Init) or a FileInput encoded in place in guest memory, so
// records and source are copied exactly once. With fn == extract it returns
// the decoded facts; otherwise it only checks the status.
func (in *instance) call(ctx context.Context, p *Plugin, fn api.Function, raw []byte, path string, grammar uint32, records, source []byte) (*abi.Facts, error) {
	// The host reads and writes guest memory here too: a concurrent Close
	// must not unmap it until this returns.
	in.gm.enter()
	defer in.gm.leave()
	in.out.reset()
	var size int
	if raw != nil {
		size = len(raw)
	} else {
		size = abi.FileInputSize(path, len(records), len(source))
	}
	if size > math.MaxInt32 {
		return nil, &PluginError{Plugin: p.m.Name, File: path, Reason: ReasonLimit, Message: fmt.Sprintf("input of %d bytes is too large", size)}
	}
	in.stack[0] = uint64(size)
	if err := in.run(ctx, in.inBuf); err != nil {
		return nil, p.callError(path, abi.ExportInBuf, err, in.out, in.mem)
	}
	ptr := uint32(in.stack[0])
	dst, ok := in.mem.Read(ptr, uint32(size))
	if !ok {
		return nil, &PluginError{Plugin: p.m.Name, File: path, Reason: ReasonABI,
			Message: fmt.Sprintf("%s returned [%d,+%d), outside its %d-byte memory", abi.ExportInBuf, ptr, size, in.mem.Size())}
	}
	if raw != nil {
		copy(dst, raw)
	} else {
		abi.PutFileInput(dst, path, grammar, records, source)
	}
	in.stack[0] = uint64(size)
	if err := in.run(ctx, fn); err != nil {
		return nil, p.callError(path, fn.Definition().ExportNames()[0], err, in.out, in.mem)
	}
	optr, olen := uint32(in.stack[0]>>32), uint32(in.stack[0])
	if int64(olen) > int64(p.maxOut) {
		return nil, &PluginError{Plugin: p.m.Name, File: path, Reason: ReasonLimit,
			Message: fmt.Sprintf("result of %d bytes exceeds the host limit of %d", olen, p.maxOut), Err: ErrLimit}
	}
	res, ok := in.mem.Read(optr, olen)
	if !ok {
		return nil, &PluginError{Plugin: p.m.Name, File: path, Reason: ReasonABI,
			Message: fmt.Sprintf("result [%d,+%d) lies outside the %d-byte guest memory", optr, olen, in.mem.Size())}
	}
	payload, err := abi.SplitResult(res)
	if err != nil {
		var ge *abi.GuestError
		if errors.As(err, &ge) {
			return nil, &PluginError{Plugin: p.m.Name, File: path, Reason: ReasonGuest, Message: ge.Message, Err: err}
		}
		return nil, &PluginError{Plugin: p.m.Name, File: path, Reason: ReasonABI, Message: err.Error(), Err: err}
	}
	if raw != nil {
		return nil, nil
	}
	// One copy of the payload out of guest memory, which the next call
	// reuses; the facts' strings alias that copy instead of being a
	// million small allocations for the collector to track.
	facts, err := abi.DecodeFactsShared(bytes.Clone(payload))
	if err != nil {
		return nil, &PluginError{Plugin: p.m.Name, File: path, Reason: ReasonABI, Message: "bad facts: " + err.Error(), Err: err}
	}
	intake(facts, p.m.Name)
	return facts, nil
}

// callError classifies a failed guest call.
func (p *Plugin) callError(path, export string, err error, out *tail, mem api.Memory) error {
	pe := &PluginError{Plugin: p.m.Name, File: path, Err: err}
	stderr := out.String()
	var exit *sys.ExitError
	switch {
	case errors.As(err, &exit) && exit.ExitCode() == sys.ExitCodeContextCanceled:
		pe.Reason = ReasonCanceled
		pe.Message = "canceled"
	case strings.Contains(stderr, "out of memory") || (mem != nil && uint64(mem.Size())+(1<<20) > p.memLimit):
		pe.Reason = ReasonMemory
		pe.Message = fmt.Sprintf("%s exceeded the memory limit of %d MiB (memory_pages = %d)", export, p.memLimit>>20, p.limits.MemoryPages)
	case errors.As(err, &exit) && exit.ExitCode() == sys.ExitCodeDeadlineExceeded:
		pe.Reason = ReasonTimeout
		pe.Message = fmt.Sprintf("%s did not finish within its time budget (timeout = %s per started MiB) and was stopped", export, p.limits.Timeout)
	case errors.As(err, &exit) && exit.ExitCode() == exitFatal:
		pe.Reason = ReasonTrap
		pe.Message = fmt.Sprintf("%s: fatal runtime error", export)
	case errors.As(err, &exit):
		pe.Reason = ReasonTrap
		pe.Message = fmt.Sprintf("%s exited with code %d", export, exit.ExitCode())
	default:
		pe.Reason = ReasonTrap
		msg, _, _ := strings.Cut(err.Error(), "\n")
		pe.Message = fmt.Sprintf("%s: %s", export, msg)
	}
	if stderr != "" {
		pe.Message += "; guest output: " + stderr
	}
	return pe
}

// ReleaseIdle closes the plugin's instances, which unmaps their guest
// memory; a later call starts a new instance, as after a recycle. A
// one-shot extraction calls it once its files are done: the instances held
// 100-200 MB of RSS through resolution and the writers on GOROOT/src.
// Calls in flight keep their instance (each slot is locked around a call).
func (p *Plugin) ReleaseIdle() {
	p.mu.Lock()
	slots := slices.Clone(p.slots)
	p.mu.Unlock()
	for _, s := range slots {
		s.mu.Lock()
		if s.inst != nil {
			s.inst.mod.Close(context.Background())
			s.inst = nil
		}
		s.mu.Unlock()
	}
}

// Close stops the plugin: calls in flight are interrupted and later calls
// fail with ErrCanceled. It may be called more than once.
func (p *Plugin) Close(ctx context.Context) error {
	if p.closed.Swap(true) {
		return nil
	}
	err := p.rt.Close(ctx)
	p.mu.Lock()
	slots := p.slots
	p.mu.Unlock()
	for _, s := range slots {
		s.mu.Lock()
		s.inst = nil
		s.mu.Unlock()
	}
	return err
}
