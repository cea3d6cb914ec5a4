package engine

import (
	"math"
	"strings"
	"testing"

	"planner/formulas"
)

// specModel is SPEC.md's default node: an 8×H100 SXM server at the $285,000
// midpoint, the nine cloud offers of 2026-10-10, and the built-in formulas.
func specModel() Model {
	m := Model{Formulas: formulas.Library()}
	for _, in := range []struct {
		name string
		v    float64
	}{
		{"capex", 285000}, {"gpus", 8}, {"amortization_months", 36}, {"residual", 0}, {"gpu_watts", 700},
		{"pue", 1.3}, {"electricity_price", 0.12}, {"rack_per_month", 1000}, {"hours_per_month", 730},
		{"utilization", 0.5},
	} {
		m.Inputs = append(m.Inputs, Input{Name: in.name, Value: Num(in.v)})
	}
	m.Inputs = append(m.Inputs, Input{Name: "gpu", Value: Text("H100 SXM")})
	m.Offers = []Offer{
		{Provider: "RunPod", Name: "H100 SXM, Community", GPU: "H100 SXM", Price: 2.69},
		{Provider: "RunPod", Name: "H100 SXM, Secure", GPU: "H100 SXM", Price: 3.29},
		{Provider: "RunPod", Name: "H100 PCIe, Community", GPU: "H100 PCIe", Price: 1.99},
		{Provider: "RunPod", Name: "H200", GPU: "H200", Price: 3.59},
		{Provider: "RunPod", Name: "B200", GPU: "B200", Price: 5.98},
		{Provider: "RunPod", Name: "RTX 5090, Community", GPU: "RTX 5090", Price: 0.69},
		{Provider: "Lambda", Name: "H100, 8-GPU plan", GPU: "H100 SXM", Price: 3.99},
		{Provider: "Lambda", Name: "B200, 8-GPU plan", GPU: "B200", Price: 6.69},
		{Provider: "AWS", Name: "p5.48xlarge Capacity Block", GPU: "H100 SXM", Price: 5.97},
	}
	return m
}

