package fleet

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"planner/deploy"
	"planner/units"
	"planner/wording"
)

// Fleet is every deployment together: per GPU, the cards all replicas
// need packed onto owned nodes, and the cheapest mix of owning and renting.
type Fleet struct {
	GPUs []GPU
	Best Best
	// Cheapest is how the cheapest mix buys each deployment costed, in
	// the order of the deployments (cheapest.go).
	Cheapest []Cheapest
	Currency units.Currency // the deployments': the currency of every amount
	Power    Power          // the owned nodes' power under the site's limit (power.go)
}

// GPU is the deployments of one GPU owned on one scenario's nodes (or, when
// no scenario owns nodes of the GPU, only rented).
type GPU struct {
	GPU      string
	Scenario string // the scenario whose nodes own them; "" when none does
	NodeGPUs float64
	NodeCost float64 // one node a month
	// NodeKW and NodeIdleKW are one node's full and idle draw with the
	// facility factor; 0 when the owning scenario does not say.
	NodeKW, NodeIdleKW float64
	// MostNodes is the most nodes the site's limit leaves the group
	// (power.go); 0 when the limit does not bind it.
	MostNodes int
	// BusyCardHours and Tokens are what the cheapest mix's owned replicas
	// of the GPU work and emit a month (power.go).
	BusyCardHours, Tokens float64
	Hours                 float64 // the owning scenario's month, in hours
	Currency              units.Currency
	Deployments           []string
	Cards                 int // every replica's cards
	// Nodes is what owning every deployment takes, each replica within one
	// node, and NodesLeast no fewer than it can: the same unless planner's
	// search stopped at its bound (see Exact); Utilization the share of
	// those cards' calendar hours they work. All 0 when no scenario owns
	// nodes of the GPU.
	Nodes        int
	NodesLeast   int
	Utilization  float64
	OwnPerMonth  float64 // Nodes × NodeCost
	RentPerMonth float64 // every deployment rented from the offer it names (or rents)
	// CheapestRent is every deployment rented, each part from the offer
	// of the GPU that rents it for least: the cheapest mix owning nothing.
	CheapestRent float64
	// Curve is the month with k nodes owned, for every k from 0 to Nodes
	// or, past CurvePoints of them, for CurvePoints spread evenly and the
	// cheapest mix's: the least month on k nodes when CurveLeast, else
	// (past the search's bound) the month owning, of the deployments that
	// save most per card, those that fit. nil without an owner.
	Curve      []Point
	CurveLeast bool
	Best       Choice
	// Buys is, per deployment of the GPU in order, the replicas of each of
	// its parts the cheapest mix owns (deploy.Result.Parts).
	Buys       [][]bool
	ownedCards int  // the cards of the replicas the cheapest mix owns
	capped     bool // MostNodes bounds the mix, even at 0 nodes
	// Exact says Best is the cheapest mix; past the search's bound it is a
	// mix that can be owned, and the cheapest month is at least AtLeast
	// (Best.PerMonth when exact).
	Exact   bool
	AtLeast float64
	Note    string // why the cheapest mix is not computed; "" when it is
}

// Unproven says what of the GPU's figures planner's search did not prove,
// its bound reached: the mix, the nodes of owning all, the curve; "" when
// it proved them all.
func (g GPU) Unproven() string {
	var what []string
	if !g.Exact && g.Note == "" {
		what = append(what, fmt.Sprintf("the mix is within %s of the cheapest, which costs at least %s a month", dollars(g.Currency, g.Best.PerMonth-g.AtLeast), dollars(g.Currency, g.AtLeast)))
	}
	if g.NodesLeast < g.Nodes {
		what = append(what, fmt.Sprintf("owning every deployment takes at most %s nodes and at least %s", plain(g.Nodes), plain(g.NodesLeast)))
	}
	if g.Curve != nil && !g.CurveLeast {
		what = append(what, "each month by the nodes owned owns, of the deployments that save most per card, those that fit, and the least month may be lower")
	}
	if len(what) == 0 {
		return ""
	}
	return fmt.Sprintf("planner did not search every mix of the %s %s deployments of the scenario %s (their replicas and sizes are too many for its search): ",
		plain(len(g.Deployments)), g.GPU, g.Scenario) + strings.Join(what, "; ")
}

// Point is the month of a mix on a number of owned nodes.
type Point struct {
	Nodes    int
	PerMonth float64
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
	// Exact is true when every GPU's mix is the cheapest. Bounded is true
	// when some is not but each is within a bound of it (no GPU has a
	// Note): the cheapest month is then at least AtLeast.
	Exact, Bounded bool
	AtLeast        float64
}

// Of puts the costed deployments together, with no limit on the site's
// power.
func Of(costs []deploy.Result) Fleet { return Within(costs, deploy.Site{}) }

