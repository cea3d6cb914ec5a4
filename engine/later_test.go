package engine_test

import (
	"testing"

	"planner/diag"
	"planner/engine"
	"planner/engine/enginetest"
)

// A workbook made before planner read the cost of capital, maintenance,
// staff and network has none of them: it evaluates to the figures it always
// had, and the warning says how to add them.
func TestOlderWorkbookWithoutTheLaterInputs(t *testing.T) {
	m := enginetest.SpecModel()
	m.Where = diag.Origin{File: "plan.xlsx", Sheet: "Assumptions"}
	var kept []engine.Input
	for _, in := range m.Inputs {
		switch in.Name {
		case "cost_of_capital", "maintenance_per_year", "staff_per_month":
		default:
			kept = append(kept, in)
		}
	}
	m.Inputs = kept
	p, err := engine.Build(m)
	if err != nil {
		t.Fatal(err)
	}
	want := "plan.xlsx: Assumptions: has no row for cost_of_capital, maintenance_per_year and staff_per_month, which planner's formulas read for owning's cost beyond capital, power and rack (a workbook made by an older planner has none); " +
		"planner takes 0 for each, which keeps this workbook's figures as they were. To set one, add a row with its name, its value and its unit (cost_of_capital: %, maintenance_per_year: %, staff_per_month: $/month) under the last input"
	if got := p.Warnings().Error(); got != want {
		t.Errorf("warning\n%s\nwant\n%s", got, want)
	}
	r, err := p.Eval(engine.Scenario{Name: engine.Base})
	if err != nil {
		t.Fatal(err)
	}
	full := enginetest.Eval(t, nil)
	for name, v := range full.Values {
		if r.Values[name] != v {
			t.Errorf("%s = %v, want %v as with the rows at 0", name, r.Values[name], v)
		}
	}
	// Following the advice: the row added, the warning is gone.
	m.Inputs = append(m.Inputs, engine.Input{Name: "cost_of_capital", Value: engine.Num(0), Unit: "%"},
		engine.Input{Name: "maintenance_per_year", Value: engine.Num(0), Unit: "%"},
		engine.Input{Name: "staff_per_month", Value: engine.Num(0), Unit: "$/month"})
	if p, err = engine.Build(m); err != nil || p.Warnings() != nil {
		t.Errorf("with the rows: %v, warnings %v", err, p.Warnings())
	}
}
