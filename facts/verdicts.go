package facts

import (
	"planner/deploy"
	"planner/domain"
	"planner/engine"
	"planner/fleet"
	"planner/units"
	"planner/wording"
)

// Names of a deployment's costs as results, as eval's JSON names them.
const (
	DeploymentCards     = "cards_per_replica"
	DeploymentRentHour  = "rent_per_replica_hour"
	DeploymentRent      = "rent_per_month"
	DeploymentOwnNodes  = "own_nodes"
	DeploymentOwnBusy   = "own_node_busy"
	DeploymentOwnMonth  = "own_per_month"
	deploymentNotCosted = "#N/A: "

	DeploymentTokensPerSecond = "tokens_per_second_per_replica"
	DeploymentTokensPerMonth  = "tokens_per_month"
	DeploymentPerMillionRent  = "cost_per_million_tokens_rent"
	DeploymentPerMillionOwn   = "cost_per_million_tokens_own"
	DeploymentAPIPerMillion   = "api_per_million_tokens"
	DeploymentAPIPerMonth     = "api_per_month"
)

// KindFleet keys the fleet's figures and decisions: `fleet "H100 SXM
// (base)" nodes`, `fleet deployment "one H100, workdays"`.
const KindFleet = "fleet"

// FleetAll names the whole fleet's figures.
const FleetAll = "every GPU"

// Names of the fleet's figures as results.
const (
	FleetCards       = "cards"
	FleetNodes       = "nodes"
	FleetUtilization = "node_utilization"
	FleetOwn         = "own_per_month"
	FleetRent        = "rent_per_month"
	FleetBestNodes   = "best_nodes"
	FleetBest        = "best_per_month"
	// FleetAtLeast and FleetNodesAtLeast are there when planner's search
	// stopped at its bound: the cheapest month is at least the one, owning
	// every deployment takes at least the other.
	FleetAtLeast      = "cheapest_at_least_per_month"
	FleetNodesAtLeast = "nodes_at_least"
)

// FleetLabel names one GPU of the fleet: "H100 SXM (base)", the scenario
// whose nodes own it, or the GPU alone when no scenario does.
func FleetLabel(g fleet.GPU) string {
	if g.Scenario == "" {
		return g.GPU
	}
	return g.GPU + " (" + g.Scenario + ")"
}

// Fleet lists the fleet's figures as results: per GPU the cards, the nodes
// owning all takes, how busy they would be, owning all against renting all
// and the cheapest mix's nodes and month; then the whole fleet's months.
func Fleet(f fleet.Fleet) []Result {
	var out []Result
	add := func(label, name, unit string, v float64) {
		out = append(out, Result{Currency: f.Currency, Fleet: label, Name: name, Unit: unit, Value: v})
	}
	for _, g := range f.GPUs {
		l := FleetLabel(g)
		add(l, FleetCards, "GPUs", float64(g.Cards))
		if g.Scenario != "" && g.Note == "" {
			add(l, FleetNodes, "nodes", float64(g.Nodes))
			if g.NodesLeast < g.Nodes {
				add(l, FleetNodesAtLeast, "nodes", float64(g.NodesLeast))
			}
			add(l, FleetUtilization, "%", g.Utilization)
			add(l, FleetOwn, "$/month", g.OwnPerMonth)
		}
		add(l, FleetRent, "$/month", g.RentPerMonth)
		if g.Note != "" {
			out = append(out, Result{Currency: f.Currency, Fleet: l, Name: FleetBest, Unit: "$/month", Err: deploymentNotCosted + g.Note})
			continue
		}
		add(l, FleetBestNodes, "nodes", float64(g.Best.Nodes))
		add(l, FleetBest, "$/month", g.Best.PerMonth)
		if !g.Exact {
			add(l, FleetAtLeast, "$/month", g.AtLeast)
		}
	}
	if len(f.GPUs) > 0 {
		add(FleetAll, FleetOwn, "$/month", f.Best.OwnAll)
		add(FleetAll, FleetRent, "$/month", f.Best.RentAll)
		add(FleetAll, FleetBest, "$/month", f.Best.PerMonth)
		if f.Best.Bounded {
			add(FleetAll, FleetAtLeast, "$/month", f.Best.AtLeast)
		}
	}
	return out
}

