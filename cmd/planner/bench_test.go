package main

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"
)

// BenchmarkEvalDefaultWorkbook is the whole of planner eval on the workbook
// planner init writes: read, evaluate every scenario, size, cost the
// deployments, 10,000 Monte Carlo samples per scenario, write and verify
// all four owned sheets, save.
func BenchmarkEvalDefaultWorkbook(b *testing.B) {
	dir := b.TempDir()
	fresh := filepath.Join(dir, "fresh.xlsx")
	if code := run([]string{"init", fresh}, io.Discard, io.Discard); code != 0 {
		b.Fatal("init failed")
	}
	data, err := os.ReadFile(fresh)
	if err != nil {
		b.Fatal(err)
	}
	plan := filepath.Join(dir, "plan.xlsx")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		if err := os.WriteFile(plan, data, 0o644); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if code := run([]string{"eval", plan}, io.Discard, io.Discard); code != 0 {
			b.Fatal("eval failed")
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/eval")
}

// grown is one way a user grows the workbook planner init writes, and the
// size it is grown to.
type grown struct {
	dimension string // offers, scenarios, formulas, usercells; "" for the workbook as init writes it
	size      int
	grow      func(f *excelize.File, n int) error
}

func (g grown) name() string {
	if g.dimension == "" {
		return "default"
	}
	return fmt.Sprintf("%s=%d", g.dimension, g.size)
}

// growths are BenchmarkEvalGrown's workbooks, the default first: it is the
// baseline every other is reported against, and each dimension's smaller
// sizes come before its larger, against the next smaller of which each
// larger reports its growth exponent.
var growths = []grown{
	{"", 0, nil},
	{"offers", 100, addOffers},
	{"offers", 1000, addOffers},
	{"offers", 3000, addOffers},
	{"scenarios", 100, addScenarios},
	{"scenarios", 1000, addScenarios},
	{"deployments", 100, addDeployments},
	{"deployments", 1000, addDeployments},
	{"formulas", 200, addFormulas},
	{"formulas", 2000, addFormulas},
	{"usercells", 100000, addUserSheet},
	{"usercells", 1000000, addUserSheet},
}

// BenchmarkEvalGrown is the whole of planner eval on the workbook planner
// init writes (default, the baseline, measured in the same run) and on that
// workbook grown the way a user grows it, along one dimension at a time, to
// two sizes each (offers to three, the last past where the Results sheet
// first grew faster than its offers):
//
//   - offers=N: N rows appended to Cloud, offers of the node's GPU priced
//     from $1.50 to $6.50 a GPU-hour;
//   - scenarios=N: N columns appended to Scenarios, capex and utilisation
//     varying;
//   - deployments=N: N rows appended to Deployments, of 1, 2, 4 or 8 H100
//     SXM cards, one to three replicas, all month or 12 hours on workdays,
//     at RunPod's or Lambda's price;
//   - formulas=N: N rows appended to Formulas, each a line over the cost per
//     GPU-hour;
//   - usercells=N: a sheet of the user's own, Data, of N cells (numbers, a
//     tenth of them text) beside planner's sheets, which eval must carry
//     through unchanged.
//
// Every workbook, the default included, is evaluated with --samples 1000
// (not eval's default 10,000) so that the Monte Carlo runs of a thousand
// scenarios stay quick and every sub-benchmark is comparable with the
// baseline. Each grown workbook is built once, outside the timer, and copied
// to the file before each iteration with the timer stopped.
//
// Each sub-benchmark reports ms/eval, the allocations (b.ReportAllocs), and
// peak-heap-MB: the most heap in use (live objects and garbage not yet
// swept, runtime/metrics' /memory/classes/heap/objects:bytes, which is
// MemStats.HeapAlloc) seen during an iteration, sampled every millisecond
// after a collection before it, so a slight underestimate of the true peak,
// which may fall between two samples. A grown sub-benchmark also reports
// x-default, its ms/eval over the default's, and each larger size of a
// dimension its exponent over the next smaller (time grows as
// size^exponent; linear is 1), when those ran in the same run; the benchmark logs them all
// in a table at the end (printed with -v).
//
//	go test ./cmd/planner -run '^$' -bench 'EvalGrown|ReEval' -benchtime 3x
//
// takes about four minutes on two cores while 3,000 offers cost some 20 s
// an eval; past ten minutes, go test's -timeout needs raising.
func BenchmarkEvalGrown(b *testing.B) {
	base := initWorkbook(b)
	msPerEval := map[string]float64{}
	for _, g := range growths {
		var data []byte
		b.Run(g.name(), func(b *testing.B) {
			if data == nil {
				data = grownBytes(b, base, g)
			}
			ms := timeEvals(b, data, "--samples", "1000")
			msPerEval[g.name()] = ms
			if d, ok := msPerEval["default"]; ok && g.dimension != "" {
				b.ReportMetric(ms/d, "x-default")
			}
			if e, ok := exponent(msPerEval, g); ok {
				b.ReportMetric(e, "exponent")
			}
		})
	}
	logGrowth(b, msPerEval)
}

// BenchmarkReEvalUpToDate is planner eval on a workbook it has just
// evaluated, nothing changed since: eval reads it, evaluates it, finds its
// sheets up to date and leaves the file as it is (the benchmark fails if it
// does not). first, its baseline in the same run, is the first eval of the
// fresh workbook; again is on the machine that evaluated it, which
// remembers it; elsewhere is with an empty cache folder each time, as in
// CI or for a colleague, where only the workbook's own digest proves it up
// to date. All run as a build that names itself, with eval's default
// flags, as a user types them.
func BenchmarkReEvalUpToDate(b *testing.B) {
	defer func(was string) { build = was }(build)
	build = "planner benchmark"
	fresh := initWorkbook(b)
	var first float64
	b.Run("first", func(b *testing.B) {
		first = timeEvals(b, fresh)
	})
	for _, elsewhere := range []bool{false, true} {
		name := map[bool]string{false: "again", true: "elsewhere"}[elsewhere]
		b.Run(name, func(b *testing.B) {
			ms, peak := timeAgain(b, fresh, elsewhere)
			b.ReportMetric(ms, "ms/eval")
			b.ReportMetric(peak, "peak-heap-MB")
			if first > 0 {
				b.ReportMetric(ms/first, "x-first")
			}
		})
	}
}

// timeAgain times eval of the workbook fresh evaluated once, with the
// cache folder as that eval left it or, elsewhere, empty each time; it
// fails if eval changes the file.
func timeAgain(b *testing.B, fresh []byte, elsewhere bool) (ms, peakMB float64) {
	plan := filepath.Join(b.TempDir(), "plan.xlsx")
	if err := os.WriteFile(plan, fresh, 0o644); err != nil {
		b.Fatal(err)
	}
	evalOnce(b, plan)
	evaluated, err := os.ReadFile(plan)
	if err != nil {
		b.Fatal(err)
	}
	stat, err := os.Stat(plan)
	if err != nil {
		b.Fatal(err)
	}
	peak := newHeapPeak()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		if elsewhere {
			b.Setenv("XDG_CACHE_HOME", b.TempDir())
		}
		runtime.GC()
		peak.start()
		b.StartTimer()
		evalOnce(b, plan)
		b.StopTimer()
		peak.stop()
		if now, err := os.Stat(plan); err != nil || !now.ModTime().Equal(stat.ModTime()) {
			b.Fatalf("eval of an up-to-date workbook replaced it (%v)", err)
		}
		b.StartTimer()
	}
	b.StopTimer()
	if now, err := os.ReadFile(plan); err != nil || !bytes.Equal(now, evaluated) {
		b.Fatalf("eval of an up-to-date workbook changed it (%v)", err)
	}
	return float64(b.Elapsed().Microseconds()) / 1000 / float64(b.N), peak.mb()
}

