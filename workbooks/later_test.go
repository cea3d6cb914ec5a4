package workbooks

import (
	"testing"

	"planner/diag"
	"planner/engine"
)

// A workbook made before planner read the cost of capital, maintenance,
// staff and network has none of them: it evaluates to the figures it always
// had, and the warning says how to add them.
func TestOlderWorkbookWithoutTheLaterInputs(t *testing.T) {
	full := DefaultModel()
	m := full
	m.Where = diag.Origin{File: "plan.xlsx", Sheet: "Assumptions"}
	m.Inputs = nil
	for _, in := range full.Inputs {
		switch in.Name {
		case engine.CostOfCapital, engine.MaintenancePerYear, engine.StaffPerMonth:
		default:
			m.Inputs = append(m.Inputs, in)
		}
	}
	warnings := withLaterInputs(&m)
	want := "plan.xlsx: Assumptions: has no row for cost_of_capital, maintenance_per_year and staff_per_month, which planner's formulas read for owning's cost beyond capital, power and rack (a workbook made by an older planner has none); " +
		"planner takes 0 for each, which keeps this workbook's figures as they were. To set one, add a row with its name, its value and its unit (cost_of_capital: %, maintenance_per_year: %, staff_per_month: $/month) under the last input"
	if got := warnings.Error(); got != want {
		t.Errorf("warning\n%s\nwant\n%s", got, want)
	}
	values := func(m engine.Model) map[string]float64 {
		p, err := engine.Build(m)
		if err != nil {
			t.Fatal(err)
		}
		r, err := p.Eval(engine.Scenario{Name: engine.Base})
		if err != nil {
			t.Fatal(err)
		}
		return r.Values
	}
	got, all := values(m), values(full)
	for name, v := range all {
		if got[name] != v {
			t.Errorf("%s = %v, want %v as with the rows at 0", name, got[name], v)
		}
	}
	// Following the advice: with the rows, nothing is added or said.
	if w := withLaterInputs(&full); w != nil {
		t.Errorf("with the rows: %v", w)
	}
}
