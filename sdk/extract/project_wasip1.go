//go:build wasip1

package extract

import "github.com/synaptic-graph/synaptic/sdk/abi"

//go:wasmexport synaptic_project
func projectExport(size uint32) (out uint64) {
	in, err := abi.DecodeProjectInput(inBuf[:size])
	var info []byte
	if err == nil {
		info, err = RunProject(projectFn, in)
	}
	if err != nil {
		outBuf = abi.AppendError(outBuf[:0], err.Error())
		return packed(outBuf)
	}
	outBuf = append(abi.AppendOK(outBuf[:0]), info...)
	return packed(outBuf)
}
