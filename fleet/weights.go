package fleet

import (
	"cmp"
	"math"
	"slices"
)

// weightClass is the items of one weight, most rent first, and what owning
// the first j of them saves (prefix[j]): owning j of equal weight, the
// dearest j save most, and the saving grows ever less with j.
type weightClass struct {
	weight int64
	items  []int
	prefix []float64
}

// classesByWeight groups the members by weight, lightest first.
func (p *problem) classesByWeight(members []int, weight func(i int) int64) []weightClass {
	byWeight := map[int64][]int{}
	for _, i := range members {
		w := weight(i)
		byWeight[w] = append(byWeight[w], i)
	}
	var classes []weightClass
	for w, members := range byWeight {
		slices.SortFunc(members, func(a, b int) int { return cmp.Or(cmp.Compare(p.items[b].rent, p.items[a].rent), cmp.Compare(a, b)) })
		prefix := make([]float64, len(members)+1)
		for j, i := range members {
			prefix[j+1] = prefix[j] + p.items[i].rent
		}
		classes = append(classes, weightClass{weight: w, items: members, prefix: prefix})
	}
	slices.SortFunc(classes, func(a, b weightClass) int { return cmp.Compare(a.weight, b.weight) })
	return classes
}

// knapsack is, for every capacity from 0 to its length less one, the most
// rent the classes save within it (best), and how many of each class that
// takes (choice), from which own reads the items back.
type knapsack struct {
	classes []weightClass
	best    []float64
	choice  [][]int32 // per class, up to the weight of it and the classes before
}

// newKnapsack solves the classes for every capacity up to total, or
// reports that its cells would exceed what is left of the budget. Each
// class is merged only up to the weight of it and the classes before:
// past that, every capacity saves what that weight does.
func newKnapsack(classes []weightClass, total int64, budget *int64) (*knapsack, bool) {
	cells := int64(len(classes)+1) * (total + 1)
	if total+1 > *budget || cells > *budget {
		return nil, false
	}
	*budget -= cells
	k := &knapsack{classes: classes, best: make([]float64, total+1)}
	var scratch []float64
	reach := int64(0)
	for _, c := range classes {
		before := reach
		reach = min(total, reach+int64(len(c.items))*c.weight)
		for x := before + 1; x <= reach; x++ {
			k.best[x] = k.best[before]
		}
		choice := make([]int32, reach+1)
		scratch = mergeConcave(k.best[:reach+1], c.weight, c.prefix, choice, scratch)
		k.choice = append(k.choice, choice)
	}
	for x := reach + 1; x <= total; x++ {
		k.best[x] = k.best[reach]
	}
	return k, true
}

// mark marks the items the best saving within capacity x owns.
func (k *knapsack) mark(x int64, owned []bool) {
	for c := len(k.classes) - 1; c >= 0; c-- {
		x = min(x, int64(len(k.choice[c])-1))
		j := k.choice[c][x]
		for _, i := range k.classes[c].items[:j] {
			owned[i] = true
		}
		x -= int64(j) * k.classes[c].weight
	}
}

// mergeConcave adds a class of items of weight w, of which owning j saves
// prefix[j], to best (the most saved within each capacity): best[x]
// becomes the most over j of best[x-j·w] + prefix[j], and choice[x] that
// j. The saving of j grows ever less with j, so along each residue of w
// the best x−j·w moves only forward as x grows: halving the range of x
// halves the range to search, and a residue of T capacities takes
// T·log T steps, not T².
func mergeConcave(best []float64, w int64, prefix []float64, choice []int32, a []float64) []float64 {
	q := int64(len(prefix) - 1)
	total := int64(len(best) - 1)
	for r := int64(0); r < w && r <= total; r++ {
		T := (total - r) / w
		a = a[:0]
		for t := int64(0); t <= T; t++ {
			a = append(a, best[r+t*w])
		}
		var solve func(tlo, thi, slo, shi int64)
		solve = func(tlo, thi, slo, shi int64) {
			if tlo > thi {
				return
			}
			t := (tlo + thi) / 2
			lo, hi := max(slo, t-q), min(shi, t)
			at, v := hi, math.Inf(-1)
			for s := hi; s >= lo; s-- { // at a tie, fewer of the class
				if x := a[s] + prefix[t-s]; x > v {
					at, v = s, x
				}
			}
			best[r+t*w], choice[r+t*w] = v, int32(t-at)
			solve(tlo, t-1, slo, at)
			solve(t+1, thi, at, shi)
		}
		solve(0, T, 0, T)
	}
	return a
}

