package fleet

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"planner/deploy"
	"planner/engine"
)

// Fleet is every deployment together: per GPU, the cards all replicas
// need packed onto owned nodes, and the cheapest mix of owning and renting.
type Fleet struct {
	GPUs []GPU
	Best Best
}

// GPU is the deployments of one GPU owned on one scenario's nodes (or, when
// no scenario owns nodes of the GPU, only rented).
type GPU struct {
	GPU         string
	Scenario    string // the scenario whose nodes own them; "" when none does
	NodeGPUs    float64
	NodeCost    float64 // one node a month
	Deployments []string
	Cards       int // every replica's cards
	// Nodes is what owning every deployment takes, each replica within one
	// node; Utilization the share of those cards' calendar hours they
	// work. Both 0 when no scenario owns nodes of the GPU.
	Nodes        int
	Utilization  float64
	OwnPerMonth  float64 // Nodes × NodeCost
	RentPerMonth float64 // every deployment rented
	// Curve is the least month with k nodes owned, k from 0 to Nodes,
	// owning the deployments that save most on them; nil without an owner.
	Curve []float64
	Best  Choice
	Note  string // why the cheapest mix is not computed; "" when it is
}

// Choice is which deployments to own on how many nodes, the rest rented,
// and what the month costs.
type Choice struct {
	Own, Rent []string
	Nodes     int
	PerMonth  float64
}

// Best is the cheapest mix over every GPU, and the months it is compared
// with: owning every deployment a scenario can own, and renting every one.
type Best struct {
	Choice
	OwnAll, RentAll float64
	Words           string
	Skipped         []string // deployments not costed, so outside the fleet
	Solved          bool     // false when some GPU's mix could not be computed
}

// Of puts the costed deployments together.
func Of(costs []deploy.Result) Fleet {
	var f Fleet
	groups := map[string]int{}
	var members [][]deploy.Result // each group's deployments, in order
	for _, c := range costs {
		if c.Phrase == nil {
			f.Best.Skipped = append(f.Best.Skipped, c.Name)
			continue
		}
		key, scenario := strings.ToLower(strings.Join(strings.Fields(c.GPU), " ")), ""
		if c.Own != nil {
			scenario = c.Own.Scenario
			key += "\x00" + scenario
		}
		i, ok := groups[key]
		if !ok {
			i = len(f.GPUs)
			groups[key] = i
			g := GPU{GPU: c.GPU, Scenario: scenario}
			if c.Own != nil {
				g.NodeGPUs, g.NodeCost = c.Own.NodeGPUs, c.Own.NodeCost
			}
			f.GPUs = append(f.GPUs, g)
			members = append(members, nil)
		}
		members[i] = append(members[i], c)
		g := &f.GPUs[i]
		g.Deployments = append(g.Deployments, c.Name)
		g.Cards += c.Cards * c.Replicas
		g.RentPerMonth += c.RentPerMonth
	}
	f.Best.Solved = true
	for i := range f.GPUs {
		solve(&f.GPUs[i], members[i])
		g := f.GPUs[i]
		f.Best.Own, f.Best.Rent = append(f.Best.Own, g.Best.Own...), append(f.Best.Rent, g.Best.Rent...)
		f.Best.Nodes += g.Best.Nodes
		f.Best.PerMonth += g.Best.PerMonth
		f.Best.RentAll += g.RentPerMonth
		if g.Scenario == "" {
			f.Best.OwnAll += g.RentPerMonth
		} else {
			f.Best.OwnAll += g.OwnPerMonth
		}
		if g.Note != "" {
			f.Best.Solved = false
		}
	}
	sort.SliceStable(f.GPUs, func(i, j int) bool {
		a, b := f.GPUs[i], f.GPUs[j]
		if a.GPU != b.GPU {
			return a.GPU < b.GPU
		}
		return a.Scenario < b.Scenario
	})
	f.Best.Words = words(f)
	return f
}

