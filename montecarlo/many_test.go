package montecarlo

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"planner/domain"
	"planner/engine"
	"planner/formulas"
)

// grownScenarios are n scenarios setting capex and utilisation, as a
// Scenarios sheet of many columns does, after the base.
func grownScenarios(n int) []domain.Scenario {
	out := []domain.Scenario{{Name: domain.Base}}
	for i := range n {
		out = append(out, domain.Scenario{Name: fmt.Sprintf("grown %d", i+1), Set: map[string]domain.Value{
			"capex":       domain.Num(250000 + 70000*float64(i)/float64(n)),
			"utilization": domain.Num(0.25 + 0.65*float64((i*37)%n)/float64(n)),
		}})
	}
	return out
}

// TestRunAllIsRunOfEach: running scenarios side by side, sharing their
// draws and buffers, gives each scenario exactly what Run gives it alone,
// whether the run is all pilot or longer, on one core or several.
func TestRunAllIsRunOfEach(t *testing.T) {
	p, err := engine.Build(uncertainModel(), Check)
	if err != nil {
		t.Fatal(err)
	}
	scenarios := append(grownScenarios(6), domain.Scenario{Name: "low power", Set: map[string]domain.Value{"electricity_price": domain.Num(0.09)}},
		domain.Scenario{Name: "cheap", Set: map[string]domain.Value{"capex": domain.Num(251000)}})
	for _, samples := range []int{3000, 20000} {
		for _, workers := range []int{0, 1} {
			opts := Options{Samples: samples, Seed: 7, Workers: workers, Histograms: []string{"cost_per_gpu_hour"}}
			var mu sync.Mutex
			done := 0
			opts.Progress = func(d int) { mu.Lock(); done = max(done, d); mu.Unlock() } // from several cores
			all, err := RunAll(context.Background(), p, scenarios, opts)
			if err != nil {
				t.Fatal(err)
			}
			if done != samples*len(scenarios) {
				t.Errorf("%d samples, %d workers: progress reached %d, want %d", samples, workers, done, samples*len(scenarios))
			}
			opts.Progress = nil
			for i, sc := range scenarios {
				alone, err := Run(context.Background(), p, sc, opts)
				if err != nil {
					t.Fatal(err)
				}
				if got, want := printed(all[i]), printed(alone); got != want {
					t.Errorf("%d samples, %d workers, %s: RunAll gave\n%s\nRun gave\n%s", samples, workers, sc.Name, got, want)
				}
			}
			if all[1].Outputs[0].Mean == all[0].Outputs[0].Mean {
				t.Errorf("grown 1's %s is the base's: %v", all[0].Outputs[0].Name, all[0].Outputs[0].Mean)
			}
		}
	}
}

// printed is every number of a result, the NPV's statistics too.
func printed(r *Result) string {
	out := fmt.Sprintf("%+v %+v %v %v %q %+v\n", r.Sampled, r.Held, r.Samples, r.Good, r.FirstFailure, r.Outputs)
	for _, oc := range r.OwnCheaper {
		out += fmt.Sprintf("%s %v %v %v", oc.Offer.Label(), oc.Probability, oc.NPVAboveZero, oc.Evaluated)
		if oc.NPV != nil {
			out += fmt.Sprintf(" %+v", *oc.NPV)
		}
		out += "\n"
	}
	return out
}

// grownFormulas is the uncertain model with n more formulas, each the cost
// per GPU-hour moved and stretched by constants of its own.
func grownFormulas(n int) domain.Model {
	m := uncertainModel()
	for i := range n {
		m.Formulas = append(m.Formulas, formulas.Formula{Name: fmt.Sprintf("grown_%d", i+1),
			Source: fmt.Sprintf("cost_per_gpu_hour * %v + %d", 1+float64(i)/float64(n), i), Unit: "$/GPU-hour"})
	}
	return m
}

// TestManyFormulasFollowTheirSource: formulas that only move and stretch
// another are summarised through it, a thousand as well as one.
func TestManyFormulasFollowTheirSource(t *testing.T) {
	p, err := engine.Build(grownFormulas(1000), Check)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Run(context.Background(), p, domain.Scenario{Name: domain.Base}, Options{Samples: 2000, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	stats := map[string]Stats{}
	for _, s := range r.Outputs {
		stats[s.Name] = s
	}
	src, last := stats["cost_per_gpu_hour"], stats["grown_1000"]
	k := 1 + 999.0/1000
	if want := src.P50*k + 999; last.P50 != want {
		t.Errorf("grown_1000's P50 = %v, want %v (cost_per_gpu_hour's %v × %v + 999)", last.P50, want, src.P50, k)
	}
	if last.Min != src.Min*k+999 || last.Max != src.Max*k+999 {
		t.Errorf("grown_1000 ranges %v..%v, want %v..%v", last.Min, last.Max, src.Min*k+999, src.Max*k+999)
	}
}
