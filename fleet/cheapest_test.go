package fleet

import (
	"math"
	"testing"

	"planner/deploy"
	"planner/domain"
	"planner/engine"
	"planner/engine/enginetest"
)

// The offers the tests of the cheapest choice add to the default ones
// (RunPod H100 SXM, Community at $2.69 a used hour the cheapest of them):
// a one-year term and a spot offer falling back on Community.
var (
	testTerm = domain.Offer{Provider: "Lambda", Name: "H100 1-year reserved", GPU: "H100 SXM", Price: 2.10,
		Billing: domain.Billing{Kind: domain.AllHours, TermMonths: 12, Upfront: 1200, Extras: 20}}
	testSpot = domain.Offer{Provider: "RunPod", Name: "H100 SXM, Spot", GPU: "H100 SXM", Price: 1.60,
		Billing: domain.Billing{Kind: domain.Spot, Interruption: 0.1, Fallback: "H100 SXM, Community", Extras: 5}}
)

// fleetOf costs deployments of the default model with offers added, and
// returns the fleet and a month of one of the base scenario's nodes.
func fleetOf(t *testing.T, offers []domain.Offer, ds ...domain.Deployment) (Fleet, float64) {
	t.Helper()
	m := enginetest.FullModel()
	m.Offers = append(m.Offers, offers...)
	m.Deployments = ds
	p, err := engine.Build(m, deploy.Check)
	if err != nil {
		t.Fatal(err)
	}
	results, err := p.EvalAll(nil)
	if err != nil {
		t.Fatal(err)
	}
	if results[0].Values[domain.HoursPerMonth] != 730 {
		t.Fatalf("the month is %v hours, not 730", results[0].Values[domain.HoursPerMonth])
	}
	costs := deploy.Cost(p, results)
	return Of(costs), costs[0].Own.NodeCost
}

// One card busy 700 of 730 hours, naming Community: the term, every hour
// at $2.10 and $1,200 ÷ 12 + $20 a month, costs less than Community's
// used hours and far less than a node of its own, so the cheapest mix
// rents it on the term.
func TestTheCheapestMixRentsATermWhereItWins(t *testing.T) {
	d := domain.Deployment{Name: "busy card", Model: "Llama 3.1 70B", GPU: "H100 SXM", Cards: 1, Replicas: 1, HoursPerMonth: 700, Offer: "RunPod H100 SXM, Community"}
	f, node := fleetOf(t, []domain.Offer{testTerm}, d)
	term, community := 2.10*730+1200.0/12+20, 2.69*700.0
	if !(term < community && term < node) {
		t.Fatalf("the case does not make the term win: term $%v, Community $%v, node $%v", term, community, node)
	}
	c := f.Cheapest[0]
	if c.Words != "rent from Lambda H100 1-year reserved (all hours)" || c.Owned != 0 || math.Abs(c.PerMonth-term) > 1e-9 {
		t.Errorf("bought %+v, want on the term at $%v", c, term)
	}
	if math.Abs(f.Best.PerMonth-term) > 1e-9 || math.Abs(f.Best.RentAll-community) > 1e-9 {
		t.Errorf("the mix $%v and rent-all $%v, want $%v and $%v (Community, as named)", f.Best.PerMonth, f.Best.RentAll, term, community)
	}
}

// Two cards busy 264 h: spot, 90 % of the hours at $1.60 and 10 % at
// Community's $2.69, plus $5 a card a month, beats Community, the term
// and a node.
func TestTheCheapestMixRentsSpotWithItsFallback(t *testing.T) {
	d := domain.Deployment{Name: "workdays", Model: "Llama 3.1 70B", GPU: "H100 SXM", Cards: 2, Replicas: 1, HoursPerMonth: 264}
	f, node := fleetOf(t, []domain.Offer{testTerm, testSpot}, d)
	spot := 2 * ((0.9*1.60+0.1*2.69)*264 + 5)
	for _, other := range []float64{2 * 2.69 * 264, 2 * (2.10*730 + 1200.0/12 + 20), node} {
		if spot >= other {
			t.Fatalf("the case does not make spot win: $%v against $%v", spot, other)
		}
	}
	if c := f.Cheapest[0]; c.Words != "rent from RunPod H100 SXM, Spot (spot)" || math.Abs(c.PerMonth-spot) > 1e-9 {
		t.Errorf("bought %+v, want on spot at $%v", c, spot)
	}
	if math.Abs(f.Best.PerMonth-spot) > 1e-9 {
		t.Errorf("the mix $%v, want $%v", f.Best.PerMonth, spot)
	}
}

// Sixteen one-card replicas on 30 days: eight busy every hour, all sixteen
// in four hours of the day. Owning the base's eight on one node of eight
// and renting the peak's eight for their 4 h × 30 days beats owning all
// (two nodes), renting all from any one offer, and the base on the term.
func TestABaseOwnedAndAPeakRentedBeatBothPureChoices(t *testing.T) {
	profile := make([]float64, 24)
	for h := range profile {
		profile[h] = 0.5
		if h >= 10 && h < 14 {
			profile[h] = 1
		}
	}
	d := domain.Deployment{Name: "daily", Model: "Llama 3.1 70B", GPU: "H100 SXM", Cards: 1, Replicas: 16,
		HoursPerMonth: 30 * (20*0.5 + 4*1), Profile: profile}
	f, node := fleetOf(t, []domain.Offer{testTerm}, d)
	const base, peak = 8.0, 8.0
	baseHours, peakHours := 24*30.0, 4*30.0
	termCard := 2.10*730 + 1200.0/12 + 20
	split := node + peak*peakHours*2.69
	pure := map[string]float64{
		"own all (two nodes)":         2 * node,
		"rent all from Community":     2.69 * (base*baseHours + peak*peakHours),
		"rent all on the term":        16 * termCard,
		"the base on the term, peak":  base*termCard + peak*peakHours*2.69,
		"the base at Community, peak": 2.69 * (base*baseHours + peak*peakHours),
	}
	for what, month := range pure {
		if split >= month {
			t.Fatalf("the case does not make the split win: $%v against %s at $%v", split, what, month)
		}
	}
	c := f.Cheapest[0]
	want := "own 8 of 16 replicas (the base) on H100 SXM nodes of the scenario base; rent 8 replicas (the peak) from RunPod H100 SXM, Community (used hours)"
	if c.Words != want || c.Owned != 8 || math.Abs(c.PerMonth-split) > 1e-9 || math.Abs(c.OwnPerMonth-node) > 1e-9 {
		t.Errorf("bought %+v,\nwant %q at $%v", c, want, split)
	}
	if math.Abs(f.Best.PerMonth-split) > 1e-9 || f.Best.Nodes != 1 {
		t.Errorf("the mix $%v on %d nodes, want $%v on 1", f.Best.PerMonth, f.Best.Nodes, split)
	}
	if want := `own "daily" (8 of 16 replicas, the base; the rest rented) on 1 H100 SXM node: $12,137 a month, $6,972 less than owning everything and $5,940 less than renting everything`; f.Best.Words != want {
		t.Errorf("the mix in words:\n%s\nwant\n%s", f.Best.Words, want)
	}
}
