package engine

import "testing"

// An evaluator that knows which input varies runs only what depends on it,
// and gives what a full evaluation gives.
func TestEvaluatorRunsWhatVaries(t *testing.T) {
	p, _ := Build(specModel())
	ev, err := p.NewEvaluator(Scenario{Name: Base}, "capex")
	if err != nil {
		t.Fatal(err)
	}
	capex, _ := p.Slot("capex")
	cost, _ := p.Slot("cost_per_gpu_hour")
	for _, c := range []float64{250000, 320000} {
		ev.Set(capex, c)
		ev.Run()
		want := evalSpec(t, map[string]Value{"capex": Num(c)}).Values["cost_per_gpu_hour"]
		if got := ev.Get(cost); got != want {
			t.Errorf("capex %v: %v, full evaluation %v", c, got, want)
		}
	}
	if len(ev.code) >= len(p.prog.node) {
		t.Errorf("runs %d of %d instructions", len(ev.code), len(p.prog.node))
	}
	if _, err := p.NewEvaluator(Scenario{Name: Base}, "capx"); err == nil || err.Error() != "capx is not an input (did you mean capex?)" {
		t.Errorf("got %v", err)
	}
}
