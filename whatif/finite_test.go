package whatif

import (
	"math"
	"strings"
	"testing"

	"planner/domain"
	"planner/engine"
	"planner/engine/enginetest"
	"planner/formulas"
	"planner/units"
)

// wideModel has one input x ranging over most of what a float64 holds,
// y = x · 1.5, which overflows at x's ends, and z = x, which does not.
func wideModel(t *testing.T) *engine.Plan {
	t.Helper()
	m := domain.Model{Inputs: []domain.Input{{Name: "x", Value: domain.Num(0), Low: -1.5e308, High: 1.5e308, HasRange: true}},
		Formulas: []formulas.Formula{{Name: "y", Source: "x * 1.5"}, {Name: "z", Source: "x + 0"}}}
	p, err := engine.Build(m)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// A swing further than the largest float64 is not printed as +Inf: the
// bar keeps its ends and says why it has no swing.
func TestTornadoSwingBeyondTheLargestNumber(t *testing.T) {
	p := wideModel(t)
	tors, err := Tornadoes(p, domain.Scenario{Name: domain.Base}, []Target{{Name: "z"}})
	if err != nil {
		t.Fatal(err)
	}
	b := tors[0].Bars[0]
	want := "z moves from -1.5e+308 to 1.5e+308 against 0 at base, further than the largest number planner computes with (1.7976931348623157e+308)"
	if b.AtLow != -1.5e308 || b.AtHigh != 1.5e308 || b.Why != want {
		t.Errorf("bar %+v, want -1.5e308 to 1.5e308 and %q", b, want)
	}
}

// A data table over ends further apart than the largest float64 steps
// evenly between them, and says why a cell has no number.
func TestDataTableOverAWideAxis(t *testing.T) {
	p := wideModel(t)
	spec := domain.TableSpec{Name: "t", Output: "y", Row: domain.Axis{Input: "x", From: -1.5e308, To: 1.5e308, Steps: 5}}
	tab, err := DataTable(p, domain.Scenario{Name: domain.Base}, spec)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []float64{-1.5e308, -0.75e308, 0, 0.75e308, 1.5e308} {
		if math.Abs(tab.RowValues[i]-want) > 1e-15*1e308 {
			t.Errorf("row %d: x = %v, want %v", i, tab.RowValues[i], want)
		}
		if y := tab.Cells[i][0]; i == 0 || i == 4 {
			if !math.IsNaN(y) {
				t.Errorf("row %d: y = %v, beyond the largest float64", i, y)
			}
		} else if y != tab.RowValues[i]*1.5 {
			t.Errorf("row %d: y = %v, want %v", i, y, tab.RowValues[i]*1.5)
		}
	}
	if want := "no number at x = -1.5e+308: y: the result is too large to be a number (overflow)"; tab.Why != want {
		t.Errorf("why %q, want %q", tab.Why, want)
	}
}

// A curve that stays below an offer's price from 1 % up crosses it below
// 1 %, and says so: not "above 100 %", which would say owning never pays.
func TestBreakevenBelowOnePercent(t *testing.T) {
	m := enginetest.RangedSpecModel()
	cheap := map[string]float64{"capex": 1000, "electricity_price": 0, "rack_per_month": 0}
	for i, in := range m.Inputs {
		if v, ok := cheap[in.Name]; ok {
			m.Inputs[i].Value = domain.Num(v)
		}
	}
	p, err := engine.Build(m)
	if err != nil {
		t.Fatal(err)
	}
	c, err := BreakevenCurve(p, []domain.Scenario{{Name: domain.Base}})
	if err != nil {
		t.Fatal(err)
	}
	for _, cr := range c.Crossings {
		// At 1 % busy, owning costs a hundred times its calendar hour.
		hour := enginetest.Eval(t, map[string]domain.Value{"capex": domain.Num(1000), "electricity_price": domain.Num(0),
			"rack_per_month": domain.Num(0), "utilization": domain.Num(0.01)}).Values["cost_per_used_hour"]
		if hour >= cr.Offer.Price || !math.IsNaN(cr.Utilization) || cr.Why != BelowAll {
			t.Errorf("%s: crossing %v, %q; at 1 %% owning costs %v against %v", cr.Offer.Label(), cr.Utilization, cr.Why, hour, cr.Offer.Price)
		}
	}
}

// Goal seek's wider brackets stop at the largest float64: the answer's
// why names numbers, not +Inf.
func TestSolveBracketsStopAtTheLargestNumber(t *testing.T) {
	m := enginetest.SpecModel()
	for i, in := range m.Inputs {
		if in.Name == "capex" {
			m.Inputs[i].Value, m.Inputs[i].Unit = domain.Num(1e306), "$"
		}
	}
	p, err := engine.Build(m)
	if err != nil {
		t.Fatal(err)
	}
	sol, err := Solve(p, domain.Scenario{Name: domain.Base}, domain.Goal{Name: "g", For: "capex", Target: "cost_per_gpu_hour", Value: -1})
	if err != nil {
		t.Fatal(err)
	}
	at := func(capex float64) string {
		v := enginetest.Eval(t, map[string]domain.Value{"capex": domain.Num(capex)}).Values["cost_per_gpu_hour"]
		return units.Format(v, "$/GPU-h")
	}
	want := "no value of capex between " + units.Format(1e303, "$") + " and " + units.Format(math.MaxFloat64, "$") +
		" makes cost_per_gpu_hour reach -$1.00: it is " + at(1e303) + " at " + units.Format(1e303, "$") + " and " +
		at(math.MaxFloat64) + " at " + units.Format(math.MaxFloat64, "$")
	if sol.Found || sol.Why != want || strings.Contains(sol.Why, units.NoNumber) {
		t.Errorf("got %q\nwant %q", sol.Why, want)
	}
}
