package fleet

import (
	"math"
	"slices"
	"testing"

	"planner/deploy"
	"planner/domain"
	"planner/engine"
	"planner/engine/enginetest"
)

// The fleet's rent-all rents a deployment at what its offer bills: a
// one-year term billing all 730 hours of eight cards busy 264 h costs more
// than owning their node, though at the term's list price per used hour
// it would cost less; a spot card busy 264 h is rented at spot's price
// with its fallback, plus its extras. The cheapest mix rents each from
// the offer that bills it least: both on spot, cheaper than the node.
func TestFleetRentsAsOffersBill(t *testing.T) {
	m := enginetest.FullModel()
	m.Offers = append(m.Offers,
		domain.Offer{Provider: "Lambda", Name: "H100 1-year reserved", GPU: "H100 SXM", Price: 2.10,
			Billing: domain.Billing{Kind: domain.AllHours, TermMonths: 12, Upfront: 1200, Extras: 20}},
		domain.Offer{Provider: "RunPod", Name: "H100 SXM, Spot", GPU: "H100 SXM", Price: 1.60,
			Billing: domain.Billing{Kind: domain.Spot, Interruption: 0.1, Fallback: "H100 SXM, Community", Extras: 5}})
	m.Deployments = []domain.Deployment{
		{Name: "term", Model: "Llama 3.1 70B", GPU: "H100 SXM", Cards: 8, Replicas: 1, HoursPerMonth: 264, Offer: "Lambda H100 1-year reserved"},
		{Name: "spot", Model: "Llama 3.1 70B", GPU: "H100 SXM", Cards: 1, Replicas: 1, HoursPerMonth: 264, Offer: "RunPod H100 SXM, Spot"},
	}
	p, err := engine.Build(m, deploy.Check)
	if err != nil {
		t.Fatal(err)
	}
	results, err := p.EvalAll(nil)
	if err != nil {
		t.Fatal(err)
	}
	costs := deploy.Cost(p, results)
	f := Of(costs)
	term := 8 * (2.10*730 + 1200.0/12 + 20) // $13,224
	spot := (0.9*1.60+0.1*2.69)*264 + 5     // $456.176
	node := costs[0].Own.CostPerMonth       // SPEC's node, $9,554 a month
	if 8*2.10*264 >= node || term <= node {
		t.Fatalf("the case no longer tells list price from billing: node $%v", node)
	}
	if len(f.GPUs) != 1 || math.Abs(f.GPUs[0].RentPerMonth-(term+spot)) > 1e-9 {
		t.Fatalf("rent-all %+v, want $%v", f.GPUs, term+spot)
	}
	if b := f.Best; len(b.Own) != 0 || !slices.Equal(b.Rent, []string{"term", "spot"}) || math.Abs(b.PerMonth-9*spot) > 1e-9 {
		t.Errorf("cheapest mix %+v, want both rented on spot at $%v", b, 9*spot)
	}
	if c := f.Cheapest[0]; c.Words != "rent from RunPod H100 SXM, Spot (spot)" || math.Abs(c.PerMonth-8*spot) > 1e-9 {
		t.Errorf("the term's deployment is bought %+v, want on spot at $%v", c, 8*spot)
	}
}
