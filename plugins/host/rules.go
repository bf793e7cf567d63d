package host

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/tetratelabs/wazero/api"

	"github.com/synaptic-graph/synaptic/plugins/manifest"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// Rule packs load through [Host.Load] like extractors (same runtime,
// memory limit, deadline, trap handling and instance recycling) and are run
// with [Plugin.RunRules] instead of Extract.

func init() {
	exports[abi.ExportRules] = [2][]api.ValueType{{api.ValueTypeI32}, {api.ValueTypeI64}}
}

// entryExport is the export that does a plugin kind's work.
func entryExport(k manifest.Kind) string {
	if k == manifest.KindRules {
		return abi.ExportRules
	}
	return abi.ExportExtract
}

// RunRules hands one encoded abi.RuleInput to a rule pack on the given
// worker's instance and returns a copy of the payload it answered (an
// encoded abi.RuleOutput, not yet validated). The call runs under the
// pack's timeout per started MiB of input; a failure is a *PluginError and
// discards the instance, as for Extract.
func (p *Plugin) RunRules(ctx context.Context, worker int, input []byte) ([]byte, error) {
	if p.m.Kind != manifest.KindRules {
		return nil, fmt.Errorf("host: plugin %s is a %s, not a rule pack", p.m.Name, p.m.Kind)
	}
	if worker < 0 || worker >= MaxWorkers {
		return nil, fmt.Errorf("host: worker %d out of range [0,%d)", worker, MaxWorkers)
	}
	if len(input) > math.MaxInt32 {
		return nil, &PluginError{Plugin: p.m.Name, Reason: ReasonLimit, Message: fmt.Sprintf("input of %d bytes is too large", len(input))}
	}
	var out []byte
	err := p.onInstance(ctx, worker, "", len(input), func(ctx context.Context, in *instance) error {
		var err error
		out, err = in.callRaw(ctx, p, in.extract, input)
		return err
	})
	return out, err
}

// callRaw writes input into the guest, runs fn (the rules or project
// export) and returns a copy of the payload.
func (in *instance) callRaw(ctx context.Context, p *Plugin, fn api.Function, input []byte) ([]byte, error) {
	in.gm.enter()
	defer in.gm.leave()
	in.out.reset()
	in.stack[0] = uint64(len(input))
	if err := in.run(ctx, in.inBuf); err != nil {
		return nil, p.callError("", abi.ExportInBuf, err, in.out, in.mem)
	}
	ptr := uint32(in.stack[0])
	if !in.mem.Write(ptr, input) {
		return nil, &PluginError{Plugin: p.m.Name, Reason: ReasonABI,
			Message: fmt.Sprintf("%s returned [%d,+%d), outside its %d-byte memory", abi.ExportInBuf, ptr, len(input), in.mem.Size())}
	}
	in.stack[0] = uint64(len(input))
	if err := in.run(ctx, fn); err != nil {
		return nil, p.callError("", fn.Definition().ExportNames()[0], err, in.out, in.mem)
	}
	optr, olen := uint32(in.stack[0]>>32), uint32(in.stack[0])
	if int64(olen) > int64(p.maxOut) {
		return nil, &PluginError{Plugin: p.m.Name, Reason: ReasonLimit,
			Message: fmt.Sprintf("result of %d bytes exceeds the host limit of %d", olen, p.maxOut), Err: ErrLimit}
	}
	res, ok := in.mem.Read(optr, olen)
	if !ok {
		return nil, &PluginError{Plugin: p.m.Name, Reason: ReasonABI,
			Message: fmt.Sprintf("result [%d,+%d) lies outside the %d-byte guest memory", optr, olen, in.mem.Size())}
	}
	payload, err := abi.SplitResult(res)
	if err != nil {
		var ge *abi.GuestError
		if errors.As(err, &ge) {
			return nil, &PluginError{Plugin: p.m.Name, Reason: ReasonGuest, Message: ge.Message, Err: err}
		}
		return nil, &PluginError{Plugin: p.m.Name, Reason: ReasonABI, Message: err.Error(), Err: err}
	}
	return bytes.Clone(payload), nil
}
