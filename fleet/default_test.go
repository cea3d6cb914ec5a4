package fleet_test

import (
	"fmt"
	"math"
	"strconv"
	"testing"

	"planner/deploy"
	"planner/domain"
	"planner/engine"
	"planner/fleet"
	"planner/workbooks"
)

func defaultFleet(t *testing.T) (fleet.Fleet, []deploy.Result) {
	t.Helper()
	p, err := engine.Build(workbooks.DefaultModel(), deploy.Check)
	if err != nil {
		t.Fatal(err)
	}
	results, err := p.EvalAll(nil)
	if err != nil {
		t.Fatal(err)
	}
	costs := deploy.Cost(p, results)
	return fleet.Of(costs), costs
}

// SPEC.md §3's nodes a month: capital over 36 months, 700 W cards × 8 ×
// 1.3 at $0.12/kWh for 730 h, rack $1,000; the H200 node at $315,000.
var (
	h100Node = 285000.0/36 + 0.7*8*1.3*730*0.12 + 1000
	h200Node = 315000.0/36 + 0.7*8*1.3*730*0.12 + 1000
)

// The default deployments packed: eight H100 SXM deployments of 2, 4, 1,
// 1 and four of 8 cards fill 5 nodes exactly; the H200's 1 and 8 cards
// take 2; no scenario owns RTX 5090 nodes.
func TestDefaultPacking(t *testing.T) {
	f, _ := defaultFleet(t)
	if len(f.GPUs) != 3 {
		t.Fatalf("%d GPUs: %+v", len(f.GPUs), f.GPUs)
	}
	h100, h200, rtx := f.GPUs[0], f.GPUs[1], f.GPUs[2]
	if h100.GPU != "H100 SXM" || h100.Scenario != domain.Base || h100.Cards != 40 || h100.Nodes != 5 {
		t.Errorf("H100: %s of %q, %d cards on %d nodes; want 40 on 5 of base", h100.GPU, h100.Scenario, h100.Cards, h100.Nodes)
	}
	if h200.GPU != "H200" || h200.Scenario != "H200 node" || h200.Cards != 9 || h200.Nodes != 2 {
		t.Errorf("H200: %s of %q, %d cards on %d nodes; want 9 on 2 of H200 node", h200.GPU, h200.Scenario, h200.Cards, h200.Nodes)
	}
	if rtx.GPU != "RTX 5090" || rtx.Scenario != "" || rtx.Nodes != 0 || rtx.Cards != 1 {
		t.Errorf("RTX 5090: %+v", rtx)
	}
	workdays := 12.0 * 22
	busy := (2*workdays + 4*workdays + 8*730 + 1*730 + 1*workdays + 3*8*730) / (5 * 8 * 730)
	if math.Abs(h100.Utilization-busy) > 1e-12 || math.Abs(h100.OwnPerMonth-5*h100Node) > 1e-6 {
		t.Errorf("H100 busy %v at %v a month, want %v at %v", h100.Utilization, h100.OwnPerMonth, busy, 5*h100Node)
	}
	rentH100 := 2.69*(2*workdays+4*workdays+730+workdays+8*730) + 3.99*8*730*2 + 5.97*8*730
	if math.Abs(h100.RentPerMonth-rentH100) > 1e-6 {
		t.Errorf("H100 rented %v, want %v", h100.RentPerMonth, rentH100)
	}
}

