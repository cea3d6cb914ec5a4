package evaluate

import (
	"fmt"
	"strings"

	"planner/diag"
	"planner/domain"
	"planner/engine"
	"planner/whatif"
)

// GoalRequest is a goal as solve's flags give it.
type GoalRequest struct {
	For     string   // --for: the input to solve for
	Target  string   // --target NAME=VALUE
	Offer   string   // --offer, for a per-offer target
	Sets    []string // --set NAME=VALUE: other inputs set while solving
	Between string   // --between LOW,HIGH: where to look
}

// Goal reads the goal req describes and refuses one the model cannot
// solve, naming the flag at fault.
func Goal(plan *engine.Plan, req GoalRequest) (domain.Goal, error) {
	g := domain.Goal{Name: "--for " + req.For, For: req.For, Offer: req.Offer}
	name, raw, ok := strings.Cut(req.Target, "=")
	if !ok || strings.TrimSpace(name) == "" {
		return g, fmt.Errorf("--target %s: write NAME=VALUE, such as --target cost_per_used_hour=2.69", req.Target)
	}
	g.Target = strings.TrimSpace(name)
	v, err := ParseNumber(strings.TrimSpace(raw))
	if err != nil {
		return g, fmt.Errorf("--target %s: %v", req.Target, err)
	}
	g.Value = v
	if g.With, err = ParseSets(req.Sets, plan); err != nil {
		return g, err
	}
	if req.Between != "" {
		low, high, ok := strings.Cut(req.Between, ",")
		var errLow, errHigh error
		g.Low, errLow = ParseNumber(strings.TrimSpace(low))
		g.High, errHigh = ParseNumber(strings.TrimSpace(high))
		if !ok || errLow != nil || errHigh != nil {
			return g, fmt.Errorf("--between %s: write LOW,HIGH, such as --between 10%%,100%%", req.Between)
		}
		g.HasRange = true
	}
	flags := map[string]string{"for": "--for " + req.For, "target": "--target " + req.Target,
		"offer": strings.TrimSpace("--offer " + req.Offer), "with": "--set", "low": "--between " + req.Between}
	for _, p := range whatif.GoalProblems(plan, g) {
		return g, fmt.Errorf("%s: %s", flags[p.Column], p.Msg)
	}
	return g, nil
}

// Scenario is plan's scenario of that name, base included; an error for
// --scenario names the scenarios there are.
func Scenario(plan *engine.Plan, name string) (domain.Scenario, error) {
	var names []string
	for _, sc := range plan.Scenarios(nil) {
		if sc.Name == name {
			return sc, nil
		}
		names = append(names, sc.Name)
	}
	return domain.Scenario{}, fmt.Errorf("--scenario %s: there is no such scenario; the scenarios are %s", name, diag.List(names))
}
