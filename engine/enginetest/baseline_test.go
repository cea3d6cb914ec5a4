package enginetest

import "testing"

// The baseline computes what planner computes, so the comparison is fair.
func TestBaselineMatchesPlanner(t *testing.T) {
	r := Eval(t, nil)
	var out NodeOutputs
	in := DefaultInputs()
	HandWritten(&in, &out)
	for name, want := range map[string]float64{"per_gpu_capex": out.PerGPU, "capital_per_gpu_hour": out.Capital,
		"power_per_month": out.PowerMonth, "cost_per_gpu_hour": out.Cost, "cost_per_used_hour": out.Used, "node_cost_per_month": out.NodeMonth} {
		if got := r.Values[name]; got != want {
			t.Errorf("%s: planner %v, hand-written %v", name, got, want)
		}
	}
}
