package fleet

import (
	"cmp"
	"math"
	"slices"
)

// bounded is the answer past the limits of the exact search: mixes that
// own the items saving most rent per card first, each packed onto nodes
// largest first, the cheapest of them kept, and the lower bound on the
// cheapest month that owning fractions of items gives (fractionalBound).
// When the cards decide the nodes, the cheapest mix is still found
// exactly (cheapestByResidue), within maxResidues.
func (p *problem) bounded(divisible bool) answer {
	order := make([]int, len(p.items))
	for i := range order {
		order[i] = i
	}
	perCard := func(i int) float64 { return p.items[i].rent / float64(p.parts[i].size*p.parts[i].count) }
	slices.SortFunc(order, func(a, b int) int { return cmp.Or(cmp.Compare(perCard(b), perCard(a)), cmp.Compare(a, b)) })
	// The prefixes tried: every one, or an even spread with those around
	// where owning a card stops paying for its share of a node.
	n := len(order)
	pays := n
	for j, i := range order {
		if perCard(i)*float64(p.node) < p.cost {
			pays = j
			break
		}
	}
	// Each packing takes a step per size and node pattern.
	count := max(2, min(maxPrefixes, int(maxPackSteps/int64(max(1, len(p.sizes)*len(p.sizes))))))
	tried := []int{0, n}
	if n+1 <= count {
		tried = tried[:0]
		for j := 0; j <= n; j++ {
			tried = append(tried, j)
		}
	} else {
		for j := 0; j < count/2; j++ {
			tried = append(tried, n*j/(count/2), pays-count/4+j)
		}
		tried = slices.DeleteFunc(tried, func(j int) bool { return j < 0 || j > n })
		slices.Sort(tried)
		tried = slices.Compact(tried)
	}
	type prefix struct {
		j     int
		nodes int64
		saved float64
	}
	pk := greedyPacker{node: p.node, sizes: p.sizes, sizeAt: p.sizeAt, counts: make([]int64, len(p.sizes))}
	var prefixes []prefix
	next, saved := 0, 0.0
	for _, j := range tried {
		for ; next < j; next++ {
			i := order[next]
			pk.add(p.parts[i])
			saved += p.items[i].rent
		}
		prefixes = append(prefixes, prefix{j: j, nodes: pk.nodes(divisible), saved: saved})
	}
	ownOf := func(j int) []int { return order[:j] }
	a := answer{all: prefixes[len(prefixes)-1].nodes, allLeast: pk.least()}
	if divisible {
		a.allLeast = a.all
	}
	bestJ := prefixes[0]
	for _, x := range prefixes {
		if x.nodes <= p.most && float64(x.nodes)*p.cost-x.saved < float64(bestJ.nodes)*p.cost-bestJ.saved {
			bestJ = x
		}
	}
	a.best = point{nodes: bestJ.nodes}
	a.best.month, a.best.own = p.month(a.best.nodes, p.marked(ownOf(bestJ.j)), true)
	if own, ok := p.cheapestByResidue(divisible); ok && p.cardNodes(own) <= p.most {
		a.best = point{nodes: p.cardNodes(own)}
		a.best.month, a.best.own = p.month(a.best.nodes, p.marked(own), true)
		a.exact, a.bound = true, a.best.month
	} else {
		a.bound = min(a.best.month, p.fractionalBound())
		a.exact = a.best.month-a.bound <= 1e-9*max(1, math.Abs(a.best.month))
	}
	// The curve: on k nodes, the tried prefix saving most that fits.
	slices.SortStableFunc(prefixes, func(x, y prefix) int { return cmp.Compare(x.nodes, y.nodes) })
	at, most := 0, prefix{}
	for _, k := range samples(a.all, a.best.nodes) {
		if k == a.best.nodes {
			a.curve = append(a.curve, point{nodes: k, month: a.best.month})
			continue
		}
		for ; at < len(prefixes) && prefixes[at].nodes <= k; at++ {
			if prefixes[at].saved > most.saved {
				most = prefixes[at]
			}
		}
		a.curve = append(a.curve, point{nodes: k, month: float64(k)*p.cost + p.rentAll - most.saved})
	}
	return a
}

