package main

import (
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progress shows, on a terminal, a bar for the phase a run is in once the
// run has taken a second: Monte Carlo counts its samples; reading,
// evaluating, the what-ifs, writing the sheets and saving, which have no
// count, turn a spinner with their name, kept turning by a ticker so that
// a long phase shows it is alive.
type progress struct {
	mu    sync.Mutex
	w     io.Writer
	tty   bool
	after time.Duration // how long a run goes before a bar shows
	start time.Time
	phase string
	done  int
	total int
	bar   *progressbar.ProgressBar
	stop  chan struct{}
	ended sync.WaitGroup
}

// tickEvery is how often a phase without a count turns its spinner.
const tickEvery = 200 * time.Millisecond

func newProgress(w io.Writer) *progress {
	if s, ok := w.(*safeWriter); ok {
		w = s.w // the bar's own escapes move the cursor; it prints no workbook text
	}
	f, ok := w.(*os.File)
	p := &progress{w: w, tty: ok && term.IsTerminal(int(f.Fd())), after: time.Second, start: time.Now()}
	if p.tty {
		p.tick(tickEvery)
	}
	return p
}

// tick shows the bar of a phase that has run past p.after without a new
// count, and turns its spinner, every so often until finish.
func (p *progress) tick(every time.Duration) {
	p.stop = make(chan struct{})
	p.ended.Add(1)
	go func() {
		defer p.ended.Done()
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-p.stop:
				return
			case <-t.C:
				p.mu.Lock()
				p.show()
				p.mu.Unlock()
			}
		}
	}()
}

func (p *progress) set(phase string, done, total int) {
	if !p.tty {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if phase != p.phase {
		p.clear()
		p.phase, p.done, p.total = phase, 0, total
	}
	if done < p.done {
		return // workers report out of order
	}
	p.done = done
	p.show()
}

// show draws the phase's bar, once the run has gone on long enough.
func (p *progress) show() {
	if p.phase == "" || time.Since(p.start) < p.after {
		return
	}
	counted := p.total > 1
	if p.bar == nil {
		if counted {
			p.bar = progressbar.NewOptions(p.total, progressbar.OptionSetWriter(p.w), progressbar.OptionSetDescription(p.phase),
				progressbar.OptionShowCount(), progressbar.OptionThrottle(100*time.Millisecond), progressbar.OptionClearOnFinish())
		} else {
			// No spinner interval: the bar would turn itself from a goroutine
			// of its own, drawing outside p.mu and after finish returned;
			// the ticker turns it, each Add one step.
			p.bar = progressbar.NewOptions(-1, progressbar.OptionSetWriter(p.w), progressbar.OptionSetDescription(p.phase),
				progressbar.OptionSpinnerType(14), progressbar.OptionSetSpinnerChangeInterval(0),
				progressbar.OptionThrottle(100*time.Millisecond), progressbar.OptionClearOnFinish())
		}
	}
	if counted {
		_ = p.bar.Set(p.done)
	} else {
		_ = p.bar.Add(1)
	}
}

// clear takes the bar of the phase that ended off the screen.
func (p *progress) clear() {
	if p.bar != nil {
		_ = p.bar.Finish()
		p.bar = nil
	}
}

// finish stops the ticker and clears the last bar: the run is over.
func (p *progress) finish() {
	if p.stop != nil {
		close(p.stop)
		p.ended.Wait()
		p.stop = nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clear()
}
