package whatif

import (
	"planner/diag"
	"planner/domain"
	"planner/engine"
)

// DefaultTargets are what the tornado follows when the workbook names none:
// the owned GPU-hour, calendar and used, the break-even against every offer
// and what owning saves a month against it. The used hour and the saving
// are what utilisation moves: without them the tornado would show
// utilisation as the input that does not matter.
func DefaultTargets() []string {
	return []string{domain.CostPerGPUHour, domain.CostPerUsedHour, domain.Breakeven, domain.OwnSaving}
}

// Report holds the what-if analyses a workbook asks for, computed together
// for the sheets eval writes.
type Report struct {
	Tornadoes []Tornado  // in the base scenario, one per target
	Tables    []*Table   // in the base scenario, in the workbook's order
	Curve     *Curve     // every scenario; nil when the model has no cost_per_used_hour
	Solutions []Solution // the workbook's goals, in the base scenario
}

// Run computes the tornado over targets (the workbook's, or
// DefaultTargets when both are empty), the data tables and goals the model
// carries, and the break-even curve of every scenario. scenarios[0] is the
// base.
func Run(p *engine.Plan, scenarios []domain.Scenario, targets []string) (*Report, error) {
	base := scenarios[0]
	m := p.Model()
	if len(targets) == 0 {
		for _, t := range m.Targets {
			targets = append(targets, t.Name)
		}
	}
	if len(targets) == 0 {
		for _, name := range DefaultTargets() {
			if _, ok := p.Formula(name); ok {
				targets = append(targets, name)
			}
		}
	}
	expanded, err := Targets(p, base, targets)
	if err != nil {
		return nil, err
	}
	w := &Report{}
	if w.Tornadoes, err = Tornadoes(p, base, expanded); err != nil {
		return nil, err
	}
	for _, spec := range m.Tables {
		t, err := DataTable(p, base, spec)
		if err != nil {
			return nil, err
		}
		w.Tables = append(w.Tables, t)
	}
	if _, ok := p.Formula(domain.CostPerUsedHour); ok {
		if w.Curve, err = BreakevenCurve(p, scenarios); err != nil {
			return nil, err
		}
	}
	for _, g := range m.Goals {
		sol, err := Solve(p, base, g)
		if err != nil {
			return nil, err
		}
		w.Solutions = append(w.Solutions, sol)
	}
	return w, nil
}

// Check refuses what-ifs over names the model lacks: data tables, goals
// and tornado targets. Build runs it with the engine's own checks.
func Check(p *engine.Plan) (problems, warnings diag.Diagnostics) {
	m := p.Model()
	problems = append(checkTables(p, m.Tables), checkGoals(p)...)
	return append(problems, checkTargets(p)...), nil
}
