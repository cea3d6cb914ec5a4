package engine

// DefaultTargets are what the tornado follows when the workbook names none:
// the owned GPU-hour, calendar and used, the break-even against every offer
// and what owning saves a month against it. The used hour and the saving
// are what utilisation moves: without them the tornado would show
// utilisation as the input that does not matter.
var DefaultTargets = []string{CostPerGPUHour, CostPerUsedHour, Breakeven, OwnSaving}

// WhatIfs are the what-if analyses a workbook asks for, computed together
// for the sheets eval writes.
type WhatIfs struct {
	Tornadoes []Tornado  // in the base scenario, one per target
	Tables    []*Table   // in the base scenario, in the workbook's order
	Curve     *Curve     // every scenario; nil when the model has no cost_per_used_hour
	Solutions []Solution // the workbook's goals, in the base scenario
}

// WhatIfs computes the tornado over targets (the workbook's, or
// DefaultTargets when both are empty), the data tables and goals the model
// carries, and the break-even curve of every scenario. scenarios[0] is the
// base.
func (p *Plan) WhatIfs(scenarios []Scenario, targets []string) (*WhatIfs, error) {
	base := scenarios[0]
	if len(targets) == 0 {
		for _, t := range p.model.Targets {
			targets = append(targets, t.Name)
		}
	}
	if len(targets) == 0 {
		for _, name := range DefaultTargets {
			if _, ok := p.index[name]; ok {
				targets = append(targets, name)
			}
		}
	}
	expanded, err := p.Targets(base, targets)
	if err != nil {
		return nil, err
	}
	w := &WhatIfs{}
	if w.Tornadoes, err = p.Tornado(base, expanded); err != nil {
		return nil, err
	}
	for _, spec := range p.model.Tables {
		t, err := p.DataTable(base, spec)
		if err != nil {
			return nil, err
		}
		w.Tables = append(w.Tables, t)
	}
	if _, ok := p.index[CostPerUsedHour]; ok {
		if w.Curve, err = p.BreakevenCurve(scenarios); err != nil {
			return nil, err
		}
	}
	for _, g := range p.model.Goals {
		sol, err := p.Solve(base, g)
		if err != nil {
			return nil, err
		}
		w.Solutions = append(w.Solutions, sol)
	}
	return w, nil
}
