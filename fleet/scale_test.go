package fleet

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"planner/deploy"
)

// Ten thousand one-card deployments, renting for $100 to $1,099, on nodes
// of 8 cards at $4,000: the dearest 8k rented cards are the ones to own on
// k nodes, so the cheapest month is the least over k of k nodes, plus the
// rest rented; the search proves it without trying mixes one by one.
func TestTenThousandOneCardDeployments(t *testing.T) {
	var ds []deploy.Result
	var rents []float64
	for i := range 10000 {
		rent := 100 + float64(i*7919%1000)
		rents = append(rents, rent)
		ds = append(ds, costed(fmt.Sprintf("d%d", i), 1, 1, rent, 8, 4000))
	}
	slices.Sort(rents)
	slices.Reverse(rents)
	total := 0.0
	for _, r := range rents {
		total += r
	}
	want, owned := math.Inf(1), 0.0
	for k := 0; k <= 1250; k++ {
		if k > 0 {
			for _, r := range rents[8*(k-1) : 8*k] {
				owned += r
			}
		}
		want = min(want, float64(k)*4000+total-owned)
	}
	f := Of(ds)
	g := f.GPUs[0]
	if !g.Exact || !g.CurveLeast || math.Abs(f.Best.PerMonth-want) > 1e-6*want || g.Nodes != 1250 || len(g.Curve) != CurvePoints+1 {
		t.Errorf("exact %v, least curve %v: %v a month on %d of %d nodes, %d points; want %v on 1,250 nodes", g.Exact, g.CurveLeast, f.Best.PerMonth,
			g.Best.Nodes, g.Nodes, len(g.Curve), want)
	}
}

// Replicas of a million cards a million times over, and three deployments
// of 16 cards a million times over, on nodes of 8: each replica takes
// whole nodes, 125,000 or 2, so each deployment is owned when its nodes
// cost less than its rent; nothing is held per card or per replica.
func TestHugeReplicaCounts(t *testing.T) {
	for _, c := range []struct {
		cards, replicas int
		rents           []float64
	}{
		{1000000, 1000000, []float64{2e15}},
		{16, 1000000, []float64{1e10, 3e10, 2.5e10}},
	} {
		var ds []deploy.Result
		nodes := c.replicas * (c.cards / 8)
		want, wantNodes := 0.0, 0
		for i, rent := range c.rents {
			ds = append(ds, costed(fmt.Sprintf("d%d", i), c.cards, c.replicas, rent, 8, 10000))
			if own := float64(nodes) * 10000; own <= rent {
				want, wantNodes = want+own, wantNodes+nodes
			} else {
				want += rent
			}
		}
		f := Of(ds)
		g := f.GPUs[0]
		if !g.Exact || math.Abs(f.Best.PerMonth-want) > 1e-9*want || g.Best.Nodes != wantNodes || g.Nodes != nodes*len(c.rents) || len(g.Curve) > CurvePoints+1 {
			t.Errorf("%d × %d cards: exact %v, %v a month on %d of %d nodes (%d points); want %v on %d of %d", c.replicas, c.cards, g.Exact,
				f.Best.PerMonth, g.Best.Nodes, g.Nodes, len(g.Curve), want, wantNodes, nodes*len(c.rents))
		}
	}
}

// A million replicas of 3 cards and ten of 5 on nodes of 8 are past the
// exact search (3 and 5 do not divide 8): a node holds a 5 and a 3, or two
// 3s, so all of them take 10 + 999,990 ÷ 2 = 500,005 nodes, which the
// packing finds and the bound proves. Each deployment saves more than its
// nodes cost, so owning both is cheapest, and the bound proves that too:
// counting each replica half a node (u⁽²⁾ of 3 and 5 eighths), no mix
// saves more than the two deployments' rent on 500,005 nodes. Only the
// curve of the month by nodes owned is not proven the least.
func TestMillionOddReplicas(t *testing.T) {
	ds := []deploy.Result{costed("threes", 3, 1000000, 1e10, 8, 9000), costed("fives", 5, 10, 2e5, 8, 9000)}
	f := Of(ds)
	g := f.GPUs[0]
	want := 500005 * 9000.0
	if g.Nodes != 500005 || g.NodesLeast != 500005 || !g.Exact || g.Best.PerMonth != want || len(g.Best.Own) != 2 || !strings.HasSuffix(g.Unproven(), "): each month by the nodes owned owns, of the deployments that save most per card, those that fit, and the least month may be lower") {
		t.Fatalf("all on %d to %d nodes; exact %v, %v a month owning %v; want 500,005 nodes, %v owning both", g.NodesLeast, g.Nodes, g.Exact, g.Best.PerMonth, g.Best.Own, want)
	}
	if f.Best.Bounded || strings.Contains(f.Best.Words, "within") {
		t.Errorf("words %q", f.Best.Words)
	}
}

// Three hundred deployments of 1 to 300 cards on nodes of 1,000: too many
// sizes to pack by patterns, so one node fills at a time, largest first;
// owning all of them takes at least their 45,150 cards' 46 nodes, and
// packed so, no more than one node a size beyond that. The answer comes
// at once, with its bound.
func TestManySizes(t *testing.T) {
	var ds []deploy.Result
	for i := range 300 {
		ds = append(ds, costed(fmt.Sprintf("d%d", i), i+1, 1, 50*float64(i+1), 1000, 40000))
	}
	f := Of(ds)
	g := f.GPUs[0]
	if g.NodesLeast != 46 || g.Nodes < 46 || g.Nodes > 46+300 || g.AtLeast > g.Best.PerMonth || g.Best.Nodes > g.Nodes {
		t.Errorf("all on %d to %d nodes; %v a month on %d, at least %v", g.NodesLeast, g.Nodes, g.Best.PerMonth, g.Best.Nodes, g.AtLeast)
	}
}
