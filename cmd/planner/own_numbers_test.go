package main

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// A buyer's own numbers: their quote (412,000, outside the price guide's
// range), dearer power and rack, typed into the value cells only. The
// workbook evaluates, and its Results equal the cost model written out
// here; the sheets say what Monte Carlo and the tornado held.
func TestOwnQuoteEvaluatesAndIsRight(t *testing.T) {
	_, plan := freshPlan(t)
	var out, errs bytes.Buffer
	quote := map[string]float64{"capex": 412000, "electricity_price": 0.165, "rack_per_month": 1800}
	setInputs(t, plan, quote)
	errs.Reset()
	if code := run([]string{"eval", plan, "--samples", "2000"}, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	in := defaults()
	for k, v := range quote {
		in[k] = v
	}
	results := resultsRows(t, plan)
	cost := owned(in)
	for name, want := range map[string]float64{
		"capital_per_gpu_hour": 412000.0 / 8 / 26280,
		"power_per_gpu_hour":   700 * 8 * 1.3 / 1000 * 0.165 / 8,
		"rack_per_gpu_hour":    1800.0 / 8 / 730,
		"cost_per_gpu_hour":    cost,
		"cost_per_used_hour":   cost / 0.5,
		"node_cost_per_month":  cost * 8 * 730,
	} {
		if got := cellNumber(t, results[name], resultsBase); !near(got, want) {
			t.Errorf("%s: %v, want %v", name, got, want)
		}
	}
	// Break-even against each offer: the cost over its price.
	rows := readSheet(t, plan, "Results").rows
	priceRow := rowNamed(t, rows, 0, "offer_price")
	breakeven := rowNamed(t, rows, priceRow, "breakeven_utilization")
	for c := resultsBase; c < len(rows[priceRow]) && rows[priceRow][c] != ""; c++ {
		price := cellNumber(t, rows[priceRow], c)
		if got := cellNumber(t, rows[breakeven], c); !near(got, cost/price) {
			t.Errorf("break-even against $%v: %v, want %v", price, got, cost/price)
		}
	}
	for _, w := range []string{
		plan + ": Assumptions!B6: capex: the value 412000 lies outside the range 250000..320000, so Monte Carlo and the tornado hold it at 412000; to let it vary, widen low and high in Assumptions (D6, E6) to include 412000",
		plan + ": Assumptions!B12: rack_per_month: the value 1800 lies outside the range 750..1500, so Monte Carlo and the tornado hold it at 1800; to let it vary, widen low and high in Assumptions (D12, E12) to include 1800",
	} {
		if !strings.Contains(errs.String(), "warning: "+w+"\n") {
			t.Errorf("no warning\n%s\nin\n%s", w, errs.String())
		}
	}
	// The sheets say what was held, and the tornado has no bar for it.
	for _, sheet := range []string{"MonteCarlo", "Sensitivity"} {
		held := 0
		for _, r := range readSheet(t, plan, sheet).rows {
			if len(r) > 2 && (r[0] == "capex" || r[0] == "rack_per_month") {
				if !strings.Contains(strings.Join(r, "|"), "held") {
					t.Errorf("%s: %s is not marked held: %v", sheet, r[0], r)
				}
				held++
			}
		}
		if held == 0 {
			t.Errorf("%s names no held input", sheet)
		}
	}
	// The scenarios that restate capex's range follow the Assumptions.
	for name, want := range map[string]float64{"H100 low": 250000, "H100 mid": 412000, "H100 high": 320000} {
		col := columnOf(t, rows, "per_gpu_capex", name)
		if got := cellNumber(t, results["per_gpu_capex"], col); got != want/8 {
			t.Errorf("%s: per_gpu_capex %v, want %v", name, got, want/8)
		}
	}

	// The advice, followed literally: widen the range to include the quote.
	setNumber(t, plan, "Assumptions", "E6", 450000)
	setNumber(t, plan, "Assumptions", "E12", 2000)
	errs.Reset()
	if code := run([]string{"eval", plan, "--samples", "2000"}, &out, &errs); code != 0 || strings.Contains(errs.String(), "warning") {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	mc := sheetRows(t, plan, "MonteCarlo", 3)
	if r, ok := mc["per_gpu_capex | $ | base"]; !ok || cellNumber(t, r, 4) >= cellNumber(t, r, 6) {
		t.Errorf("capex does not vary with its range widened: %v", r)
	}
	if got := resultsRows(t, plan)["per_gpu_capex"]; cellNumber(t, got, columnOf(t, rows, "per_gpu_capex", "H100 high")) != 450000.0/8 {
		t.Errorf("H100 high does not follow the widened range: %v", got)
	}
	// The GPU decides which offers are compared and the watts: Results
	// shows it as a value, which eval --check finds stale once changed, not
	// as a link that would follow while the numbers beside it could not.
	f, err := excelize.OpenFile(plan)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows = readSheet(t, plan, "Results").rows
	for name, live := range map[string]bool{"gpu": false, "model": false, "capex": true} {
		r := len(rows) - 1
		for r >= 0 && (len(rows[r]) < 2 || rows[r][1] != name) {
			r--
		}
		formula, _ := f.GetCellFormula("Results", fmt.Sprintf("D%d", r+1))
		if (formula != "") != live {
			t.Errorf("the inputs section's %s is =%q", name, formula)
		}
	}
}

// columnOf is the 0-based column of scenario name in the header row above
// the row of Results named name.
func columnOf(t *testing.T, rows [][]string, name, scenario string) int {
	t.Helper()
	at := rowNamed(t, rows, 0, name)
	for r := at - 1; r >= 0; r-- {
		for c, v := range rows[r] {
			if v == scenario && c >= resultsBase {
				return c
			}
		}
	}
	t.Fatalf("no column for scenario %s above %s", scenario, name)
	return 0
}

// Results knows a row by its label (column A) and the name formulas use
// (B); the unit is in C and the base scenario's value in D.
const resultsBase = 3

// resultsRows are the rows of Results by the name in column B.
func resultsRows(t *testing.T, path string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, r := range readSheet(t, path, "Results").rows {
		if len(r) > resultsBase {
			out[r[1]] = r
		}
	}
	return out
}

// rowNamed is the index of the first row of Results at or after from
// whose name (column B) is name.
func rowNamed(t *testing.T, rows [][]string, from int, name string) int {
	t.Helper()
	for i := from; i < len(rows); i++ {
		if len(rows[i]) > 1 && rows[i][1] == name {
			return i
		}
	}
	t.Fatalf("Results has no row named %q", name)
	return 0
}

// Switching the node's GPU moves its power by the catalog's watts, for a
// catalog GPU and one added at the bottom of the GPUs sheet.
func TestGPUWattsFollowTheCatalog(t *testing.T) {
	_, plan := freshPlan(t)
	var out, errs bytes.Buffer
	editBook(t, plan, func(f *excelize.File) error {
		for cell, v := range map[string]any{"A8": "MI300X", "B8": 192.0, "C8": 750.0} {
			if err := f.SetCellValue("GPUs", cell, v); err != nil {
				return err
			}
		}
		// A scenario added to the right of the others.
		for cell, v := range map[string]any{"I1": "MI300X node", "I3": "MI300X", "I4": 300000.0} {
			if err := f.SetCellValue("Scenarios", cell, v); err != nil {
				return err
			}
		}
		return nil
	})
	kw := func(watts float64) float64 { return watts * 8 * 1.3 / 1000 }
	for _, c := range []struct {
		args     []string
		scenario string
		watts    float64
	}{
		{[]string{"eval", plan, "--samples", "100", "--set", "gpu=B200", "--format", "json", "--scenario", "base"}, "base", 1000},
		{[]string{"eval", plan, "--samples", "100", "--format", "json", "--scenario", "MI300X node"}, "MI300X node", 750},
		{[]string{"eval", plan, "--samples", "100", "--format", "json", "--scenario", "B200 node"}, "B200 node", 1000},
		// --set gpu_watts is the base GPU's: the MI300X node keeps its own.
		{[]string{"eval", plan, "--samples", "100", "--set", "gpu_watts=900", "--format", "json", "--scenario", "base"}, "base", 900},
		{[]string{"eval", plan, "--samples", "100", "--set", "gpu_watts=900", "--format", "json", "--scenario", "MI300X node"}, "MI300X node", 750},
	} {
		out.Reset()
		errs.Reset()
		if code := run(c.args, &out, &errs); code != 0 {
			t.Fatalf("%v: %s", c.args, errs.String())
		}
		want := fmt.Sprintf(`"node_kw": %v,`, kw(c.watts))
		if !strings.Contains(out.String(), want) {
			t.Errorf("%s: no %s in\n%.600s", c.scenario, want, out.String())
		}
	}
	// No MI300X offer: said where its verdict would be.
	rows := readSheet(t, plan, "Results").rows
	found := false
	for _, r := range rows {
		found = found || strings.Contains(strings.Join(r, "|"), "MI300X node||no MI300X offer in Cloud to compare with: add one")
	}
	if !found {
		t.Error("the verdicts in words do not say the MI300X node has nothing to compare")
	}
}

// init gives the cells that name a GPU, a model or a precision drop-downs
// of the catalogs, rows and scenarios added later included.
func TestInitGivesCatalogDropDowns(t *testing.T) {
	plan := filepath.Join(t.TempDir(), "plan.xlsx")
	var out, errs bytes.Buffer
	if code := run([]string{"init", plan}, &out, &errs); code != 0 {
		t.Fatal(errs.String())
	}
	f, err := excelize.OpenFile(plan)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lists := map[string]string{}
	for _, sheet := range []string{"Assumptions", "Scenarios", "Cloud", "Deployments"} {
		dvs, err := f.GetDataValidations(sheet)
		if err != nil {
			t.Fatal(err)
		}
		for _, dv := range dvs {
			if dv.Type == "list" {
				lists[sheet+"!"+dv.Sqref] = dv.Formula1
			}
		}
	}
	precisions := `"BF16,FP16,FP32,FP4,FP8,INT4,INT8"`
	for ref, want := range map[string]string{
		"Assumptions!B2": "GPUs!$A$2:$A$200", "Assumptions!B3": "Models!$A$2:$A$200", "Assumptions!B4": precisions,
		"Scenarios!B3:AB3": "GPUs!$A$2:$A$200", "Cloud!C2:C110": "GPUs!$A$2:$A$200",
		"Deployments!B2:B211": "Models!$A$2:$A$200", "Deployments!C2:C211": precisions, "Deployments!D2:D211": "GPUs!$A$2:$A$200",
	} {
		if got := lists[ref]; got != want {
			t.Errorf("%s: list %q, want %q (lists: %v)", ref, got, want, lists)
		}
	}
}

// Inputs that refer to other cells are read as a spreadsheet reads them:
// a formula filled across cells from each cell's own reference (excelize
// would give the first cell's), a cell under a merged range as empty, a
// defined name as its cell, a reference to an empty cell as empty, said
// where, and one into planner's own sheets refused.
func TestReferencesAreReadAsASpreadsheetWould(t *testing.T) {
	_, plan := freshPlan(t)
	var out, errs bytes.Buffer
	// H100 mid and high as Excel stores =Assumptions!D6 filled right from
	// C4 to D4: D4 means Assumptions!E6, and Excel saved 320000 with it.
	editPart(t, plan, "xl/worksheets/sheet2.xml", func(xml string) string {
		xml = strings.Replace(xml, `<c r="C4" s="6"><f>Assumptions!$B$6</f><v>285000</v></c>`,
			`<c r="C4" s="6"><f t="shared" ref="C4:D4" si="0">Assumptions!D6</f><v>250000</v></c>`, 1)
		return strings.Replace(xml, `<c r="D4" s="6"><f>Assumptions!$E$6</f><v>320000</v></c>`,
			`<c r="D4" s="6"><f t="shared" si="0"/><v>320000</v></c>`, 1)
	})
	editBook(t, plan, func(f *excelize.File) error {
		// The H200 node's capex from a cell under a merged range, the B200
		// node's from a defined name.
		for _, err := range []error{f.SetCellValue("Assumptions", "H6", 330000.0), f.MergeCell("Assumptions", "H6", "I6"),
			f.SetCellFormula("Scenarios", "F4", "Assumptions!I6"), f.SetCellFormula("Scenarios", "G4", "capex")} {
			if err != nil {
				return err
			}
		}
		return nil
	})
	errs.Reset()
	if code := run([]string{"eval", plan, "--samples", "100"}, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	want := plan + ": Scenarios!F4: H200 node: capex refers to Assumptions!I6, which is empty, so the scenario keeps capex's value from Assumptions; type a number in Assumptions!I6, or in this cell"
	if !strings.Contains(errs.String(), "warning: "+want+"\n") {
		t.Errorf("no warning %s in\n%s", want, errs.String())
	}
	rows := readSheet(t, plan, "Results").rows
	capex := resultsRows(t, plan)["per_gpu_capex"]
	for scenario, want := range map[string]float64{"H100 mid": 250000, "H100 high": 320000, "H200 node": 285000, "B200 node": 285000} {
		if got := cellNumber(t, capex, columnOf(t, rows, "per_gpu_capex", scenario)); got != want/8 {
			t.Errorf("%s: per_gpu_capex %v, want %v", scenario, got, want/8)
		}
	}
	// A required value that refers to an empty cell: said, with that cell.
	editBook(t, plan, func(f *excelize.File) error { return f.SetCellFormula("Assumptions", "B6", "Assumptions!H30") })
	errs.Reset()
	if code := run([]string{"eval", plan, "--samples", "100"}, &out, &errs); code != 1 ||
		!strings.Contains(errs.String(), plan+": Assumptions!B6: capex: the value refers to Assumptions!H30, which is empty; type a number such as 285000 or 0.35 (or 35%) there, or here\n") {
		t.Errorf("exit %d: %s", code, errs.String())
	}
	// Into a sheet planner rewrites: refused.
	editBook(t, plan, func(f *excelize.File) error { return f.SetCellFormula("Assumptions", "B6", "Results!$C$5") })
	errs.Reset()
	if code := run([]string{"eval", plan, "--samples", "100"}, &out, &errs); code != 1 ||
		!strings.Contains(errs.String(), plan+": Assumptions!B6: capex: refers to Results!C5, a sheet planner rewrites on every eval, so the input would change with every run; type the number, or refer to a sheet of yours\n") {
		t.Errorf("exit %d: %s", code, errs.String())
	}
}