// initWorkbook is the bytes of the workbook planner init writes.
func initWorkbook(b *testing.B) []byte {
	b.Helper()
	path := filepath.Join(b.TempDir(), "plan.xlsx")
	var stderr bytes.Buffer
	if code := run([]string{"init", path}, io.Discard, &stderr); code != 0 {
		b.Fatalf("planner init: exit status %d: %s", code, stderr.String())
	}
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	return data
}

// grownBytes is base grown by g, edited with excelize as a spreadsheet
// application would edit it. The default is base itself.
func grownBytes(b *testing.B, base []byte, g grown) []byte {
	b.Helper()
	if g.grow == nil {
		return base
	}
	f, err := excelize.OpenReader(bytes.NewReader(base))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	if err := g.grow(f, g.size); err != nil {
		b.Fatalf("growing the workbook to %s: %v", g.name(), err)
	}
	var out bytes.Buffer
	if _, err := f.WriteTo(&out); err != nil {
		b.Fatal(err)
	}
	return out.Bytes()
}

// timeEvals times planner eval of data, with args, copied afresh to the
// file before each iteration with the timer stopped, and reports ms/eval,
// the allocations and the peak heap. It gives ms/eval.
func timeEvals(b *testing.B, data []byte, args ...string) float64 {
	b.Helper()
	plan := filepath.Join(b.TempDir(), "plan.xlsx")
	peak := newHeapPeak()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		if err := os.WriteFile(plan, data, 0o644); err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		peak.start()
		b.StartTimer()
		evalOnce(b, plan, args...)
		b.StopTimer()
		peak.stop()
		b.StartTimer()
	}
	b.StopTimer()
	ms := float64(b.Elapsed().Microseconds()) / 1000 / float64(b.N)
	b.ReportMetric(ms, "ms/eval")
	b.ReportMetric(peak.mb(), "peak-heap-MB")
	return ms
}

