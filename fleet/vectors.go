package fleet

import (
	"cmp"
	"maps"
	"math"
	"slices"
)

// byVectors is the exact answer when the sizes do not divide each other
// and the node, so that the nodes follow the replicas of each size, not
// their cards: per size, the most rent saved owning each count of its
// replicas; then every mix of counts that saves more than owning fewer of
// a size, each packed onto the fewest nodes an exact search finds; replicas
// as large as a node take one each, beside them. It reports false past
// the limits.
func (p *problem) byVectors() (answer, bool) {
	small := len(p.sizes)
	members := make([][]int, small+1) // by size, those of a node's size last
	totals := make([]int64, small+1)
	for i, pt := range p.parts {
		c := small
		if pt.size < p.node {
			c = p.sizeAt[pt.size]
		}
		members[c] = append(members[c], i)
		totals[c] += pt.count
	}
	var bySize []*knapsack
	budget := maxDense
	for c, total := range totals {
		classes := p.classesByWeight(members[c], func(i int) int64 { return p.parts[i].count })
		ks, ok := newKnapsack(classes, total, &budget)
		if !ok {
			return answer{}, false
		}
		bySize = append(bySize, ks)
	}
	pk, ok := newPacker(p.sizes, p.node, totals[:small])
	if !ok {
		return answer{}, false
	}
	// The counts of each size worth trying: those that save more than one
	// fewer.
	var steps [][]int64
	tries := int64(1)
	for c := range small {
		var s []int64
		for n := int64(0); n <= totals[c]; n++ {
			if n == 0 || bySize[c].best[n] > bySize[c].best[n-1] {
				s = append(s, n)
			}
		}
		steps = append(steps, s)
		if tries *= int64(len(s)); tries > maxVectors {
			return answer{}, false
		}
	}
	// byNodes is, for each count of nodes some mix of the small sizes
	// packs onto, the most such a mix saves, and its counts.
	type mix struct {
		nodes  int64
		saved  float64
		counts []int64
	}
	byNodes := map[int64]mix{}
	counts := make([]int64, small)
	var walk func(c int) bool
	walk = func(c int) bool {
		if c == small {
			b, ok := pk.bins(counts)
			if !ok {
				return false
			}
			saved := 0.0
			for c, n := range counts {
				saved += bySize[c].best[n]
			}
			if m, ok := byNodes[b]; !ok || saved > m.saved {
				byNodes[b] = mix{nodes: b, saved: saved, counts: slices.Clone(counts)}
			}
			return true
		}
		for _, n := range steps[c] {
			counts[c] = n
			if !walk(c + 1) {
				return false
			}
		}
		return true
	}
	if !walk(0) {
		return answer{}, false
	}
	mixes := slices.SortedFunc(maps.Values(byNodes), func(x, y mix) int { return cmp.Compare(x.nodes, y.nodes) })
	for i := 1; i < len(mixes); i++ { // on b nodes, whatever fits on fewer
		if mixes[i-1].saved >= mixes[i].saved {
			mixes[i].saved, mixes[i].counts = mixes[i-1].saved, mixes[i-1].counts
		}
	}
	allSmall, ok := pk.bins(totals[:small])
	if !ok {
		return answer{}, false
	}
	full := bySize[small]
	wholes := totals[small]
	all := allSmall + wholes
	// The nodes of each kind add up, so the cheapest takes the best of each.
	monthOf := func(m mix) float64 { return float64(m.nodes)*p.cost - m.saved }
	bestB, bestJ := 0, int64(0)
	if p.most >= all {
		for b, m := range mixes {
			if monthOf(m) < monthOf(mixes[bestB]) {
				bestB = b
			}
		}
		for j := int64(1); j <= wholes; j++ {
			if float64(j)*p.cost-full.best[j] < float64(bestJ)*p.cost-full.best[bestJ] {
				bestJ = j
			}
		}
	} else {
		nodes, saved := make([]int64, len(mixes)), make([]float64, len(mixes))
		for b, m := range mixes {
			nodes[b], saved[b] = m.nodes, m.saved
		}
		bestB, bestJ = p.bestWithin(nodes, saved, full.best, wholes)
	}
	bestK := mixes[bestB].nodes + bestJ
	owned := make([]bool, len(p.items))
	a := answer{all: all, allLeast: all, least: true, exact: true}
	for _, k := range samples(all, bestK) {
		b, j := bestB, bestJ
		if k != bestK {
			b, j = 0, min(k, wholes)
			for x, m := range mixes {
				if m.nodes > k {
					break
				}
				if y := min(k-m.nodes, wholes); m.saved+full.best[y] > mixes[b].saved+full.best[j] {
					b, j = x, y
				}
			}
		}
		for c, n := range mixes[b].counts {
			bySize[c].mark(n, owned)
		}
		full.mark(j, owned)
		pt := point{nodes: k}
		pt.month, pt.own = p.month(k, owned, k == bestK)
		if k == bestK {
			a.best = pt
		}
		a.curve = append(a.curve, pt)
	}
	a.bound = a.best.month
	return a, true
}

