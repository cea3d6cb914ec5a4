package main

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"planner/domain"
	"planner/engine/enginetest"
)

// evalWorkbook runs planner init and planner eval (with args) on a fresh
// workbook and returns the evaluated workbook's path.
func evalWorkbook(t *testing.T, args ...string) string {
	t.Helper()
	dir := t.TempDir()
	plan := filepath.Join(dir, "plan.xlsx")
	var out, errs bytes.Buffer
	if code := run([]string{"init", plan}, &out, &errs); code != 0 {
		t.Fatalf("init: %d %s", code, errs.String())
	}
	target := plan
	if len(args) > 0 {
		target = filepath.Join(dir, "what-if.xlsx")
		args = append(args, "-o", target)
	}
	if code := run(append([]string{"eval", plan}, args...), &out, &errs); code != 0 {
		t.Fatalf("eval %v: %d %s", args, code, errs.String())
	}
	return target
}

// named reads the number a workbook-scoped defined name points at, as a
// spreadsheet application would, and checks that it is stored as a number
// with a number format.
func named(t *testing.T, path, name string) float64 {
	t.Helper()
	f, err := excelize.OpenFile(path, excelize.Options{RawCellValue: true})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, dn := range f.GetDefinedName() {
		if dn.Name != name {
			continue
		}
		sheet, ref, _ := strings.Cut(dn.RefersTo, "!")
		cell := strings.ReplaceAll(ref, "$", "")
		raw, err := f.GetCellValue(sheet, cell)
		if err != nil {
			t.Fatal(err)
		}
		v, err := strconv.ParseFloat(raw, 64)
		if err != nil {
			t.Fatalf("%s (%s) holds %q, not a number", name, dn.RefersTo, raw)
		}
		if typ, _ := f.GetCellType(sheet, cell); typ != excelize.CellTypeUnset && typ != excelize.CellTypeNumber {
			t.Errorf("%s (%s) is stored as type %v, not as a number", name, dn.RefersTo, typ)
		}
		return v
	}
	t.Fatalf("%s: no defined name %s", path, name)
	return 0
}

// namedFor reads the figure's defined name: the formula's own, or for one
// against an offer, the formula's followed by the slug of a label that
// starts with the figure's (the workbook's AWS offer names its region too).
func namedFor(t *testing.T, path string, f enginetest.Figure) float64 {
	t.Helper()
	if f.Offer == "" {
		return named(t, path, f.Formula)
	}
	book, err := excelize.OpenFile(path, excelize.Options{RawCellValue: true})
	if err != nil {
		t.Fatal(err)
	}
	defer book.Close()
	prefix := f.Formula + "_" + domain.Slug(f.Offer)
	for _, dn := range book.GetDefinedName() {
		if strings.HasPrefix(dn.Name, prefix) {
			return named(t, path, dn.Name)
		}
	}
	t.Fatalf("%s: no defined name starting %s", path, prefix)
	return 0
}

// Every figure of SPEC.md §2, §3 and §4 (the article's cases, which the
// engine's tests check too), through the whole path: init writes the
// workbook, eval writes Results with the figure's inputs set, and the
// figures are read back from the file by their defined names.
func TestSpecFiguresThroughTheWorkbook(t *testing.T) {
	text, err := os.ReadFile("../../testdata/article/figures.tsv")
	if err != nil {
		t.Fatal(err)
	}
	figures, err := enginetest.Figures(string(text))
	if err != nil || len(figures) == 0 {
		t.Fatalf("the article's figures: %v, %d read", err, len(figures))
	}
	books := map[string]string{} // per set of inputs, the workbook evaluated with them
	for _, f := range figures {
		key := strings.Join(f.Set, ";")
		if _, ok := books[key]; !ok {
			var args []string
			for _, s := range f.Set {
				args = append(args, "--set", s)
			}
			books[key] = evalWorkbook(t, args...)
		}
		if got := namedFor(t, books[key], f); !f.Holds(got) {
			t.Errorf("%s = %v, SPEC says %v", f, got, f.Want)
		}
	}
}

// sheetRows reads a sheet of the evaluated workbook as stored values, keyed
// by the text of its first columns.
// headerAt is the column (from 0) of header's cell that reads name.
func headerAt(t *testing.T, header []string, name string) int {
	t.Helper()
	at := slices.Index(header, name)
	if at < 0 {
		t.Fatalf("no column %q among %q", name, header)
	}
	return at
}

func sheetRows(t *testing.T, path, sheet string, keyCols int) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, r := range readSheet(t, path, sheet).rows {
		if len(r) > keyCols {
			out[strings.Join(r[:keyCols], " | ")] = r
		}
	}
	return out
}

