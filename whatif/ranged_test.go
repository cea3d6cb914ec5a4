package whatif

import (
	"slices"
	"testing"

	"planner/domain"
	"planner/engine"
	"planner/engine/enginetest"
	"planner/montecarlo"
)

// inputRange is a low and high an input is given in the test, in its unit.
type inputRange struct {
	low, high float64
	unit      string
}

// npvBarsAgainstAWS gives SPEC's model the ranges (each triangular), and
// returns the base's NPV tornado against AWS, one bar per input, and the
// inputs Monte Carlo samples.
func npvBarsAgainstAWS(t *testing.T, ranges map[string]inputRange) (map[string]TornadoBar, []domain.Input) {
	t.Helper()
	m := enginetest.RangedSpecModel()
	for i, in := range m.Inputs {
		r, ok := ranges[in.Name]
		if !ok {
			continue
		}
		m.Inputs[i].Low, m.Inputs[i].High, m.Inputs[i].HasRange, m.Inputs[i].Unit = r.low, r.high, true, r.unit
		d, err := montecarlo.ParseDistribution("triangular", m.Inputs[i])
		if err != nil {
			t.Fatal(err)
		}
		m.Inputs[i].Dist = d
	}
	p, err := engine.Build(m)
	if err != nil {
		t.Fatal(err)
	}
	base := domain.Scenario{Name: domain.Base}
	targets, err := Targets(p, base, []string{domain.NPVSaving})
	if err != nil {
		t.Fatal(err)
	}
	tors, err := Tornadoes(p, base, targets)
	if err != nil {
		t.Fatal(err)
	}
	bars := map[string]TornadoBar{}
	for i, tor := range tors {
		if targets[i].Offer.Provider != "AWS" {
			continue
		}
		for _, b := range tor.Bars {
			bars[b.Input.Name] = b
		}
	}
	return bars, montecarlo.SampledInputs(p, base)
}

// checkSampled fails the test for each name Monte Carlo does not sample.
func checkSampled(t *testing.T, sampled []domain.Input, names ...string) {
	t.Helper()
	for _, name := range names {
		if !slices.ContainsFunc(sampled, func(in domain.Input) bool { return in.Name == name }) {
			t.Errorf("Monte Carlo does not sample %s", name)
		}
	}
}
