package enginetest

import (
	"testing"

	"planner/domain"
)

// The baseline computes what planner computes, so the comparison is fair.
func TestBaselineMatchesPlanner(t *testing.T) {
	r := Eval(t, nil)
	var out NodeOutputs
	in := DefaultInputs()
	HandWritten(&in, &out)
	same(t, r.Values, out)
	// And with every line beyond the article's three.
	set := map[string]domain.Value{"cost_of_capital": domain.Num(0.08), "residual": domain.Num(0.3),
		"maintenance_per_year": domain.Num(0.05), "staff_per_month": domain.Num(400), "network_per_month": domain.Num(150)}
	in.Rate, in.Residual, in.Maintenance, in.Staff, in.Network = 0.08, 0.3, 0.05, 400, 150
	HandWritten(&in, &out)
	same(t, Eval(t, set).Values, out)
}

func same(t *testing.T, got map[string]float64, out NodeOutputs) {
	t.Helper()
	for name, want := range map[string]float64{"per_gpu_capex": out.PerGPU, "capital_per_gpu_hour": out.Capital,
		"capital_per_month": out.CapitalMonth, "annuity_factor": out.Annuity, "power_per_month": out.PowerMonth,
		"maintenance_per_gpu_hour": out.Maintenance, "cost_per_gpu_hour": out.Cost, "cost_per_used_hour": out.Used,
		"node_cost_per_month": out.NodeMonth, "running_cost_per_month": out.Running} {
		if got[name] != want {
			t.Errorf("%s: planner %v, hand-written %v", name, got[name], want)
		}
	}
}
