package montecarlo

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"planner/domain"
	"planner/engine"
	"planner/engine/enginetest"
)

// correlatedModel varies capex, utilisation (PERT, drawn out of order, so
// the correlator sorts its values), the electricity price (lognormal) and
// the rack price, and correlates three of them.
func correlatedModel() domain.Model {
	m := enginetest.SpecModel()
	for i := range m.Inputs {
		switch m.Inputs[i].Name {
		case "capex":
			m.Inputs[i].Dist = &domain.Distribution{Kind: "triangular", Params: []float64{250000, 285000, 320000}}
		case "utilization":
			m.Inputs[i].Dist = &domain.Distribution{Kind: "pert", Params: []float64{0.2, 0.5, 0.9}}
		case "electricity_price":
			m.Inputs[i].Dist = &domain.Distribution{Kind: "lognormal", Params: []float64{math.Log(0.12), 0.2}}
		case "rack_per_month":
			m.Inputs[i].Dist = &domain.Distribution{Kind: "triangular", Params: []float64{750, 1000, 1500}}
		}
	}
	m.Correlations = []domain.Correlation{{A: "electricity_price", B: "rack_per_month", Rho: 0.5},
		{A: "utilization", B: "electricity_price", Rho: -0.3}}
	return m
}

// handOutputs are the owning lines of SpecModel worked by hand from one
// sample's inputs (SPEC.md §3: 8 cards, 36 × 730 h, 700 W × 1.3, no
// residual, cost of capital, maintenance, staff or network).
type handOutputs struct{ capital, power, rack, cost, used, util float64 }

func byHand(capex, util, price, rack float64) handOutputs {
	h := handOutputs{capital: capex / 8 / (36 * 730), power: 0.7 * 1.3 * price, rack: rack / 8 / 730, util: util}
	h.cost = h.capital + h.power + h.rack
	h.used = h.cost / util
	return h
}

// drawnByHand draws every block of a run as the run does (block k always
// draws the same samples) and works out each sample's outputs by hand.
func drawnByHand(t *testing.T, p *engine.Plan, opts Options) []handOutputs {
	t.Helper()
	mc, err := newRun(p, domain.Scenario{Name: domain.Base}, opts)
	if err != nil {
		t.Fatal(err)
	}
	w, err := mc.newWorker(0)
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for j, name := range namesOf(mc.sampled) {
		col[name] = j
	}
	var out []handOutputs
	for k := 0; k*blockSize < opts.Samples; k++ {
		n := w.draw(k)
		for i := range n {
			v := func(name string) float64 { return w.cols[col[name]][i] }
			out = append(out, byHand(v("capex"), v("utilization"), v("electricity_price"), v("rack_per_month")))
		}
	}
	return out
}

func closeTo(got, want, rel float64) bool {
	return math.Abs(got-want) <= rel*math.Max(math.Abs(want), 1e-300)
}

func mean(xs []float64) float64 {
	var sum float64
	for _, x := range xs {
		sum += x
	}
	return sum / float64(len(xs))
}

// A correlated run reports its samples' statistics exactly: the mean,
// percentiles (type 7, from a sorted copy), extremes, where the base falls
// and the share of samples in which owning is cheaper, all worked out here
// from the drawn inputs. The sizes end in a part block, and one stays
// within the pilot.
func TestCorrelatedRunReportsItsSamples(t *testing.T) {
	p, err := engine.Build(correlatedModel(), Check)
	if err != nil {
		t.Fatal(err)
	}
	for _, samples := range []int{1000, 50_000} {
		opts := Options{Samples: samples, Seed: 7, Workers: 2, Histograms: []string{"cost_per_used_hour"}}
		r, err := Run(context.Background(), p, domain.Scenario{Name: domain.Base}, opts)
		if err != nil {
			t.Fatal(err)
		}
		drawn := drawnByHand(t, p, opts)
		if r.Samples != samples || r.Good != samples || len(drawn) != samples {
			t.Fatalf("%d samples: %d reported, %d good, %d drawn", samples, r.Samples, r.Good, len(drawn))
		}
		base := byHand(285000, 0.5, 0.12, 1000)
		for _, c := range []struct {
			name string
			of   func(handOutputs) float64
		}{
			{"capital_per_gpu_hour", func(h handOutputs) float64 { return h.capital }},
			{"power_per_gpu_hour", func(h handOutputs) float64 { return h.power }},
			{"cost_per_gpu_hour", func(h handOutputs) float64 { return h.cost }},
			{"cost_per_used_hour", func(h handOutputs) float64 { return h.used }},
		} {
			xs := make([]float64, samples)
			for i, h := range drawn {
				xs[i] = c.of(h)
			}
			checkStats(t, fmt.Sprintf("%d samples: %s", samples, c.name), stat(t, r, c.name), xs, c.of(base))
		}
		for _, o := range r.OwnCheaper {
			cheaper := 0
			for _, h := range drawn {
				if h.util >= h.cost/o.Offer.Price {
					cheaper++
				}
			}
			if want := float64(cheaper) / float64(samples); !closeTo(o.Probability, want, 1e-12) {
				t.Errorf("%d samples: P(owning cheaper than %s) = %v, the samples say %v", samples, o.Offer.Label(), o.Probability, want)
			}
		}
		if h := stat(t, r, "cost_per_used_hour").Histogram; sum(h) != samples {
			t.Errorf("%d samples: the histogram counts %d", samples, sum(h))
		}
	}
}

