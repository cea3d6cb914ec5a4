package fleet

import (
	"cmp"
	"maps"
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
// rentAll), and the least month for each number of owned nodes, sampled.
func cheapest(items []item, node int64, cost, rentAll float64) answer {
	p := newProblem(items, node, cost, rentAll)
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
}

func newProblem(items []item, node int64, cost, rentAll float64) *problem {
	p := &problem{items: items, node: node, cost: cost, rentAll: rentAll, divisible: true, sizeAt: map[int64]int{}}
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
	for k := int64(1); k <= all; k++ {
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
		if float64(x.nodes)*p.cost-x.saved < float64(bestJ.nodes)*p.cost-bestJ.saved {
			bestJ = x
		}
	}
	a.best = point{nodes: bestJ.nodes}
	a.best.month, a.best.own = p.month(a.best.nodes, p.marked(ownOf(bestJ.j)), true)
	if own, ok := p.cheapestByResidue(divisible); ok {
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

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func ceilDiv(a, b int64) int64 { return (a + b - 1) / b }