func cellNumber(t *testing.T, row []string, col int) float64 {
	t.Helper()
	if col >= len(row) {
		t.Fatalf("row %v has no column %d", row, col+1)
	}
	v, err := strconv.ParseFloat(row[col], 64)
	if err != nil {
		t.Fatalf("row %v: column %d holds %q, not a number", row, col+1, row[col])
	}
	return v
}

// Every sizing case of SPEC.md §1, read back from the Sizing sheet: the
// minimum rounded to tensor parallelism (column F) and the usual count (G).
func TestSpecSizingThroughTheWorkbook(t *testing.T) {
	rows := sheetRows(t, evalWorkbook(t), "Sizing", 3)
	tests := []struct {
		model, precision, gpu string
		min, usual            float64
		fits                  string
	}{
		{"Llama 3.1 8B", "BF16", "RTX 5090", 1, 1, "yes"},
		{"Llama 3.1 8B", "BF16", "L40S", 1, 1, "yes"},
		{"32B dense", "BF16", "H100 SXM", 1, 2, "yes"},
		{"32B dense", "BF16", "H200", 1, 1, "yes"},
		{"32B dense", "BF16", "B200", 1, 1, "yes"},
		{"32B dense", "BF16", "RTX 5090", 2, 4, "yes"},
		{"Llama 3.1 70B", "FP8", "H100 SXM", 1, 2, "yes"},
		{"Llama 3.1 70B, 32k context × 32 sequences", "FP8", "H100 SXM", 1, 4, "yes"},
		{"Llama 3.1 405B", "FP8", "H100 SXM", 8, 8, "yes"},
		{"DeepSeek-R1 (671B MoE)", "FP8", "H100 SXM", 16, 16, "no"},
		{"DeepSeek-R1 (671B MoE)", "FP8", "H200", 8, 8, "yes"},
	}
	for _, tt := range tests {
		row, ok := rows[tt.model+" | "+tt.precision+" | "+tt.gpu]
		if !ok {
			t.Errorf("no Sizing row for %s on %s", tt.model, tt.gpu)
			continue
		}
		if min, usual := cellNumber(t, row, 5), cellNumber(t, row, 6); min != tt.min || usual != tt.usual || row[9] != tt.fits {
			t.Errorf("%s on %s: min %v, usual %v, fits %s; SPEC says %v, %v, %s", tt.model, tt.gpu, min, usual, row[9], tt.min, tt.usual, tt.fits)
		}
	}
}

// The deployment cases of SPEC.md §5 and the monthly figures of §2, read back
// from the Deployment costs sheet: cards (D), rent per replica-hour (I) and
// per month (J).
func TestSpecDeploymentsThroughTheWorkbook(t *testing.T) {
	rows := sheetRows(t, evalWorkbook(t), "Deployment costs", 1)
	tests := []struct {
		name            string
		cards, perHour  float64
		month, rounding float64
	}{
		{"internal 8B assistant", 1, 0.69, 121, 1},
		{"public 70B FP8 service, workdays", 2, 5.38, 1420, 10},
		{"70B FP8 on one H200", 1, 3.59, 0, 0},
		{"70B, longer context or more concurrency", 4, 10.76, 0, 0},
		{"405B FP8 on 8×H100", 8, 31.92, 23300, 100},
		{"671B MoE on 8×H200", 8, 28.72, 0, 0},
		{"one H100, all month", 1, 2.69, 1964, 1},
		{"one H100, workdays", 1, 2.69, 710, 1},
		{"eight H100s all month, Community", 8, 21.52, 15710, 10},
		{"eight H100s all month, Lambda", 8, 31.92, 23300, 100},
		{"eight H100s all month, AWS", 8, 47.76, 34865, 5},
	}
	for _, tt := range tests {
		row, ok := rows[tt.name]
		if !ok {
			t.Errorf("no Deployment costs row %q", tt.name)
			continue
		}
		cards, perHour, month := cellNumber(t, row, 3), cellNumber(t, row, 8), cellNumber(t, row, 9)
		if cards != tt.cards || math.Round(perHour*100)/100 != tt.perHour {
			t.Errorf("%s: %v cards at $%v an hour; SPEC says %v cards, $%v", tt.name, cards, perHour, tt.cards, tt.perHour)
		}
		if tt.rounding > 0 && math.Round(month/tt.rounding)*tt.rounding != tt.month {
			t.Errorf("%s: $%v a month; SPEC says ≈ $%v", tt.name, month, tt.month)
		}
	}
	// Two busy cards of eight for 264 h keep the node 9 % busy: rent.
	row := rows["public 70B FP8 service, workdays"]
	if busy := cellNumber(t, row, 12); math.Abs(busy-2*264.0/(8*730)) > 1e-9 || row[15] != "rent" {
		t.Errorf("node busy %v, verdict %s", busy, row[15])
	}
	words := row[headerAt(t, rows["deployment"], "in words")]
	if !strings.HasPrefix(words, "rent: $1,420 a month rented from RunPod H100 SXM, Community against $9,554 for owning 1 node of 8×H100 SXM") {
		t.Errorf("in words: %s", words)
	}
}

