package main

import (
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progress shows a bar on a terminal for a phase of a run, such as Monte
// Carlo, once the run has taken a second.
type progress struct {
	mu    sync.Mutex
	w     io.Writer
	tty   bool
	start time.Time
	phase string
	done  int
	bar   *progressbar.ProgressBar
}

func newProgress(w io.Writer) *progress {
	if s, ok := w.(*safeWriter); ok {
		w = s.w // the bar's own escapes move the cursor; it prints no workbook text
	}
	f, ok := w.(*os.File)
	return &progress{w: w, tty: ok && term.IsTerminal(int(f.Fd())), start: time.Now()}
}

func (p *progress) set(phase string, done, total int) {
	if !p.tty {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if phase != p.phase {
		p.finish()
		p.phase, p.done, p.bar = phase, 0, nil
	}
	if done <= p.done {
		return // workers report out of order
	}
	p.done = done
	if p.bar == nil && time.Since(p.start) > time.Second {
		p.bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(p.w), progressbar.OptionSetDescription(phase),
			progressbar.OptionShowCount(), progressbar.OptionThrottle(100*time.Millisecond), progressbar.OptionClearOnFinish())
	}
	if p.bar != nil {
		_ = p.bar.Set(done)
	}
}

func (p *progress) finish() {
	if p.bar != nil {
		_ = p.bar.Finish()
	}
}
