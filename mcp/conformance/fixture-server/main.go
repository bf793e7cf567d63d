// Command fixture-server serves the conformance fixture catalog over
// Streamable HTTP for the official MCP conformance suite. It listens on
// -addr (default 127.0.0.1:0) and prints the endpoint URL as its first line
// on standard output once it accepts connections.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"syscall"
	"time"

	"github.com/oklog/run"

	"github.com/synaptic-graph/synaptic/mcp"
	"github.com/synaptic-graph/synaptic/mcp/conformance"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "listen address")
	flag.Parse()
	if err := serve(*addr); err != nil {
		log.Fatal(err)
	}
}

func serve(addr string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	fx := conformance.New()
	h := mcp.NewHTTPHandler(fx.Server, &mcp.HTTPOptions{
		Guards:    mcp.Guards{Addr: ln.Addr().String()},
		Heartbeat: 5 * time.Second,
	})
	srv := mcp.NewHTTPServer(h, mcp.HTTPLimits{})
	fmt.Printf("http://%s/mcp\n", ln.Addr())

	ctx, cancel := context.WithCancel(context.Background())
	var g run.Group
	g.Add(func() error {
		if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	}, func(error) {
		fx.Server.Close()
		shutdown, done := context.WithTimeout(context.Background(), 2*time.Second)
		defer done()
		_ = srv.Shutdown(shutdown)
	})
	g.Add(func() error { return h.RunReaper(ctx) }, func(error) { cancel() })
	g.Add(func() error { return fx.Run(ctx, 3*time.Second) }, func(error) { cancel() })
	g.Add(run.SignalHandler(ctx, os.Interrupt, syscall.SIGTERM))
	var sig run.SignalError
	if err := g.Run(); err != nil && !errors.As(err, &sig) {
		return err
	}
	return nil
}
