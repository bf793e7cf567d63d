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
	// after is what runs once every file is done (resolving, ...), shown
	// next to the full bar so it never sits at 100% saying nothing.
	after       string
	done, total int
}

// nextPhase says what follows each extraction phase, by the name
// core/extract gives the phase that just ended.
var nextPhase = map[string]string{
	"parse+extract": "resolving calls",
	"resolve":       "finding communities",
	"communities":   "writing graph.json and GRAPH_REPORT.md",
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
	p.done, p.total = done, total
	p.draw()
}

// phaseDone is extract's PhaseDone: past the files, the bar names the
// phase that is running.
func (p *progressBar) phaseDone(name string) {
	if !p.on {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	next, ok := nextPhase[name]
	if !ok || p.total == 0 {
		return
	}
	p.after = next
	p.draw()
}

func (p *progressBar) draw() {
	const width = 30
	filled := p.done * width / p.total
	status := fmt.Sprintf("%.0f files/s", float64(p.done)/time.Since(p.start).Seconds())
	if p.after != "" {
		status = p.after + "…"
	}
	fmt.Fprintf(p.w, "\r\033[K%s [%s%s] %d/%d files  %s ", p.label,
		strings.Repeat("=", filled), strings.Repeat(" ", width-filled), p.done, p.total, status)
	p.drawn = true
}

func (p *progressBar) finish() {
	if p.on && p.drawn {
		fmt.Fprint(p.w, "\r\033[K")
	}
}
