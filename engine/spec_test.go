package engine_test

import (
	"math"
	"testing"

	"planner/engine"
	"planner/engine/enginetest"
)

// roundTo rounds v to a multiple of unit: the rounding SPEC.md shows.
func roundTo(v, unit float64) float64 { return math.Round(v/unit) * unit }

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// specCostPerGPUHour is SPEC.md §3's midpoint total worked by hand from its
// inputs, unrounded: capital 285,000 ÷ 8 ÷ 26,280 h, power 7.28 kW × $0.12,
// ÷ 8 cards, rack $1,000 ÷ 8 ÷ 730 h.
const specCostPerGPUHour = 285000.0/8/(36*730) + 700*8*1.3/1000*0.12/8 + 1000.0/8/730

// SPEC.md §3: the three lines per GPU-hour at the midpoint, the range and
// the residual variant, to the cent.
func TestSpecOwningLines(t *testing.T) {
	tests := []struct {
		scenario string
		set      map[string]engine.Value
		want     map[string]float64
	}{
		{"midpoint", nil, map[string]float64{
			"capital_per_gpu_hour": 1.36, "power_per_gpu_hour": 0.11, "rack_per_gpu_hour": 0.17, "cost_per_gpu_hour": 1.64}},
		{"$250,000", map[string]engine.Value{"capex": engine.Num(250000)}, map[string]float64{"capital_per_gpu_hour": 1.19, "cost_per_gpu_hour": 1.47}},
		{"$320,000", map[string]engine.Value{"capex": engine.Num(320000)}, map[string]float64{"capital_per_gpu_hour": 1.52, "cost_per_gpu_hour": 1.80}},
		{"30 % residual", map[string]engine.Value{"residual": engine.Num(0.3)}, map[string]float64{"capital_per_gpu_hour": 0.95, "cost_per_gpu_hour": 1.23}},
	}
	for _, tt := range tests {
		r := enginetest.Eval(t, tt.set)
		for name, want := range tt.want {
			if got := roundTo(r.Values[name], 0.01); !near(got, want) {
				t.Errorf("%s: %s = %.4f, rounds to %.2f, SPEC says %.2f", tt.scenario, name, r.Values[name], got, want)
			}
		}
	}
	r := enginetest.Eval(t, nil)
	checks := map[string]struct{ got, unit, want float64 }{
		"per_gpu_capex ($35,625 per card)":  {r.Values["per_gpu_capex"], 1, 35625},
		"amortization_hours (26,280 h)":     {r.Values["amortization_hours"], 1, 26280},
		"node_kw (7.28 kW)":                 {r.Values["node_kw"], 0.01, 7.28},
		"power_per_month ($638 per month)":  {r.Values["power_per_month"], 1, 638},
		"cost_per_gpu_hour (by hand)":       {r.Values["cost_per_gpu_hour"], 1e-9, roundTo(specCostPerGPUHour, 1e-9)},
		"cost_per_used_hour ($1.64 ÷ 50 %)": {r.Values["cost_per_used_hour"], 1e-9, roundTo(specCostPerGPUHour/0.5, 1e-9)},
	}
	for what, c := range checks {
		if got := roundTo(c.got, c.unit); !near(got, c.want) {
			t.Errorf("%s: got %v", what, c.got)
		}
	}
}

// SPEC.md §4: break-even utilisation = total ÷ cloud price, in whole percent.
func TestSpecBreakeven(t *testing.T) {
	tests := []struct {
		set      map[string]engine.Value
		provider string
		offer    string
		want     float64 // percent
	}{
		{nil, "RunPod", "H100 SXM, Community", 61},
		{nil, "Lambda", "H100, 8-GPU plan", 41},
		{nil, "AWS", "p5.48xlarge Capacity Block", 27},
		{map[string]engine.Value{"capex": engine.Num(250000)}, "RunPod", "H100 SXM, Community", 55},
		{map[string]engine.Value{"capex": engine.Num(320000)}, "RunPod", "H100 SXM, Community", 67},
		{map[string]engine.Value{"residual": engine.Num(0.3)}, "RunPod", "H100 SXM, Community", 46},
	}
	for _, tt := range tests {
		o := enginetest.Offer(t, enginetest.Eval(t, tt.set), tt.provider, tt.offer)
		got := o.Values[engine.Breakeven] * 100
		if math.Round(got) != tt.want {
			t.Errorf("%v against %s %s: break-even %.2f %%, SPEC says %v %%", tt.set, tt.provider, tt.offer, got, tt.want)
		}
	}
}