// evalOnce runs planner eval on plan and stops the benchmark with eval's
// own words when it fails.
func evalOnce(b *testing.B, plan string, args ...string) {
	b.Helper()
	var stderr bytes.Buffer
	if code := run(append([]string{"eval", plan}, args...), io.Discard, &stderr); code != 0 {
		b.Fatalf("planner eval: exit status %d: %s", code, strings.TrimSpace(stderr.String()))
	}
}

// exponent is how g's time grows over the next smaller size of its
// dimension that ran, as the power of the size: 1 is linear, 2 the square.
func exponent(msPerEval map[string]float64, g grown) (float64, bool) {
	var below grown
	for _, s := range growths {
		if _, ran := msPerEval[s.name()]; ran && s.dimension == g.dimension && below.size < s.size && s.size < g.size {
			below = s
		}
	}
	if below.size == 0 {
		return 0, false
	}
	return math.Log(msPerEval[g.name()]/msPerEval[below.name()]) / math.Log(float64(g.size)/float64(below.size)), true
}

// logGrowth logs every grown workbook's time, its ratio to the default's
// and its dimension's exponent, those that ran.
func logGrowth(b *testing.B, msPerEval map[string]float64) {
	var s strings.Builder
	s.WriteString("workbook\tms/eval\tx default\texponent\n")
	for _, g := range growths {
		ms, ok := msPerEval[g.name()]
		if !ok {
			continue
		}
		ratio, exp := "", ""
		if d, ok := msPerEval["default"]; ok && g.dimension != "" {
			ratio = fmt.Sprintf("%.2f", ms/d)
		}
		if e, ok := exponent(msPerEval, g); ok {
			exp = fmt.Sprintf("%.2f", e)
		}
		fmt.Fprintf(&s, "%s\t%.1f\t%s\t%s\n", g.name(), ms, ratio, exp)
	}
	b.Logf("planner eval --samples 1000 by workbook:\n%s", s.String())
}

// heapPeak samples the heap in use every millisecond between start and stop
// and keeps the most it saw over every iteration.
type heapPeak struct {
	peak    uint64
	done    chan struct{}
	stopped chan struct{}
}

const heapObjects = "/memory/classes/heap/objects:bytes"

func newHeapPeak() *heapPeak { return &heapPeak{} }

func (h *heapPeak) sample(s []metrics.Sample) {
	metrics.Read(s)
	if v := s[0].Value.Uint64(); v > h.peak {
		h.peak = v
	}
}

func (h *heapPeak) start() {
	h.done, h.stopped = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(h.stopped)
		s := []metrics.Sample{{Name: heapObjects}}
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			h.sample(s)
			select {
			case <-h.done:
				h.sample(s)
				return
			case <-tick.C:
			}
		}
	}()
}

func (h *heapPeak) stop() {
	close(h.done)
	<-h.stopped
}

// mb is the peak in megabytes; call it after stop.
func (h *heapPeak) mb() float64 {
	return float64(h.peak) / 1e6
}

// rowsOf is the number of rows a sheet has, and the row each name in its
// first column is on.
func rowsOf(f *excelize.File, sheet string) (int, map[string]int, error) {
	rows, err := f.GetRows(sheet)
	if err != nil {
		return 0, nil, err
	}
	at := map[string]int{}
	for r, row := range rows {
		if len(row) > 0 {
			at[row[0]] = r + 1
		}
	}
	return len(rows), at, nil
}

