package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"golang.org/x/term"
)

// progress shows, on a terminal, a bar for the phase a run is in once the
// run has taken a second: Monte Carlo counts its samples; reading,
// evaluating, the what-ifs, writing the sheets and saving, which have no
// count, turn a spinner with their name, kept turning by a ticker so that
// a long phase shows it is alive.
type progress struct {
	mu      sync.Mutex
	w       io.Writer
	tty     bool
	columns func() int    // the terminal's width, 0 when unknown
	after   time.Duration // how long a run goes before a bar shows
	start   time.Time
	phase   string
	began   time.Time // when the phase began
	done    int
	total   int
	turn    int       // the spinner's frame
	shown   int       // the width of the line on screen, 0 for none
	drawn   time.Time // when it was drawn
	stop    chan struct{}
	ended   sync.WaitGroup
}

const (
	tickEvery = 200 * time.Millisecond // how often a phase without a count turns its spinner
	drawEvery = 100 * time.Millisecond // the most often a phase's line is redrawn
	barWidth  = 40                     // the counted bar's cells, fewer on a narrow terminal
)

// spinner is the frames a phase without a count turns through.
var spinner = []rune("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")

func newProgress(w io.Writer) *progress {
	if s, ok := w.(*safeWriter); ok {
		w = s.w // the bar moves the cursor with \r; it prints no workbook text
	}
	f, ok := w.(*os.File)
	p := &progress{w: w, tty: ok && term.IsTerminal(int(f.Fd())), after: time.Second, start: time.Now()}
	if p.tty {
		p.columns = func() int {
			width, _, err := term.GetSize(int(f.Fd()))
			if err != nil {
				return 0
			}
			return width
		}
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
		p.phase, p.began, p.done, p.total, p.turn = phase, time.Now(), 0, total, 0
	}
	if done < p.done {
		return // workers report out of order
	}
	p.done = done
	p.show()
}

// show draws the phase's line over the last one, once the run has gone on
// long enough, and at most every drawEvery.
func (p *progress) show() {
	now := time.Now()
	if p.phase == "" || now.Sub(p.start) < p.after || p.shown > 0 && now.Sub(p.drawn) < drawEvery {
		return
	}
	width := 0
	if p.columns != nil {
		width = p.columns()
	}
	line := p.line(now.Sub(p.began), width)
	n := utf8.RuneCountInString(line) // planner's phase names, digits, blocks and braille: one column each
	if n < p.shown {
		line = "\r" + strings.Repeat(" ", p.shown) + "\r" + line
	}
	fmt.Fprint(p.w, "\r"+line)
	p.shown, p.drawn = n, now
	p.turn++
}

// line is what the phase shows after elapsed, within width columns (0:
// unknown), leaving the last column free so the terminal never wraps.
// A counted phase: `Monte Carlo  25% |██████████          | (817408/3200000) [1s:3s]`;
// another: `⠋ writing the sheets  [2s] `.
func (p *progress) line(elapsed time.Duration, width int) string {
	if p.total <= 1 {
		return fit(fmt.Sprintf("%c %s  [%s] ", spinner[p.turn%len(spinner)], p.phase, seconds(elapsed)), width)
	}
	done := min(p.done, p.total)
	left := time.Duration(0)
	if done > 0 {
		left = time.Duration(float64(elapsed) * float64(p.total-done) / float64(done))
	}
	head := fmt.Sprintf("%s %3d%% |", p.phase, done*100/p.total)
	tail := fmt.Sprintf("| (%d/%d) [%s:%s]", done, p.total, seconds(elapsed), seconds(left))
	cells := barWidth
	if room := width - 1 - utf8.RuneCountInString(head+tail); width > 0 && room < cells {
		cells = max(room, 0)
	}
	full := done * cells / p.total
	return fit(head+strings.Repeat("█", full)+strings.Repeat(" ", cells-full)+tail, width)
}

// fit cuts s to width-1 columns, when the width is known.
func fit(s string, width int) string {
	if width <= 0 || utf8.RuneCountInString(s) < width {
		return s
	}
	return string([]rune(s)[:max(width-1, 0)])
}

// seconds is d in whole seconds, as Go writes durations: 0s, 42s, 1m5s.
func seconds(d time.Duration) string {
	return d.Round(time.Second).String()
}

// clear takes the line of the phase that ended off the screen.
func (p *progress) clear() {
	if p.shown > 0 {
		fmt.Fprint(p.w, "\r"+strings.Repeat(" ", p.shown)+"\r")
		p.shown = 0
	}
}

// finish stops the ticker and clears the last line: the run is over.
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
