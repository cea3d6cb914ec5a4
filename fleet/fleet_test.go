package fleet

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"planner/deploy"
	"planner/domain"
	"planner/wording"
)

// costed is a deployment as deploy would cost it, owned on nodes of node
// cards at nodeCost a month.
func costed(name string, cards, replicas int, rent float64, node, nodeCost float64) deploy.Result {
	r := deploy.Result{Deployment: domain.Deployment{Name: name, GPU: "H100 SXM", Replicas: replicas, HoursPerMonth: 730},
		Cards: cards, RentPerMonth: rent, Phrase: wording.Phrase{{Text: "costed"}}}
	if node > 0 {
		r.Own = &deploy.OwnSide{Scenario: "base", NodeGPUs: node, NodeCost: nodeCost, Hours: 730}
	}
	return r
}

// fewestBins packs replicas of the sizes given onto nodes of node cards by
// trying every assignment, largest first, from the cards' lower bound up.
func fewestBins(sizes []int, node int) int {
	if len(sizes) == 0 {
		return 0
	}
	sizes = slices.Clone(sizes)
	slices.Sort(sizes)
	slices.Reverse(sizes)
	total := 0
	for _, s := range sizes {
		total += s
	}
	for k := (total + node - 1) / node; ; k++ {
		free := make([]int, k)
		for i := range free {
			free[i] = node
		}
		var place func(i int) bool
		place = func(i int) bool {
			if i == len(sizes) {
				return true
			}
			tried := map[int]bool{} // bins with equal room are the same choice
			for b := range free {
				if free[b] >= sizes[i] && !tried[free[b]] {
					tried[free[b]] = true
					free[b] -= sizes[i]
					if place(i + 1) {
						return true
					}
					free[b] += sizes[i]
				}
			}
			return false
		}
		if place(0) {
			return k
		}
	}
}

// exhaustive is the least month over every own/rent choice of the
// deployments, and for each number of owned nodes k the least month with
// at most k nodes' worth owned, paying for k.
func exhaustive(ds []deploy.Result, node int, nodeCost float64) (best float64, curve []float64) {
	n := len(ds)
	nodesOf := make([]int, 1<<n)
	rentOf := make([]float64, 1<<n)
	most := 0
	for mask := range 1 << n {
		var sizes []int
		whole := 0
		for i, d := range ds {
			if mask&(1<<i) == 0 {
				rentOf[mask] += d.RentPerMonth
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
		nodesOf[mask] = fewestBins(sizes, node) + whole
		most = max(most, nodesOf[mask])
	}
	curve = make([]float64, most+1)
	for k := range curve {
		curve[k] = math.Inf(1)
		for mask := range 1 << n {
			if nodesOf[mask] <= k {
				curve[k] = min(curve[k], float64(k)*nodeCost+rentOf[mask])
			}
		}
	}
	return slices.Min(curve), curve
}

// The exact mix against every own/rent choice, on seeded random fleets of
// up to nine deployments: node sizes that sizes divide and that they do
// not, replicas larger than a node, rents either side of a node's cost.
func TestBestMixAgainstExhaustiveSearch(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 2026))
	for trial := range 400 {
		node := []int{4, 6, 8, 8, 8}[rng.IntN(5)]
		nodeCost := 5000 + 5000*rng.Float64()
		var ds []deploy.Result
		for i := range 1 + rng.IntN(9) {
			cards := 1 + rng.IntN(node)
			if rng.IntN(8) == 0 {
				cards = node * (2 + rng.IntN(2))
			}
			ds = append(ds, costed(fmt.Sprintf("d%d", i), cards, 1+rng.IntN(3), 3*nodeCost*rng.Float64(), float64(node), nodeCost))
		}
		f := Of(ds)
		want, curve := exhaustive(ds, node, nodeCost)
		g := f.GPUs[0]
		if math.Abs(f.Best.PerMonth-want) > 1e-6 || len(g.Curve) != len(curve) {
			t.Fatalf("trial %d (node %d): best %v over %d nodes, exhaustive %v over %d", trial, node, f.Best.PerMonth, len(g.Curve)-1, want, len(curve)-1)
		}
		for k := range curve {
			if p := g.Curve[k]; p.Nodes != k || math.Abs(p.PerMonth-curve[k]) > 1e-6 {
				t.Fatalf("trial %d: %d nodes cost %v, exhaustive %v at %d", trial, p.Nodes, p.PerMonth, curve[k], k)
			}
		}
		if !g.Exact || !g.CurveLeast || g.AtLeast != g.Best.PerMonth || g.NodesLeast != g.Nodes {
			t.Fatalf("trial %d: exact %v, curve least %v, at least %v of %v, nodes %d to %d", trial, g.Exact, g.CurveLeast, g.AtLeast, g.Best.PerMonth, g.NodesLeast, g.Nodes)
		}
		// The choice it names costs what it says.
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
					whole += d.Cards / node
				} else {
					sizes = append(sizes, d.Cards)
				}
			}
		}
		if math.Abs(month-want) > 1e-6 || fewestBins(sizes, node)+whole > g.Best.Nodes {
			t.Fatalf("trial %d: owning %v on %d nodes costs %v, want %v", trial, g.Best.Own, g.Best.Nodes, month, want)
		}
	}
}

// Each deployment is costed as itself even when two share a name: the
// group keeps the rows, not their names. An 8-card replica renting for
// $20,000 and a 1-card one for $100, on $9,000 nodes of 8: owning the
// large one alone is cheapest, $9,100; costed as the small one twice,
// both would be rented at $20,100.
func TestSameNamesCostedApart(t *testing.T) {
	ds := []deploy.Result{costed("twin", 8, 1, 20000, 8, 9000), costed("twin", 1, 1, 100, 8, 9000)}
	f := Of(ds)
	if got, want := f.Best.PerMonth, 9000.0+100; got != want {
		t.Errorf("cheapest month %v, want %v", got, want)
	}
	if g := f.GPUs[0]; g.Best.Nodes != 1 || g.Nodes != 2 || g.Cards != 9 {
		t.Errorf("best on %d nodes, all on %d, %d cards; want 1, 2 and 9", g.Best.Nodes, g.Nodes, g.Cards)
	}
}

// Words name ten at most: twelve GPUs each owning one deployment of 8
// cards on one $9,000 node, renting for $20,000, and fifteen of one card
// renting for $100, which no node pays for (owning them takes two); the
// words name five of each list and count the rest.
func TestWordsNameTenAtMost(t *testing.T) {
	var ds []deploy.Result
	for i := range 12 {
		d := costed(fmt.Sprintf("d%02d", i), 8, 1, 20000, 8, 9000)
		d.GPU = fmt.Sprintf("G%02d", i)
		ds = append(ds, d)
	}
	for i := range 15 {
		ds = append(ds, costed(fmt.Sprintf("r%02d", i), 1, 1, 100, 8, 9000))
	}
	f := Of(ds)
	want := `own "d00" on 1 G00 node, "d01" on 1 G01 node, "d02" on 1 G02 node, "d03" on 1 G03 node, "d04" on 1 G04 node and 7 more GPUs' deployments; ` +
		`rent "r00", "r01", "r02", "r03", "r04" and 10 other deployments: $109,500 a month, $16,500 less than owning everything and $132,000 less than renting everything`
	if f.Best.Words != want {
		t.Errorf("words\n%s\nwant\n%s", f.Best.Words, want)
	}
}
