package fleet

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"planner/deploy"
	"planner/units"
)

// randomFleet is one seeded fleet of up to nine deployments, as
// TestBestMixAgainstExhaustiveSearch draws them; divisible keeps to sizes
// that divide each other and the node.
func randomFleet(rng *rand.Rand, divisible bool) ([]deploy.Result, int, float64) {
	node := []int{4, 6, 8, 8, 8}[rng.IntN(5)]
	if divisible {
		node = []int{4, 8, 16}[rng.IntN(3)]
	}
	nodeCost := 5000 + 5000*rng.Float64()
	var ds []deploy.Result
	for i := range 1 + rng.IntN(9) {
		cards := 1 + rng.IntN(node)
		if divisible {
			cards = 1 << rng.IntN(5)
			for cards > node {
				cards /= 2
			}
		}
		if rng.IntN(8) == 0 {
			cards = node * (2 + rng.IntN(2))
		}
		ds = append(ds, costed(fmt.Sprintf("d%d", i), cards, 1+rng.IntN(3), 3*nodeCost*rng.Float64(), float64(node), nodeCost))
	}
	return ds, node, nodeCost
}

// checkMix fails unless the GPU's mix costs what it says and its owned
// replicas pack onto its nodes.
func checkMix(t *testing.T, trial int, g GPU, ds []deploy.Result, node int, nodeCost float64) {
	t.Helper()
	month, owned := float64(g.Best.Nodes)*nodeCost, map[string]bool{}
	for _, name := range g.Best.Own {
		owned[name] = true
	}
	var sizes []int
	whole := 0
	for _, d := range ds {
		if !owned[d.Name] {
			month += d.RentPerMonth
			continue
		}
		for range d.Replicas {
			if d.Cards > node {
				whole += (d.Cards + node - 1) / node
			} else {
				sizes = append(sizes, d.Cards)
			}
		}
	}
	if math.Abs(month-g.Best.PerMonth) > 1e-6 || fewestBins(sizes, node)+whole > g.Best.Nodes {
		t.Fatalf("trial %d: owning %v on %d nodes costs %v, said %v", trial, g.Best.Own, g.Best.Nodes, month, g.Best.PerMonth)
	}
}

// Past the search's bound, the mix is one that can be owned, the lower
// bound is at most the cheapest month exhaustive search finds, and the
// words say how far the mix may be from the cheapest: on the same random
// fleets as the exact search, with every exact programme refused.
func TestBoundedAgainstExhaustiveSearch(t *testing.T) {
	defer forceBound(0, 0, 0)()
	rng := rand.New(rand.NewPCG(17, 2026))
	bounded := 0
	for trial := range 400 {
		ds, node, nodeCost := randomFleet(rng, false)
		f := Of(ds)
		want, curve := exhaustive(ds, node, nodeCost)
		g := f.GPUs[0]
		checkMix(t, trial, g, ds, node, nodeCost)
		if g.AtLeast > want+1e-6 || g.Best.PerMonth < want-1e-6 {
			t.Fatalf("trial %d: the cheapest is %v, said to be at least %v, and %v found", trial, want, g.AtLeast, g.Best.PerMonth)
		}
		if g.CurveLeast || g.NodesLeast > len(curve)-1 || g.Nodes < len(curve)-1 {
			t.Fatalf("trial %d: curve least %v; all on %d to %d nodes, exhaustive %d", trial, g.CurveLeast, g.NodesLeast, g.Nodes, len(curve)-1)
		}
		for _, p := range g.Curve { // each point is a month that some mix on that many nodes costs
			if p.Nodes < len(curve) && p.PerMonth < curve[p.Nodes]-1e-6 {
				t.Fatalf("trial %d: %d nodes cost %v, the least is %v", trial, p.Nodes, p.PerMonth, curve[p.Nodes])
			}
		}
		if g.Exact {
			if g.Best.PerMonth-g.AtLeast > 1e-6 || math.Abs(g.Best.PerMonth-want) > 1e-6 {
				t.Fatalf("trial %d: exact at %v, at least %v, exhaustive %v", trial, g.Best.PerMonth, g.AtLeast, want)
			}
			continue
		}
		bounded++
		within := fmt.Sprintf("; within %s of the cheapest mix, which costs at least %s a month: planner did not search every mix of the %d H100 SXM deployments of the scenario base: their replicas and sizes are too many for its search",
			dollars(units.USD, g.Best.PerMonth-g.AtLeast), dollars(units.USD, g.AtLeast), len(ds))
		if !f.Best.Bounded || !strings.HasSuffix(f.Best.Words, within) || !strings.Contains(g.Unproven(), "the mix is within "+dollars(units.USD, g.Best.PerMonth-g.AtLeast)+" of the cheapest") {
			t.Fatalf("trial %d: words %q, unproven %q; want them to end %q", trial, f.Best.Words, g.Unproven(), within)
		}
	}
	if bounded < 100 {
		t.Errorf("only %d of 400 fleets were bounded", bounded)
	}
}

// When the cards decide the nodes, the cheapest mix is still exact past
// the bounds of the whole curve: the programme over cards modulo the node
// finds it, on random fleets of sizes that divide each other and the node.
func TestResidueMixAgainstExhaustiveSearch(t *testing.T) {
	defer forceBound(0, 0, 1<<24)()
	rng := rand.New(rand.NewPCG(5, 2027))
	for trial := range 400 {
		ds, node, nodeCost := randomFleet(rng, true)
		f := Of(ds)
		want, _ := exhaustive(ds, node, nodeCost)
		g := f.GPUs[0]
		checkMix(t, trial, g, ds, node, nodeCost)
		if !g.Exact || f.Best.Bounded || math.Abs(g.Best.PerMonth-want) > 1e-6 || g.AtLeast != g.Best.PerMonth {
			t.Fatalf("trial %d (node %d): exact %v at %v, exhaustive %v", trial, node, g.Exact, g.Best.PerMonth, want)
		}
		if g.CurveLeast || !strings.Contains(g.Unproven(), "the least month may be lower") || strings.Contains(f.Best.Words, "within") {
			t.Fatalf("trial %d: curve least %v, unproven %q, words %q", trial, g.CurveLeast, g.Unproven(), f.Best.Words)
		}
	}
}

// Past the programme over weights alone, trying every combination of
// weight classes finds the mix and the whole curve exactly.
func TestCombinationsAgainstExhaustiveSearch(t *testing.T) {
	defer forceBound(0, 200000, 0)()
	rng := rand.New(rand.NewPCG(9, 2028))
	for trial := range 400 {
		ds, node, nodeCost := randomFleet(rng, true)
		f := Of(ds)
		want, curve := exhaustive(ds, node, nodeCost)
		g := f.GPUs[0]
		checkMix(t, trial, g, ds, node, nodeCost)
		if !g.Exact || !g.CurveLeast || math.Abs(g.Best.PerMonth-want) > 1e-6 || len(g.Curve) != len(curve) || g.Unproven() != "" {
			t.Fatalf("trial %d (node %d): exact %v at %v, exhaustive %v; %d points of %d", trial, node, g.Exact, g.Best.PerMonth, want, len(g.Curve), len(curve))
		}
		for k := range curve {
			if p := g.Curve[k]; p.Nodes != k || math.Abs(p.PerMonth-curve[k]) > 1e-6 {
				t.Fatalf("trial %d: %d nodes cost %v, exhaustive %v at %d", trial, p.Nodes, p.PerMonth, curve[k], k)
			}
		}
	}
}
