package montecarlo

import (
	"context"
	"reflect"
	"testing"

	"planner/domain"
	"planner/engine"
	"planner/engine/enginetest"
)

// In the default model, the power bill per GPU-hour is the bill per month
// over constants, and a node's cost per month the cost per GPU-hour times
// constants: both follow another output, and a follower may be followed.
// Outputs built from several varying ones, or by an order-reversing step,
// do not.
func TestRescalingsFound(t *testing.T) {
	m := uncertainModel()
	m.Formulas = append(m.Formulas, enginetest.Formulas("hours_per_dollar = 1 / cost_per_gpu_hour", "saving = 0 - cost_per_gpu_hour",
		"cost_in_cents = (cost_per_gpu_hour + 0.5) * 100 / 1", "node_cost_per_year = node_cost_per_month * 12")...)
	p, err := engine.Build(m, Check)
	if err != nil {
		t.Fatal(err)
	}
	mc, err := newRun(p, domain.Scenario{Name: domain.Base}, Options{Samples: 1000})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range p.Formulas() {
		if !p.PerOffer(f.Name) {
			mc.outputs = append(mc.outputs, f.Name)
		}
	}
	if mc.probe, err = mc.newBatch(1); err != nil {
		t.Fatal(err)
	}
	mc.prepare()
	got := map[string]string{}
	for o, r := range mc.follows {
		if r != nil {
			got[mc.outputs[o]] = mc.outputs[r.source]
		}
	}
	want := map[string]string{"power_per_gpu_hour": "power_per_month", "node_cost_per_month": "cost_per_gpu_hour",
		"cost_in_cents": "cost_per_gpu_hour", "node_cost_per_year": "node_cost_per_month",
		"maintenance_per_gpu_hour": "maintenance_per_month"}
	if len(got) != len(want) {
		t.Errorf("followers %v, want %v", got, want)
	}
	for name, source := range want {
		if got[name] != source {
			t.Errorf("%s follows %q, want %q", name, got[name], source)
		}
	}
}

// An output counted through the one it follows has exactly the statistics
// it has when counted itself (asking for its histogram counts it itself).
func TestRescaledStatisticsAreExact(t *testing.T) {
	m := uncertainModel()
	m.Formulas = append(m.Formulas, enginetest.Formulas("node_cost_per_year = node_cost_per_month * 12")...)
	p, err := engine.Build(m, Check)
	if err != nil {
		t.Fatal(err)
	}
	run := func(histograms ...string) map[string]Stats {
		r, err := Run(context.Background(), p, domain.Scenario{Name: domain.Base}, Options{Samples: 60_000, Seed: 5, Histograms: histograms})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]Stats{}
		for _, s := range r.Outputs {
			s.Histogram, s.Edges = nil, nil
			out[s.Name] = s
		}
		return out
	}
	followers := []string{"power_per_gpu_hour", "node_cost_per_month", "node_cost_per_year"}
	through, counted := run(), run(followers...)
	for _, name := range followers {
		if !reflect.DeepEqual(through[name], counted[name]) {
			t.Errorf("%s counted through another: %+v; counted itself: %+v", name, through[name], counted[name])
		}
	}
}
