package montecarlo

import (
	"context"
	"crypto/sha256"
	"fmt"
	"math"
	"strings"
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

// digest is a hash of everything a run reports as numbers, each written
// in full (Go's shortest form reads back to the same bits).
func digest(r *Result) string {
	var b strings.Builder
	stats := func(s *Stats) {
		fmt.Fprintln(&b, s.Name, s.Mean, s.P5, s.P50, s.P95, s.Min, s.Max, s.Base, s.BaseRank, s.Histogram, s.Edges)
	}
	fmt.Fprintln(&b, r.Samples, r.Good, r.FirstFailure)
	for i := range r.Outputs {
		stats(&r.Outputs[i])
	}
	for _, o := range r.OwnCheaper {
		fmt.Fprintln(&b, o.Offer.Label(), o.Probability, o.NPVAboveZero, o.Evaluated)
		if o.NPV != nil {
			stats(o.NPV)
		}
	}
	return fmt.Sprintf("%x", sha256.Sum256([]byte(b.String())))[:16]
}

// A correlated run reports, to the last bit, what it reported when the
// correlator ranked with slices.Sort: the digests were recorded then. The
// sizes end in a part block, and one stays within the pilot.
func TestCorrelatedRunIsUnchanged(t *testing.T) {
	p, err := engine.Build(correlatedModel(), Check)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		samples int
		want    string
	}{{1000, "ace2abf2de1fc191"}, {50_000, "e736baf54c68cb73"}} {
		r, err := Run(context.Background(), p, domain.Scenario{Name: domain.Base}, Options{Samples: c.samples, Seed: 7, Workers: 2,
			Histograms: []string{"cost_per_used_hour"}})
		if err != nil {
			t.Fatal(err)
		}
		if got := digest(r); got != c.want {
			t.Errorf("%d samples: digest %s, recorded %s", c.samples, got, c.want)
		}
	}
}
