package fleet

import (
	"errors"
	"math"
	"sort"
	"strconv"
	"strings"
)

// item is one deployment of a node group: its replicas, the cards of each,
// and what renting all of them costs a month.
type item struct {
	cards, replicas int
	rent            float64
}

// choice is a set of items to own, as their indices in order, the nodes
// they pack onto and the rent they save.
type choice struct {
	own   []int
	nodes int
	saved float64
}

// errTooLarge is a group whose exact answer would take more work than
// planner gives one: its cheapest mix is not computed.
var errTooLarge = errors.New("too large")

// maxStates and maxSteps bound the work of one group: a workbook's fleet
// of tens of deployments takes far less.
const (
	maxStates = 200000
	maxSteps  = 5000000
)

// cheapest is, for every number of owned nodes k from none to all the
// items need, the set of items that saves the most rent on at most k
// nodes. It is exact: a dynamic programme over the items, whose states
// are the replicas owned so far by their size (by their cards alone when
// the sizes divide each other and the node, where the cards decide the
// nodes) and the whole nodes larger replicas take; each state keeps the
// most rent saved reaching it, and the nodes of a state are the fewest
// its replicas pack onto, found by an exact search.
func cheapest(items []item, node int) ([]choice, error) {
	p := newPacker(items, node)
	type state struct {
		counts []int // replicas owned, by p.sizes
		whole  int   // nodes taken by replicas larger than a node
		choice
	}
	start := state{counts: make([]int, len(p.sizes))}
	states := []state{start}
	index := map[string]int{p.key(start.counts, 0): 0}
	for i, it := range items {
		// States this item improves are replaced, not extended again: the
		// pass reads the states as they were before it.
		for _, s := range append([]state(nil), states...) {
			n := state{counts: append([]int(nil), s.counts...), whole: s.whole}
			if it.cards > node {
				n.whole += it.replicas * ((it.cards + node - 1) / node)
			} else {
				n.counts[p.sizeIndex[it.cards]] += it.replicas
			}
			n.own = append(append([]int(nil), s.own...), i)
			n.saved = s.saved + it.rent
			k := p.key(n.counts, n.whole)
			if j, ok := index[k]; ok {
				if n.saved > states[j].saved {
					states[j] = n
				}
				continue
			}
			if len(states) == maxStates {
				return nil, errTooLarge
			}
			index[k] = len(states)
			states = append(states, n)
		}
	}
	best := map[int]choice{}
	most := 0
	for _, s := range states {
		b, err := p.bins(s.counts)
		if err != nil {
			return nil, err
		}
		s.nodes = b + s.whole
		if c, ok := best[s.nodes]; !ok || s.saved > c.saved {
			best[s.nodes] = s.choice
		}
		most = max(most, s.nodes)
	}
	curve := make([]choice, most+1)
	for k := range curve {
		if k > 0 {
			curve[k] = curve[k-1]
		}
		if c, ok := best[k]; ok && (k == 0 || c.saved > curve[k].saved) {
			curve[k] = c
		}
	}
	return curve, nil
}

// packer finds the fewest nodes a set of replicas packs onto, each replica
// within one node.
type packer struct {
	node      int
	sizes     []int       // the distinct cards per replica up to a node, largest first
	sizeIndex map[int]int // cards -> index in sizes
	divisible bool        // each size divides the next larger and the node
	memo      map[string]int
	steps     int
}

func newPacker(items []item, node int) *packer {
	p := &packer{node: node, sizeIndex: map[int]int{}, memo: map[string]int{}}
	for _, it := range items {
		if _, ok := p.sizeIndex[it.cards]; !ok && it.cards <= node {
			p.sizeIndex[it.cards] = 0
			p.sizes = append(p.sizes, it.cards)
		}
	}
	sort.Sort(sort.Reverse(sort.IntSlice(p.sizes)))
	p.divisible = true
	for i, s := range p.sizes {
		p.sizeIndex[s] = i
		larger := node
		if i > 0 {
			larger = p.sizes[i-1]
		}
		if larger%s != 0 {
			p.divisible = false
		}
	}
	return p
}

// key names a state: by its cards when the sizes divide each other, since
// the cards then decide the nodes, else by its replicas of each size.
func (p *packer) key(counts []int, whole int) string {
	if p.divisible {
		return strconv.Itoa(p.cards(counts)) + "/" + strconv.Itoa(whole)
	}
	var b strings.Builder
	for _, c := range counts {
		b.WriteString(strconv.Itoa(c))
		b.WriteByte(',')
	}
	return b.String() + strconv.Itoa(whole)
}

func (p *packer) cards(counts []int) int {
	total := 0
	for i, c := range counts {
		total += c * p.sizes[i]
	}
	return total
}

// bins is the fewest nodes the replicas counted pack onto. With sizes that
// divide each other and the node, filling nodes largest first leaves no
// gap but in the last, so the cards decide; otherwise it searches: some
// fewest packing puts the largest replica left with a set of the others
// that leaves no room for another, so only those are tried.
func (p *packer) bins(counts []int) (int, error) {
	total := p.cards(counts)
	if total == 0 {
		return 0, nil
	}
	lower := (total + p.node - 1) / p.node
	if p.divisible {
		return lower, nil
	}
	k := p.key(counts, 0)
	if b, ok := p.memo[k]; ok {
		return b, nil
	}
	if p.steps++; p.steps > maxSteps {
		return 0, errTooLarge
	}
	rest := append([]int(nil), counts...)
	first := 0
	for rest[first] == 0 {
		first++
	}
	rest[first]--
	best := math.MaxInt
	var err error
	var fill func(i, room int) bool // true: stop, the lower bound is reached
	fill = func(i, room int) bool {
		if err != nil {
			return true
		}
		if i == len(p.sizes) {
			if p.steps++; p.steps > maxSteps {
				err = errTooLarge
				return true
			}
			for j, c := range rest {
				if c > 0 && p.sizes[j] <= room {
					return false // another replica fits: not a full node
				}
			}
			b, e := p.bins(rest)
			if e != nil {
				err = e
				return true
			}
			best = min(best, 1+b)
			return best == lower
		}
		most := min(rest[i], room/p.sizes[i])
		for x := most; x >= 0; x-- {
			rest[i] -= x
			stop := fill(i+1, room-x*p.sizes[i])
			rest[i] += x
			if stop {
				return true
			}
		}
		return false
	}
	fill(0, p.node-p.sizes[first])
	if err != nil {
		return 0, err
	}
	p.memo[k] = best
	return best, nil
}
