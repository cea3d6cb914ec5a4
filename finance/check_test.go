package finance_test

import (
	"testing"

	"planner/diag"
	"planner/domain"
	"planner/engine"
	"planner/engine/enginetest"
	"planner/finance"
	"planner/formulas"
)

// A workbook's own cost per GPU-hour that leaves out maintenance while
// Assumptions gives it is pointed out at the formula, with the built-in to
// copy; the built-in itself, or maintenance at 0, says nothing.
func TestOwnCostFormulaThatLeavesALineOut(t *testing.T) {
	m := enginetest.SpecModel()
	for i := range m.Inputs {
		if in := &m.Inputs[i]; in.Name == domain.MaintenancePerYear {
			in.Value, in.Unit = domain.Num(0.05), "%"
			in.Origin = diag.Origin{File: "plan.xlsx", Sheet: "Assumptions", Row: 16, Col: 2}
		}
	}
	own := formulas.Formula{Name: domain.CostPerGPUHour, Source: "capital_per_gpu_hour + power_per_gpu_hour + rack_per_gpu_hour + 0.05",
		Unit: "$/GPU-h", Origin: diag.Origin{File: "plan.xlsx", Sheet: "Formulas", Row: 17, Col: 2}}
	builtin := m
	m.Formulas = formulas.Merge(formulas.Library(), []formulas.Formula{own})
	p, err := engine.Build(m, finance.Check)
	if err != nil {
		t.Fatal(err)
	}
	want := "plan.xlsx: Formulas!B17: cost_per_gpu_hour: does not read maintenance_per_year, which Assumptions!B16 sets to 5.0 %: the break-even and the verdicts leave it out, while the NPV and the Cash flow sheet count it; " +
		"write the expression as the built-in does, capital_per_gpu_hour + power_per_gpu_hour + rack_per_gpu_hour + maintenance_per_gpu_hour + staff_per_gpu_hour + network_per_gpu_hour + software_per_gpu_hour, or delete the row to use the built-in"
	if got := p.Warnings().Error(); got != want {
		t.Errorf("warning\n%s\nwant\n%s", got, want)
	}
	if p, err := engine.Build(builtin, finance.Check); err != nil || p.Warnings() != nil {
		t.Errorf("the built-in: %v, %v", err, p.Warnings())
	}
}
