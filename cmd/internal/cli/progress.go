package cli

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"golang.org/x/term"
)

// progressBar draws a single-line bar on a terminal; elsewhere it draws
// nothing, so logs and CI output stay clean.
type progressBar struct {
	w     io.Writer
	on    bool
	mu    sync.Mutex
	last  time.Time
	start time.Time
	label string
	drawn bool
}

func newProgressBar(w io.Writer, label string) *progressBar {
	on := false
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) && os.Getenv("TERM") != "dumb" {
		on = true
	}
	return &progressBar{w: w, on: on, start: time.Now(), label: label}
}

func (p *progressBar) update(done, total int) {
	if !p.on || total == 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if done < total && time.Since(p.last) < 80*time.Millisecond {
		return
	}
	p.last = time.Now()
	const width = 30
	filled := done * width / total
	rate := float64(done) / time.Since(p.start).Seconds()
	fmt.Fprintf(p.w, "\r%s [%s%s] %d/%d files  %.0f files/s ", p.label,
		strings.Repeat("=", filled), strings.Repeat(" ", width-filled), done, total, rate)
	p.drawn = true
}

func (p *progressBar) finish() {
	if p.on && p.drawn {
		fmt.Fprint(p.w, "\r\033[K")
	}
}
