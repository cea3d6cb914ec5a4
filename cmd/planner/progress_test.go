package main

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// On a terminal, every phase of a long run shows: Monte Carlo with its
// count of samples, the others by name with a spinner that the ticker
// keeps turning while they report nothing.
func TestProgressShowsEveryLongPhase(t *testing.T) {
	var screen bytes.Buffer
	p := &progress{w: &screen, tty: true, after: 0, start: time.Now()}
	p.tick(time.Millisecond)
	p.set("reading", 0, 1)
	waitFor(t, p, &screen, "reading")
	p.set("reading", 1, 1)
	p.set("Monte Carlo", 4000, 8000)
	waitFor(t, p, &screen, "Monte Carlo")
	p.set("Monte Carlo", 8000, 8000)
	p.set("writing the sheets", 0, 1)
	waitFor(t, p, &screen, "writing the sheets")
	p.finish()
	p.mu.Lock()
	defer p.mu.Unlock()
	out := screen.String()
	if !strings.Contains(out, "4000/8000") {
		t.Errorf("Monte Carlo's bar never counted its samples (4000/8000):\n%q", out)
	}
	turns := strings.Count(out[strings.LastIndex(out, "Monte Carlo"):], "writing the sheets")
	if turns < 2 {
		t.Errorf("the spinner of a phase without a count showed %d times; the ticker should redraw it:\n%q", turns, out)
	}
}

// waitFor waits until the screen shows text, drawn by set or the ticker.
func waitFor(t *testing.T, p *progress, screen *bytes.Buffer, text string) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		p.mu.Lock()
		shown := strings.Count(screen.String(), text)
		p.mu.Unlock()
		if shown >= 2 {
			return
		}
	}
	t.Fatalf("the screen never showed %q twice", text)
}

// Off a terminal (a pipe, a file, CI's log), nothing is drawn.
func TestProgressIsSilentOffATerminal(t *testing.T) {
	var log bytes.Buffer
	p := newProgress(&log)
	p.set("reading", 0, 1)
	p.set("Monte Carlo", 10, 10)
	p.finish()
	if log.Len() != 0 {
		t.Errorf("drew %q on a writer that is no terminal", log.String())
	}
}

// The spinner of a phase without a count turns only when planner's ticker
// or a new report draws it, under the progress's lock: the bar drawing on
// its own would write to the terminal unsynchronised with planner, and
// keep going a moment after finish.
func TestProgressDrawsOnlyWhenAsked(t *testing.T) {
	var screen bytes.Buffer
	p := &progress{w: &screen, tty: true, after: 0, start: time.Now()} // no ticker
	p.set("writing the sheets", 0, 1)
	p.mu.Lock()
	drawn := screen.String()
	p.mu.Unlock()
	time.Sleep(350 * time.Millisecond)
	p.mu.Lock()
	later := screen.String()
	p.mu.Unlock()
	p.finish()
	if later != drawn {
		t.Errorf("the bar drew by itself while nothing asked:\n%q\nthen\n%q", drawn, later)
	}
}

// On a terminal narrower than the bar, the counted bar gives up cells and
// a spinner's line is cut, leaving the last column free: a line that
// wrapped would leave a copy of itself on every redraw.
func TestProgressFitsTheTerminal(t *testing.T) {
	var screen bytes.Buffer
	columns := 60
	p := &progress{w: &screen, tty: true, columns: func() int { return columns }, after: 0, start: time.Now()}
	p.set("Monte Carlo", 1000, 4000)
	line := strings.TrimPrefix(screen.String(), "\r")
	if !regexp.MustCompile(`^Monte Carlo  25% \|█{5} {15}\| \(1000/4000\) \[\d+s:\d+s\]$`).MatchString(line) {
		t.Errorf("the bar on a terminal of %d columns is %q, want 20 cells, 5 of them full", columns, line)
	}
	if n := utf8.RuneCountInString(line); n != columns-1 {
		t.Errorf("the bar on a terminal of %d columns takes %d: %q", columns, n, line)
	}
	columns = 10
	screen.Reset()
	p.set("writing the sheets", 0, 1)
	if got, want := screen.String(), "\r"+strings.Repeat(" ", 59)+"\r\r⠋ writing"; got != want {
		t.Errorf("a spinner on a terminal of 10 columns, after the bar, drew %q, want %q", got, want)
	}
	p.finish()
	if got, want := screen.String()[len("\r"+strings.Repeat(" ", 59)+"\r\r⠋ writing"):], "\r         \r"; got != want {
		t.Errorf("finish drew %q, want the line cleared: %q", got, want)
	}
}
