package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"planner/domain"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// olderWorkbook is a plan.xlsx made and evaluated by planner 0.1, before the
// cost of capital, maintenance, staff and network: its Assumptions lack
// their rows, and its Formulas sheet holds 0.1's built-in capital and cost
// lines, copied there by its init.
const olderWorkbook = "../../testdata/older/planner-0.1.xlsx"

// baseValues evaluates a workbook and returns its base scenario's values
// and the warnings printed.
func baseValues(t *testing.T, path string) (map[string]float64, []string) {
	t.Helper()
	var out, errs bytes.Buffer
	if code := run([]string{"eval", path, "--samples", "200", "--format", "json"}, &out, &errs); code != 0 {
		t.Fatalf("eval %s: %s", path, errs.String())
	}
	var doc struct {
		Scenarios []struct {
			Values map[string]float64 `json:"values"`
		} `json:"scenarios"`
		Warnings []struct {
			Text string `json:"text"`
		} `json:"warnings"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	var warnings []string
	for _, w := range doc.Warnings {
		warnings = append(warnings, w.Text)
	}
	return doc.Scenarios[0].Values, warnings
}

// A workbook of planner 0.1 evaluates to the figures a new one gives, and
// says which rows are missing and which formulas are 0.1's; following its
// advice literally (the rows added under the last input, the two formula
// rows deleted) leaves no warning and the figures of a new workbook with
// the same numbers.
func TestOlderWorkbookUpgrades(t *testing.T) {
	dir := t.TempDir()
	older := filepath.Join(dir, "older.xlsx")
	copyFile(t, olderWorkbook, older)
	fresh := initPlan(t, dir, "fresh.xlsx")

	got, warnings := baseValues(t, older)
	want, _ := baseValues(t, fresh)
	withoutSite(want)
	for name, v := range got {
		if w, ok := want[name]; !ok || w != v {
			t.Errorf("older workbook: %s = %v, a new one gives %v", name, v, w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("older workbook has %d values, a new one %d", len(got), len(want))
	}
	wantWarnings := []string{
		older + ": Formulas!B4: capital_per_gpu_hour: is the built-in formula of an earlier planner; planner now computes capital_per_gpu_hour as monthly_rate == 0 ? per_gpu_capex * (1 - residual) / amortization_hours : capital_per_month / gpus / hours_per_month, with what planner added since (the lines of owning's cost: the cost of capital, maintenance, staff, network and software; the tax rate; the prices' paths over the term; the idle watts; each zero until Assumptions gives it), and uses that: replace the expression with it, or delete the row, so that the sheet says what planner computes",
		older + ": Formulas!B6: power_per_month: is the built-in formula of an earlier planner; planner now computes power_per_month as gpu_idle_watts > 0 ? (node_kw * utilization + gpu_idle_watts * gpus * pue / 1000 * (1 - utilization)) * hours_per_month * electricity_price : node_kw * hours_per_month * electricity_price, with what planner added since (the lines of owning's cost: the cost of capital, maintenance, staff, network and software; the tax rate; the prices' paths over the term; the idle watts; each zero until Assumptions gives it), and uses that: replace the expression with it, or delete the row, so that the sheet says what planner computes",
		older + ": Formulas!B9: cost_per_gpu_hour: is the built-in formula of an earlier planner; planner now computes cost_per_gpu_hour as capital_per_gpu_hour + power_per_gpu_hour + rack_per_gpu_hour + maintenance_per_gpu_hour + staff_per_gpu_hour + network_per_gpu_hour + software_per_gpu_hour, with what planner added since (the lines of owning's cost: the cost of capital, maintenance, staff, network and software; the tax rate; the prices' paths over the term; the idle watts; each zero until Assumptions gives it), and uses that: replace the expression with it, or delete the row, so that the sheet says what planner computes",
		older + ": Formulas!B12: breakeven_utilization: is the built-in formula of an earlier planner; planner now computes breakeven_utilization as abs(rent_price_change_per_year) + abs(electricity_price_change_per_year) == 0 ? cost_per_gpu_hour / offer_price : utilization * (1 - npv_saving / ((1 - tax_rate) * rent_used_per_month * rent_path_factor)), with what planner added since (the lines of owning's cost: the cost of capital, maintenance, staff, network and software; the tax rate; the prices' paths over the term; the idle watts; each zero until Assumptions gives it), and uses that: replace the expression with it, or delete the row, so that the sheet says what planner computes",
		older + ": Assumptions: has no row for cost_of_capital, depreciation, electricity_price_change_per_year, gpu_idle_watts, maintenance_per_year, network_per_month, rent_price_change_per_year, software_per_gpu_year, staff_per_month and tax_rate, which planner's formulas read for owning's cost beyond capital, power and rack and for the NPV after tax and along the prices' paths over the term (a workbook made by an older planner has none); planner takes 0 for each, which keeps this workbook's figures as they were. To set one, add a row with its name, its value and its unit (cost_of_capital: %, depreciation: %, electricity_price_change_per_year: %/year, gpu_idle_watts: W, maintenance_per_year: %, network_per_month: $/month, rent_price_change_per_year: %/year, software_per_gpu_year: $/GPU-year, staff_per_month: $/month, tax_rate: %) under the last input",
	}
	if strings.Join(warnings, "\n") != strings.Join(wantWarnings, "\n") {
		t.Errorf("warnings\n%s\nwant\n%s", strings.Join(warnings, "\n"), strings.Join(wantWarnings, "\n"))
	}

	// The advice, followed as a user would in a spreadsheet.
	editBook(t, older, func(f *excelize.File) error {
		rows, err := f.GetRows("Assumptions")
		if err != nil {
			return err
		}
		for i, r := range [][]any{{"cost_of_capital", 0.08, "%"}, {"maintenance_per_year", 0.05, "%"},
			{"staff_per_month", 400, "$/month"}, {"network_per_month", 150, "$/month"}, {"software_per_gpu_year", 0, "$/GPU-year"},
			{"tax_rate", 0, "%"}, {"depreciation", 0, "%"}, {"rent_price_change_per_year", 0, "%/year"}, {"electricity_price_change_per_year", 0, "%/year"},
			{"gpu_idle_watts", 0, "W"}} {
			if err := f.SetSheetRow("Assumptions", fmt.Sprintf("A%d", len(rows)+1+i), &r); err != nil {
				return err
			}
		}
		// Formulas rows 12, 9, 6 and 4, the later first so that the earlier keep their place.
		for _, row := range []int{12, 9, 6, 4} {
			if err := f.RemoveRow("Formulas", row); err != nil {
				return err
			}
		}
		return nil
	})
	setInputs(t, fresh, financeCase)
	setInputs(t, older, map[string]float64{"residual": 0.3})
	got, warnings = baseValues(t, older)
	want, _ = baseValues(t, fresh)
	withoutSite(want)
	if len(warnings) != 0 {
		t.Errorf("after following the advice: %s", strings.Join(warnings, "\n"))
	}
	for name, v := range want {
		if g, ok := got[name]; !ok || g != v {
			t.Errorf("upgraded workbook: %s = %v, a new one with the same numbers gives %v", name, g, v)
		}
	}
}

// withoutSite drops the inputs of the fleet and the site, which no formula
// reads and which a workbook without them does without: no limit on the
// power, no grid's intensity, no gain in throughput.
func withoutSite(values map[string]float64) {
	delete(values, domain.SiteKW)
	delete(values, domain.GridCO2)
	delete(values, domain.ThroughputGain)
}
