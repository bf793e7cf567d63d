//go:build !linux

package cli

import "errors"

// queueProbe is Linux-only (inotify's FIONREAD); elsewhere every query
// takes the barrier round trip.
type queueProbe struct{}

func newQueueProbe() (*queueProbe, error) { return nil, errors.ErrUnsupported }
func (q *queueProbe) add(string) error    { return nil }
func (q *queueProbe) quiet() bool         { return false }
func (q *queueProbe) drain()              {}
func (q *queueProbe) close()              {}
