package cli

import (
	"context"
	"fmt"
	"io/fs"
	"runtime"
	"runtime/debug"

	"github.com/synaptic-graph/synaptic/plugins/builtin"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// Version and Commit are set by `make` with -ldflags "-X …cli.Version=…"
// (git describe, git rev-parse). Without them, the Go build info fills in
// what it knows: the module version of a `go install …@v1.2.3`, the vcs
// revision of a build from a checkout.
var (
	Version = "dev"
	Commit  = ""
)

// buildVersion returns the version and commit, filled from the build info
// when the linker did not set them.
func buildVersion() (version, commit string, modified bool) {
	version, commit = Version, Commit
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return version, commit, false
	}
	if version == "dev" && info.Main.Version != "" && info.Main.Version != "(devel)" {
		version = info.Main.Version
	}
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			if commit == "" {
				commit = s.Value
			}
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	return version, commit, modified
}

func runVersion(_ context.Context, args []string, stdio IO) error {
	flags := newFlags(stdio, "version", "", "Print the version, commit, Go version, plugin ABI and the embedded plugins.")
	if _, err := parseInterspersed(flags, args); err != nil {
		return err
	}
	version, commit, modified := buildVersion()
	if commit == "" {
		commit = "unknown"
	}
	if modified {
		commit += " (modified)"
	}
	embedded, _ := fs.Glob(builtin.FS(), "*/plugin.toml")
	fmt.Fprintf(stdio.Out, "synaptic %s\n  commit:     %s\n  go:         %s %s/%s\n  plugin ABI: %d–%d\n  embedded plugins: %d\n",
		version, commit, runtime.Version(), runtime.GOOS, runtime.GOARCH, abi.MinVersion, abi.Version, len(embedded))
	return nil
}
