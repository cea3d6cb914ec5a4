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

// A yearly change of the rent with a range swings the NPV like any input:
// from -50 % to 0, without a cost of capital, owning against AWS's $5.97
// is worth 12 months × its rent of the used hours × (1 + 0.5 + 0.25) at
// the low end, 36 months' at the high, less the running cost and the
// price. Electricity's change swings it the other way.
func TestTornadoVariesThePaths(t *testing.T) {
	m := enginetest.RangedSpecModel()
	ranges := map[string][2]float64{domain.RentChange: {-0.5, 0}, domain.ElectricityChange: {0, 0.2}}
	for i, in := range m.Inputs {
		if r, ok := ranges[in.Name]; ok {
			m.Inputs[i].Low, m.Inputs[i].High, m.Inputs[i].HasRange, m.Inputs[i].Unit = r[0], r[1], true, "%/year"
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
	rent, power := 5.97*8*730*0.5, 700*8*1.3/1000*730*0.12
	flat := 36*(rent-power-1000) - 285000
	want := map[string][2]float64{
		domain.RentChange:        {flat - rent*12*(0.5+0.75), flat},
		domain.ElectricityChange: {flat, flat - power*12*(0.2+0.44)},
	}
	found := 0
	for i, tor := range tors {
		if targets[i].Offer.Provider != "AWS" {
			continue
		}
		for _, b := range tor.Bars {
			w, ok := want[b.Input.Name]
			if !ok {
				continue
			}
			found++
			if math.Abs(b.AtLow-w[0]) > 1e-6 || math.Abs(b.AtHigh-w[1]) > 1e-6 {
				t.Errorf("%s swings AWS's NPV %v..%v, want %v..%v", b.Input.Name, b.AtLow, b.AtHigh, w[0], w[1])
			}
		}
	}
	if found != 2 {
		t.Errorf("the tornado against AWS has %d bars of the paths, want 2", found)
	}
	sampled := montecarlo.SampledInputs(p, base)
	for name := range ranges {
		if !slices.ContainsFunc(sampled, func(in domain.Input) bool { return in.Name == name }) {
			t.Errorf("Monte Carlo does not sample %s", name)
		}
	}
}