// SPEC.md §2: what renting costs per month, to the rounding SPEC shows.
func TestSpecMonthlyCloud(t *testing.T) {
	r := enginetest.Eval(t, nil)
	tests := []struct {
		provider, offer, formula string
		unit, want               float64
	}{
		{"RunPod", "H100 SXM, Community", "rent_per_gpu_month", 1, 1964},
		{"RunPod", "H100 SXM, Community", "rent_node_per_month", 10, 15710},
		{"Lambda", "H100, 8-GPU plan", "rent_node_per_month", 100, 23300},
		{"AWS", "p5.48xlarge Capacity Block", "rent_node_per_month", 5, 34865},
	}
	for _, tt := range tests {
		got := enginetest.Offer(t, r, tt.provider, tt.offer).Values[tt.formula]
		if !near(roundTo(got, tt.unit), tt.want) {
			t.Errorf("%s %s %s = %.2f, SPEC says ≈ %v", tt.provider, tt.offer, tt.formula, got, tt.want)
		}
	}
	// Renting only the hours used: one card 12 h × 22 workdays, and an
	// RTX 5090 8 h × 22 days; two H100s for the 70B FP8 replica.
	usage := []struct {
		set             map[string]engine.Value
		provider, offer string
		unit, want      float64
		per             string
	}{
		{map[string]engine.Value{"gpus": engine.Num(1), "utilization": engine.Num(264.0 / 730)}, "RunPod", "H100 SXM, Community", 1, 710, "rent_used_per_month"},
		{map[string]engine.Value{"gpus": engine.Num(1), "utilization": engine.Num(176.0 / 730), "gpu": engine.Text("RTX 5090")}, "RunPod", "RTX 5090, Community", 1, 121, "rent_used_per_month"},
		{map[string]engine.Value{"gpus": engine.Num(2), "utilization": engine.Num(264.0 / 730)}, "RunPod", "H100 SXM, Community", 10, 1420, "rent_used_per_month"},
	}
	for _, u := range usage {
		got := enginetest.Offer(t, enginetest.Eval(t, u.set), u.provider, u.offer).Values[u.per]
		if !near(roundTo(got, u.unit), u.want) {
			t.Errorf("%v: %s = %.2f, SPEC says ≈ %v", u.set, u.per, got, u.want)
		}
	}
}

func TestVerdictFollowsUtilization(t *testing.T) {
	for _, tt := range []struct {
		u    float64
		want string
	}{{0.60, engine.Rent}, {0.61, engine.Buy}, {1, engine.Buy}, {0.1, engine.Rent}} {
		o := enginetest.Offer(t, enginetest.Eval(t, map[string]engine.Value{"utilization": engine.Num(tt.u)}), "RunPod", "H100 SXM, Community")
		if o.Verdict != tt.want {
			t.Errorf("at %.0f %% utilisation against $2.69: %s, want %s (break-even %.4f)", tt.u*100, o.Verdict, tt.want, o.Values[engine.Breakeven])
		}
	}
}

func TestOnlyOffersOfTheNodesGPUAreCompared(t *testing.T) {
	r := enginetest.Eval(t, map[string]engine.Value{"gpu": engine.Text("b200")})
	var compared []string
	for _, o := range r.Offers {
		if o.Compared {
			compared = append(compared, o.Offer.Label())
		} else if o.Verdict != "" || len(o.Values) != 0 {
			t.Errorf("%s is not compared but has values", o.Offer.Label())
		}
	}
	if len(compared) != 2 || compared[0] != "RunPod B200" || compared[1] != "Lambda B200, 8-GPU plan" {
		t.Errorf("compared %v, want the two B200 offers", compared)
	}
}
