package workbooks

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"planner/facts"
	"planner/workbooks/internal/schema"
)

// Every column an input sheet declares is something show and diff tell:
// an edit of any one cell of the default workbook changes its facts, so
// that a reviewer never misses an edit, and a new column or sheet cannot
// be read without a fact of its own.
func TestEveryDeclaredColumnIsAFact(t *testing.T) {
	slow(t, "reads the default workbook once for every edit it tries")
	path := newPlan(t)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	data = withAnFXRate(t, withAnAPI(t, data))
	data = withBilledOffers(t, data)
	data = withMeasurements(t, data)
	// A peak of tokens a second takes the tokens one replica serves.
	data = withCell(t, data, schema.Deployments, "tokens", 2, 2500)
	base := factsOf(t, path, data)
	for _, sheet := range schema.Inputs() {
		for _, col := range sheet.Columns {
			if why, ok := notFacts[sheet.Name+"/"+col.Key]; ok && why != "" {
				continue
			}
			t.Run(sheet.Name+"/"+col.Key, func(t *testing.T) {
				edited, cell, ok := editColumn(t, path, data, sheet, col)
				if !ok {
					t.Fatalf("no edit of %s's column %q reads cleanly: give the test a value to type", sheet.Name, col.Header)
				}
				if slices.Equal(factsOf(t, path, edited), base) {
					t.Errorf("%s!%s (%s) edited: show prints the same facts", sheet.Name, cell, col.Header)
				}
			})
		}
	}
}

// notFacts are the columns show leaves out, and why: people's words that
// no figure depends on.
var notFacts = map[string]string{
	"Deployments/notes":    "a person's note",
	"Correlations/notes":   "a person's note",
	"Targets/notes":        "a person's note",
	"Tables/notes":         "a person's note",
	"Goals/notes":          "a person's note",
	"Formulas/description": "a person's note, which Results shows beside the row",
	"Formulas/label":       "the row's label on Results: its words, not its figure",
	"Tables/shade":         "which cells of the data table are green: its colours, not its figures",
}

// together are the cells an edit of a column types with it on its row,
// for a column whose values alone are errors: a billing other than used
// hours needs its term (or its fallback).
var together = map[string]map[string]any{
	"Cloud/billing": {"term": 12},
	// A profile's shares add up to the hours per day typed beside it.
	"Deployments/profile": {"hoursday": 12, "days": 22, "hoursmonth": ""},
	// An attention layout and its figures come with the architecture they shape.
	"Models/attention":      {"layers": 61, "context": 8192, "sequences": 4, "latentdim": 512, "ropedim": 64},
	"Models/latentdim":      {"attention": "multi-head latent", "layers": 61, "context": 8192, "sequences": 4, "ropedim": 64},
	"Models/ropedim":        {"attention": "multi-head latent", "layers": 61, "context": 8192, "sequences": 4, "latentdim": 512},
	"Models/window":         {"attention": "sliding window", "layers": 32, "kvheads": 8, "headdim": 128, "context": 8192, "sequences": 4},
	"Models/windowedlayers": {"attention": "sliding window", "layers": 32, "kvheads": 8, "headdim": 128, "context": 8192, "sequences": 4, "window": 4096},
}

