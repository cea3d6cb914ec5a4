package facts

import (
	"planner/deploy"
	"planner/engine"
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
)

// Deployments lists every deployment's costs as results: cards per
// replica, rent an hour and a month, and, when a scenario owns nodes of its
// GPU, the nodes owning takes, how busy their cards would be and what they
// cost a month. A deployment that cannot be costed gives its rent a month
// as an error saying why.
func Deployments(costs []deploy.Result) []Result {
	var out []Result
	for _, c := range costs {
		add := func(name, unit string, v float64) {
			out = append(out, Result{Deployment: c.Name, Name: name, Unit: unit, Value: v})
		}
		if c.Phrase == nil { // not costed: Words says why
			out = append(out, Result{Deployment: c.Name, Name: DeploymentRent, Unit: "$/month", Err: deploymentNotCosted + c.Words})
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
	}
	return out
}

// Verdict is one decision a plan makes, buy or rent: of a scenario against
// a cloud offer of its GPU, or of a deployment.
type Verdict struct {
	Scenario   string // the scenario, against Offer
	Offer      string
	Deployment string // or the deployment; Scenario and Offer are then ""
	Verdict    string // engine.Buy or engine.Rent; "" when there is none (Words says why)
	// Saving is what owning saves over renting a month (negative: renting
	// is cheaper): own_saving_per_month against the offer, or the
	// deployment's rent a month less its owned nodes' cost. Nil when the
	// plan does not say.
	Saving *float64
	Words  string
}

// Key names the decision as results' keys name their scenario and offer,
// or their deployment.
func (v Verdict) Key() string { return where(v.Scenario, v.Offer, v.Deployment) }

// Verdicts lists the plan's decisions: every scenario's against each offer
// it compares, in the results' order, then every deployment's.
func Verdicts(results []*engine.Result, costs []deploy.Result) []Verdict {
	var out []Verdict
	for _, r := range results {
		for _, o := range r.Offers {
			if !o.Compared {
				continue
			}
			v := Verdict{Scenario: r.Scenario, Offer: o.Offer.Label(), Verdict: o.Verdict, Words: o.Words}
			if s, ok := o.Values[engine.OwnSaving]; ok {
				v.Saving = &s
			}
			out = append(out, v)
		}
	}
	for _, c := range costs {
		v := Verdict{Deployment: c.Name, Verdict: c.Verdict, Words: c.Words}
		if c.Own != nil && c.Phrase != nil {
			s := c.RentPerMonth - c.Own.CostPerMonth
			v.Saving = &s
		}
		out = append(out, v)
	}
	return out
}
