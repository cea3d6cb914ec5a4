package fleet

import (
	"cmp"
	"math"
	"slices"
)

// item is one deployment of a node group: its replicas, the cards of each,
// and what renting all of them costs a month.
type item struct {
	cards, replicas int
	rent            float64
}

// part is what owning an item puts on nodes: count replicas of size cards
// each, a replica larger than a node counted as the whole nodes it takes,
// each of size node. Replicas of one size are interchangeable, so nothing
// below ever holds one replica or one card on its own.
type part struct{ size, count int64 }

func partOf(it item, node int64) part {
	c, r := int64(it.cards), int64(it.replicas)
	if c > node {
		return part{size: node, count: r * ((c + node - 1) / node)}
	}
	return part{size: c, count: r}
}

// point is a mix on a number of nodes: its month, and (for the best only)
// the items it owns, ascending.
type point struct {
	nodes int64
	month float64
	own   []int
}

// answer is a node group's cheapest mix and its curve.
type answer struct {
	all, allLeast int64   // the nodes owning every item takes: at most, at least (equal when known)
	curve         []point // sampled months by the nodes owned, ascending
	least         bool    // each point of curve is the least month on its nodes
	best          point   // the cheapest mix found
	exact         bool    // best is the cheapest there is
	bound         float64 // the cheapest month is at least this; best.month when exact
}

// The limits of one group's work. Within them the answer is exact; past
// them planner gives a mix it can own and a lower bound on the cheapest
// month (bounded). Variables, so that a test can force the bound.
var (
	// maxDense bounds the cells of the exact programme over weights: a
	// float per capacity, and a choice per capacity and weight class;
	// some 30 MB at most.
	maxDense int64 = 1 << 22
	// maxVectors bounds the combinations tried: of replica counts by size
	// when the sizes do not divide each other and the node, or of counts
	// of each weight class owned when they do. maxSteps bounds the search
	// for the fewest nodes each count of replicas by size packs onto, and
	// maxReplicas the replicas it packs (a node of the search at a time).
	maxVectors  int64 = 200000
	maxSteps    int64 = 5000000
	maxReplicas int64 = 1 << 14
	// maxResidues bounds the programme over cards modulo the node that
	// finds the cheapest mix exactly when the weights are too many for the
	// curve's (items × node cards).
	maxResidues int64 = 1 << 24
	// maxPrefixes is how many of the mixes owning the items that save most
	// per card a bounded answer tries, and maxPackSteps bounds the steps
	// of packing them all.
	maxPrefixes        = 4096
	maxPackSteps int64 = 1 << 26
)

// CurvePoints is the most points of a curve: the nodes from 0 to all of
// them, or that many spread evenly over them, with the cheapest mix's.
const CurvePoints = 121

// cheapest finds the cheapest mix of owning some items on nodes of node
// cards at cost a month each and renting the rest (all rented costs
// rentAll), and the least month for each number of owned nodes, sampled:
// exactly by weights when the cards decide the nodes (weights.go), by
// counts of each size when they do not (vectors.go), and past the limits
// of either, bounded (bounded.go).
func cheapest(items []item, node int64, cost, rentAll float64) answer {
	return cheapestWithin(items, node, cost, rentAll, math.MaxInt64)
}

// cheapestWithin is cheapest owning at most most nodes: the site's power
// limit, as nodes of the group (the curve still shows every count).
func cheapestWithin(items []item, node int64, cost, rentAll float64, most int64) answer {
	p := newProblem(items, node, cost, rentAll)
	p.most = most
	if p.divisible {
		if a, ok := p.byWeight(); ok {
			return a
		}
		return p.bounded(true)
	}
	if a, ok := p.byVectors(); ok {
		return a
	}
	return p.bounded(false)
}

// problem is one group's items as parts, with the costs.
type problem struct {
	items         []item
	parts         []part
	node          int64
	cost, rentAll float64
	// divisible: each size divides the next larger and the node, so the
	// cards alone decide the nodes: filling nodes largest first leaves no
	// gap but in the last.
	divisible bool
	sizes     []int64       // the distinct sizes below a node, largest first
	sizeAt    map[int64]int // a size's index in sizes
	most      int64         // the most nodes the best mix may own (the site's limit)
}

func newProblem(items []item, node int64, cost, rentAll float64) *problem {
	p := &problem{items: items, node: node, cost: cost, rentAll: rentAll, divisible: true, sizeAt: map[int64]int{}, most: math.MaxInt64}
	for _, it := range items {
		pt := partOf(it, node)
		p.parts = append(p.parts, pt)
		if _, ok := p.sizeAt[pt.size]; pt.size < node && !ok {
			p.sizeAt[pt.size] = 0
			p.sizes = append(p.sizes, pt.size)
		}
	}
	slices.SortFunc(p.sizes, func(a, b int64) int { return cmp.Compare(b, a) })
	larger := node
	for i, s := range p.sizes {
		p.sizeAt[s] = i
		if larger%s != 0 {
			p.divisible = false
		}
		larger = s
	}
	return p
}

// month is the month of owning the items marked on k nodes, summed in the
// items' order so that one mix always gives one number, and the items
// owned when list; it clears the marks.
func (p *problem) month(k int64, owned []bool, list bool) (float64, []int) {
	saved := 0.0
	var own []int
	for i, o := range owned {
		if o {
			saved += p.items[i].rent
			owned[i] = false
			if list {
				own = append(own, i)
			}
		}
	}
	return float64(k)*p.cost + p.rentAll - saved, own
}

// marked marks the items own in a new slice of marks.
func (p *problem) marked(own []int) []bool {
	owned := make([]bool, len(p.items))
	for _, i := range own {
		owned[i] = true
	}
	return owned
}

// samples are the node counts a curve of all nodes shows: every one, or
// CurvePoints spread evenly, with best's.
func samples(all, best int64) []int64 {
	var ks []int64
	if all < CurvePoints {
		for k := int64(0); k <= all; k++ {
			ks = append(ks, k)
		}
		return ks
	}
	for i := range int64(CurvePoints) {
		ks = append(ks, int64(math.Round(float64(all)*float64(i)/float64(CurvePoints-1))))
	}
	ks = append(ks, best)
	slices.Sort(ks)
	return slices.Compact(ks)
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func ceilDiv(a, b int64) int64 { return (a + b - 1) / b }
