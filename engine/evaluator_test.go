package engine_test

import (
	"testing"

	"planner/domain"
	"planner/engine"
	"planner/engine/enginetest"
)

// An evaluator that knows which input varies runs only what depends on it,
// and gives what a full evaluation gives.
func TestEvaluatorRunsWhatVaries(t *testing.T) {
	p, _ := engine.Build(enginetest.SpecModel())
	ev, err := p.NewEvaluator(domain.Scenario{Name: domain.Base}, "capex")
	if err != nil {
		t.Fatal(err)
	}
	capex, _ := p.Slot("capex")
	cost, _ := p.Slot("cost_per_gpu_hour")
	for _, c := range []float64{250000, 320000} {
		ev.Set(capex, c)
		ev.Run()
		want := enginetest.Eval(t, map[string]domain.Value{"capex": domain.Num(c)}).Values["cost_per_gpu_hour"]
		if got := ev.Get(cost); got != want {
			t.Errorf("capex %v: %v, full evaluation %v", c, got, want)
		}
	}
	if runs, all := engine.Instructions(ev, p); runs >= all {
		t.Errorf("runs %d of %d instructions", runs, all)
	}
	if _, err := p.NewEvaluator(domain.Scenario{Name: domain.Base}, "capx"); err == nil || err.Error() != "capx is not an input (did you mean capex?)" {
		t.Errorf("got %v", err)
	}
}
