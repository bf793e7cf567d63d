// Package abi is the wire contract between the synaptic host and its
// WebAssembly plugins. Both sides import it, so it uses the standard library
// only and builds for GOOS=wasip1.
//
// # Calling convention
//
// A plugin is a WASI reactor (built with -buildmode=c-shared) exporting:
//
//	synaptic_abi_version() i32                 ABI version the guest speaks
//	synaptic_in_buf(size i32) i32              room for the next input; returns its address
//	synaptic_init(size i32) i64                input = Init; returns packed output
//	synaptic_extract(size i32) i64             input = FileInput; returns packed output
//	synaptic_project(size i32) i64             ABI v2, optional: input = ProjectInput (project.go)
//
// Packed output is ptr<<32 | len, pointing at a Result in guest memory that
// stays valid until the next call. A Result starts with one status byte
// (StatusOK or StatusError); after StatusOK comes the payload (Facts for
// extract, nothing for init); after StatusError comes a UTF-8 message.
//
// The host never trusts guest output: every decoder here bounds its reads and
// returns an error on malformed input instead of panicking.
package abi

// Version is the ABI version of this package: what a guest built with it
// reports. The host runs plugins declaring MinVersion to Version and
// refuses any other (docs/abi-v2.md).
const Version = 2

// MinVersion is the oldest ABI the host still runs: a v1 plugin gets
// path-only imports and unique-name resolution.
const MinVersion = 1

// Export names.
const (
	ExportVersion = "synaptic_abi_version"
	ExportInBuf   = "synaptic_in_buf"
	ExportInit    = "synaptic_init"
	ExportExtract = "synaptic_extract"
	ExportProject = "synaptic_project" // ABI v2, optional
	// ExportSetProject hands a live instance new project info (raw bytes,
	// what Init.Project would carry), so the host keeps its instances when
	// the project entry point answers. ABI v2, optional: without it the
	// host replaces the instances instead.
	ExportSetProject = "synaptic_set_project"
)

// Result status bytes.
const (
	StatusOK    byte = 0
	StatusError byte = 1
)

// Record layout of the flat syntax tree: RecordWords little-endian uint32 per
// node, in preorder. See docs/architecture.md.
const (
	RecordWords = 7
	RecordSize  = RecordWords * 4
)

// Node flags (the top byte of word 0).
const (
	FlagNamed   = 1
	FlagError   = 2
	FlagMissing = 4
	FlagExtra   = 8
)
