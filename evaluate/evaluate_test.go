package evaluate

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"planner/montecarlo"
	"planner/units"
	"planner/workbooks"

	"github.com/xuri/excelize/v2"
)

// newWorkbook writes planner's default workbook into a temporary folder.
func newWorkbook(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "plan.xlsx")
	in, err := workbooks.Init(path, units.USD)
	data, was := in.Data, in.Original
	if err != nil {
		t.Fatal(err)
	}
	if err := workbooks.Save(path, data, was); err != nil {
		t.Fatal(err)
	}
	return path
}

func near(t *testing.T, name string, got, want float64) {
	t.Helper()
	if math.Abs(got-want) > 1e-9*math.Max(1, math.Abs(want)) {
		t.Errorf("%s = %.12g, want %.12g", name, got, want)
	}
}

// quick is a small Monte Carlo, enough to run every step.
// quick evaluates with few samples, and measures the prices' age on a
// fixed day (the default prices are 52 days old on it), not the clock's.
var quick = Options{Samples: 200, Seed: montecarlo.DefaultSeed, Version: "test",
	Prices: PriceAge{MaxAge: 90, Clock: func() time.Time { return time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC) }}}

func TestEvaluateWritesTheArticlesFigures(t *testing.T) {
	path := newWorkbook(t)
	var phases []string
	var samples, total int
	ended := map[string]bool{}
	var mu sync.Mutex // scenarios side by side report from several cores, out of order
	opts := quick
	opts.Progress = func(phase string, done, all int) {
		mu.Lock()
		defer mu.Unlock()
		if len(phases) == 0 || phases[len(phases)-1] != phase {
			phases = append(phases, phase)
		}
		if phase == phaseMonteCarlo {
			samples, total = max(samples, done), all
		} else {
			ended[phase] = done == 1 && all == 1
		}
	}
	rep, err := Evaluate(context.Background(), path, opts)
	if err != nil {
		t.Fatal(err)
	}
	base := rep.Results[0].Values
	// The article's midpoint: $285,000 over 8 cards and 36 × 730 hours;
	// 7.28 kW at $0.12; $1,000 a month of rack.
	capital := 285000.0 / 8 / (36 * 730)
	power := 7.28 * 730 * 0.12 / 8 / 730
	rack := 1000.0 / 8 / 730
	near(t, "capital_per_gpu_hour", base["capital_per_gpu_hour"], capital)
	near(t, "power_per_gpu_hour", base["power_per_gpu_hour"], power)
	near(t, "rack_per_gpu_hour", base["rack_per_gpu_hour"], rack)
	near(t, "cost_per_gpu_hour", base["cost_per_gpu_hour"], capital+power+rack)
	if got := rep.Results[0].Scenario; got != "base" {
		t.Errorf("first scenario %q, want base", got)
	}
	if len(rep.MonteCarlo) != len(rep.Results) || rep.MonteCarlo[0].Samples != 200 {
		t.Errorf("%d Monte Carlo runs of %d samples for %d scenarios, want one of 200 each", len(rep.MonteCarlo), rep.MonteCarlo[0].Samples, len(rep.Results))
	}
	want := []string{phaseReading, phaseEvaluating, phaseMonteCarlo, phaseWhatIfs, phaseWriting, phaseSaving}
	if strings.Join(phases, ",") != strings.Join(want, ",") || samples != total || total != 200*len(rep.Results) {
		t.Errorf("progress heard %q, Monte Carlo at %d of %d; want %q, Monte Carlo to %d", phases, samples, total, want, 200*len(rep.Results))
	}
	for _, p := range want {
		if p != phaseMonteCarlo && !ended[p] {
			t.Errorf("progress did not hear %s end", p)
		}
	}
	if !strings.HasPrefix(rep.Note, path+": wrote ") || !strings.Contains(rep.Note, "Results") {
		t.Errorf("note %q, want %s: wrote ... Results ...", rep.Note, path)
	}

	again, err := Evaluate(context.Background(), path, quick)
	if err != nil {
		t.Fatal(err)
	}
	if want := path + ": Results already up to date; the file is unchanged"; again.Note != want {
		t.Errorf("second run: note %q, want %q", again.Note, want)
	}
	check := quick
	check.Check = true
	checked, err := Evaluate(context.Background(), path, check)
	if err != nil {
		t.Fatal(err)
	}
	if want := path + ": up to date: planner's sheets match a fresh evaluation"; checked.Note != want {
		t.Errorf("--check: note %q, want %q", checked.Note, want)
	}
}

func TestEvaluateWithSetLeavesTheWorkbookAlone(t *testing.T) {
	path := newWorkbook(t)
	before, _ := os.ReadFile(path)
	opts := quick
	opts.Sets = []string{"capex=320000"}
	rep, err := Evaluate(context.Background(), path, opts)
	if err != nil {
		t.Fatal(err)
	}
	near(t, "capital_per_gpu_hour at capex 320000", rep.Results[0].Values["capital_per_gpu_hour"], 320000.0/8/26280)
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Error("the workbook changed, though --set was given without -o")
	}
	if want := path + ": --set given, so the workbook was left alone; add -o OUT.xlsx to save these results to a copy"; rep.Note != want {
		t.Errorf("note %q, want %q", rep.Note, want)
	}
}

