package montecarlo

import (
	"math"
	"testing"

	"planner/domain"
	"planner/engine/enginetest"
)

// With utilisation uniform over 25–90 % and everything else fixed (the
// finance case: 8 % a year, 30 % residual, 5 % maintenance, $400 staff,
// $150 network), owning's NPV against an offer rises in a straight line
// with utilisation: its percentiles are the NPV at the uniform's, and it is
// above zero in the share of the range above break-even.
func TestMonteCarloNPVPerOffer(t *testing.T) {
	finance := map[string]float64{"cost_of_capital": 0.08, "residual": 0.3, "maintenance_per_year": 0.05,
		"staff_per_month": 400, "network_per_month": 150}
	m := enginetest.SpecModel()
	set := map[string]domain.Value{}
	for i := range m.Inputs {
		in := &m.Inputs[i]
		if v, ok := finance[in.Name]; ok {
			in.Value = domain.Num(v)
			set[in.Name] = in.Value
		}
		if in.Name == "utilization" {
			in.Dist = &domain.Distribution{Kind: "uniform", Params: []float64{0.25, 0.9}}
		}
	}
	const n = 200_000
	r := runBase(t, m, Options{Samples: n, Seed: 11})
	npvAt := func(u float64, label string) (npv, breakeven float64) {
		with := map[string]domain.Value{"utilization": domain.Num(u)}
		for k, v := range set {
			with[k] = v
		}
		for _, o := range enginetest.Eval(t, with).Offers {
			if o.Offer.Label() == label {
				return o.Values["npv_saving"], o.Values["breakeven_utilization"]
			}
		}
		t.Fatalf("no offer %s", label)
		return 0, 0
	}
	checked := 0
	for _, oc := range r.OwnCheaper {
		if oc.NPV == nil {
			continue
		}
		checked++
		label := oc.Offer.Label()
		lo, be := npvAt(0.25, label)
		hi, _ := npvAt(0.9, label)
		for _, q := range []struct {
			name    string
			got, at float64
		}{{"P5", oc.NPV.P5, 0.05}, {"P50", oc.NPV.P50, 0.5}, {"P95", oc.NPV.P95, 0.95}} {
			tolerance := 4 * (hi - lo) * math.Sqrt(q.at*(1-q.at)/n)
			if want := lo + q.at*(hi-lo); math.Abs(q.got-want) > tolerance {
				t.Errorf("%s: NPV %s = %.2f, want %.2f ± %.2f", label, q.name, q.got, want, tolerance)
			}
		}
		want := math.Min(1, math.Max(0, (0.9-be)/0.65))
		if math.Abs(oc.NPVAboveZero-want) > 4*math.Sqrt(0.25/n) {
			t.Errorf("%s: P(NPV > 0) = %v, want %v", label, oc.NPVAboveZero, want)
		}
	}
	if checked != 4 {
		t.Errorf("NPV of %d offers, want the 4 H100 SXM offers", checked)
	}
}