// editColumn types another value into one of the column's first rows,
// trying values until the workbook still reads without an error: the
// column's other values, a changed number, the values a person would type
// there.
func editColumn(t *testing.T, path string, data []byte, sheet schema.Sheet, col schema.Column) ([]byte, string, bool) {
	rows, err := openBytes(t, data).GetRows(sheet.Name, excelize.Options{RawCellValue: true})
	if err != nil {
		t.Fatal(err)
	}
	x := slices.IndexFunc(rows[0], col.Accepts)
	if x < 0 {
		t.Fatalf("%s has no header %q", sheet.Name, col.Header)
	}
	var seen []string
	for _, r := range rows[1:] {
		if x < len(r) && r[x] != "" && !slices.Contains(seen, r[x]) {
			seen = append(seen, r[x])
		}
	}
	// Rows that have a value in the column first: there it means something.
	order := make([]int, 0, len(rows))
	for row := 1; row < len(rows); row++ {
		if x < len(rows[row]) && rows[row][x] != "" {
			order = append(order, row)
		}
	}
	for row := 1; row < len(rows) && row <= 3; row++ {
		order = append(order, row)
	}
	for _, row := range order {
		current := ""
		if x < len(rows[row]) {
			current = rows[row][x]
		}
		cell, _ := excelize.CoordinatesToCellName(x+1, row+1)
		for _, v := range candidates(current, seen) {
			typed := fmt.Sprintf("%s = %v", cell, v)
			g := openBytes(t, data)
			if err := g.SetCellValue(sheet.Name, cell, v); err != nil {
				t.Fatal(err)
			}
			for key, w := range together[sheet.Name+"/"+col.Key] {
				with, _ := excelize.CoordinatesToCellName(sheet.At(key), row+1)
				if err := g.SetCellValue(sheet.Name, with, w); err != nil {
					t.Fatal(err)
				}
				typed += fmt.Sprintf(", %s = %v", with, w)
			}
			buf, err := g.WriteToBuffer()
			if err != nil {
				t.Fatal(err)
			}
			if _, err := ReadBytes(path, buf.Bytes()); err == nil {
				return buf.Bytes(), typed, true
			}
		}
	}
	return nil, sheet.Name, false
}

// candidates are the values to try typing over current: none the same.
func candidates(current string, seen []string) []any {
	var out []any
	cur, numeric := strconv.ParseFloat(current, 64)
	if numeric == nil {
		for _, v := range []float64{cur * 1.1, cur + 1, cur * 0.9, cur + 0.1} {
			if v != cur {
				out = append(out, v)
			}
		}
	}
	for _, s := range seen {
		if v, err := strconv.ParseFloat(s, 64); s != current && (err != nil || numeric != nil || v != cur) {
			out = append(out, s)
		}
	}
	for _, s := range []string{strings.TrimSpace(strings.Repeat("0.5 ", 24)), "uniform", "lognormal", "FP8", "BF16", "$", "%", "h", "2026-09-01", "EUR", "GBP", "p50", "multi-head latent"} {
		if s != current {
			out = append(out, s)
		}
	}
	out = append(out, current+" (edited)")
	for _, v := range []float64{1, 2, 100, 1000} {
		if numeric != nil || v != cur {
			out = append(out, v)
		}
	}
	return out
}

func factsOf(t *testing.T, path string, data []byte) []facts.Fact {
	t.Helper()
	b, err := ReadBytes(path, data)
	if err != nil {
		t.Fatal(err)
	}
	return facts.Of(b.Model)
}

// An API listed in euros is read in dollars: each price times FX's rate,
// the listed prices kept beside them.
func TestAnAPIInEurosIsReadInDollars(t *testing.T) {
	path := newPlan(t)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	data = withAnFXRate(t, withAnAPI(t, data))
	data = withCell(t, data, schema.APIs, "currency", 2, "eur")
	b, err := ReadBytes(path, data)
	if err != nil {
		t.Fatal(err)
	}
	a := b.Model.APIs[0]
	if a.Currency != "EUR" || a.Listed != [3]float64{0.6, 2.4, 0.3} {
		t.Errorf("listed %s %v, want EUR [0.6 2.4 0.3]", a.Currency, a.Listed)
	}
	for _, p := range []struct{ got, want float64 }{{a.Input, 0.6 * 1.17}, {a.Output, 2.4 * 1.17}, {a.Cached, 0.3 * 1.17}} {
		if p.got != p.want {
			t.Errorf("price %v, want %v", p.got, p.want)
		}
	}
	if a.RateAt.Where() != "FX!B2" {
		t.Errorf("rate at %s, want FX!B2", a.RateAt.Where())
	}
}

// withAnAPI adds an API, which the default workbook leaves out.
func withAnAPI(t *testing.T, data []byte) []byte {
	return withRow(t, data, schema.APIs, map[string]any{"provider": "Acme", "model": "Llama 3.1 70B", "input": 0.6, "output": 2.4,
		"cached": 0.3, "asof": "2026-10-10", "source": "acme.example/pricing"})
}

