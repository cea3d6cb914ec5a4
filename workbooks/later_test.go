package workbooks

import (
	"strings"
	"testing"

	"planner/diag"
	"planner/domain"
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
		case domain.CostOfCapital, domain.MaintenancePerYear, domain.StaffPerMonth:
		default:
			m.Inputs = append(m.Inputs, in)
		}
	}
	problems, warnings := withLaterInputs(&m)
	if problems != nil {
		t.Fatal(problems)
	}
	want := "plan.xlsx: Assumptions: has no row for cost_of_capital, maintenance_per_year and staff_per_month, which planner's formulas read for owning's cost beyond capital, power and rack and for the NPV after tax and along the prices' paths over the term (a workbook made by an older planner has none); " +
		"planner takes 0 for each, which keeps this workbook's figures as they were. To set one, add a row with its name, its value and its unit (cost_of_capital: %, maintenance_per_year: %, staff_per_month: $/month) under the last input"
	if got := warnings.Error(); got != want {
		t.Errorf("warning\n%s\nwant\n%s", got, want)
	}
	values := func(m domain.Model) map[string]float64 {
		p, err := engine.Build(m)
		if err != nil {
			t.Fatal(err)
		}
		r, err := p.Eval(domain.Scenario{Name: domain.Base})
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
	if p, w := withLaterInputs(&full); p != nil || w != nil {
		t.Errorf("with the rows: %v, %v", p, w)
	}
}

// A later input's row with its name mistyped is refused at its cell, not
// taken as 0 with the row's number dropped; followed, the advice leaves
// the number in use.
func TestLaterInputMistyped(t *testing.T) {
	for _, typed := range []string{"cost_of_captial", "Cost_Of_Capital"} {
		m := DefaultModel()
		for i := range m.Inputs {
			if in := &m.Inputs[i]; in.Name == domain.CostOfCapital {
				in.Name, in.Value = typed, domain.Num(0.08)
				in.Origin = diag.Origin{File: "plan.xlsx", Sheet: "Assumptions", Row: 15, Col: 2}
			}
		}
		problems, _ := withLaterInputs(&m)
		want := "plan.xlsx: Assumptions!B15: " + typed + ": no formula reads " + typed +
			"; planner's formulas read cost_of_capital (did you mean cost_of_capital?): rename the row to cost_of_capital"
		if got := problems.Error(); got != want {
			t.Errorf("got\n%s\nwant\n%s", got, want)
		}
	}
}

// A real workbook of planner 0.1, the one the command's tests upgrade, is
// given the four later inputs at 0, each marked as planner's and not the
// workbook's; the warnings name them and 0.1's two built-in formulas its
// Formulas sheet holds.
func TestPlanner01WorkbookGetsTheLaterInputs(t *testing.T) {
	b, err := Read("../testdata/older/planner-0.1.xlsx")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{domain.CostOfCapital, domain.MaintenancePerYear, domain.NetworkPerMonth, domain.StaffPerMonth,
		domain.SoftwarePerGPUYear, domain.TaxRate, domain.Depreciation, domain.RentChange, domain.ElectricityChange, domain.GPUIdleWatts} {
		in, ok := b.Model.Input(name)
		if !ok || !in.Defaulted || in.Value != domain.Num(0) {
			t.Errorf("%s: %+v (found %v), want 0 given by planner", name, in, ok)
		}
	}
	got := b.Warnings.Error()
	for _, want := range []string{"Assumptions: has no row for cost_of_capital, depreciation, electricity_price_change_per_year, gpu_idle_watts, maintenance_per_year, network_per_month, rent_price_change_per_year, software_per_gpu_year, staff_per_month and tax_rate,",
		"Formulas!B4: capital_per_gpu_hour: is the built-in formula of an earlier planner;",
		"Formulas!B9: cost_per_gpu_hour: is the built-in formula of an earlier planner;"} {
		if !strings.Contains(got, want) {
			t.Errorf("warnings\n%s\nsay nothing of\n%s", got, want)
		}
	}
}
