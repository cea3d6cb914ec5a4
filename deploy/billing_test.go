package deploy

import (
	"math"
	"strings"
	"testing"

	"planner/domain"
	"planner/engine"
	"planner/engine/enginetest"
)

// The offers billedModel adds to the full model: a one-year H100 term and
// a spot H100 falling back to RunPod's Community offer at $2.69.
const (
	termPrice, termMonths, termUpfront, termExtras = 2.10, 12.0, 1200.0, 20.0
	spotPrice, spotShare, spotExtras, fallback     = 1.60, 0.1, 5.0, 2.69
)

// billedModel is the full model with a term and a spot offer, and a
// deployment of 2 cards × 3 replicas, 264 h a month, renting each.
func billedModel() domain.Model {
	m := enginetest.FullModel()
	m.Offers = append(m.Offers,
		domain.Offer{Provider: "Lambda", Name: "H100 1-year reserved", GPU: "H100 SXM", Price: termPrice,
			Billing: domain.Billing{Kind: domain.AllHours, TermMonths: termMonths, Upfront: termUpfront, Extras: termExtras}},
		domain.Offer{Provider: "RunPod", Name: "H100 SXM, Spot", GPU: "H100 SXM", Price: spotPrice,
			Billing: domain.Billing{Kind: domain.Spot, Interruption: spotShare, Fallback: "H100 SXM, Community", Extras: spotExtras}})
	d := domain.Deployment{Model: "Llama 3.1 70B", GPU: "H100 SXM", Cards: 2, Replicas: 3, HoursPerMonth: 264, TokensPerReplica: 1000}
	term, spot := d, d
	term.Name, term.Offer = "on the term", "Lambda H100 1-year reserved"
	spot.Name, spot.Offer = "on spot", "RunPod H100 SXM, Spot"
	m.Deployments = []domain.Deployment{term, spot}
	return m
}

func costBilled(t *testing.T, m domain.Model) map[string]Result {
	t.Helper()
	p, err := engine.Build(m, Check)
	if err != nil {
		t.Fatal(err)
	}
	results, err := p.EvalAll(nil)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]Result{}
	for _, d := range Cost(p, results) {
		out[d.Name] = d
	}
	return out
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// A term bills every calendar hour of its cards, 730 in SPEC's month,
// plus its upfront spread over its months and its extras; spot bills its
// price for the hours not interrupted, the fallback's for the rest, and
// its extras. The tokens' rent per million follows.
func TestDeploymentRentFollowsBilling(t *testing.T) {
	ds := costBilled(t, billedModel())
	const cards, replicas, used, month = 2.0, 3.0, 264.0, 730.0
	term := cards * replicas * (termPrice*month + termUpfront/termMonths + termExtras) // 6 × 1,653 = 9,918
	spot := cards * replicas * (((1-spotShare)*spotPrice+spotShare*fallback)*used + spotExtras)
	millions := 1000 * 3600 * used * replicas / 1e6
	for name, want := range map[string]float64{"on the term": term, "on spot": spot} {
		d := ds[name]
		if !near(d.RentPerMonth, want) || !near(d.RentPerReplicaHour, want/(used*replicas)) {
			t.Errorf("%s: $%v a month, $%v a replica-hour; want $%v and $%v", name, d.RentPerMonth, d.RentPerReplicaHour, want, want/(used*replicas))
		}
		if !near(d.PerMillionRent, want/millions) {
			t.Errorf("%s: $%v per million tokens rented, want $%v", name, d.PerMillionRent, want/millions)
		}
	}
}

// A spot offer whose fallback bills used hours alone, and which has no
// extras, bills only used hours: its rent per replica-hour is the cards
// at its effective price.
func TestSpotWithoutExtrasBillsUsedHours(t *testing.T) {
	m := billedModel()
	m.Offers[len(m.Offers)-1].Extras = 0
	d := costBilled(t, m)["on spot"]
	perHour := 2 * ((1-spotShare)*spotPrice + spotShare*fallback) // 2 × $1.709
	if !near(d.RentPerReplicaHour, perHour) || !near(d.RentPerMonth, perHour*264*3) {
		t.Errorf("$%v a replica-hour, $%v a month; want $%v and $%v", d.RentPerReplicaHour, d.RentPerMonth, perHour, perHour*264*3)
	}
}

// A deployment naming no offer rents the one of its GPU that costs it
// least a month. Without spot, the term's $2.10 is the lowest list price,
// but for 264 used hours a card pays 2.10 × 730 + 1,200 ÷ 12 + 20 = $1,653
// on it against 2.69 × 264 = $710.16 on Community; used all 730 hours,
// Community costs 2.69 × 730 = $1,963.70 and the term wins.
func TestDefaultOfferIsCheapestToRent(t *testing.T) {
	const month = 730.0
	term := termPrice*month + termUpfront/termMonths + termExtras
	for _, c := range []struct {
		used float64
		want string
	}{{264, "RunPod H100 SXM, Community"}, {month, "Lambda H100 1-year reserved"}} {
		m := billedModel()
		m.Offers = m.Offers[:len(m.Offers)-1] // no spot
		d := domain.Deployment{Name: "any offer", Model: "Llama 3.1 70B", GPU: "H100 SXM", Cards: 2, Replicas: 3, HoursPerMonth: c.used}
		m.Deployments = []domain.Deployment{d}
		got := costBilled(t, m)["any offer"]
		if got.Offer.Label() != c.want {
			t.Errorf("%v h: rents %s, want %s", c.used, got.Offer.Label(), c.want)
		}
		want := 2 * 3 * math.Min(term, fallback*c.used)
		if !near(got.RentPerMonth, want) {
			t.Errorf("%v h: $%v a month, want $%v", c.used, got.RentPerMonth, want)
		}
		if !strings.Contains(got.Words, "rented from "+c.want) {
			t.Errorf("%v h: the words %q do not name %s", c.used, got.Words, c.want)
		}
	}
}