func evalSpec(t *testing.T, set map[string]Value) *Result {
	t.Helper()
	p, err := Build(specModel())
	if err != nil {
		t.Fatal(err)
	}
	r, err := p.Eval(Scenario{Name: "base", Set: set})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// roundTo rounds v to a multiple of unit: the rounding SPEC.md shows.
func roundTo(v, unit float64) float64 { return math.Round(v/unit) * unit }

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func offer(t *testing.T, r *Result, provider, name string) OfferResult {
	t.Helper()
	for _, o := range r.Offers {
		if o.Offer.Provider == provider && o.Offer.Name == name {
			return o
		}
	}
	t.Fatalf("no offer %s %s", provider, name)
	return OfferResult{}
}

// SPEC.md §3: the three lines per GPU-hour at the midpoint, the range and
// the residual variant, to the cent.
func TestSpecOwningLines(t *testing.T) {
	tests := []struct {
		scenario string
		set      map[string]Value
		want     map[string]float64
	}{
		{"midpoint", nil, map[string]float64{
			"capital_per_gpu_hour": 1.36, "power_per_gpu_hour": 0.11, "rack_per_gpu_hour": 0.17, "cost_per_gpu_hour": 1.64}},
		{"$250,000", map[string]Value{"capex": Num(250000)}, map[string]float64{"capital_per_gpu_hour": 1.19, "cost_per_gpu_hour": 1.47}},
		{"$320,000", map[string]Value{"capex": Num(320000)}, map[string]float64{"capital_per_gpu_hour": 1.52, "cost_per_gpu_hour": 1.80}},
		{"30 % residual", map[string]Value{"residual": Num(0.3)}, map[string]float64{"capital_per_gpu_hour": 0.95, "cost_per_gpu_hour": 1.23}},
	}
	for _, tt := range tests {
		r := evalSpec(t, tt.set)
		for name, want := range tt.want {
			if got := roundTo(r.Values[name], 0.01); !near(got, want) {
				t.Errorf("%s: %s = %.4f, rounds to %.2f, SPEC says %.2f", tt.scenario, name, r.Values[name], got, want)
			}
		}
	}
	r := evalSpec(t, nil)
	checks := map[string]struct{ got, unit, want float64 }{
		"per_gpu_capex ($35,625 per card)":  {r.Values["per_gpu_capex"], 1, 35625},
		"amortization_hours (26,280 h)":     {r.Values["amortization_hours"], 1, 26280},
		"node_kw (7.28 kW)":                 {r.Values["node_kw"], 0.01, 7.28},
		"power_per_month ($638 per month)":  {r.Values["power_per_month"], 1, 638},
		"cost_per_used_hour ($1.64 ÷ 50 %)": {r.Values["cost_per_used_hour"], 1e-9, roundTo(r.Values["cost_per_gpu_hour"]/0.5, 1e-9)},
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
		set      map[string]Value
		provider string
		offer    string
		want     float64 // percent
	}{
		{nil, "RunPod", "H100 SXM, Community", 61},
		{nil, "Lambda", "H100, 8-GPU plan", 41},
		{nil, "AWS", "p5.48xlarge Capacity Block", 27},
		{map[string]Value{"capex": Num(250000)}, "RunPod", "H100 SXM, Community", 55},
		{map[string]Value{"capex": Num(320000)}, "RunPod", "H100 SXM, Community", 67},
		{map[string]Value{"residual": Num(0.3)}, "RunPod", "H100 SXM, Community", 46},
	}
	for _, tt := range tests {
		o := offer(t, evalSpec(t, tt.set), tt.provider, tt.offer)
		got := o.Values[Breakeven] * 100
		if math.Round(got) != tt.want {
			t.Errorf("%v against %s %s: break-even %.2f %%, SPEC says %v %%", tt.set, tt.provider, tt.offer, got, tt.want)
		}
	}
}

// SPEC.md §2: what renting costs per month, to the rounding SPEC shows.
func TestSpecMonthlyCloud(t *testing.T) {
	r := evalSpec(t, nil)
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
		got := offer(t, r, tt.provider, tt.offer).Values[tt.formula]
		if !near(roundTo(got, tt.unit), tt.want) {
			t.Errorf("%s %s %s = %.2f, SPEC says ≈ %v", tt.provider, tt.offer, tt.formula, got, tt.want)
		}
	}
	// Renting only the hours used: one card 12 h × 22 workdays, and an
	// RTX 5090 8 h × 22 days; two H100s for the 70B FP8 replica.
	usage := []struct {
		set             map[string]Value
		provider, offer string
		unit, want      float64
		per             string
	}{
		{map[string]Value{"gpus": Num(1), "utilization": Num(264.0 / 730)}, "RunPod", "H100 SXM, Community", 1, 710, "rent_used_per_month"},
		{map[string]Value{"gpus": Num(1), "utilization": Num(176.0 / 730), "gpu": Text("RTX 5090")}, "RunPod", "RTX 5090, Community", 1, 121, "rent_used_per_month"},
		{map[string]Value{"gpus": Num(2), "utilization": Num(264.0 / 730)}, "RunPod", "H100 SXM, Community", 10, 1420, "rent_used_per_month"},
	}
	for _, u := range usage {
		got := offer(t, evalSpec(t, u.set), u.provider, u.offer).Values[u.per]
		if !near(roundTo(got, u.unit), u.want) {
			t.Errorf("%v: %s = %.2f, SPEC says ≈ %v", u.set, u.per, got, u.want)
		}
	}
}

func TestVerdictFollowsUtilization(t *testing.T) {
	for _, tt := range []struct {
		u    float64
		want string
	}{{0.60, Rent}, {0.61, Buy}, {1, Buy}, {0.1, Rent}} {
		o := offer(t, evalSpec(t, map[string]Value{"utilization": Num(tt.u)}), "RunPod", "H100 SXM, Community")
		if o.Verdict != tt.want {
			t.Errorf("at %.0f %% utilisation against $2.69: %s, want %s (break-even %.4f)", tt.u*100, o.Verdict, tt.want, o.Values[Breakeven])
		}
	}
}

func TestOnlyOffersOfTheNodesGPUAreCompared(t *testing.T) {
	r := evalSpec(t, map[string]Value{"gpu": Text("b200")})
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

func formulasOf(lines ...string) []formulas.Formula {
	var out []formulas.Formula
	for _, l := range lines {
		fs, err := formulas.ParseLibrary("test", l)
		if err != nil {
			panic(err)
		}
		out = append(out, fs...)
	}
	return out
}

func containsAll(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}