func TestEvaluateRefuses(t *testing.T) {
	path := newWorkbook(t)
	for _, c := range []struct {
		name string
		opts Options
		want string
	}{
		{"set into itself", Options{Sets: []string{"capex=1"}, Output: path},
			path + ": -o " + path + " is this same workbook; planner saves --set results, a what-if, only into another file, so that " + path + " keeps the results of its own inputs: name a new file, such as -o what-if.xlsx"},
		{"unknown input", Options{Sets: []string{"capx=1"}}, "--set capx=1: capx is not an input of this workbook (did you mean capex?)"},
		{"not a number", Options{Sets: []string{"capex=lots"}},
			`--set capex=lots: "lots" is not a number (it names lots; a value cannot refer to names); write 320000, $320,000, 35%, or arithmetic such as 264/730`},
		{"unknown scenario", Options{Scenarios: []string{"nope"}},
			"PATH: --scenario nope: there is no such scenario; the scenarios are base; H100 low; H100 mid; H100 high; H100 mid, 30 % residual; H200 node; B200 node; 2 of 8 busy"},
		{"check with set", Options{Check: true, Sets: []string{"capex=1"}},
			"--check compares the workbook with a fresh evaluation of its own inputs; it does not take -o, --set or --target"},
		{"too many samples", Options{Samples: 6_000_000}, "--samples: 6000000 samples: use between 1 and 5000000"},
		{"a date", Options{Prices: PriceAge{Today: "1.12.2026"}}, "--today 1.12.2026: write the date as YYYY-MM-DD, such as 2026-11-30"},
	} {
		t.Run(c.name, func(t *testing.T) {
			before, _ := os.ReadFile(path)
			opts := c.opts
			opts.Seed, opts.Version = quick.Seed, quick.Version
			if opts.Samples == 0 {
				opts.Samples = quick.Samples
			}
			rep, err := Evaluate(context.Background(), path, opts)
			if want := strings.ReplaceAll(c.want, "PATH", path); err == nil || err.Error() != want {
				t.Fatalf("got %v\nwant %s", err, want)
			}
			if rep == nil || rep.File != path {
				t.Errorf("report %+v, want one for %s", rep, path)
			}
			if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
				t.Error("a refused evaluation changed the workbook")
			}
		})
	}
}

// TestWarningsAreListedUnderResults: what eval warns of the workbook's
// cells reaches the Results sheet too, at the cells stderr names, and
// leaves it once the advice is followed; the prices' age, which depends on
// the day asked, does not make the sheet change.
func TestWarningsAreListedUnderResults(t *testing.T) {
	path := newWorkbook(t)
	setCell(t, path, "Assumptions", "B6", 412000)
	rep, err := Evaluate(context.Background(), path, quick)
	if err != nil {
		t.Fatal(err)
	}
	want := "Assumptions!B6: capex: the value 412000 lies outside the range 250000..320000, so Monte Carlo and the tornado hold it at 412000; to let it vary, widen low and high in Assumptions (D6, E6) to include 412000"
	if got := listedWarnings(t, path); strings.Join(got, "\n") != want {
		t.Errorf("Results lists\n%s\nwant\n%s", strings.Join(got, "\n"), want)
	}
	if len(rep.Warnings) != 1 || rep.Warnings[0].Error() != path+": "+want {
		t.Errorf("the report's warnings: %v", rep.Warnings)
	}

	before, _ := os.ReadFile(path)
	aged := quick
	aged.Prices = PriceAge{Today: "2027-03-01", MaxAge: 90}
	rep, err = Evaluate(context.Background(), path, aged)
	if err != nil {
		t.Fatal(err)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) || len(rep.Warnings) != 10 {
		t.Errorf("--today changed the workbook (%v) or did not warn of nine old prices: %v", !bytes.Equal(before, after), rep.Warnings)
	}

	setCell(t, path, "Assumptions", "E6", 450000) // the advice, followed
	if _, err := Evaluate(context.Background(), path, quick); err != nil {
		t.Fatal(err)
	}
	if got := listedWarnings(t, path); got != nil {
		t.Errorf("with the range widened Results still lists %q", got)
	}
}

// setCell types a number into a cell, as a user would.
func setCell(t *testing.T, path, sheet, cell string, v float64) {
	t.Helper()
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.SetCellValue(sheet, cell, v); err != nil {
		t.Fatal(err)
	}
	if err := f.Save(); err != nil {
		t.Fatal(err)
	}
}

// listedWarnings are the lines under Results' Warnings heading.
func listedWarnings(t *testing.T, path string) []string {
	t.Helper()
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := f.GetRows("Results")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	in := false
	for _, r := range rows {
		switch {
		case len(r) == 0 || r[0] == "":
		case strings.HasPrefix(r[0], "Warnings ("):
			in = true
		case in:
			out = append(out, r[0])
		}
	}
	return out
}

// Ctrl-C while the sheets are written, as the writing starts or as it
// ends, stops eval with the workbook as it was.
func TestInterruptedWhileWritingWritesNothing(t *testing.T) {
	for _, when := range []int{0, 1} { // the writing phase's start, its end
		path := newWorkbook(t)
		before, _ := os.ReadFile(path)
		ctx, cancel := context.WithCancel(context.Background())
		opts := quick
		opts.Progress = func(phase string, done, _ int) {
			if phase == phaseWriting && done == when {
				cancel()
			}
		}
		_, err := Evaluate(ctx, path, opts)
		cancel()
		if want := path + ": interrupted; nothing was written"; err == nil || err.Error() != want {
			t.Errorf("interrupted at %d of writing: %v, want %s", when, err, want)
		}
		if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
			t.Errorf("interrupted at %d of writing, the workbook changed", when)
		}
	}
}
