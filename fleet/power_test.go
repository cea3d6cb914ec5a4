package fleet

import (
	"math"
	"testing"

	"planner/deploy"
	"planner/domain"
	"planner/engine"
	"planner/engine/enginetest"
)

// The default node: 8 H100 SXM cards of 700 W at a PUE of 1.3.
const (
	nodeCards = 8
	boardW    = 700.0
	pue       = 1.3
	nodeKW    = nodeCards * boardW * pue / 1000 // 7.28 kW
)

// costedWith costs deployments of the default model with the inputs set, and
// returns the costs the fleet reads.
func costedWith(t *testing.T, inputs map[string]float64, ds ...domain.Deployment) []deploy.Result {
	t.Helper()
	m := enginetest.FullModel()
	for i, in := range m.Inputs {
		if v, ok := inputs[in.Name]; ok {
			m.Inputs[i].Value = domain.Num(v)
			delete(inputs, in.Name)
		}
	}
	if len(inputs) > 0 {
		t.Fatalf("the model has no inputs %v", inputs)
	}
	m.Deployments = ds
	p, err := engine.Build(m, deploy.Check)
	if err != nil {
		t.Fatal(err)
	}
	results, err := p.EvalAll(nil)
	if err != nil {
		t.Fatal(err)
	}
	return deploy.Cost(p, results)
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// Three deployments each fill a node all month, and owning a node costs
// less than renting its eight cards' 730 hours at Community's $2.69: the
// cheapest mix owns three nodes, 3 × 7.28 kW. A site of 15 kW holds two
// (14.56 kW): the mix must own two and rent the third, 6.84 kW short.
func TestTheSiteLimitChangesTheCheapestMix(t *testing.T) {
	var ds []domain.Deployment
	for _, name := range []string{"a", "b", "c"} {
		ds = append(ds, domain.Deployment{Name: name, Model: "Llama 3.1 70B", GPU: "H100 SXM", Cards: 8, Replicas: 1, HoursPerMonth: 730,
			Offer: "RunPod H100 SXM, Community"})
	}
	costs := costedWith(t, map[string]float64{}, ds...)
	node, rent := costs[0].Own.NodeCost, 8*730*2.69
	if !(node < rent) || !near(costs[0].Own.NodeKW, nodeKW) {
		t.Fatalf("the case does not make owning win at 7.28 kW a node: node $%v, rent $%v, %v kW", node, rent, costs[0].Own.NodeKW)
	}
	free := Of(costs)
	if free.Best.Nodes != 3 || !near(free.Power.KW, 3*nodeKW) || free.Power.Binds {
		t.Fatalf("without a limit: %d nodes, %v kW, binds %v; want 3 nodes, %v kW", free.Best.Nodes, free.Power.KW, free.Power.Binds, 3*nodeKW)
	}
	f := Within(costs, deploy.Site{KW: 15})
	pw := f.Power
	if f.Best.Nodes != 2 || !near(pw.KW, 2*nodeKW) || !pw.Binds || !near(pw.ShortKW, 3*nodeKW-15) {
		t.Errorf("within 15 kW: %d nodes, %v kW, binds %v, short %v kW; want 2 nodes, %v kW, short %v kW",
			f.Best.Nodes, pw.KW, pw.Binds, pw.ShortKW, 2*nodeKW, 3*nodeKW-15)
	}
	if want := 2*node + rent; !near(f.Best.PerMonth, want) || !near(pw.UnlimitedMonth, 3*node) {
		t.Errorf("within 15 kW: $%v a month (want two nodes and one rented, $%v), $%v without (want $%v)", f.Best.PerMonth, want, pw.UnlimitedMonth, 3*node)
	}
	owned := 0
	for _, c := range f.Cheapest {
		owned += c.Owned
	}
	if owned != 2 || len(f.Best.Rent) != 1 {
		t.Errorf("within 15 kW the mix owns %d replicas and rents %v; want two owned, one rented", owned, f.Best.Rent)
	}
	if tight := Within(costs, deploy.Site{KW: 7}); tight.Best.Nodes != 0 || tight.Power.KW != 0 || !near(tight.Best.PerMonth, 3*rent) {
		t.Errorf("within 7 kW (less than a node): %d nodes, %v kW, $%v; want none owned, $%v", tight.Best.Nodes, tight.Power.KW, tight.Best.PerMonth, 3*rent)
	}
}

// With idle watts the node's month draws the idle watts in idle hours:
// two half-node deployments, busy 730 and 600 hours, own one node whose
// cards work 4 × 730 + 4 × 600 card-hours of its 8 × 730. The energy is
// the idle draw all month plus each busy card-hour's difference to the
// full draw; the tokens are each replica's 500 a second over its hours;
// the carbon, the energy at 400 g/kWh over the millions of tokens.
func TestTheFleetsEnergyFollowsTheLoad(t *testing.T) {
	const idleW, grid, perSecond = 100.0, 400.0, 500.0
	ds := []domain.Deployment{
		{Name: "all month", Model: "Llama 3.1 70B", GPU: "H100 SXM", Cards: 4, Replicas: 1, HoursPerMonth: 730, TokensPerReplica: perSecond, Offer: "RunPod H100 SXM, Community"},
		{Name: "most of it", Model: "Llama 3.1 70B", GPU: "H100 SXM", Cards: 4, Replicas: 1, HoursPerMonth: 600, TokensPerReplica: perSecond, Offer: "RunPod H100 SXM, Community"},
	}
	costs := costedWith(t, map[string]float64{domain.GPUIdleWatts: idleW}, ds...)
	f := Within(costs, deploy.Site{GridCO2: grid})
	if f.Best.Nodes != 1 {
		t.Fatalf("the mix owns %d nodes, want 1 (node $%v a month)", f.Best.Nodes, costs[0].Own.NodeCost)
	}
	idleKW := nodeCards * idleW * pue / 1000
	kwh := idleKW*730 + (4*730+4*600)*(nodeKW-idleKW)/nodeCards
	tokens := perSecond * 3600 * (730 + 600)
	pw := f.Power
	if !near(pw.KW, nodeKW) || !near(pw.KWhPerMonth, kwh) || !near(pw.AverageKW, kwh/730) || !near(pw.TokensPerMonth, tokens) {
		t.Errorf("%v kW, %v kWh, %v kW on average, %v tokens; want %v kW, %v kWh, %v kW, %v tokens",
			pw.KW, pw.KWhPerMonth, pw.AverageKW, pw.TokensPerMonth, nodeKW, kwh, kwh/730, tokens)
	}
	if !near(pw.TokensPerKWh, tokens/kwh) || !near(pw.GCO2PerMillion, kwh*grid/(tokens/1e6)) {
		t.Errorf("%v tokens per kWh, %v g per million; want %v and %v", pw.TokensPerKWh, pw.GCO2PerMillion, tokens/kwh, kwh*grid/(tokens/1e6))
	}
	full := Within(costedWith(t, map[string]float64{}, ds...), deploy.Site{})
	if want := nodeKW * 730; !near(full.Power.KWhPerMonth, want) {
		t.Errorf("without idle watts: %v kWh, want the full draw all month, %v", full.Power.KWhPerMonth, want)
	}
}

// The site shared between two GPUs by hand: A's month is $100, $60 or $30
// on 0, 1 or 2 nodes of 7 kW, B's $50 or $15 on 0 or 1 node of 10 kW. On
// 17 kW the pairs that fit are (0, 0) $150, (1, 0) $110, (2, 0) $80, (0, 1)
// $115 and (1, 1) $75: one node of each, though A alone on two saves more
// than on one.
func TestTheSiteIsSharedAtTheLeastMonth(t *testing.T) {
	a := []option{{0, 100, 0}, {1, 60, 7}, {2, 30, 14}}
	b := []option{{0, 50, 0}, {1, 15, 10}}
	p := cheapestPlan([][]option{a, b}, 17)
	if len(p.picks) != 2 || p.picks[0] != 1 || p.picks[1] != 1 || p.month != 75 || p.kw != 17 {
		t.Errorf("the plan %+v, want one node of each, $75 at 17 kW", p)
	}
	if p := cheapestPlan([][]option{a, b}, 16); p.picks[0] != 2 || p.picks[1] != 0 || p.month != 80 {
		t.Errorf("on 16 kW the plan %+v, want two of A's, $80", p)
	}
}
