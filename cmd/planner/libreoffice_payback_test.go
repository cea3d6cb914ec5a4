package main

import (
	"bytes"
	"path/filepath"
	"testing"
)

// A payback repaid only with the sale for the residual at the end is live:
// LibreOffice, recalculating after the residual is edited (before tax,
// after tax straight line and declining balance), agrees with planner cell
// by cell. With a 30 % residual, Community's cash saving of $6,217 a
// month repays $223,814 of $285,000 over 36 months and the sale, $85,500,
// the rest, as the NPV counts it; the payback says so.
func TestLibreOfficePaybackWithTheSale(t *testing.T) {
	needLibreOffice(t)
	// Before tax, and after tax (a workbook evaluated with a tax rate, as
	// its sheets then have the tax's columns).
	lo := ""
	for _, tax := range []float64{0, 0.3} {
		dir, plan := freshPlan(t)
		setInputs(t, plan, map[string]float64{"tax_rate": tax})
		var out, errs bytes.Buffer
		if code := run([]string{"eval", plan, "--samples", "200"}, &out, &errs); code != 0 {
			t.Fatal(errs.String())
		}
		cases := map[string]map[string]float64{"sale.xlsx": {"residual": 0.3}}
		if tax > 0 {
			cases = map[string]map[string]float64{"taxed.xlsx": {"residual": 0.3}, "declining.xlsx": {"residual": 0.3, "depreciation": 0.4}}
		}
		edits := map[string]func(path string){}
		for name, values := range cases {
			edits[name] = func(path string) { setInputs(t, path, values) }
		}
		if _, folder := recalculatedAsPlanner(t, dir, plan, edits); tax == 0 {
			lo = folder
		}
	}
	if got := offerRowCell(t, filepath.Join(lo, "sale.xlsx"), "Payback", "RunPod H100 SXM, Community"); got != "36 months, with the sale at the end" {
		t.Errorf("LibreOffice's payback against Community: %q", got)
	}
}

// offerRowCell is the Results offers section's cell in the row labelled
// label and the column of the offer.
func offerRowCell(t *testing.T, path, label, offer string) string {
	t.Helper()
	rows := readSheet(t, path, "Results").rows
	col := -1
	for _, row := range rows {
		for c, v := range row {
			if v == offer && col < 0 && len(row) > 0 && row[0] == "Result" {
				col = c
			}
		}
		if col >= 0 && len(row) > col && row[0] == label {
			return row[col]
		}
	}
	t.Fatalf("%s: no %s row for %s in Results", path, label, offer)
	return ""
}