// The cheapest column compares owning whole nodes, as the verdict, and its
// header says so: the 70B on 4×H100 all month (730 h) costs $0.53 a
// million as its cards' share of a node, less than $0.87 rented, yet
// alone it pays for the whole node, $9,554.39 against $7,854.80 rented.
func TestCheapestComparesWholeNodes(t *testing.T) {
	_, plan := freshPlan(t)
	var out, errs bytes.Buffer
	editBook(t, plan, func(f *excelize.File) error {
		for cell, v := range map[string]any{"G5": nil, "H5": nil, "I5": 730, "P5": nil} {
			if err := f.SetCellValue("Deployments", cell, v); err != nil {
				return err
			}
		}
		return nil
	})
	out.Reset()
	if code := run([]string{"eval", plan, "--samples", "1000"}, &out, &errs); code != 0 {
		t.Fatal(errs.String())
	}
	rows := sheetRows(t, plan, "Deployment costs", 1)
	header := rows["deployment"]
	cheapest := headerAt(t, header, "cheapest: whole nodes, rent or API")
	row := rows["70B, longer context or more concurrency"]
	millions := 3438 * 3600 * 730 / 1e6
	rent, node := 4*2.69*730, 285000.0/36+0.7*8*1.3*730*0.12+1000 // the default node, a month
	for head, want := range map[string]float64{"rent per month": rent, "own per month": node, "rent per million tokens": rent / millions,
		"own per million tokens: the cards' share": 4 * node / 8 / millions} {
		if got := cellNumber(t, row, headerAt(t, header, head)); math.Abs(got-want) > 1e-6*want {
			t.Errorf("%s: %v, want %v", head, got, want)
		}
	}
	if math.Round(rent/millions*100) != 87 || math.Round(4*node/8/millions*100) != 53 || row[cheapest] != "rent" {
		t.Errorf("rent %v and own %v a million: cheapest %q, want rent", rent/millions, 4*node/8/millions, row[cheapest])
	}
	want := "\nTokens (a million of them rented, owned as the cards' share of their nodes, and from the API; the cheapest month owns whole nodes)\n\n" +
		"  deployment                                tokens/month  rent/M  own/M  API/M  API/month  cheapest month\n" +
		"  70B, longer context or more concurrency  9,035,064,000   $0.87  $0.53                    rent\n"
	if !strings.Contains(out.String(), want) {
		t.Errorf("eval printed\n%s\nwant\n%s", out.String(), want)
	}
}

// The Fleet sheet's own-all total says that it rents the GPUs no scenario
// owns, and its provenance that the node costs are eval's values: the
// default fleet owns 5 H100 SXM nodes and 2 H200 nodes and rents the one
// RTX 5090 for 1 × $0.69 × 8 h × 22 days.
func TestFleetTotalSaysWhatItRents(t *testing.T) {
	plan := evalWorkbook(t)
	f, err := excelize.OpenFile(plan)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := f.GetRows("Fleet", excelize.Options{RawCellValue: true})
	if err != nil {
		t.Fatal(err)
	}
	if note := rows[1][0]; !strings.Contains(note, " · each replica stays within one node, a larger one takes whole nodes; the cards, the rents and the node costs "+
		"follow Deployment costs and Results live, the cheapest mix and how busy the nodes are are planner eval's: the line below says when an input changed since") {
		t.Errorf("provenance %q", note)
	}
	total := -1
	for i, r := range rows {
		if len(r) > 0 && strings.HasPrefix(r[0], "every GPU") {
			total = i
		}
	}
	if total < 0 {
		t.Fatal("no every GPU row")
	}
	r := rows[total]
	if r[0] != "every GPU; own all rents RTX 5090, which no scenario owns" {
		t.Errorf("total's label %q", r[0])
	}
	own, _ := strconv.ParseFloat(r[7], 64)
	power := 0.7 * 8 * 1.3 * 730 * 0.12 // 700 W a card, PUE 1.3, $0.12 a kWh
	h100, h200 := 285000.0/36+power+1000, 8*39375.0/36+power+1000
	if want := 5*h100 + 2*h200 + 0.69*8*22; math.Abs(own-want) > 0.01 {
		t.Errorf("own all %v, want %v", own, want)
	}
}
