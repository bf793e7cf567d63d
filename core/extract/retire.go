package extract

import (
	"slices"
	"sync"
)

// retiring lists the removals of replaced outputs still running (see
// replace): a run waits for them before it lets go of its output
// directory, so no hidden copy of an old graph outlives the run.
var retiring struct {
	mu      sync.Mutex
	pending []chan struct{}
}

// retire runs remove in the background.
func retire(remove func()) {
	done := make(chan struct{})
	retiring.mu.Lock()
	retiring.pending = append(retiring.pending, done)
	retiring.mu.Unlock()
	go func() {
		defer close(done)
		remove()
	}()
}

// waitRetired waits for the removals started so far.
func waitRetired() {
	retiring.mu.Lock()
	pending := append([]chan struct{}(nil), retiring.pending...)
	retiring.mu.Unlock()
	for _, done := range pending {
		<-done
	}
	retiring.mu.Lock()
	retiring.pending = slices.DeleteFunc(retiring.pending, func(done chan struct{}) bool {
		select {
		case <-done:
			return true
		default:
			return false
		}
	})
	retiring.mu.Unlock()
}
