package main

import (
	"context"
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"planner/engine"
	"planner/montecarlo"
	"planner/workbooks"
)

// runMonteCarlo runs a Monte Carlo of every scenario, base first, with a
// progress bar on a terminal once the run has taken a second.
func runMonteCarlo(ctx context.Context, plan *engine.Plan, overrides map[string]engine.Value, opts evalOptions, stderr io.Writer) ([]*montecarlo.Result, error) {
	scenarios := plan.Scenarios(overrides)
	bar := newProgress(stderr, opts.samples*len(scenarios))
	defer bar.finish()
	var out []*montecarlo.Result
	for i, sc := range scenarios {
		offset := i * opts.samples
		r, err := montecarlo.Run(ctx, plan, sc, montecarlo.Options{Samples: opts.samples, Seed: opts.seed,
			Histograms: []string{workbooks.HistogramOutput}, Progress: func(done int) { bar.set(offset + done) }})
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// progress shows a bar on a terminal for runs that take over a second.
type progress struct {
	mu    sync.Mutex
	w     io.Writer
	tty   bool
	total int
	start time.Time
	done  int
	bar   *progressbar.ProgressBar
}

func newProgress(w io.Writer, total int) *progress {
	if s, ok := w.(*safeWriter); ok {
		w = s.w // the bar's own escapes move the cursor; it prints no workbook text
	}
	f, ok := w.(*os.File)
	return &progress{w: w, tty: ok && term.IsTerminal(int(f.Fd())), total: total, start: time.Now()}
}

func (p *progress) set(done int) {
	if !p.tty {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if done <= p.done {
		return // workers report out of order
	}
	p.done = done
	if p.bar == nil && time.Since(p.start) > time.Second {
		p.bar = progressbar.NewOptions(p.total, progressbar.OptionSetWriter(p.w), progressbar.OptionSetDescription("Monte Carlo"),
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
