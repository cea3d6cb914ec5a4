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