// FleetVerdicts are the cheapest mix's decisions: each deployment owned
// (buy) or rented, with the mix in words.
func FleetVerdicts(f fleet.Fleet) []Verdict {
	var out []Verdict
	for _, g := range f.GPUs {
		if g.Note != "" {
			continue
		}
		for _, name := range g.Best.Own {
			out = append(out, Verdict{Currency: f.Currency, Fleet: true, Deployment: name, Verdict: wording.Buy, Words: f.Best.Words})
		}
		if g.Scenario == "" {
			continue // only rented: there is no decision
		}
		for _, name := range g.Best.Rent {
			out = append(out, Verdict{Currency: f.Currency, Fleet: true, Deployment: name, Verdict: wording.Rent, Words: f.Best.Words})
		}
	}
	return out
}

// Deployments lists every deployment's costs as results: cards per
// replica, rent an hour and a month, and, when a scenario owns nodes of its
// GPU, the nodes owning takes, how busy their cards would be and what they
// cost a month. A deployment that cannot be costed gives its rent a month
// as an error saying why.
func Deployments(costs []deploy.Result) []Result {
	var out []Result
	for _, c := range costs {
		add := func(name, unit string, v float64) {
			out = append(out, Result{Currency: c.Currency, Deployment: c.Name, Name: name, Unit: unit, Value: v})
		}
		if c.Phrase == nil { // not costed: Words says why
			out = append(out, Result{Currency: c.Currency, Deployment: c.Name, Name: DeploymentRent, Unit: "$/month", Err: deploymentNotCosted + c.Words})
			continue
		}
		add(DeploymentCards, "GPUs", float64(c.Cards))
		add(DeploymentRentHour, "$/h", c.RentPerReplicaHour)
		add(DeploymentRent, "$/month", c.RentPerMonth)
		if o := c.Own; o != nil {
			add(DeploymentOwnNodes, "nodes", float64(o.Nodes))
			add(DeploymentOwnBusy, "%", o.Busy)
			add(DeploymentOwnMonth, "$/month", o.CostPerMonth)
		}
		if tk := c.Tokens; tk.PerMonth > 0 {
			add(DeploymentTokensPerSecond, "tokens/s", tk.PerSecond)
			add(DeploymentTokensPerMonth, "tokens", tk.PerMonth)
			add(DeploymentPerMillionRent, "$/M tokens", tk.PerMillionRent)
			if c.Own != nil {
				add(DeploymentPerMillionOwn, "$/M tokens", tk.PerMillionOwn)
			}
			if a := tk.API; a != nil {
				add(DeploymentAPIPerMillion, "$/M tokens", a.PerMillion)
				add(DeploymentAPIPerMonth, "$/month", a.PerMonth)
			}
		}
	}
	return out
}

// Verdict is one decision a plan makes, buy or rent: of a scenario against
// a cloud offer of its GPU, or of a deployment.
type Verdict struct {
	Scenario   string // the scenario, against Offer
	Offer      string
	Deployment string         // or the deployment; Scenario and Offer are then ""
	Fleet      bool           // the deployment's part in the fleet's cheapest mix: buy is own
	Currency   units.Currency // the currency of Saving
	Verdict    string         // wording.Buy or wording.Rent; "" when there is none (Words says why)
	// Saving is what owning saves over renting a month (negative: renting
	// is cheaper): own_saving_per_month against the offer, or the
	// deployment's rent a month less its owned nodes' cost. Nil when the
	// plan does not say.
	Saving *float64
	Words  string
}

// Key names the decision as results' keys name their scenario and offer,
// or their deployment.
func (v Verdict) Key() string {
	if v.Fleet {
		return KindFleet + " " + where(v.Scenario, v.Offer, v.Deployment)
	}
	return where(v.Scenario, v.Offer, v.Deployment)
}

// Verdicts lists the plan's decisions: every scenario's against each offer
// it compares, in the results' order, then every deployment's.
func Verdicts(p *engine.Plan, results []*engine.Result, costs []deploy.Result) []Verdict {
	var out []Verdict
	for _, r := range results {
		for _, o := range r.Offers {
			if !o.Compared {
				continue
			}
			v := Verdict{Currency: p.Currency(), Scenario: r.Scenario, Offer: o.Offer.Label(), Verdict: o.Verdict, Words: o.Words}
			if s, ok := o.Values[domain.OwnSaving]; ok {
				v.Saving = &s
			}
			out = append(out, v)
		}
	}
	for _, c := range costs {
		v := Verdict{Currency: c.Currency, Deployment: c.Name, Verdict: c.Verdict, Words: c.Words}
		if c.Own != nil && c.Phrase != nil {
			s := c.RentPerMonth - c.Own.CostPerMonth
			v.Saving = &s
		}
		out = append(out, v)
	}
	return out
}