// solve packs a group's deployments, costed, and finds its cheapest mix.
func solve(g *GPU, costs []deploy.Result) {
	if g.Scenario == "" {
		g.Best = Choice{Rent: g.Deployments, PerMonth: g.RentPerMonth}
		return
	}
	node := int(g.NodeGPUs)
	if g.NodeGPUs != float64(node) || node < 1 {
		g.Note = fmt.Sprintf("the %s node of the scenario %s has %g cards; replicas pack onto whole cards: make gpus a whole number", g.GPU, g.Scenario, g.NodeGPUs)
		g.Best = Choice{Rent: g.Deployments, PerMonth: g.RentPerMonth}
		return
	}
	var items []item
	busy, hours := 0.0, 0.0
	for _, c := range costs {
		items = append(items, item{cards: c.Cards, replicas: c.Replicas, rent: c.RentPerMonth})
		busy += float64(c.Cards*c.Replicas) * c.HoursPerMonth
		hours = c.Own.Hours
	}
	curve, err := cheapest(items, node)
	if err != nil {
		g.Note = fmt.Sprintf("the %s deployments of the scenario %s have too many replicas of too many sizes for planner to find their cheapest mix exactly", g.GPU, g.Scenario)
		g.Best = Choice{Rent: g.Deployments, PerMonth: g.RentPerMonth}
		return
	}
	g.Nodes = len(curve) - 1
	g.OwnPerMonth = float64(g.Nodes) * g.NodeCost
	if g.Nodes > 0 && hours > 0 {
		g.Utilization = min(1, busy/(float64(g.Nodes)*g.NodeGPUs*hours))
	}
	bestK := 0
	for k, c := range curve {
		g.Curve = append(g.Curve, float64(k)*g.NodeCost+g.RentPerMonth-c.saved)
		if g.Curve[k] < g.Curve[bestK] { // at a tie, fewer nodes
			bestK = k
		}
	}
	owned := map[int]bool{}
	for _, i := range curve[bestK].own {
		owned[i] = true
	}
	g.Best = Choice{Nodes: bestK, PerMonth: g.Curve[bestK]}
	for i, name := range g.Deployments {
		if owned[i] {
			g.Best.Own = append(g.Best.Own, name)
		} else {
			g.Best.Rent = append(g.Best.Rent, name)
		}
	}
}

// words says the cheapest mix as a memo would: "own A and B on 4 H100 SXM
// nodes; rent C and D: $X a month, $Y less than owning everything and $Z
// less than renting everything".
func words(f Fleet) string {
	b := f.Best
	if len(f.GPUs) == 0 {
		return "no deployment is costed, so there is no fleet"
	}
	var owns []string
	for _, g := range f.GPUs {
		if len(g.Best.Own) > 0 {
			owns = append(owns, fmt.Sprintf("%s on %d %s %s", quoted(g.Best.Own), g.Best.Nodes, g.GPU, plural(g.Best.Nodes, "node")))
		}
	}
	var parts []string
	switch {
	case len(owns) == 0:
		parts = append(parts, "rent every deployment")
	case len(b.Rent) == 0:
		parts = append(parts, "own "+and(owns))
	default:
		parts = append(parts, "own "+and(owns)+"; rent "+quoted(b.Rent))
	}
	s := strings.Join(parts, "") + ": " + dollars(b.PerMonth) + " a month"
	everything := "everything"
	for _, g := range f.GPUs {
		if g.Scenario == "" {
			everything = "every deployment a scenario can own" // the rest rented
		}
	}
	var than []string
	if d := b.OwnAll - b.PerMonth; d > 0.005 {
		than = append(than, dollars(d)+" less than owning "+everything)
	}
	if d := b.RentAll - b.PerMonth; d > 0.005 {
		than = append(than, dollars(d)+" less than renting everything")
	}
	if len(than) > 0 {
		s += ", " + strings.Join(than, " and ")
	}
	for _, g := range f.GPUs {
		if g.Note != "" {
			s += "; not the cheapest mix: " + g.Note + ", so they are counted rented"
		}
	}
	return s
}

// quoted lists deployments by name, each in quotes, since a name may hold
// a comma: "a", "b" and "c".
func quoted(names []string) string {
	var q []string
	for _, n := range names {
		q = append(q, `"`+n+`"`)
	}
	return and(q)
}

func and(s []string) string {
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

func dollars(v float64) string {
	return engine.Word{Value: math.Round(v), Format: engine.AsDollars}.String()
}
