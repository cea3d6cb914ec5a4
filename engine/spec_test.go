package engine_test

import (
	"math"
	"os"
	"testing"

	"planner/domain"
	"planner/engine"
	"planner/engine/enginetest"
	"planner/wording"
)

// specCostPerGPUHour is SPEC.md §3's midpoint total worked by hand from its
// inputs, unrounded: capital 285,000 ÷ 8 ÷ 26,280 h, power 7.28 kW × $0.12,
// ÷ 8 cards, rack $1,000 ÷ 8 ÷ 730 h.
const specCostPerGPUHour = 285000.0/8/(36*730) + 700*8*1.3/1000*0.12/8 + 1000.0/8/730

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// articleFigures are SPEC.md's figures, which the command's tests hold
// the workbook to as well.
func articleFigures(t *testing.T) []enginetest.Figure {
	t.Helper()
	text, err := os.ReadFile("../testdata/article/figures.tsv")
	if err != nil {
		t.Fatal(err)
	}
	figures, err := enginetest.Figures(string(text))
	if err != nil || len(figures) == 0 {
		t.Fatalf("the article's figures: %v, %d read", err, len(figures))
	}
	return figures
}

// SPEC.md §2–§4: every figure of the article, to the rounding SPEC shows:
// the owning lines at the midpoint, the range and the residual variant,
// break-even against each offer, and what renting costs a month.
func TestSpecFigures(t *testing.T) {
	for _, f := range articleFigures(t) {
		r := enginetest.Eval(t, f.Values())
		values := r.Values
		if f.Offer != "" {
			values = offerByLabel(t, r, f.Offer).Values
		}
		got, ok := values[f.Formula]
		if !ok || !f.Holds(got) {
			t.Errorf("%s = %.4f (found %v), SPEC says %v", f, got, ok, f.Want)
		}
	}
}

func offerByLabel(t *testing.T, r *engine.Result, label string) engine.OfferResult {
	t.Helper()
	for _, o := range r.Offers {
		if o.Offer.Label() == label {
			return o
		}
	}
	t.Fatalf("no offer %s", label)
	return engine.OfferResult{}
}

// SPEC.md §3 and §4 unrounded: the midpoint's cost per GPU-hour, and per
// used hour at 50 % utilisation ($1.64 ÷ utilisation), worked by hand.
func TestSpecCostPerHourByHand(t *testing.T) {
	r := enginetest.Eval(t, nil)
	for name, want := range map[string]float64{"cost_per_gpu_hour": specCostPerGPUHour, "cost_per_used_hour": specCostPerGPUHour / 0.5} {
		if got := r.Values[name]; math.Abs(got-want) > 1e-12*want {
			t.Errorf("%s = %v, by hand %v", name, got, want)
		}
	}
}

func TestVerdictFollowsUtilization(t *testing.T) {
	for _, tt := range []struct {
		u    float64
		want string
	}{{0.60, wording.Rent}, {0.61, wording.Buy}, {1, wording.Buy}, {0.1, wording.Rent}} {
		o := enginetest.Offer(t, enginetest.Eval(t, map[string]domain.Value{"utilization": domain.Num(tt.u)}), "RunPod", "H100 SXM, Community")
		if o.Verdict != tt.want {
			t.Errorf("at %.0f %% utilisation against $2.69: %s, want %s (break-even %.4f)", tt.u*100, o.Verdict, tt.want, o.Values[domain.Breakeven])
		}
	}
}

func TestOnlyOffersOfTheNodesGPUAreCompared(t *testing.T) {
	r := enginetest.Eval(t, map[string]domain.Value{"gpu": domain.Text("b200")})
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
