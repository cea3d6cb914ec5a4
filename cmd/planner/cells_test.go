package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// evalPlan runs eval on the workbook as a user would, with few samples,
// and returns its exit status and standard error.
func evalPlan(t *testing.T, plan string, args ...string) (int, string) {
	t.Helper()
	var out, errs bytes.Buffer
	code := run(append([]string{"eval", plan, "--samples", "100"}, args...), &out, &errs)
	return code, errs.String()
}

// wantLines fails unless every line is one of stderr's, whole.
func wantLines(t *testing.T, stderr string, lines ...string) {
	t.Helper()
	for _, l := range lines {
		if !strings.Contains("\n"+stderr, "\n"+l+"\n") {
			t.Errorf("no line\n%s\nin\n%s", l, stderr)
		}
	}
}

// setCells edits cells as a person would: a float64 is typed as a number,
// a string starting with = as a formula (whose saved value stays what the
// cell held), any other string as text.
func setCells(t *testing.T, plan string, cells map[string]any) {
	t.Helper()
	editBook(t, plan, func(f *excelize.File) error {
		for ref, v := range cells {
			sheet, cell, _ := strings.Cut(ref, "!")
			idx, err := f.GetSheetIndex(sheet)
			if err == nil && idx < 0 {
				_, err = f.NewSheet(sheet)
			}
			if err != nil {
				return err
			}
			switch v := v.(type) {
			case float64:
				err = f.SetCellFloat(sheet, cell, v, -1, 64)
			case string:
				if formula, ok := strings.CutPrefix(v, "="); ok {
					err = f.SetCellFormula(sheet, cell, formula)
				} else {
					err = f.SetCellStr(sheet, cell, v)
				}
			default:
				err = fmt.Errorf("%s: cannot type %v", ref, v)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// scenarioCapex is the capex Results shows for a scenario.
func scenarioCapex(t *testing.T, plan, scenario string) float64 {
	t.Helper()
	rows := readSheet(t, plan, "Results").rows
	return 8 * cellNumber(t, resultsRows(t, plan)["per_gpu_capex"], columnOf(t, rows, "per_gpu_capex", scenario))
}

// A chain of references either ends at a cell that holds a value, which is
// read, or is refused at the cell it starts from: a circle (from any input
// sheet, through defined names and the user's own sheets) names its cells
// in order, and a chain longer than planner follows names where it
// stopped. The advice, followed, evaluates.
func TestCirclesOfCellsAreRefused(t *testing.T) {
	_, plan := freshPlan(t)
	// capex and gpus refer to each other; H100 mid's capex to capex.
	setCells(t, plan, map[string]any{"Assumptions!B6": "=B7", "Assumptions!B7": "=B6"})
	code, stderr := evalPlan(t, plan)
	if code != 1 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	wantLines(t, stderr,
		plan+": Assumptions!B6: capex: lies on a circle of references, which no spreadsheet can compute: Assumptions!B6 -> Assumptions!B7 -> Assumptions!B6; type the number here in place of the formula",
		plan+": Assumptions!B7: gpus: lies on a circle of references, which no spreadsheet can compute: Assumptions!B7 -> Assumptions!B6 -> Assumptions!B7; type the number here in place of the formula",
		plan+": Scenarios!C4: capex: leads into a circle of references, which no spreadsheet can compute: Assumptions!B6 -> Assumptions!B7 -> Assumptions!B6; type the number here, or in one of those cells in place of its formula")
	setCells(t, plan, map[string]any{"Assumptions!B6": 285000.0, "Assumptions!B7": 8.0})
	if code, stderr := evalPlan(t, plan); code != 0 {
		t.Fatalf("after typing the numbers: exit %d: %s", code, stderr)
	}
	if got := scenarioCapex(t, plan, "H100 mid"); got != 285000 {
		t.Errorf("H100 mid's capex is %v, want 285000", got)
	}

	// A circle on a sheet of the user's, reached through a defined name,
	// and cells that refer to themselves on other input sheets.
	setCells(t, plan, map[string]any{"Quotes!A1": "=Quotes!A2", "Quotes!A2": "=quote", "Scenarios!G4": "=quote",
		"Cloud!D2": "=D2", "GPUs!C2": "=GPUs!$C$2"})
	editBook(t, plan, func(f *excelize.File) error {
		return f.SetDefinedName(&excelize.DefinedName{Name: "quote", RefersTo: "Quotes!$A$1"})
	})
	code, stderr = evalPlan(t, plan)
	if code != 1 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	wantLines(t, stderr,
		plan+": Scenarios!G4: capex: leads into a circle of references, which no spreadsheet can compute: Quotes!A1 -> Quotes!A2 -> Quotes!A1; type the number here, or in one of those cells in place of its formula",
		plan+": Cloud!D2: RunPod H100 SXM, Community: lies on a circle of references, which no spreadsheet can compute: Cloud!D2 -> Cloud!D2; type the number here in place of the formula",
		plan+": GPUs!C2: H100 SXM: lies on a circle of references, which no spreadsheet can compute: GPUs!C2 -> GPUs!C2; type the number here in place of the formula")
	setCells(t, plan, map[string]any{"Quotes!A1": 450000.0, "Cloud!D2": 2.69, "GPUs!C2": 700.0})
	if code, stderr := evalPlan(t, plan); code != 0 {
		t.Fatalf("after typing the numbers: exit %d: %s", code, stderr)
	}
	if got := scenarioCapex(t, plan, "B200 node"); got != 450000 {
		t.Errorf("B200 node's capex is %v, want 450000", got)
	}
}

// A chain as long as planner follows is read at its end; one cell longer,
// it is refused at its start, not read at the cell where planner stopped.
func TestLongChainsOfCells(t *testing.T) {
	_, plan := freshPlan(t)
	chain := func(cells int, end float64) map[string]any {
		edit := map[string]any{"Scenarios!G4": "=Quotes!A1"}
		for i := 1; i < cells; i++ {
			edit[fmt.Sprintf("Quotes!A%d", i)] = fmt.Sprintf("=A%d", i+1)
		}
		edit[fmt.Sprintf("Quotes!A%d", cells)] = end
		return edit
	}
	// Scenarios!G4 and 32 cells of Quotes: 32 references followed.
	setCells(t, plan, chain(32, 410000))
	if code, stderr := evalPlan(t, plan); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if got := scenarioCapex(t, plan, "B200 node"); got != 410000 {
		t.Errorf("B200 node's capex is %v, want 410000 from Quotes!A32", got)
	}
	setCells(t, plan, chain(33, 420000))
	code, stderr := evalPlan(t, plan)
	var path []string
	for i := 1; i <= 32; i++ {
		path = append(path, fmt.Sprintf("Quotes!A%d", i))
	}
	wantLines(t, stderr, plan+": Scenarios!G4: capex: refers through a chain of more than 32 cells (Scenarios!G4 -> "+
		strings.Join(path, " -> ")+" -> …), more than planner follows; type the number in Quotes!A32 in place of its formula, or here")
	if code != 1 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	setCells(t, plan, map[string]any{"Quotes!A32": 430000.0})
	if code, stderr := evalPlan(t, plan); code != 0 {
		t.Fatalf("after typing the number: exit %d: %s", code, stderr)
	}
	if got := scenarioCapex(t, plan, "B200 node"); got != 430000 {
		t.Errorf("B200 node's capex is %v, want 430000", got)
	}
}

// setFormat gives a cell a number format as a person would: a built-in
// format by its id, or a format code of their own.
func setFormat(t *testing.T, plan, ref string, format any) {
	t.Helper()
	editBook(t, plan, func(f *excelize.File) error {
		sheet, cell, _ := strings.Cut(ref, "!")
		var style excelize.Style
		switch v := format.(type) {
		case int:
			style.NumFmt = v
		case string:
			style.CustomNumFmt = &v
		}
		id, err := f.NewStyle(&style)
		if err != nil {
			return err
		}
		return f.SetCellStyle(sheet, cell, cell, id)
	})
}

// baseCost is cost_per_gpu_hour of the base scenario, from Results.
func baseCost(t *testing.T, plan string) float64 {
	t.Helper()
	return cellNumber(t, resultsRows(t, plan)["cost_per_gpu_hour"], resultsBase)
}

// onlyWrote fails unless eval said nothing but what it wrote.
func onlyWrote(t *testing.T, plan, stderr string) {
	t.Helper()
	if want := plan + ": wrote Results, Sizing, Deployment costs, Fleet, Cash flow, MonteCarlo, Sensitivity, Data tables, Breakeven and Goal seek\n"; stderr != want {
		t.Errorf("eval said\n%s\nwant only\n%s", stderr, want)
	}
}

// A number read from a cell whose format shows a date, a time or a
// duration is what the spreadsheet stores, not what anyone typed: 30 hours
// formatted as a date shows 1900-01-30. It is an error at the cell saying
// what the cell shows; a format that merely decorates a number is not a
// date, and the as-of dates of prices are dates.
func TestDatesWhereNumbersAreRead(t *testing.T) {
	_, plan := freshPlan(t)
	for _, tc := range []struct {
		cell   string
		value  float64
		format any
		want   string
	}{
		{"Assumptions!B13", 30, "yyyy-mm-dd", "Assumptions!B13: hours_per_month: holds the date 1900-01-30, the number 30 formatted as a date, where planner reads a number; format the cell as a number and type the number, such as 730"},
		{"Assumptions!B13", 30, 14, "Assumptions!B13: hours_per_month: holds the date 1900-01-30, the number 30 formatted as a date, where planner reads a number; format the cell as a number and type the number, such as 730"},
		{"Assumptions!B13", 730.5, 22, "Assumptions!B13: hours_per_month: holds the date and time 1901-12-30 12:00, the number 730.5 formatted as a date and time, where planner reads a number; format the cell as a number and type the number, such as 730"},
		{"Assumptions!B13", 30.5, "[h]:mm", "Assumptions!B13: hours_per_month: holds the duration 732:00, the number 30.5 formatted as a duration, where planner reads a number; format the cell as a number and type the number, such as 730"},
		{"Assumptions!B11", 0.12, `[Red]d"th"`, "Assumptions!B11: electricity_price: holds the date 0th, the number 0.12 formatted as a date, where planner reads a number; format the cell as a number and type the number, such as 0.12"},
		{"Deployments!G3", 0.5, 20, "Deployments!G3: public 70B FP8 service, workdays: holds the time 12:00, the number 0.5 formatted as a time, where planner reads a number; format the cell as a number and type the number, such as 12"},
		{"Cloud!D2", 2.69, 46, "Cloud!D2: RunPod H100 SXM, Community: holds the duration 64:33:36, the number 2.69 formatted as a duration, where planner reads a number; format the cell as a number and type the number, such as 2.69"},
		{"GPUs!C2", 700, "d mmm", "GPUs!C2: H100 SXM: holds the date 30 Nov, the number 700 formatted as a date, where planner reads a number; format the cell as a number and type the number, such as 1000"},
		{"Assumptions!B13", 30, 31, "Assumptions!B13: hours_per_month: holds the date 1900-01-30, the number 30 formatted as a date, where planner reads a number; format the cell as a number and type the number, such as 730"},
		{"Deployments!G3", 0.5, 32, "Deployments!G3: public 70B FP8 service, workdays: holds the time 12:00, the number 0.5 formatted as a time, where planner reads a number; format the cell as a number and type the number, such as 12"},
		{"Scenarios!F4", 315000, "yyyy", "Scenarios!F4: capex: holds the date 2762, the number 315000 formatted as a date, where planner reads a number; format the cell as a number and type the number, such as 285000"},
	} {
		setCells(t, plan, map[string]any{tc.cell: tc.value})
		setFormat(t, plan, tc.cell, tc.format)
		code, stderr := evalPlan(t, plan)
		if code != 1 {
			t.Errorf("%s formatted %v: exit %d: %s", tc.cell, tc.format, code, stderr)
		}
		wantLines(t, stderr, plan+": "+tc.want)
		// The advice, followed: a number format, the number typed.
		setFormat(t, plan, tc.cell, 0)
	}
	setCells(t, plan, map[string]any{"Assumptions!B13": 730.0, "Assumptions!B11": 0.12, "Deployments!G3": 12.0,
		"Cloud!D2": 2.69, "GPUs!C2": 700.0, "Scenarios!F4": 315000.0})
	code, stderr := evalPlan(t, plan)
	if code != 0 {
		t.Fatalf("after the advice: exit %d: %s", code, stderr)
	}
	onlyWrote(t, plan, stderr)
	if got := baseCost(t, plan); !near(got, owned(defaults())) {
		t.Errorf("cost_per_gpu_hour %v, want %v", got, owned(defaults()))
	}

	// Through a reference, the cell that holds the number is named.
	setCells(t, plan, map[string]any{"Quotes!A1": 30.0, "Assumptions!B13": "=Quotes!A1"})
	setFormat(t, plan, "Quotes!A1", "d-mmm-yyyy")
	code, stderr = evalPlan(t, plan)
	wantLines(t, stderr, plan+": Assumptions!B13: hours_per_month: refers to Quotes!A1, which holds the date 30-Jan-1900, the number 30 formatted as a date, where planner reads a number; format Quotes!A1 as a number and type the number there, such as 730, or type it here")
	if code != 1 {
		t.Errorf("exit %d", code)
	}
	setFormat(t, plan, "Quotes!A1", 0)
	setCells(t, plan, map[string]any{"Quotes!A1": 730.0})
	if code, stderr := evalPlan(t, plan); code != 0 {
		t.Fatalf("after the advice: exit %d: %s", code, stderr)
	}

	// Formats that show a number, however dressed, are numbers.
	for cell, format := range map[string]any{"Assumptions!B13": `0.00" d"`, "Assumptions!B6": `[$€-407]#,##0.00`,
		"Assumptions!B10": `[Red]0.00`, "Assumptions!B11": `0.000 \h`, "Assumptions!B12": `#,##0 "h/month";[Red]-#,##0`, "Cloud!D2": 4} {
		setFormat(t, plan, cell, format)
	}
	code, stderr = evalPlan(t, plan)
	if code != 0 || strings.Contains(stderr, "warning") {
		t.Errorf("exit %d: %s", code, stderr)
	}
	if got := baseCost(t, plan); !near(got, owned(defaults())) {
		t.Errorf("cost_per_gpu_hour %v, want %v", got, owned(defaults()))
	}
}

// Every input with a unit has a band of plausible values: a value outside
// it is warned of at its cell with the slip it looks like, and a value
// that cannot be (a PUE below 1, more hours than a month has) is an error;
// the range warning does not advise widening a range to take in an
// implausible value. Following each message's advice evaluates cleanly to
// the article's figures.
func TestImplausibleValues(t *testing.T) {
	_, plan := freshPlan(t)
	setInputs(t, plan, map[string]float64{"electricity_price": 120})
	code, stderr := evalPlan(t, plan)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	wantLines(t, stderr,
		"warning: "+plan+": Assumptions!B11: electricity_price: 120 $/kWh lies above the plausible 0 to 2 $/kWh for an electricity price: did you mean 0.120 (120 $/MWh)? if so, type 0.120",
		"warning: "+plan+": Assumptions!B11: electricity_price: the value 120 lies outside the range 0.08..0.2, so Monte Carlo and the tornado hold it at 120; it lies outside the plausible 0 to 2 $/kWh too: check the value rather than widen the range",
		"warning: "+plan+": Correlations!C2: the correlation of electricity_price with rack_per_month is skipped: electricity_price is held at 120, outside its range 0.08..0.2 and the plausible 0 to 2 $/kWh; check the value")
	if strings.Contains(stderr, "to include 120") {
		t.Errorf("advises widening a range to take in 120 $/kWh:\n%s", stderr)
	}
	for _, r := range readSheet(t, plan, "MonteCarlo").rows {
		if line := strings.Join(r, "|"); strings.Contains(line, "electricity_price held at 120") && !strings.HasSuffix(line, "check the value rather than widen the range") {
			t.Errorf("the MonteCarlo sheet advises widening: %s", line)
		}
	}
	setInputs(t, plan, map[string]float64{"electricity_price": 0.120})
	code, stderr = evalPlan(t, plan)
	onlyWrote(t, plan, stderr)
	if got := baseCost(t, plan); code != 0 || !near(got, owned(defaults())) {
		t.Errorf("exit %d, cost_per_gpu_hour %v, want %v", code, got, owned(defaults()))
	}

	// Errors and warnings at their cells, on every input sheet.
	setCells(t, plan, map[string]any{"Assumptions!B10": 0.8, "Assumptions!D11": 80.0, "Assumptions!E11": 200.0, "Assumptions!B13": 800.0,
		"Assumptions!B14": 65.0, "Assumptions!B6": 285.0, "Assumptions!B8": 3.0, "GPUs!C2": 7000.0, "Cloud!D2": 1964.0,
		"Scenarios!A8": "gpu_watts", "Scenarios!G8": 1.0})
	code, stderr = evalPlan(t, plan)
	if code != 1 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	wantLines(t, stderr,
		plan+": Assumptions!B10: pue: 0.8 is below 1, which a facility factor (PUE) cannot be: a facility draws at least the power of the GPUs in it; type 1.3, or another value from 1 to 3",
		plan+": Assumptions!B13: hours_per_month: 800 h/month is above 744 h/month, which the hours of a calendar month cannot be: a month has at most 744 hours (31 days × 24); type 730, or another value from 672 to 744 h/month",
		plan+": Assumptions!B14: utilization: is 6,500.0 %, outside 0 %..100 %: did you mean 65 % (0.65)? type 0.65 or 65 %")
	setInputs(t, plan, map[string]float64{"pue": 1.3, "hours_per_month": 730, "utilization": 0.5})
	code, stderr = evalPlan(t, plan)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	wantLines(t, stderr,
		"warning: "+plan+": Assumptions!B6: capex: $285 lies below the plausible $1,000 to $50,000,000 for the price of a node: did you mean 285000 (285 thousand)? if so, type 285000",
		"warning: "+plan+": Assumptions!B8: amortization_months: 3 months lies below the plausible 12 to 120 months for an amortisation: did you mean 36 (3 years)? if so, type 36",
		"warning: "+plan+": Assumptions!D11: electricity_price: 80 $/kWh lies above the plausible 0 to 2 $/kWh for an electricity price: did you mean 0.080 (80 $/MWh)? if so, type 0.080",
		"warning: "+plan+": Assumptions!E11: electricity_price: 200 $/kWh lies above the plausible 0 to 2 $/kWh for an electricity price: did you mean 0.200 (200 $/MWh)? if so, type 0.200",
		"warning: "+plan+": Cloud!D2: RunPod H100 SXM, Community: 1964 $/GPU-hour lies above the plausible 0.01 to 100 $/GPU-hour for a cloud GPU-hour: did you mean 2.69 (1964 a month ÷ 730 hours)? if so, type 2.69",
		"warning: "+plan+": GPUs!C2: H100 SXM: 7000 W lies above the plausible 50 to 3000 W for a GPU's board power; check it: if it is a slip, type 700, or another value from 50 to 3000 W",
		"warning: "+plan+": Scenarios!G8: gpu_watts: 1 W lies below the plausible 50 to 3000 W for a GPU's board power: did you mean 1000 (1 kW)? if so, type 1000")
	if strings.Contains(stderr, "Scenarios!C4") {
		t.Errorf("H100 mid, which refers to capex's cell, is warned of capex again:\n%s", stderr)
	}
	setInputs(t, plan, map[string]float64{"capex": 285000, "amortization_months": 36})
	setCells(t, plan, map[string]any{"Assumptions!D11": 0.080, "Assumptions!E11": 0.200, "Cloud!D2": 2.69, "GPUs!C2": 700.0, "Scenarios!G8": 1000.0})
	code, stderr = evalPlan(t, plan)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	onlyWrote(t, plan, stderr)
	if got := baseCost(t, plan); !near(got, owned(defaults())) {
		t.Errorf("cost_per_gpu_hour %v, want %v", got, owned(defaults()))
	}

	// A range crossed by a slip is mended by mending the slip, not by
	// swapping its ends.
	setCells(t, plan, map[string]any{"Assumptions!D11": 80.0})
	code, stderr = evalPlan(t, plan)
	wantLines(t, stderr, plan+": Assumptions!D11: electricity_price: low (80) is above high (0.2), and 80 $/kWh lies above the plausible 0 to 2 $/kWh for an electricity price: did you mean 0.080 (80 $/MWh)? if so, type 0.080")
	if code != 1 {
		t.Errorf("exit %d", code)
	}
	setCells(t, plan, map[string]any{"Assumptions!D11": 0.080})

	// --set goes through the same bands.
	code, stderr = evalPlan(t, plan, "--set", "pue=0.8")
	if want := "--set pue=0.8: 0.8 is below 1, which a facility factor (PUE) cannot be: a facility draws at least the power of the GPUs in it; use --set pue=1.3, or another value from 1 to 3\n"; code != 1 || stderr != want {
		t.Errorf("exit %d: %s, want %s", code, stderr, want)
	}
	code, stderr = evalPlan(t, plan, "--set", "electricity_price=120", "-o", plan+".what-if.xlsx")
	wantLines(t, stderr,
		"warning: "+plan+": --set electricity_price=120: 120 $/kWh lies above the plausible 0 to 2 $/kWh for an electricity price: did you mean 0.120 (120 $/MWh)? if so, use --set electricity_price=0.120",
		"warning: "+plan+": --set electricity_price=120 lies outside electricity_price's range 0.08..0.2, so Monte Carlo and the tornado hold electricity_price at 120; it lies outside the plausible 0 to 2 $/kWh too: check the value rather than widen the range")
	if code != 0 || strings.Contains(stderr, "widen low") {
		t.Errorf("exit %d: %s", code, stderr)
	}
	if code, stderr := evalPlan(t, plan, "--set", "electricity_price=0.120", "-o", plan+".what-if.xlsx"); code != 0 || strings.Contains(stderr, "warning") {
		t.Errorf("exit %d: %s", code, stderr)
	}

	// solve warns of what eval warns of, in the workbook and in --set.
	setCells(t, plan, map[string]any{"GPUs!C2": 7000.0})
	var out, errs bytes.Buffer
	code = run([]string{"solve", plan, "--for", "utilization", "--target", "cost_per_used_hour=2", "--set", "electricity_price=120"}, &out, &errs)
	wantLines(t, errs.String(),
		"warning: "+plan+": GPUs!C2: H100 SXM: 7000 W lies above the plausible 50 to 3000 W for a GPU's board power; check it: if it is a slip, type 700, or another value from 50 to 3000 W",
		"warning: "+plan+": --set electricity_price=120: 120 $/kWh lies above the plausible 0 to 2 $/kWh for an electricity price: did you mean 0.120 (120 $/MWh)? if so, use --set electricity_price=0.120")
	if code != 1 {
		t.Errorf("solve: exit %d: %s", code, errs.String())
	}
}

// A limit on a number says the limit when a value breaks it, and "whole
// number" only of a number that is not one.
func TestLimitsAreNamed(t *testing.T) {
	_, plan := freshPlan(t)
	type limit struct {
		value float64
		want  string
		fix   float64 // as the message says to type
	}
	// Two rounds, each of cells of their own: every message at once, then
	// every advice followed at once.
	for _, round := range []map[string]limit{{
		"Deployments!F2": {1e12, "internal 8B assistant: the replicas is 1000000000000; planner takes at most 1000000 replicas of one deployment: type a whole number from 1 to 1000000", 1000000},
		"Deployments!E4": {2e6, "70B FP8 on one H200: the cards per replica is 2000000; planner takes at most 1000000 cards per replica: type a whole number from 1 to 1000000", 1},
		"Tables!F2":      {1e7, "cost per used hour by utilisation and capex: the row steps is 10000000; planner takes at most 1000 steps of an axis: type a whole number from 1 to 1000", 10},
		"Deployments!G3": {25, "public 70B FP8 service, workdays: 25 hours a day is more than a day has; type at most 24", 24},
		"Deployments!I6": {745, "405B FP8 on 8×H100: 745 hours a month is more than a month has; type at most 744 (31 × 24)", 744},
		"Models!B2":      {1e7, "Llama 3.1 8B: the total params B is 10000000, more than the 1000000 billion parameters planner sizes; type the parameters in billions, such as 70 for a 70B model", 8},
		"Assumptions!B7": {0, "gpus: is 0; a count of GPUs must be above zero, 1 or more", 8},
	}, {
		"Deployments!F2": {2.5, "internal 8B assistant: the replicas is 2.5, not a whole number; type a whole number, such as 3", 3},
		"Deployments!H3": {32, "public 70B FP8 service, workdays: 32 days a month is more than a month has; type at most 31", 31},
		"Assumptions!B7": {8.5, "gpus: is 8.5; a count of GPUs must be a whole number, such as 8 or 9", 8},
	}} {
		edit, fixes := map[string]any{}, map[string]any{}
		for cell, l := range round {
			edit[cell], fixes[cell] = l.value, l.fix
		}
		setCells(t, plan, edit)
		code, stderr := evalPlan(t, plan)
		if code != 1 {
			t.Errorf("exit %d", code)
		}
		for cell, l := range round {
			wantLines(t, stderr, plan+": "+cell+": "+l.want)
		}
		setCells(t, plan, fixes)
		if code, stderr := evalPlan(t, plan); code != 0 {
			t.Errorf("with the advice followed: exit %d: %s", code, stderr)
		}
	}
}

// A scenario's cell that refers to an input sheet's cell reads what a
// spreadsheet reads there: a number typed in it, and nothing under a
// merged range's first cell, whatever the cell holds underneath.
func TestReferencesIntoAnInputSheet(t *testing.T) {
	_, plan := freshPlan(t)
	setCells(t, plan, map[string]any{"Assumptions!K6": 111.0, "Assumptions!L6": 222.0, "Scenarios!C4": "=Assumptions!L6"})
	if code, stderr := evalPlan(t, plan); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if got := scenarioCapex(t, plan, "H100 mid"); got != 222 {
		t.Errorf("H100 mid's capex is %v, want 222 from Assumptions!L6", got)
	}
	// K6:L6 merged with L6's 222 left under the merge, as some programs
	// leave a covered cell (excelize's MergeCell would clear it).
	editPart(t, plan, "xl/worksheets/sheet1.xml", func(x string) string {
		return strings.Replace(x, "</sheetData>", `</sheetData><mergeCells count="1"><mergeCell ref="K6:L6"/></mergeCells>`, 1)
	})
	code, stderr := evalPlan(t, plan)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	wantLines(t, stderr, "warning: "+plan+": Scenarios!C4: H100 mid: capex refers to Assumptions!L6, which is empty, so the scenario keeps capex's value from Assumptions; type a number in Assumptions!L6, or in this cell")
	if got := scenarioCapex(t, plan, "H100 mid"); got != 285000 {
		t.Errorf("H100 mid's capex is %v, want Assumptions' 285000", got)
	}
}
