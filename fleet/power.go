package fleet

import (
	"cmp"
	"math"
	"slices"

	"planner/deploy"
)

// Power is the owned nodes' power under the cheapest mix, and the site's
// limit on it: the full draw (the most the site must supply, every card
// busy), the month's energy (busy card-hours at the full draw, the rest at
// the idle draw), the tokens the owned replicas emit for it and, with the
// grid's intensity, their carbon. Every figure is 0 when nothing is owned.
type Power struct {
	LimitKW float64 // site_kw; 0 for none
	GridCO2 float64 // grams of CO2 per kWh; 0 when not given
	// KW is the owned nodes' full draw with the facility factor;
	// UnlimitedKW the cheapest mix's without the limit, and OwnAllKW
	// owning every deployment a scenario can own.
	KW, UnlimitedKW, OwnAllKW float64
	// ShortKW is how far the site falls short of owning the cheapest mix
	// without its limit: UnlimitedKW − LimitKW, 0 when it fits.
	ShortKW float64
	// Binds says the limit changed the mix: the cheapest mix without it
	// draws more than the site supplies, on UnlimitedNodes nodes for
	// UnlimitedMonth a month.
	Binds          bool
	UnlimitedNodes int
	UnlimitedMonth float64
	// Exact says the mix under the limit is the cheapest there is: every
	// GPU's months by nodes owned were known at every count.
	Exact          bool
	AverageKW      float64 // the owned nodes' mean draw over the month
	KWhPerMonth    float64
	TokensPerMonth float64 // what the owned replicas emit a month
	TokensPerKWh   float64 // 0 when not known
	GCO2PerMillion float64 // grams of CO2 per million tokens; 0 without a grid intensity
	// Unknown are the GPUs (on their scenarios) whose node power planner
	// does not know (no node_kw): their nodes are not counted, and under a
	// limit not owned.
	Unknown []string
}

// option is owning k nodes of a group: its month and its full draw.
type option struct {
	nodes     int
	month, kw float64
}

// plan is a choice of one option per group, built group by group.
type plan struct {
	kw, month float64
	picks     []int // per group so far, its nodes
}

// limit bounds the groups' owned nodes by the site's kW: when the cheapest
// mix draws more, the nodes are shared among the GPUs at the least month
// of all (each GPU's month by nodes owned, its curve), and each GPU capped
// at its share is solved again, renting the rest.
func limit(f *Fleet, members [][]deploy.Result, site deploy.Site) Power {
	pw := Power{LimitKW: site.KW, GridCO2: site.GridCO2, Exact: true}
	for i := range f.GPUs {
		g := &f.GPUs[i]
		if g.Scenario == "" || g.Note != "" {
			continue
		}
		if !(g.NodeKW > 0) {
			pw.Unknown = append(pw.Unknown, g.GPU+" ("+g.Scenario+")")
			continue
		}
		pw.UnlimitedKW += float64(g.Best.Nodes) * g.NodeKW
		pw.OwnAllKW += float64(g.Nodes) * g.NodeKW
	}
	if !(site.KW > 0) {
		return pw
	}
	if len(pw.Unknown) > 0 { // owned under a limit only with a known draw
		for i := range f.GPUs {
			if g := &f.GPUs[i]; g.Scenario != "" && g.Note == "" && !(g.NodeKW > 0) {
				g.MostNodes, g.capped = 0, true
				solve(g, members[i])
			}
		}
	}
	pw.ShortKW = max(0, pw.UnlimitedKW-site.KW)
	if pw.UnlimitedKW <= site.KW {
		return pw
	}
	pw.Binds = true
	for _, g := range f.GPUs {
		pw.UnlimitedNodes += g.Best.Nodes
		pw.UnlimitedMonth += g.Best.PerMonth
	}
	var groups []int
	var options [][]option
	for i, g := range f.GPUs {
		if g.Scenario == "" || g.Note != "" || !(g.NodeKW > 0) {
			continue
		}
		pw.Exact = pw.Exact && g.CurveLeast && len(g.Curve) == g.Nodes+1
		var opts []option
		for _, pt := range g.Curve {
			if kw := float64(pt.Nodes) * g.NodeKW; kw <= site.KW {
				opts = append(opts, option{nodes: pt.Nodes, month: pt.PerMonth, kw: kw})
			}
		}
		groups, options = append(groups, i), append(options, opts)
	}
	best := cheapestPlan(options, site.KW)
	for j, i := range groups {
		g := &f.GPUs[i]
		g.MostNodes, g.capped = best.picks[j], true
		solve(g, members[i])
	}
	return pw
}

// cheapestPlan picks one option of each group, the least month of those
// whose draws add up to at most kw: the plans kept after each group are
// those no other plan beats at once on draw and month.
func cheapestPlan(options [][]option, kw float64) plan {
	plans := []plan{{}}
	for _, opts := range options {
		var next []plan
		for _, p := range plans {
			for _, o := range opts {
				if p.kw+o.kw <= kw {
					next = append(next, plan{kw: p.kw + o.kw, month: p.month + o.month, picks: append(slices.Clone(p.picks), o.nodes)})
				}
			}
		}
		slices.SortStableFunc(next, func(a, b plan) int { return cmp.Or(cmp.Compare(a.kw, b.kw), cmp.Compare(a.month, b.month)) })
		plans = plans[:0:0]
		least := math.Inf(1)
		for _, p := range next {
			if p.month < least {
				plans, least = append(plans, p), p.month
			}
		}
	}
	return slices.MinFunc(plans, func(a, b plan) int { return cmp.Compare(a.month, b.month) })
}

// figures fills in the owned nodes' draw, energy, tokens and carbon under
// the mix f settled on: per GPU, its owned nodes idle all month at the idle
// draw, and each card's busy hours add the difference to the full draw.
func (pw *Power) figures(f Fleet, members [][]deploy.Result, site deploy.Site) {
	for gi, g := range f.GPUs {
		if g.Scenario == "" || g.Note != "" || !(g.NodeKW > 0) || g.Best.Nodes == 0 {
			continue
		}
		nodes := float64(g.Best.Nodes)
		pw.KW += nodes * g.NodeKW
		busyCardHours, tokens, hours := 0.0, 0.0, 0.0
		for i, c := range members[gi] {
			hours = c.Own.Hours
			for j, p := range partsOf(c) {
				if g.Buys[i][j] {
					busyCardHours += float64(c.Cards*p.Replicas) * p.Hours
					tokens += c.Tokens.PerSecond * 3600 * p.Hours * float64(p.Replicas)
				}
			}
		}
		busyCardHours = min(busyCardHours, nodes*g.NodeGPUs*hours)
		f.GPUs[gi].BusyCardHours, f.GPUs[gi].Tokens, f.GPUs[gi].Hours = busyCardHours, tokens, hours
		kwh := nodes*g.NodeIdleKW*hours + busyCardHours*(g.NodeKW-g.NodeIdleKW)/g.NodeGPUs
		pw.KWhPerMonth += kwh
		pw.TokensPerMonth += tokens
		if hours > 0 {
			pw.AverageKW += kwh / hours
		}
	}
	if pw.KWhPerMonth > 0 && pw.TokensPerMonth > 0 {
		pw.TokensPerKWh = pw.TokensPerMonth / pw.KWhPerMonth
		if site.GridCO2 > 0 {
			pw.GCO2PerMillion = pw.KWhPerMonth * site.GridCO2 / (pw.TokensPerMonth / 1e6)
		}
	}
}
