package engine_test

import (
	"testing"

	"planner/domain"
	"planner/engine"
	"planner/engine/enginetest"
)

// A choice whose condition is the same in every sample of a batch (an
// input held fixed: no cost of capital, or one) is evaluated on the branch
// it takes alone, and gives, sample for sample, what evaluating each
// sample in full gives, as does a batch in which the condition's input
// varies too.
func TestBatchTakesFixedBranches(t *testing.T) {
	p, err := engine.Build(enginetest.SpecModel())
	if err != nil {
		t.Fatal(err)
	}
	capexes, residuals := []float64{250000, 285000, 320000}, []float64{0, 0.1, 0.3}
	names := []string{"capital_per_month", "capital_per_gpu_hour", "cost_per_used_hour", "depreciation_pv", "tax_shield_pv"}
	for _, rate := range []float64{0, 0.08} {
		sc := domain.Scenario{Name: domain.Base, Set: map[string]domain.Value{"cost_of_capital": domain.Num(rate)}}
		fixed, err := p.NewBatch(sc, []string{"capex", "residual"}, len(capexes))
		if err != nil {
			t.Fatal(err)
		}
		both, err := p.NewBatch(sc, []string{"capex", "residual", "cost_of_capital"}, len(capexes))
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range []*engine.Batch{fixed, both} {
			copy(b.Input(0), capexes)
			copy(b.Input(1), residuals)
			if len(b.Offers()) == 0 {
				t.Fatal("the batch compares no offer")
			}
		}
		for i := range both.Input(2) {
			both.Input(2)[i] = rate
		}
		fixed.Run(len(capexes))
		both.Run(len(capexes))
		for i := range capexes {
			set := map[string]domain.Value{"cost_of_capital": domain.Num(rate), "capex": domain.Num(capexes[i]), "residual": domain.Num(residuals[i])}
			want := enginetest.Eval(t, set).Values
			for _, name := range names {
				for label, b := range map[string]*engine.Batch{"fixed": fixed, "both": both} {
					col, one, _ := b.Column(name)
					got := one
					if col != nil {
						got = col[i]
					}
					if got != want[name] {
						t.Errorf("rate %v, sample %d, %s batch: %s %v, evaluated alone %v", rate, i, label, name, got, want[name])
					}
				}
			}
		}
		checkOffers(t, fixed, capexes, residuals, rate)
		runs, _ := engine.BatchInstructions(fixed)
		if all := engine.VaryingInstructions(p, "capex", "residual"); runs >= all {
			t.Errorf("rate %v: the batch runs %d instructions of the %d that depend on capex and residual", rate, runs, all)
		}
	}
}

// checkOffers compares the batch's per-offer values, owning's NPV and the
// break-even, with each sample's evaluation alone; what does not depend on
// the offer is computed once per block for all of them.
func checkOffers(t *testing.T, b *engine.Batch, capexes, residuals []float64, rate float64) {
	t.Helper()
	for k, o := range b.Offers() {
		b.RunOffer(k, len(capexes))
		for i := range capexes {
			set := map[string]domain.Value{"cost_of_capital": domain.Num(rate), "capex": domain.Num(capexes[i]), "residual": domain.Num(residuals[i])}
			want := enginetest.Offer(t, enginetest.Eval(t, set), o.Provider, o.Name).Values
			for _, name := range []string{domain.NPVSaving, domain.Breakeven} {
				col, one := b.OfferColumn(k, name)
				got := one
				if col != nil {
					got = col[i]
				}
				if got != want[name] {
					t.Errorf("rate %v, sample %d, %s: %s %v, evaluated alone %v", rate, i, o.Label(), name, got, want[name])
				}
			}
		}
	}
}

// A batch gives a temporary a column an earlier one no longer needs, and
// still gives what each sample's evaluation alone gives (above).
func TestBatchReusesColumns(t *testing.T) {
	p, err := engine.Build(enginetest.SpecModel())
	if err != nil {
		t.Fatal(err)
	}
	sc := domain.Scenario{Name: domain.Base, Set: map[string]domain.Value{"cost_of_capital": domain.Num(0.08)}}
	b, err := p.NewBatch(sc, []string{"capex", "residual", "cost_of_capital"}, 4)
	if err != nil {
		t.Fatal(err)
	}
	if slots, columns := engine.WrittenColumns(b); columns >= slots {
		t.Errorf("the batch writes %d slots into %d columns", slots, columns)
	}
	capexes, residuals := []float64{250000, 285000, 320000, 300000}, []float64{0, 0.1, 0.3, 0.2}
	copy(b.Input(0), capexes)
	copy(b.Input(1), residuals)
	for i := range b.Input(2) {
		b.Input(2)[i] = 0.08
	}
	b.Run(len(capexes))
	for i := range capexes {
		set := map[string]domain.Value{"cost_of_capital": domain.Num(0.08), "capex": domain.Num(capexes[i]), "residual": domain.Num(residuals[i])}
		want := enginetest.Eval(t, set).Values
		for _, name := range []string{"capital_per_month", "cost_per_gpu_hour", "depreciation_pv", "tax_shield_pv"} {
			col, one, _ := b.Column(name)
			got := one
			if col != nil {
				got = col[i]
			}
			if got != want[name] {
				t.Errorf("sample %d: %s %v, evaluated alone %v", i, name, got, want[name])
			}
		}
	}
	checkOffers(t, b, capexes, residuals, 0.08)
}
