package engine_test

import (
	"testing"

	"planner/domain"
	"planner/engine"
)

// powerByHand is a node's electricity a month by hand: 8 cards at the
// facility factor 1.3 and $0.12 a kWh over 730 hours, busy for the
// utilisation's share of them at the board watts and idle the rest at the
// idle watts (the board watts when none are given).
func powerByHand(board, idle, utilization float64) float64 {
	if idle == 0 {
		idle = board
	}
	kw := func(w float64) float64 { return w * 8 * 1.3 / 1000 }
	return (kw(board)*utilization + kw(idle)*(1-utilization)) * 730 * 0.12
}

// Idle watts typed in Assumptions, taken from the catalog when they are 0
// there and the board watts come from it too, and set by a scenario: the
// power a month follows the load in each; without any, the full draw all
// month, as the article counts.
func TestPowerFollowsTheLoadWithIdleWatts(t *testing.T) {
	m := catalogModel()
	for i := range m.GPUs {
		if m.GPUs[i].Name == "B200" {
			m.GPUs[i].IdleWatts = 140
		}
	}
	m.Scenarios = append(m.Scenarios,
		domain.Scenario{Name: "B200 at 200 W idle", Set: map[string]domain.Value{"gpu": domain.Text("B200"), domain.GPUIdleWatts: domain.Num(200)}},
		domain.Scenario{Name: "H100 at 90 W idle, a quarter busy", Set: map[string]domain.Value{domain.GPUIdleWatts: domain.Num(90), domain.Utilization: domain.Num(0.25)}})
	p, err := engine.Build(m)
	if err != nil {
		t.Fatal(err)
	}
	results, err := p.EvalAll(nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{
		domain.Base:                         powerByHand(700, 0, 0.5),
		"B200 node":                         powerByHand(1000, 140, 0.5),
		"MI300X node":                       powerByHand(750, 0, 0.5),
		"MI300X at 900 W":                   powerByHand(900, 0, 0.5),
		"B200 at 200 W idle":                powerByHand(1000, 200, 0.5),
		"H100 at 90 W idle, a quarter busy": powerByHand(700, 90, 0.25),
	}
	for _, r := range results {
		if got := r.Values[domain.PowerPerMonth]; !near(got, want[r.Scenario]) {
			t.Errorf("%s: power a month %v, want %v", r.Scenario, got, want[r.Scenario])
		}
		if fromCatalog := r.CatalogIdleWatts != nil; fromCatalog != (r.Scenario == "B200 node") {
			t.Errorf("%s: idle watts from the catalog %v", r.Scenario, fromCatalog)
		}
	}
}
