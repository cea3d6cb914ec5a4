package main

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/xuri/excelize/v2"
)

// A workbook whose prices move over the term recalculates in LibreOffice,
// cell by cell, to what planner computes when the rent's or electricity's
// yearly change, the cost of capital, the tax or an offer's term is edited
// in the spreadsheet, and back to flat prices: Results' break-evens, NPVs,
// paybacks and verdicts, the break-even matrix and the Cash flow sheet's
// months.
func TestLibreOfficeRecalculatesThePaths(t *testing.T) {
	needLibreOffice(t)
	dir, plan := freshPlan(t)
	addBilling(t, plan)
	editBook(t, plan, func(f *excelize.File) error {
		r := []any{"Example", "H100 2-year reserved", "H100 SXM", 1.9, "2026-10-10", "test", "", "all hours", 24.0}
		return f.SetSheetRow("Cloud", fmt.Sprintf("A%d", 13), &r)
	})
	// With a tax rate, so that the Cash flow sheet has its tax columns.
	setInputs(t, plan, map[string]float64{"rent_price_change_per_year": -0.3, "electricity_price_change_per_year": 0.05, "tax_rate": 0.2})
	var out, errs bytes.Buffer
	if code := run([]string{"eval", plan, "--samples", "1000"}, &out, &errs); code != 0 {
		t.Fatal(errs.String())
	}
	if code := run([]string{"eval", plan, "--samples", "1000", "--check"}, &out, &errs); code != 0 {
		t.Fatalf("eval --check along the paths: %s", errs.String())
	}
	cases := map[string]map[string]float64{
		"falling.xlsx":  {"rent_price_change_per_year": -0.5, "cost_of_capital": 0.08},
		"power.xlsx":    {"electricity_price_change_per_year": 0.15, "tax_rate": 0.3, "utilization": 0.7},
		"taxed.xlsx":    {"tax_rate": 0.25, "depreciation": 0.4, "residual": 0.2, "rent_price_change_per_year": -0.2},
		"flat.xlsx":     {"rent_price_change_per_year": 0, "electricity_price_change_per_year": 0},
		"software.xlsx": {"software_per_gpu_year": 1200},
	}
	edits := map[string]func(path string){}
	for name, values := range cases {
		edits[name] = func(path string) { setInputs(t, path, values) }
	}
	edits["term.xlsx"] = func(path string) { setNumber(t, path, "Cloud", "I13", 36) }
	recalculatedAsPlanner(t, dir, plan, edits)
}
