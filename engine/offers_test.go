package engine_test

import (
	"fmt"
	"testing"

	"planner/domain"
	"planner/engine"
	"planner/engine/enginetest"
)

// A batch of more offers than it broadcasts ahead of time fills one set of
// columns with each offer's values as it runs the offer, and gives every
// offer, run in any order and on fewer samples than the block holds, what
// the batch that broadcast them ahead of time gives, and what evaluating
// the offer alone gives.
func TestManyOffersShareTheirColumns(t *testing.T) {
	m := enginetest.SpecModel()
	for k := range 600 {
		m.Offers = append(m.Offers, domain.Offer{Provider: "Many", Name: fmt.Sprintf("H100 %d", k), GPU: "H100 SXM", Price: 1.5 + 0.01*float64(k)})
	}
	p, err := engine.Build(m)
	if err != nil {
		t.Fatal(err)
	}
	sc := domain.Scenario{Name: domain.Base, Set: map[string]domain.Value{"cost_of_capital": domain.Num(0.08)}}
	capexes, residuals := []float64{250000, 285000, 320000}, []float64{0, 0.1, 0.3}
	batch := func(size int) *engine.Batch {
		b, err := p.NewBatch(sc, []string{"capex", "residual"}, size)
		if err != nil {
			t.Fatal(err)
		}
		copy(b.Input(0), capexes)
		copy(b.Input(1), residuals)
		b.Run(len(capexes))
		return b
	}
	shared, ahead := batch(1024), batch(len(capexes))
	if !engine.BroadcastsWhileRunning(shared) || engine.BroadcastsWhileRunning(ahead) {
		t.Fatalf("broadcast while running: %d samples %v, %d samples %v; want only the first",
			1024, engine.BroadcastsWhileRunning(shared), len(capexes), engine.BroadcastsWhileRunning(ahead))
	}
	offers := shared.Offers()
	if len(offers) < 600 {
		t.Fatalf("the batch compares %d offers, want at least 600", len(offers))
	}
	for _, k := range []int{len(offers) - 1, 0, 300, 0, len(offers) - 1} {
		shared.RunOffer(k, len(capexes))
		ahead.RunOffer(k, len(capexes))
		for i := range capexes {
			set := map[string]domain.Value{"cost_of_capital": domain.Num(0.08), "capex": domain.Num(capexes[i]), "residual": domain.Num(residuals[i])}
			alone, err := p.Eval(domain.Scenario{Name: domain.Base, Set: set})
			if err != nil {
				t.Fatal(err)
			}
			want := enginetest.Offer(t, alone, offers[k].Provider, offers[k].Name).Values
			for _, name := range []string{domain.NPVSaving, domain.Breakeven} {
				got, other := value(shared, k, i, name), value(ahead, k, i, name)
				if got != want[name] || other != want[name] {
					t.Errorf("%s, sample %d: %s %v broadcast while running, %v ahead, %v evaluated alone", offers[k].Label(), i, name, got, other, want[name])
				}
			}
		}
	}
}

func value(b *engine.Batch, k, i int, name string) float64 {
	col, one := b.OfferColumn(k, name)
	if col != nil {
		return col[i]
	}
	return one
}