// packer finds the fewest nodes a count of replicas of each size packs
// onto, each replica within one node: counts as one key each, no replica
// on its own.
type packer struct {
	node  int64
	sizes []int64  // largest first, each smaller than the node
	radix []uint64 // a count vector's key is the sum of count × radix
	memo  map[uint64]int64
	steps int64
}

// newPacker reports false when the counts up to most would not fit one key.
func newPacker(sizes []int64, node int64, most []int64) (*packer, bool) {
	p := &packer{node: node, sizes: sizes, memo: map[uint64]int64{}}
	r := uint64(1)
	for _, m := range most {
		p.radix = append(p.radix, r)
		if uint64(m+1) > math.MaxUint64/4/r {
			return nil, false
		}
		r *= uint64(m + 1)
	}
	return p, true
}

// bins is the fewest nodes the counts pack onto, or false past maxSteps.
// counts is left as it was found. With one size the nodes hold a whole
// number each; otherwise it searches: some fewest packing puts the largest
// replica left with a set of the others that leaves no room for another,
// so only those are tried.
func (p *packer) bins(counts []int64) (int64, bool) {
	total, replicas, key, first, kinds := int64(0), int64(0), uint64(0), -1, 0
	for c, n := range counts {
		total += n * p.sizes[c]
		replicas += n
		key += uint64(n) * p.radix[c]
		if n > 0 {
			kinds++
			if first < 0 {
				first = c
			}
		}
	}
	switch {
	case total == 0:
		return 0, true
	case kinds == 1:
		return ceilDiv(counts[first], p.node/p.sizes[first]), true
	case replicas > maxReplicas:
		return 0, false
	}
	if b, ok := p.memo[key]; ok {
		return b, true
	}
	if p.steps++; p.steps > maxSteps {
		return 0, false
	}
	lower := ceilDiv(total, p.node)
	best, failed := int64(math.MaxInt64), false
	counts[first]--
	var fill func(c int, room int64) bool // true: stop, the lower bound is reached or the steps ran out
	fill = func(c int, room int64) bool {
		if c == len(p.sizes) {
			if p.steps++; p.steps > maxSteps {
				failed = true
				return true
			}
			for j, n := range counts {
				if n > 0 && p.sizes[j] <= room {
					return false // another replica fits: not a full node
				}
			}
			b, ok := p.bins(counts)
			if !ok {
				failed = true
				return true
			}
			best = min(best, 1+b)
			return best == lower
		}
		most := min(counts[c], room/p.sizes[c])
		for x := most; x >= 0; x-- {
			counts[c] -= x
			stop := fill(c+1, room-x*p.sizes[c])
			counts[c] += x
			if stop {
				return true
			}
		}
		return false
	}
	fill(0, p.node-p.sizes[first])
	counts[first]++
	if failed {
		return 0, false
	}
	p.memo[key] = best
	return best, true
}

// bestWithin is the cheapest pair of a mix of the small sizes (on nodes[b]
// nodes, saving saved[b]) and j whole-node replicas owned (saving full[j])
// on at most p.most nodes together: the site's limit binding, the nodes
// of each kind no longer chosen apart.
func (p *problem) bestWithin(nodes []int64, saved, full []float64, wholes int64) (int, int64) {
	bestB, bestJ, bestMonth := 0, int64(0), math.Inf(1)
	for b := range nodes {
		for j := int64(0); j <= wholes && nodes[b]+j <= p.most; j++ {
			if m := float64(nodes[b]+j)*p.cost - saved[b] - full[j]; m < bestMonth {
				bestB, bestJ, bestMonth = b, j, m
			}
		}
	}
	return bestB, bestJ
}
