package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/synaptic-graph/synaptic/core/extract"
)

func runUpdate(ctx context.Context, args []string, stdio IO) error {
	fs := newFlags(stdio, "update", "[flags] [DIR]", `
Bring DIR/synaptic-out/ (default: the current directory) up to date with
the source: the same incremental extraction as 'synaptic extract' (and as
serve's auto-freshen), re-extracting only files that changed, with output
byte-identical to a full extraction. Without a previous run it extracts
everything.

Quiet by default (errors only), for scripts and git hooks ('synaptic hook
install' runs it after commits, merges and checkouts). When another run
is writing the same output directory (a serve catching up, another hook),
update waits for it, up to --wait.`)
	out := fs.String("out", "", "output directory (default DIR/synaptic-out)")
	workers := fs.Int("workers", 0, "parallel workers (default: number of CPUs)")
	pluginDir := fs.String("plugins", envOr("SYNAPTIC_PLUGINS", ""), "extra plugin directory (also $SYNAPTIC_PLUGINS)")
	repoOK := fs.Bool("repo-plugins", false, "run the plugins in DIR/.synaptic/plugins (also $"+RepoPluginsEnv+"=1)")
	verbose := fs.Bool("v", false, "print the extraction summary")
	wait := fs.Duration("wait", 2*time.Minute, "how long to wait for another run writing the same output directory")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 1 {
		return usageError{"update takes one directory"}
	}
	if *wait < 0 {
		return usageError{"--wait must not be negative"}
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
	opts := extract.Options{Root: root, OutDir: *out, Workers: *workers, Languages: loaded.languages, Route: loaded.route}
	sum, err := runWaitingForLock(ctx, opts, *wait)
	if err != nil {
		return safeError(err)
	}
	if *verbose {
		printSummary(stdio.Out, sum, loaded.notes)
	}
	if sum.Files == 0 {
		return fmt.Errorf("no supported source file under %s (extensions: %s); nothing to graph", root, strings.Join(loaded.extensions(), " "))
	}
	return nil
}

// runWaitingForLock runs the extraction, retrying while another run holds
// the output directory (extract.ErrOutDirBusy: a serve catching up,
// another hook), for at most wait: update runs unattended.
func runWaitingForLock(ctx context.Context, opts extract.Options, wait time.Duration) (*extract.Summary, error) {
	deadline := time.Now().Add(wait)
	pause := 50 * time.Millisecond
	for {
		sum, err := extract.Run(ctx, opts)
		if err == nil || !errors.Is(err, extract.ErrOutDirBusy) || time.Now().Add(pause).After(deadline) {
			return sum, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(pause):
		}
		pause = min(2*pause, time.Second)
	}
}