// cardNodes is the nodes the items own take when the cards decide them.
func (p *problem) cardNodes(own []int) int64 {
	cards := int64(0)
	for _, i := range own {
		cards += p.parts[i].size * p.parts[i].count
	}
	return ceilDiv(cards, p.node)
}

// cheapestByResidue is the cheapest mix exactly when the cards decide the
// nodes. A mix's month is what renting everything costs, less each owned
// item's rent beyond its cards' share of a node's cost, plus the idle
// cards of the last node, which follow only the owned cards modulo the
// node: so the most saving for each residue is all it takes. An item
// whose rent differs from its cards' share by a node's cost or more is
// owned, or rented, in every cheapest mix: no idle cards weigh as much.
func (p *problem) cheapestByResidue(divisible bool) ([]int, bool) {
	if !divisible {
		return nil, false
	}
	node := p.node
	for _, pt := range p.parts {
		node = gcd(node, pt.size*pt.count%p.node)
	}
	node = p.node / max(1, node)
	unit := p.node / node
	var core, owned []int
	base := int64(0)
	gain := make([]float64, len(p.items))
	for i, pt := range p.parts {
		cards := pt.size * pt.count
		gain[i] = p.items[i].rent - p.cost*float64(cards)/float64(p.node)
		switch {
		case gain[i] >= p.cost*(1+1e-9):
			owned = append(owned, i)
			base = (base + cards/unit) % node
		case gain[i] > -p.cost*(1+1e-9):
			core = append(core, i)
		}
	}
	if int64(len(core)+1)*node > maxResidues {
		return nil, false
	}
	most := make([]float64, node) // the most gained for each residue
	for r := range most {
		most[r] = math.Inf(-1)
	}
	most[base] = 0
	took := make([][]bool, len(core))
	next := make([]float64, node)
	for c, i := range core {
		w := (p.parts[i].size * p.parts[i].count / unit) % node
		copy(next, most)
		took[c] = make([]bool, node)
		for r, v := range most {
			to := (int64(r) + w) % node
			if v+gain[i] > next[to] {
				next[to], took[c][to] = v+gain[i], true
			}
		}
		most, next = next, most
	}
	bestR, bestV := int64(0), math.Inf(1)
	for r, v := range most {
		idle := p.cost * float64((node-int64(r))%node) / float64(node)
		if m := idle - v; m < bestV {
			bestR, bestV = int64(r), m
		}
	}
	own := owned
	for c := len(core) - 1; c >= 0; c-- {
		if took[c][bestR] {
			i := core[c]
			own = append(own, i)
			bestR = ((bestR-(p.parts[i].size*p.parts[i].count/unit)%node)%node + node) % node
		}
	}
	slices.Sort(own)
	return own, true
}

// fractionalBound is a lower bound on the cheapest month: a share of a
// node for each replica such that no node's replicas ever share more than
// a whole one (a card's share of the node's cards; or, for each k, the
// shares of Fekete and Schepers' dual feasible function u⁽ᵏ⁾, which count
// the room that replicas too large to pair leave idle), and on k nodes the
// owned items cannot save more than filling k whole shares with the items
// that save most per share, the last in part. The month over k is least
// where the next share saves less than a node costs, at the whole number
// of nodes either side; the best of the shares is the bound.
func (p *problem) fractionalBound() float64 {
	bound := math.Inf(-1)
	for k := int64(0); k <= dualFunctions; k++ {
		share := make([]float64, len(p.items))
		for i, pt := range p.parts {
			share[i] = float64(pt.count) * dualShare(pt.size, p.node, k)
		}
		bound = max(bound, p.boundByShares(share))
	}
	return bound
}

// dualFunctions is how many of u⁽ᵏ⁾ fractionalBound tries beside the cards.
const dualFunctions = 8

// dualShare is u⁽ᵏ⁾ of a replica of size cards on nodes of node: size ÷
// node when k is 0 or (k+1)·size is a whole number of nodes, else
// ⌊(k+1)·size ÷ node⌋ ÷ k.
func dualShare(size, node, k int64) float64 {
	if k == 0 || (k+1)*size%node == 0 {
		return float64(size) / float64(node)
	}
	return float64((k+1)*size/node) / float64(k)
}

