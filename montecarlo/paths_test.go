package montecarlo

import (
	"math"
	"testing"

	"planner/domain"
	"planner/engine/enginetest"
)

// With the rent's yearly change uniform over -50 %..0 and everything else
// fixed, without a cost of capital, owning's NPV against AWS's $5.97 is
// 12 × its rent of the used hours × (1 + (1 + g) + (1 + g)²) less the
// running cost and the price, rising with g: its percentiles are the NPV
// at the uniform's.
func TestMonteCarloVariesTheRentPath(t *testing.T) {
	m := enginetest.SpecModel()
	for i := range m.Inputs {
		if m.Inputs[i].Name == domain.RentChange {
			m.Inputs[i].Dist = &domain.Distribution{Kind: "uniform", Params: []float64{-0.5, 0}}
		}
	}
	const n = 100_000
	r := runBase(t, m, Options{Samples: n, Seed: 7})
	rent, running := 5.97*8*730*0.5, 700*8*1.3/1000*730*0.12+1000
	npv := func(g float64) float64 { return 12*rent*(1+(1+g)+(1+g)*(1+g)) - 36*running - 285000 }
	for _, oc := range r.OwnCheaper {
		if oc.Offer.Provider != "AWS" {
			continue
		}
		if oc.NPV == nil {
			t.Fatal("no NPV statistics against AWS")
		}
		for _, q := range []struct {
			name    string
			got, at float64
		}{{"P5", oc.NPV.P5, 0.05}, {"P50", oc.NPV.P50, 0.5}, {"P95", oc.NPV.P95, 0.95}} {
			g := -0.5 + 0.5*q.at
			tolerance := 4 * 0.5 * 12 * rent * 3 * math.Sqrt(q.at*(1-q.at)/n)
			if want := npv(g); math.Abs(q.got-want) > tolerance {
				t.Errorf("NPV %s = %.2f, want %.2f ± %.2f (the NPV at g = %v)", q.name, q.got, want, tolerance, g)
			}
		}
		return
	}
	t.Fatal("no Monte Carlo result against AWS")
}
