package whatif

import (
	"math"
	"slices"
	"testing"

	"planner/domain"
	"planner/engine"
	"planner/engine/enginetest"
	"planner/montecarlo"
)

// A tax rate with a range swings the NPV like any input: from 0 to 30 %,
// at no cost of capital and no residual, owning against AWS is worth
// n × (1 − t) × cash saving − capex + t × capex (the depreciation's tax
// saving), (1 − t) × (36 × $15,794.672 − $285,000) at each end. Monte
// Carlo samples it too.
func TestTornadoAndMonteCarloVaryTheTaxRate(t *testing.T) {
	m := enginetest.RangedSpecModel()
	for i, in := range m.Inputs {
		if in.Name == domain.TaxRate {
			m.Inputs[i].Low, m.Inputs[i].High, m.Inputs[i].HasRange, m.Inputs[i].Unit = 0, 0.3, true, "%"
			d, err := montecarlo.ParseDistribution("triangular", m.Inputs[i])
			if err != nil {
				t.Fatal(err)
			}
			m.Inputs[i].Dist = d
		}
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
	saving := 5.97*8*730*0.5 - (700*8*1.3/1000*730*0.12 + 1000)
	before := 36*saving - 285000
	found := false
	for i, tor := range tors {
		if targets[i].Offer.Provider != "AWS" {
			continue
		}
		for _, b := range tor.Bars {
			if b.Input.Name != domain.TaxRate {
				continue
			}
			found = true
			if math.Abs(b.AtLow-before) > 1e-6 || math.Abs(b.AtHigh-0.7*before) > 1e-6 {
				t.Errorf("tax_rate swings AWS's NPV %v..%v, want %v..%v", b.AtLow, b.AtHigh, before, 0.7*before)
			}
		}
	}
	if !found {
		t.Error("the tornado has no bar for tax_rate against AWS")
	}
	sampled := montecarlo.SampledInputs(p, base)
	if !slices.ContainsFunc(sampled, func(in domain.Input) bool { return in.Name == domain.TaxRate }) {
		t.Error("Monte Carlo does not sample tax_rate")
	}
}