// byWeight is the exact answer when the cards decide the nodes: weights
// in cards, over their common divisor with the node, every capacity
// solved at once. It reports false when that would take too much memory.
func (p *problem) byWeight() (answer, bool) {
	unit := p.node
	for _, pt := range p.parts {
		unit = gcd(unit, pt.size*pt.count)
	}
	node, total := p.node/unit, int64(0)
	for _, pt := range p.parts {
		total += pt.size * pt.count / unit
	}
	every := make([]int, len(p.items))
	for i := range every {
		every[i] = i
	}
	classes := p.classesByWeight(every, func(i int) int64 { return p.parts[i].size * p.parts[i].count / unit })
	budget := maxDense
	ks, ok := newKnapsack(classes, total, &budget)
	if !ok {
		return p.byCombinations(classes, total, node)
	}
	all := ceilDiv(total, node)
	capacity := func(k int64) int64 { return min(k*node, total) }
	bestK := int64(0)
	monthOf := func(k int64) float64 { return float64(k)*p.cost + p.rentAll - ks.best[capacity(k)] }
	for k := int64(1); k <= min(all, p.most); k++ {
		if monthOf(k) < monthOf(bestK) { // at a tie, fewer nodes
			bestK = k
		}
	}
	a := answer{all: all, allLeast: all, least: true, exact: true}
	owned := make([]bool, len(p.items))
	for _, k := range samples(all, bestK) {
		ks.mark(capacity(k), owned)
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

// byCombinations is the exact answer when the cards decide the nodes and
// their weights are too many for byWeight but the classes few: every
// count of each class owned, tried one combination at a time (a million
// replicas of a million cards, or a few deployments of huge replica
// counts). It reports false past maxVectors combinations.
func (p *problem) byCombinations(classes []weightClass, total, node int64) (answer, bool) {
	combos := int64(1)
	for _, c := range classes {
		if combos *= int64(len(c.items) + 1); combos > maxVectors {
			return answer{}, false
		}
	}
	type combination struct {
		weight int64
		saved  float64
		code   int64 // the count of each class, in mixed radix
	}
	var all []combination
	for code := range combos {
		x, c := code, combination{code: code}
		for _, cl := range classes {
			j := x % int64(len(cl.items)+1)
			x /= int64(len(cl.items) + 1)
			c.weight += j * cl.weight
			c.saved += cl.prefix[j]
		}
		all = append(all, c)
	}
	slices.SortStableFunc(all, func(a, b combination) int { return cmp.Compare(a.weight, b.weight) })
	for i := 1; i < len(all); i++ { // within a weight, the most saved at or below it
		if all[i-1].saved >= all[i].saved {
			all[i].saved, all[i].code = all[i-1].saved, all[i-1].code
		}
	}
	within := func(k int64) combination {
		i, _ := slices.BinarySearchFunc(all, k*node+1, func(c combination, w int64) int { return cmp.Compare(c.weight, w) })
		return all[i-1]
	}
	nodes := ceilDiv(total, node)
	bestK, bestMonth := int64(0), math.Inf(1)
	for _, c := range all {
		k := ceilDiv(c.weight, node)
		if k > p.most {
			continue
		}
		if m := float64(k)*p.cost - c.saved; m < bestMonth || m == bestMonth && k < bestK {
			bestK, bestMonth = k, m
		}
	}
	a := answer{all: nodes, allLeast: nodes, least: true, exact: true}
	owned := make([]bool, len(p.items))
	for _, k := range samples(nodes, bestK) {
		x := within(min(k, nodes)).code
		for _, cl := range classes {
			for _, i := range cl.items[:x%int64(len(cl.items)+1)] {
				owned[i] = true
			}
			x /= int64(len(cl.items) + 1)
		}
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