// Within puts the costed deployments together on a site: the cheapest mix
// keeps the owned nodes' full draw within site.KW (power.go), and the
// fleet's power, tokens per kWh and carbon follow the mix.
func Within(costs []deploy.Result, site deploy.Site) Fleet {
	var f Fleet
	groups := map[string]int{}
	var members [][]deploy.Result // each group's deployments, in order
	var at [][2]int               // each costed deployment's group and place in it
	for _, c := range costs {
		f.Currency = c.Currency // one model's: the same for all
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
			g := GPU{GPU: c.GPU, Scenario: scenario, Currency: c.Currency}
			if c.Own != nil {
				g.NodeGPUs, g.NodeCost = c.Own.NodeGPUs, c.Own.NodeCost
				g.NodeKW, g.NodeIdleKW = c.Own.NodeKW, c.Own.NodeIdleKW
			}
			f.GPUs = append(f.GPUs, g)
			members = append(members, nil)
		}
		at = append(at, [2]int{i, len(members[i])})
		members[i] = append(members[i], c)
		g := &f.GPUs[i]
		g.Deployments = append(g.Deployments, c.Name)
		g.Cards += c.Cards * c.Replicas
		g.RentPerMonth += c.RentPerMonth
		for _, p := range partsOf(c) {
			g.CheapestRent += p.PerMonth
		}
	}
	for i := range f.GPUs {
		solve(&f.GPUs[i], members[i])
	}
	f.Power = limit(&f, members, site)
	f.Power.figures(f, members, site) // before the GPUs are sorted: members follow their order
	f.Best.Exact = true
	noted := false
	for i := range f.GPUs {
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
		f.Best.AtLeast += g.AtLeast
		f.Best.Exact = f.Best.Exact && g.Exact
		noted = noted || g.Note != ""
	}
	f.Best.Bounded = !f.Best.Exact && !noted
	for _, c := range at {
		f.Cheapest = append(f.Cheapest, cheapestOf(f.GPUs[c[0]], members[c[0]], c[1]))
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
	g.Curve, g.ownedCards = nil, 0 // solved again under the site's limit
	rentAll := func() {
		g.Best = Choice{Rent: g.Deployments, PerMonth: g.CheapestRent}
		g.Buys = make([][]bool, len(costs))
		for i, c := range costs {
			g.Buys[i] = make([]bool, len(partsOf(c)))
		}
	}
	if g.Scenario == "" {
		rentAll()
		g.Exact, g.AtLeast = true, g.CheapestRent
		return
	}
	node := int64(g.NodeGPUs)
	if g.NodeGPUs != float64(node) || node < 1 {
		g.Note = fmt.Sprintf("the %s node of the scenario %s has %g cards; replicas pack onto whole cards: make gpus a whole number", g.GPU, g.Scenario, g.NodeGPUs)
		rentAll()
		return
	}
	if node > maxNode {
		g.Note = fmt.Sprintf("the %s node of the scenario %s has %g cards, more than the %s planner packs; check gpus", g.GPU, g.Scenario, g.NodeGPUs, plain(maxNode))
		rentAll()
		return
	}
	// Each part of a deployment is an item of its own: owning its base and
	// renting its peak is a mix like any other.
	var items []item
	var whose [][2]int // each item's deployment and part
	busy, hours := 0.0, 0.0
	for i, c := range costs {
		for j, p := range partsOf(c) {
			items = append(items, item{cards: c.Cards, replicas: p.Replicas, rent: p.PerMonth})
			whose = append(whose, [2]int{i, j})
		}
		busy += float64(c.Cards*c.Replicas) * c.HoursPerMonth
		hours = c.Own.Hours
	}
	most := int64(math.MaxInt64)
	if g.MostNodes > 0 || g.capped {
		most = int64(g.MostNodes)
	}
	a := cheapestWithin(items, node, g.NodeCost, g.CheapestRent, most)
	g.Nodes, g.NodesLeast = int(a.all), int(a.allLeast)
	g.OwnPerMonth = float64(g.Nodes) * g.NodeCost
	if g.Nodes > 0 && hours > 0 {
		g.Utilization = min(1, busy/(float64(g.Nodes)*g.NodeGPUs*hours))
	}
	for _, p := range a.curve {
		g.Curve = append(g.Curve, Point{Nodes: int(p.nodes), PerMonth: p.month})
	}
	g.CurveLeast, g.Exact, g.AtLeast = a.least, a.exact, a.bound
	rentAll()
	g.Best = Choice{Nodes: int(a.best.nodes), PerMonth: a.best.month}
	for _, k := range a.best.own {
		g.Buys[whose[k][0]][whose[k][1]] = true
		g.ownedCards += items[k].cards * items[k].replicas
	}
	// A deployment any of whose replicas the mix owns is owned; one it
	// rents whole is rented.
	for i, name := range g.Deployments {
		if slices.Contains(g.Buys[i], true) {
			g.Best.Own = append(g.Best.Own, name)
		} else {
			g.Best.Rent = append(g.Best.Rent, name)
		}
	}
}

