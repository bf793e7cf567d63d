// Package execcap runs one shell command for speculate: in its own
// process group (a timeout kills the command and everything it started),
// with combined output capped (the head and tail are kept, the middle is
// counted, so a command printing gigabytes costs bounded memory).
package execcap

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"syscall"
	"time"
)

// Result is how a command ended.
type Result struct {
	ExitCode int // -1 when it did not exit by itself (timeout, signal)
	TimedOut bool
	Elapsed  time.Duration
	Output   []byte // head + tail, at most 2×Cap bytes
	Dropped  int64  // bytes of output not kept
}

// capped keeps the first and last cap bytes written to it.
type capped struct {
	cap        int
	head, tail []byte
	dropped    int64
}

func (c *capped) Write(p []byte) (int, error) {
	n := len(p)
	if room := c.cap - len(c.head); room > 0 {
		k := min(room, len(p))
		c.head = append(c.head, p[:k]...)
		p = p[k:]
	}
	if len(p) == 0 {
		return n, nil
	}
	c.tail = append(c.tail, p...)
	if over := len(c.tail) - c.cap; over > 0 {
		c.dropped += int64(over)
		c.tail = append(c.tail[:0], c.tail[over:]...)
	}
	return n, nil
}

// Run runs `sh -c command` in dir with env added, for at most timeout,
// keeping at most 2×outputCap bytes of output.
func Run(ctx context.Context, dir, command string, env []string, timeout time.Duration, outputCap int) (Result, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.Command("sh", "-c", command)
	cmd.Dir = dir
	cmd.Env = append(cmd.Environ(), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out := &capped{cap: outputCap}
	cmd.Stdout, cmd.Stderr = out, out
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return Result{}, fmt.Errorf("starting %q: %w", command, err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	res := Result{}
	select {
	case err = <-done:
	case <-ctx.Done():
		res.TimedOut = true
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // the whole group
		err = <-done
	}
	res.Elapsed = time.Since(start)
	res.Output = append(out.head, out.tail...)
	res.Dropped = out.dropped
	var exit *exec.ExitError
	switch {
	case res.TimedOut:
		res.ExitCode = -1
	case err == nil:
		res.ExitCode = 0
	case errors.As(err, &exit):
		res.ExitCode = exit.ExitCode()
	default:
		return res, err
	}
	return res, nil
}
