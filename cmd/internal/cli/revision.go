package cli

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/synaptic-graph/synaptic/core/extract"
	"github.com/synaptic-graph/synaptic/core/tools"
)

// withRevisionExtraction gives a catalog the extraction pipeline for
// time_travel_diff: a revision's worktree is extracted with the same
// plugins and pipeline as `synaptic extract`, loaded only when needed.
func withRevisionExtraction(o tools.Options, pluginDirs string) tools.Options {
	o.ExtractRevision = func(ctx context.Context, dir, outDir string) error {
		loaded, err := loadPlugins(ctx, dir, pluginDirs, repoPluginsWanted(false), io.Discard)
		if err != nil {
			return err
		}
		defer loaded.close(ctx)
		if len(loaded.languages) == 0 {
			return fmt.Errorf("no extractor plugins found; build them with 'make plugins'")
		}
		_, err = extract.Run(ctx, extract.Options{Root: dir, OutDir: outDir, Languages: loaded.languages, Route: loaded.route})
		return err
	}
	o.ExtractKey = extractionKey()
	return o
}

// extractionKey identifies this synaptic build: its version and the
// executable's size and mtime (a rebuilt binary, or new built-in plugins
// next to it, rebuild the cached revision graphs).
func extractionKey() string {
	key := Version
	if exe, err := os.Executable(); err == nil {
		if fi, err := os.Stat(exe); err == nil {
			key += fmt.Sprintf(" %d %d", fi.Size(), fi.ModTime().UnixNano())
		}
		if fi, err := os.Stat(exe + "/../plugins"); err == nil {
			key += fmt.Sprintf(" %d", fi.ModTime().UnixNano())
		}
	}
	return key
}