// partsOf are the parts of a costed deployment, or the deployment whole
// at its rent when deploy gave none.
func partsOf(c deploy.Result) []deploy.Part {
	if c.Parts != nil {
		return c.Parts
	}
	return []deploy.Part{{Replicas: c.Replicas, Hours: c.HoursPerMonth, Offer: c.Offer, PerMonth: c.RentPerMonth}}
}

// maxNode is the most cards a node may have for planner to pack it: the
// cards of every deployment together stay within a 64-bit count.
const maxNode = 1 << 40

// words says the cheapest mix as a memo would: "own A and B on 4 H100 SXM
// nodes; rent C and D: $X a month, $Y less than owning everything and $Z
// less than renting everything". A list of more than maxNamed names
// names the first few and counts the rest: the Fleet sheet and the JSON
// list them all.
func words(f Fleet) string {
	b := f.Best
	if len(f.GPUs) == 0 {
		return "no deployment is costed, so there is no fleet"
	}
	var owns []string
	for _, g := range f.GPUs {
		if len(g.Best.Own) > 0 {
			owns = append(owns, fmt.Sprintf("%s on %s %s %s", quotedOwn(g.Best.Own, f.Cheapest), plain(g.Best.Nodes), g.GPU, plural(g.Best.Nodes, "node")))
		}
	}
	var parts []string
	switch {
	case len(owns) == 0:
		parts = append(parts, "rent every deployment")
	case len(b.Rent) == 0:
		parts = append(parts, "own "+some(owns, "more GPUs' deployments"))
	default:
		parts = append(parts, "own "+some(owns, "more GPUs' deployments")+"; rent "+quoted(b.Rent))
	}
	s := strings.Join(parts, "") + ": " + dollars(f.Currency, b.PerMonth) + " a month"
	everything := "everything"
	for _, g := range f.GPUs {
		if g.Scenario == "" {
			everything = "every deployment a scenario can own" // the rest rented
		}
	}
	var than []string
	if d := b.OwnAll - b.PerMonth; d > 0.005 {
		than = append(than, dollars(f.Currency, d)+" less than owning "+everything)
	}
	if d := b.RentAll - b.PerMonth; d > 0.005 {
		than = append(than, dollars(f.Currency, d)+" less than renting everything")
	}
	if len(than) > 0 {
		s += ", " + strings.Join(than, " and ")
	}
	if b.Bounded {
		var groups []string
		for _, g := range f.GPUs {
			if !g.Exact {
				groups = append(groups, fmt.Sprintf("the %s %s deployments of the scenario %s", plain(len(g.Deployments)), g.GPU, g.Scenario))
			}
		}
		s += fmt.Sprintf("; within %s of the cheapest mix, which costs at least %s a month: planner did not search every mix of %s: their replicas and sizes are too many for its search",
			dollars(f.Currency, b.PerMonth-b.AtLeast), dollars(f.Currency, b.AtLeast), some(groups, "more"))
	}
	for _, g := range f.GPUs {
		if g.Note != "" {
			s += "; not the cheapest mix: " + g.Note + ", so they are counted rented"
		}
	}
	return s
}

// maxNamed is the most names a list in words gives in full.
const maxNamed = 10

// quoted lists deployments by name, each in quotes, since a name may hold
// a comma: "a", "b" and "c".
func quoted(names []string) string {
	var q []string
	for _, n := range names {
		q = append(q, `"`+n+`"`)
	}
	return some(q, "other deployments")
}

// quotedOwn lists the deployments the mix owns, saying of one it owns
// only part of which part: "a" (8 of 16 replicas, the base; the rest
// rented).
func quotedOwn(names []string, how []Cheapest) string {
	partly := map[string]Cheapest{}
	for _, c := range how {
		if c.Owned > 0 && c.Owned < c.Replicas {
			partly[c.Deployment] = c
		}
	}
	var q []string
	for _, n := range names {
		s := `"` + n + `"`
		if c, ok := partly[n]; ok {
			s += fmt.Sprintf(" (%s of %s replicas, %s; the rest rented)", plain(c.Owned), plain(c.Replicas), c.OwnedPart)
		}
		q = append(q, s)
	}
	return some(q, "other deployments")
}

// some lists up to maxNamed of s, or the first few and how many more: "a,
// b, c, d, e and 995 more".
func some(s []string, more string) string {
	if len(s) <= maxNamed {
		return and(s)
	}
	const few = 5
	return strings.Join(s[:few], ", ") + " and " + plain(len(s)-few) + " " + more
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

func dollars(c units.Currency, v float64) string {
	return wording.Money(c, "", math.Round(v)).String()
}

// plain writes a count with thousands separators: 1,000,000.
func plain[T int | int64](n T) string {
	s := strconv.FormatInt(int64(n), 10)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// LeftOut says which deployments the fleet leaves out, not costed: each
// has a warning at its row saying why.
func LeftOut(skipped []string) string {
	return fmt.Sprintf("left out of the fleet, not costed (the warning at its row says why): %s", quoted(skipped))
}