// checkStats holds s to the statistics of xs, computed the obvious way.
func checkStats(t *testing.T, what string, s Stats, xs []float64, base float64) {
	t.Helper()
	sorted := slices.Sorted(slices.Values(xs))
	below := 0.0
	for _, x := range xs {
		switch {
		case x < base:
			below++
		case x == base:
			below += 0.5
		}
	}
	for _, c := range []struct {
		name      string
		got, want float64
		rel       float64
	}{
		{"mean", s.Mean, mean(xs), 1e-9},
		{"P5", s.P5, sortedPercentile(xs, 0.05), 1e-12},
		{"P50", s.P50, sortedPercentile(xs, 0.5), 1e-12},
		{"P95", s.P95, sortedPercentile(xs, 0.95), 1e-12},
		{"min", s.Min, sorted[0], 1e-12},
		{"max", s.Max, sorted[len(sorted)-1], 1e-12},
		{"base", s.Base, base, 1e-12},
		{"base rank", s.BaseRank, below / float64(len(xs)), 1e-12},
	} {
		if !closeTo(c.got, c.want, c.rel) {
			t.Errorf("%s: %s %v, the samples say %v", what, c.name, c.got, c.want)
		}
	}
}

func sum(xs []int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	return n
}

// The lines linear in one sampled input average to that input's
// distribution's mean, within four standard errors: capex and the rack
// price triangular, the electricity price lognormal. The declared rank
// correlations hold among the drawn inputs.
func TestCorrelatedRunMeetsTheDistributions(t *testing.T) {
	p, err := engine.Build(correlatedModel(), Check)
	if err != nil {
		t.Fatal(err)
	}
	const n = 50_000
	r, err := Run(context.Background(), p, domain.Scenario{Name: domain.Base}, Options{Samples: n, Seed: 7, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	triangular := func(a, b, c float64) (mean, sd float64) {
		return (a + b + c) / 3, math.Sqrt((a*a + b*b + c*c - a*b - a*c - b*c) / 18)
	}
	capexMean, capexSD := triangular(250000, 285000, 320000)
	rackMean, rackSD := triangular(750, 1000, 1500)
	sigma := 0.2
	priceMean := 0.12 * math.Exp(sigma*sigma/2)
	priceSD := priceMean * math.Sqrt(math.Exp(sigma*sigma)-1)
	perCapex, perRack, perPrice := 1.0/8/(36*730), 1.0/8/730, 0.7*1.3
	for _, c := range []struct {
		name     string
		mean, sd float64
	}{
		{"capital_per_gpu_hour", capexMean * perCapex, capexSD * perCapex},
		{"rack_per_gpu_hour", rackMean * perRack, rackSD * perRack},
		{"power_per_gpu_hour", priceMean * perPrice, priceSD * perPrice},
	} {
		if got := stat(t, r, c.name).Mean; math.Abs(got-c.mean) > 4*c.sd/math.Sqrt(n) {
			t.Errorf("%s: mean %v, the distribution's %v (tolerance %v)", c.name, got, c.mean, 4*c.sd/math.Sqrt(n))
		}
	}
	drawn := drawnByHand(t, p, Options{Samples: n, Seed: 7})
	col := func(of func(handOutputs) float64) []float64 {
		xs := make([]float64, n)
		for i, h := range drawn {
			xs[i] = of(h)
		}
		return xs
	}
	util, power, rack := col(func(h handOutputs) float64 { return h.util }), col(func(h handOutputs) float64 { return h.power }),
		col(func(h handOutputs) float64 { return h.rack })
	for _, c := range []struct {
		name string
		a, b []float64
		rho  float64
	}{{"electricity_price ~ rack_per_month", power, rack, 0.5}, {"utilization ~ electricity_price", util, power, -0.3}} {
		if got := spearman(c.a, c.b); math.Abs(got-c.rho) > 0.03 {
			t.Errorf("%s: rank correlation %.3f, declared %.2f", c.name, got, c.rho)
		}
	}
}
