package host

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"
)

// TestTermCheckPatched: on linux/amd64 every instance's loop checks go
// through the counting stub. If a wazero upgrade changes the internals the
// stub relies on, this fails (extraction would still be correct, only
// several times slower in the guest).
func TestTermCheckPatched(t *testing.T) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skip("the stub exists for linux/amd64 only")
	}
	h := newHost(t, Options{})
	p := loadHostile(t, h, "")
	for w := range 3 {
		if _, err := p.Extract(t.Context(), w, "ok.fake", 0, fakeRecords(), fakeSource); err != nil {
			t.Fatal(err)
		}
	}
	if s := p.Stats(); s.FastChecks != s.Instances || s.Instances != 3 {
		t.Errorf("Stats = %+v, want every instance (3) patched", s)
	}
}

// TestTermCheckSpinningGuest: a looping guest under the stub still returns
// to Go often enough for the garbage collector to stop the world and for
// the deadline to close it.
func TestTermCheckSpinningGuest(t *testing.T) {
	h := newHost(t, Options{})
	p := loadHostile(t, h, "[limits]\ntimeout = \"1s\"\n")
	done := make(chan error, 2)
	for w := range 2 {
		go func() {
			_, err := p.Extract(context.Background(), w, "loop.fake", 0, fakeRecords(), fakeSource)
			done <- err
		}()
	}
	time.Sleep(100 * time.Millisecond)
	gcDone := make(chan struct{})
	go func() { runtime.GC(); close(gcDone) }()
	select {
	case <-gcDone:
	case <-time.After(20 * time.Second):
		t.Fatal("GC did not complete while guests were spinning")
	}
	for range 2 {
		select {
		case err := <-done:
			if !errors.Is(err, ErrTimeout) {
				t.Errorf("Extract(loop) = %v, want ErrTimeout", err)
			}
		case <-time.After(30 * time.Second):
			t.Fatal("a looping guest was not stopped by its deadline")
		}
	}
}
