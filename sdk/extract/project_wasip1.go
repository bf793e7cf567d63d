//go:build wasip1

package extract

import "github.com/synaptic-graph/synaptic/sdk/abi"

//go:wasmexport synaptic_project
func projectExport(size uint32) (out uint64) {
	in, err := abi.DecodeProjectInput(inBuf[:size])
	var res abi.ProjectOutput
	if err == nil {
		res, err = RunProjectOutput(projectFn, in)
	}
	if err != nil {
		outBuf = abi.AppendError(outBuf[:0], err.Error())
		return packed(outBuf)
	}
	outBuf = append(abi.AppendOK(outBuf[:0]), abi.EncodeProjectOutput(&res)...)
	return packed(outBuf)
}

// setProjectExport replaces the project info of this instance, as Init
// does for a new one (docs/abi-v2.md, "Init and the project entry point").
//
//go:wasmexport synaptic_set_project
func setProjectExport(size uint32) uint64 {
	SetProject(inBuf[:size]) // a copy: inBuf is reused
	outBuf = abi.AppendOK(outBuf[:0])
	return packed(outBuf)
}