// withAnFXRate adds a rate for the euro, which the default workbook leaves
// out.
func withAnFXRate(t *testing.T, data []byte) []byte {
	return withRow(t, data, schema.FX, map[string]any{"currency": "EUR", "rate": 1.17, "asof": "2026-11-30", "source": "ECB reference rate"})
}

// withCell types v into sheet's column of key, in row.
func withCell(t *testing.T, data []byte, sheet schema.Sheet, key string, row int, v any) []byte {
	t.Helper()
	return withCells(t, data, sheet, row, map[string]any{key: v})
}

// withRow fills row 2 of a sheet the default workbook leaves empty (APIs,
// FX) with values by key.
func withRow(t *testing.T, data []byte, sheet schema.Sheet, values map[string]any) []byte {
	t.Helper()
	return withCells(t, data, sheet, 2, values)
}

// withBilledOffers adds to Cloud a one-year term and two spot offers of
// the H100 SXM, falling back to different offers, so that each billing
// column has a value that means something and another to change it to.
func withBilledOffers(t *testing.T, data []byte) []byte {
	t.Helper()
	rows, err := openBytes(t, data).GetRows(schema.Cloud.Name)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range []map[string]any{
		{"provider": "Lambda", "offer": "H100 1-year reserved", "billing": "all hours", "term": 12, "upfront": 1200, "extras": 20},
		{"provider": "RunPod", "offer": "H100 SXM, Spot", "billing": "spot", "interruption": 0.1, "fallback": "H100 SXM, Community", "extras": 5},
		{"provider": "Acme", "offer": "H100 SXM, Spot", "billing": "spot", "interruption": 0.2, "fallback": "H100 SXM, Secure"},
	} {
		r["gpu"], r["price"], r["asof"], r["source"] = "H100 SXM", 1.6, "2026-10-10", "test"
		data = withCells(t, data, schema.Cloud, len(rows)+1+i, r)
	}
	return data
}

// withMeasurements adds to Benchmarks three loads of the 70B on one H200
// and a point of the 8B on an H100, and gives the deployment of the 70B on
// one H200 (row 4) latency targets, so that each column of a benchmark and
// each target has a value that means something and another to change it to.
func withMeasurements(t *testing.T, data []byte) []byte {
	t.Helper()
	for i, p := range []map[string]any{
		{"concurrency": 8, "rate": 2, "tokens": 700, "total": 1400, "ttft99": 100, "tpot99": 20},
		{"concurrency": 16, "rate": 4, "tokens": 1250, "total": 2500, "ttft99": 180, "tpot99": 30},
		{"concurrency": 32, "rate": 8, "tokens": 2000, "total": 4000, "ttft99": 350, "tpot99": 45},
		{"gpu": "H100 SXM", "model": "Llama 3.1 8B", "precision": "BF16", "concurrency": 8, "tokens": 900},
	} {
		point := map[string]any{"gpu": "H200", "model": "Llama 3.1 70B", "precision": "FP8", "cards": 1,
			"ttft50": 40, "ttft90": 60, "tpot50": 10, "tpot90": 15, "itl50": 9, "itl90": 14, "itl99": 19,
			"source": "run.json", "asof": "2026-11-15"}
		maps.Copy(point, p)
		data = withCells(t, data, schema.Benchmarks, 2+i, point)
	}
	return withCells(t, data, schema.Deployments, 4, map[string]any{"ttfttarget": 250, "tpottarget": 40, "percentile": "p99"})
}

// withCells types values into sheet's row by column key, and checks that
// the workbook still reads without an error.
func withCells(t *testing.T, data []byte, sheet schema.Sheet, row int, values map[string]any) []byte {
	t.Helper()
	f := openBytes(t, data)
	for key, v := range values {
		cell, _ := excelize.CoordinatesToCellName(sheet.At(key), row)
		if err := f.SetCellValue(sheet.Name, cell, v); err != nil {
			t.Fatal(err)
		}
	}
	buf, err := f.WriteToBuffer()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ReadBytes("plan.xlsx", buf.Bytes()); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
