// Command synaptic turns a source tree into a code knowledge graph and
// serves it to AI assistants over the Model Context Protocol.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/synaptic-graph/synaptic/cmd/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Main(ctx, os.Args[1:], cli.IO{In: os.Stdin, Out: os.Stdout, Err: os.Stderr})
	stop()
	os.Exit(code)
}
