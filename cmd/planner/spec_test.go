package main

import (
	"bytes"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
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

type figure struct {
	name string
	unit float64 // SPEC's rounding: 0.01 for cents, 1 for dollars, 0.01 for whole percent of a share
	want float64
}

func checkFigures(t *testing.T, what, path string, figures []figure) {
	t.Helper()
	for _, f := range figures {
		got := named(t, path, f.name)
		if r := math.Round(got/f.unit) * f.unit; math.Abs(r-f.want) > f.unit/1000 {
			t.Errorf("%s: %s = %v, rounds to %v, SPEC says %v", what, f.name, got, r, f.want)
		}
	}
}

const (
	community = "_runpod_h100_sxm_community"
	lambda    = "_lambda_h100_8_gpu_plan"
	aws       = "_aws_p5_48xlarge_capacity_block_us_east_n_virginia"
	rtx5090   = "_runpod_rtx_5090_community"
)

// Every figure of SPEC.md §2, §3 and §4, through the whole path: init writes
// the workbook, eval writes Results, and the figures are read back from the
// file by their defined names.
func TestSpecFiguresThroughTheWorkbook(t *testing.T) {
	mid := evalWorkbook(t)
	checkFigures(t, "§3 midpoint", mid, []figure{
		{"capital_per_gpu_hour", 0.01, 1.36},
		{"power_per_gpu_hour", 0.01, 0.11},
		{"rack_per_gpu_hour", 0.01, 0.17},
		{"cost_per_gpu_hour", 0.01, 1.64},
		{"power_per_month", 1, 638},
		{"per_gpu_capex", 1, 35625},
		{"amortization_hours", 1, 26280},
		{"node_kw", 0.01, 7.28},
	})
	checkFigures(t, "§4 break-even at the midpoint", mid, []figure{
		{"breakeven_utilization" + community, 0.01, 0.61},
		{"breakeven_utilization" + lambda, 0.01, 0.41},
		{"breakeven_utilization" + aws, 0.01, 0.27},
	})
	checkFigures(t, "§2 a month of cloud GPUs", mid, []figure{
		{"rent_per_gpu_month" + community, 1, 1964},
		{"rent_node_per_month" + community, 10, 15710},
		{"rent_node_per_month" + lambda, 100, 23300},
		{"rent_node_per_month" + aws, 5, 34865},
	})
	checkFigures(t, "§3 at $250,000", evalWorkbook(t, "--set", "capex=250000"), []figure{
		{"capital_per_gpu_hour", 0.01, 1.19}, {"cost_per_gpu_hour", 0.01, 1.47}, {"breakeven_utilization" + community, 0.01, 0.55},
	})
	checkFigures(t, "§3 at $320,000", evalWorkbook(t, "--set", "capex=320000"), []figure{
		{"capital_per_gpu_hour", 0.01, 1.52}, {"cost_per_gpu_hour", 0.01, 1.80}, {"breakeven_utilization" + community, 0.01, 0.67},
	})
	checkFigures(t, "§3 30 % residual", evalWorkbook(t, "--set", "residual=30%"), []figure{
		{"capital_per_gpu_hour", 0.01, 0.95}, {"cost_per_gpu_hour", 0.01, 1.23}, {"breakeven_utilization" + community, 0.01, 0.46},
	})
	checkFigures(t, "§2 one H100, 12 h × 22 workdays", evalWorkbook(t, "--set", "gpus=1", "--set", "utilization=12*22/730"), []figure{
		{"rent_used_per_month" + community, 1, 710},
	})
	checkFigures(t, "§2 70B FP8 on 2×H100, 264 h", evalWorkbook(t, "--set", "gpus=2", "--set", "utilization=264/730"), []figure{
		{"rent_used_per_month" + community, 10, 1420},
	})
	// The article gives no RTX 5090 watts, nor does the catalog: renting it
	// needs none, owning it does, so the what-if gives them (575 W).
	checkFigures(t, "§2 RTX 5090, 8 h × 22 days", evalWorkbook(t, "--set", "gpu=RTX 5090", "--set", "gpu_watts=575", "--set", "gpus=1", "--set", "utilization=8*22/730"), []figure{
		{"rent_used_per_month" + rtx5090, 1, 121},
	})
}

// sheetRows reads a sheet of the evaluated workbook as stored values, keyed
// by the text of its first columns.
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
	if !strings.HasPrefix(row[16], "rent: $1,420 a month rented from RunPod H100 SXM, Community against $9,554 for owning 1 node of 8×H100 SXM") {
		t.Errorf("in words: %s", row[16])
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
	if h := rows["deployment"]; len(h) < 25 || h[20] != "own per million tokens: the cards' share" || h[24] != "cheapest: whole nodes, rent or API" {
		t.Errorf("headers %q", h)
	}
	row := rows["70B, longer context or more concurrency"]
	millions := 3438 * 3600 * 730 / 1e6
	rent, node := 4*2.69*730, 285000.0/36+0.7*8*1.3*730*0.12+1000 // the default node, a month
	for col, want := range map[int]float64{9: rent, 13: node, 19: rent / millions, 20: 4 * node / 8 / millions} {
		if got := cellNumber(t, row, col); math.Abs(got-want) > 1e-6*want {
			t.Errorf("column %d: %v, want %v", col+1, got, want)
		}
	}
	if math.Round(rent/millions*100) != 87 || math.Round(4*node/8/millions*100) != 53 || row[24] != "rent" {
		t.Errorf("rent %v and own %v a million: cheapest %q, want rent", rent/millions, 4*node/8/millions, row[24])
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
	if note := rows[1][0]; !strings.Contains(note, " · each replica stays within one node, a larger one takes whole nodes; the packing, the node costs "+
		"(each owning scenario's node_cost_per_month in Results, from Assumptions) and the cheapest mix are values planner eval wrote: run it after changing Deployments or the inputs") {
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
