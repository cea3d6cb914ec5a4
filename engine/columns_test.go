package engine_test

import (
	"testing"

	"planner/domain"
	"planner/engine"
	"planner/engine/enginetest"
)

// A batch made in columns an earlier batch gave back, left with that
// batch's values, gives what a batch of its own gives, sample for sample:
// with another scenario, other inputs varying and a shorter block.
func TestBatchInReusedColumns(t *testing.T) {
	p, err := engine.Build(enginetest.SpecModel())
	if err != nil {
		t.Fatal(err)
	}
	cols := &engine.Columns{}
	first := domain.Scenario{Name: domain.Base, Set: map[string]domain.Value{"cost_of_capital": domain.Num(0.08)}}
	a, err := p.NewBatchIn(cols, first, []string{"capex", "residual", "cost_of_capital"}, 4)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		for j := range 4 {
			a.Input(i)[j] = 1e9 + float64(j)
		}
	}
	a.Run(4)
	cols.Reuse()
	second := domain.Scenario{Name: "cheap", Set: map[string]domain.Value{"utilization": domain.Num(0.4)}}
	vary := []string{"capex", "electricity_price"}
	b, err := p.NewBatchIn(cols, second, vary, 4)
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := p.NewBatch(second, vary, 4)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range []*engine.Batch{b, fresh} {
		copy(x.Input(0), []float64{250000, 285000, 320000})
		copy(x.Input(1), []float64{0.08, 0.12, 0.2})
		x.Run(3)
	}
	names := 0
	for _, f := range p.Formulas() {
		if p.PerOffer(f.Name) {
			continue
		}
		got, gotOne, _ := b.Column(f.Name)
		want, wantOne, _ := fresh.Column(f.Name)
		if (got == nil) != (want == nil) || (got == nil && gotOne != wantOne) {
			t.Errorf("%s: %v, %v; a batch of its own: %v, %v", f.Name, got, gotOne, want, wantOne)
			continue
		}
		for i := range min(len(got), 3) {
			if got[i] != want[i] {
				t.Errorf("%s, sample %d: %v; a batch of its own: %v", f.Name, i, got[i], want[i])
			}
		}
		if got != nil {
			names++
		}
	}
	if names == 0 {
		t.Error("no output varies")
	}
}
