package main

import (
	"bytes"
	"strings"
	"testing"
)

// A workbook evaluated after tax recalculates in LibreOffice, cell by cell,
// to what planner computes when the tax rate, the depreciation (straight
// line, then declining balance), the cost of capital or the residual is
// edited in the spreadsheet: Results' NPV, payback and words, and the Cash
// flow sheet's depreciation, tax saved and cash after tax.
func TestLibreOfficeRecalculatesAfterTax(t *testing.T) {
	needLibreOffice(t)
	dir, plan := freshPlan(t)
	setInputs(t, plan, map[string]float64{"tax_rate": 0.3})
	var out, errs bytes.Buffer
	if code := run([]string{"eval", plan, "--samples", "1000"}, &out, &errs); code != 0 {
		t.Fatal(errs.String())
	}
	// Evaluated again, the workbook after tax is what eval wrote.
	if code := run([]string{"eval", plan, "--samples", "1000", "--check"}, &out, &errs); code != 0 {
		t.Fatalf("eval --check after tax: %s", errs.String())
	}
	// The month table's header: 36 months and month 0 below it.
	if cf := readSheet(t, plan, "Cash flow").rows; !strings.Contains(strings.Join(cf[len(cf)-38], " "), "depreciation tax saved cash") {
		t.Fatalf("the Cash flow sheet after tax has no depreciation and tax saved columns before owning's cash")
	}
	cases := map[string]map[string]float64{
		"rate.xlsx":      {"tax_rate": 0.25, "cost_of_capital": 0.08},
		"declining.xlsx": {"depreciation": 0.4, "cost_of_capital": 0.06, "residual": 0.2},
		"fast.xlsx":      {"tax_rate": 0.45, "depreciation": 0.9, "utilization": 0.8},
	}
	edits := map[string]func(path string){}
	for name, values := range cases {
		edits[name] = func(path string) { setInputs(t, path, values) }
	}
	recalculatedAsPlanner(t, dir, plan, edits)
}