// The cheapest mix of the defaults: own the five deployments that keep
// eight cards busy all month, rent the rest, which no node's month pays
// for; the same as trying all 2^8 choices of the H100 deployments.
func TestDefaultBestMix(t *testing.T) {
	f, costs := defaultFleet(t)
	workdays := 12.0 * 22
	small := 2.69 * (2*workdays + 4*workdays + 730 + workdays)
	want := 4*h100Node + small + h200Node + 3.59*workdays + 0.69*8*22
	if math.Abs(f.Best.PerMonth-want) > 1e-6 {
		t.Errorf("best %v a month, want %v", f.Best.PerMonth, want)
	}
	wantOwn := []string{"405B FP8 on 8×H100", "eight H100s all month, Community", "eight H100s all month, Lambda",
		"eight H100s all month, AWS", "671B MoE on 8×H200"}
	if len(f.Best.Own) != len(wantOwn) {
		t.Fatalf("own %q, want %q", f.Best.Own, wantOwn)
	}
	for i := range wantOwn {
		if f.Best.Own[i] != wantOwn[i] {
			t.Errorf("own %q, want %q", f.Best.Own, wantOwn)
		}
	}
	var h100 []deploy.Result
	for _, c := range costs {
		if c.GPU == "H100 SXM" {
			h100 = append(h100, c)
		}
	}
	best, curve := fleet.Exhaustive(h100, 8, h100Node)
	if math.Abs(f.GPUs[0].Best.PerMonth-best) > 1e-6 || len(curve) != len(f.GPUs[0].Curve) {
		t.Errorf("H100 best %v, exhaustive %v", f.GPUs[0].Best.PerMonth, best)
	}
	ownAll := 5*h100Node + 2*h200Node + 0.69*8*22
	rentAll := f.GPUs[0].RentPerMonth + 3.59*workdays + 3.59*8*730 + 0.69*8*22
	words := `own "405B FP8 on 8×H100", "eight H100s all month, Community", "eight H100s all month, Lambda" and "eight H100s all month, AWS" on 4 H100 SXM nodes` +
		` and "671B MoE on 8×H200" on 1 H200 node; rent "internal 8B assistant", "public 70B FP8 service, workdays", "70B, longer context or more concurrency",` +
		` "one H100, all month", "one H100, workdays" and "70B FP8 on one H200": ` +
		fmt.Sprintf("$%s a month, $%s less than owning every deployment a scenario can own and $%s less than renting everything", thousands(want), thousands(ownAll-want), thousands(rentAll-want))
	if f.Best.Words != words {
		t.Errorf("words\n%s\nwant\n%s", f.Best.Words, words)
	}
}

// thousands writes whole dollars with commas: 56609.4 -> 56,609.
func thousands(v float64) string {
	s := strconv.Itoa(int(math.Round(v)))
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// At the defaults every deployment names the offer of its GPU cheapest
// for its hours, so the cheapest mix rents each as its row does, and owns
// each H100 and H200 deployment it owns at a node a deployment (each
// fills its node): the months add up to the mix's.
func TestDefaultCheapestDeploymentByDeployment(t *testing.T) {
	f, costs := defaultFleet(t)
	if len(f.Cheapest) != len(costs) {
		t.Fatalf("%d deployments bought, want %d", len(f.Cheapest), len(costs))
	}
	owned := map[string]float64{"405B FP8 on 8×H100": h100Node, "eight H100s all month, Community": h100Node,
		"eight H100s all month, Lambda": h100Node, "eight H100s all month, AWS": h100Node, "671B MoE on 8×H200": h200Node}
	sum := 0.0
	for i, c := range f.Cheapest {
		d := costs[i]
		want, wantWords := d.RentPerMonth, "rent from "+d.Offer.Label()+" (used hours)"
		if node, ok := owned[d.Name]; ok {
			want, wantWords = node, "own, on "+d.GPU+" nodes of the scenario "+d.Own.Scenario
		}
		if c.Deployment != d.Name || c.Words != wantWords || math.Abs(c.PerMonth-want) > 1e-6 {
			t.Errorf("%s: %q at $%v, want %q at $%v", d.Name, c.Words, c.PerMonth, wantWords, want)
		}
		sum += c.PerMonth
	}
	if math.Abs(sum-f.Best.PerMonth) > 1e-6 {
		t.Errorf("the deployments' months add up to $%v, the mix is $%v", sum, f.Best.PerMonth)
	}
}