// appendRows appends n rows to sheet, row i's cells given by cells, each
// cell in the style of the cell above the first new row, as a spreadsheet
// extends a table's formatting.
func appendRows(f *excelize.File, sheet string, n int, cells func(i int) []any) error {
	last, _, err := rowsOf(f, sheet)
	if err != nil {
		return err
	}
	width := len(cells(0))
	styles := make([]int, width)
	for c := range styles {
		ref, _ := excelize.CoordinatesToCellName(c+1, last)
		if styles[c], err = f.GetCellStyle(sheet, ref); err != nil {
			return err
		}
	}
	for i := range n {
		r := last + 1 + i
		first, _ := excelize.CoordinatesToCellName(1, r)
		row := cells(i)
		if err := f.SetSheetRow(sheet, first, &row); err != nil {
			return err
		}
		for c, style := range styles {
			ref, _ := excelize.CoordinatesToCellName(c+1, r)
			if err := f.SetCellStyle(sheet, ref, ref, style); err != nil {
				return err
			}
		}
	}
	return nil
}

// addOffers appends n offers of the node's GPU to Cloud, priced from $1.50
// to $6.50 a GPU-hour, as of the day the default offers are.
func addOffers(f *excelize.File, n int) error {
	asOf := time.Date(2026, 10, 10, 0, 0, 0, 0, time.UTC)
	return appendRows(f, "Cloud", n, func(i int) []any {
		return []any{"Cloud", fmt.Sprintf("H100 offer %d", i+1), "H100 SXM", 1.5 + 5*float64(i)/float64(n), asOf,
			"a grown price list", "Added to measure eval at many offers."}
	})
}

// addDeployments appends n deployments to Deployments, of the 70B model
// on 1, 2, 4 or 8 H100 SXM cards per replica, one to three replicas, all
// month or 12 hours on workdays, from RunPod or Lambda.
func addDeployments(f *excelize.File, n int) error {
	return appendRows(f, "Deployments", n, func(i int) []any {
		hours := []any{nil, nil, 730}
		if i%2 == 1 {
			hours = []any{12, 22, nil}
		}
		offer := []string{"RunPod H100 SXM, Community", "Lambda H100, 8-GPU plan"}[i/2%2]
		return append([]any{fmt.Sprintf("grown deployment %d of the 70B service", i+1), "Llama 3.1 70B", nil, "H100 SXM", 1 << (i % 4), 1 + i%3},
			append(hours, offer)...)
	})
}

// addScenarios appends n scenarios to Scenarios, one column each to the
// right of the last, with capex from $250,000 to $320,000 and utilisation
// from 25 % to 90 %, shuffled against capex.
func addScenarios(f *excelize.File, n int) error {
	const sheet = "Scenarios"
	_, at, err := rowsOf(f, sheet)
	if err != nil {
		return err
	}
	cols, err := f.GetCols(sheet)
	if err != nil {
		return err
	}
	for _, name := range []string{"capex", "utilization", "notes"} {
		if at[name] == 0 {
			return fmt.Errorf("%s has no row %s", sheet, name)
		}
	}
	for i := range n {
		c := len(cols) + 1 + i
		set := func(row int, v any) error {
			ref, _ := excelize.CoordinatesToCellName(c, row)
			return f.SetCellValue(sheet, ref, v)
		}
		for _, err := range []error{
			set(1, fmt.Sprintf("grown %d", i+1)),
			set(at["notes"], "Added to measure eval at many scenarios."),
			set(at["capex"], 250000+70000*float64(i)/float64(n)),
			set(at["utilization"], 0.25+0.65*float64((i*37)%n)/float64(n)),
		} {
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// addFormulas appends n formulas to Formulas, each a line over the cost per
// GPU-hour.
func addFormulas(f *excelize.File, n int) error {
	return appendRows(f, "Formulas", n, func(i int) []any {
		return []any{fmt.Sprintf("grown_%d", i+1), fmt.Sprintf("cost_per_gpu_hour * %g + %d", 1+float64(i)/float64(n), i%10),
			"$/GPU-h", "Added to measure eval at many formulas.", fmt.Sprintf("Grown line %d", i+1)}
	})
}

// addUserSheet adds the user's own sheet Data of n cells, ten to a row:
// numbers, the first column text.
func addUserSheet(f *excelize.File, n int) error {
	const sheet, width = "Data", 10
	if _, err := f.NewSheet(sheet); err != nil {
		return err
	}
	w, err := f.NewStreamWriter(sheet)
	if err != nil {
		return err
	}
	row := make([]any, width)
	for r := range n / width {
		row[0] = fmt.Sprintf("item %d", r+1)
		for c := 1; c < width; c++ {
			row[c] = float64(r*width+c) + 0.25
		}
		ref, _ := excelize.CoordinatesToCellName(1, r+1)
		if err := w.SetRow(ref, row); err != nil {
			return err
		}
	}
	return w.Flush()
}