// boundByShares is the bound fractionalBound takes from one share a
// replica.
func (p *problem) boundByShares(share []float64) float64 {
	order := make([]int, len(p.items))
	for i := range order {
		order[i] = i
	}
	perShare := func(i int) float64 { return p.items[i].rent / share[i] } // +Inf for a share of 0
	slices.SortFunc(order, func(a, b int) int { return cmp.Or(cmp.Compare(perShare(b), perShare(a)), cmp.Compare(a, b)) })
	shares, saved := []float64{0}, []float64{0}
	pays := len(order)
	for j, i := range order {
		shares = append(shares, shares[j]+share[i])
		saved = append(saved, saved[j]+p.items[i].rent)
		if pays == len(order) && perShare(i) < p.cost {
			pays = j
		}
	}
	within := func(nodes float64) float64 {
		j, _ := slices.BinarySearchFunc(shares, nodes, func(s, n float64) int {
			if s <= n {
				return -1
			}
			return 1
		})
		if j == len(shares) {
			return saved[len(saved)-1]
		}
		part := (nodes - shares[j-1]) / (shares[j] - shares[j-1])
		return saved[j-1] + part*(saved[j]-saved[j-1])
	}
	k := math.Floor(shares[pays])
	return min(k*p.cost+p.rentAll-within(k), (k+1)*p.cost+p.rentAll-within(k+1))
}

// greedyPacker counts the nodes replicas take packed largest first, each
// node filled as far as the largest replicas left allow: a packing, not
// always the fewest. It holds counts by size, and fills nodes a batch of
// equal ones at a time.
type greedyPacker struct {
	node   int64
	sizes  []int64
	sizeAt map[int64]int
	counts []int64
	cards  int64 // of the replicas below a node's size
	halves int64 // replicas larger than half a node: one a node at least
	wholes int64 // nodes taken whole
}

func (g *greedyPacker) add(pt part) {
	if pt.size == g.node {
		g.wholes += pt.count
		return
	}
	g.counts[g.sizeAt[pt.size]] += pt.count
	g.cards += pt.size * pt.count
	if 2*pt.size > g.node {
		g.halves += pt.count
	}
}

// least is a lower bound on the fewest nodes: the cards, the replicas of
// which no two share a node, and the replicas over the most of the
// smallest size a node holds.
func (g *greedyPacker) least() int64 {
	replicas, smallest := int64(0), g.node
	for c, n := range g.counts {
		if n > 0 {
			replicas += n
			smallest = min(smallest, g.sizes[c])
		}
	}
	return g.wholes + max(ceilDiv(g.cards, g.node), g.halves, ceilDiv(replicas, g.node/smallest))
}

// nodes packs the counts: exactly by the cards when they decide the nodes.
func (g *greedyPacker) nodes(divisible bool) int64 {
	if divisible {
		return g.wholes + ceilDiv(g.cards, g.node)
	}
	if len(g.sizes) > maxPatternSizes {
		return g.wholes + g.nextFit()
	}
	left := slices.Clone(g.counts)
	bins := g.wholes
	take := make([]int64, len(left))
	for {
		room, any := g.node, false
		for c, s := range g.sizes {
			take[c] = min(left[c], room/s)
			room -= take[c] * s
			any = any || take[c] > 0
		}
		if !any {
			return bins
		}
		repeat := int64(math.MaxInt64)
		for c, t := range take {
			if t > 0 {
				repeat = min(repeat, left[c]/t)
			}
		}
		for c, t := range take {
			left[c] -= repeat * t
		}
		bins += repeat
	}
}

// maxPatternSizes is the most sizes nodes packs by patterns, whose steps
// grow as the square of the sizes; past it, nextFit.
const maxPatternSizes = 256

// nextFit packs the counts largest first into one node at a time, a node
// full before the next opens, the whole nodes of one size at once: a step
// a size.
func (g *greedyPacker) nextFit() int64 {
	bins, room := int64(0), int64(0)
	for c, s := range g.sizes {
		n := g.counts[c]
		if fit := min(n, room/s); fit > 0 {
			n, room = n-fit, room-fit*s
		}
		if n == 0 {
			continue
		}
		per := g.node / s
		full := n / per
		bins += full
		if rest := n - full*per; rest > 0 {
			bins++
			room = g.node - rest*s
		} else {
			room = 0
		}
	}
	return bins
}
