package engine

import (
	"fmt"

	"planner/diag"
	"planner/domain"
	"planner/sizing"
	"planner/units"
)

// usesWatts reports whether a formula reads gpu_watts.
func (p *Plan) usesWatts() bool {
	for _, c := range p.checked {
		for _, r := range c.Refs {
			if r == domain.GPUWatts {
				return true
			}
		}
	}
	return false
}

// setWatts puts the catalog's board watts of the scenario's GPU into
// gpu_watts, where the scenario takes them from there, and records the
// catalog row in the result.
func (p *Plan) setWatts(sc domain.Scenario, slots []float64, res *Result) error {
	gpu := res.Text[domain.GPU]
	if !p.model.CatalogWatts(sc, gpu) {
		return nil
	}
	g, ok := p.model.GPUSpec(gpu)
	if !ok {
		return nil // an unknown GPU is reported with the scenario's other texts
	}
	if g.Watts <= 0 {
		delete(res.Values, domain.GPUWatts)
		slots[p.prog.inputSlot[domain.GPUWatts]] = 0
		if !p.usesWatts() {
			return nil
		}
		return p.model.NoWatts(sc, g)
	}
	slots[p.prog.inputSlot[domain.GPUWatts]] = g.Watts
	res.Values[domain.GPUWatts] = g.Watts
	res.CatalogWatts = &g
	p.setIdleWatts(sc, g, slots, res)
	return nil
}

// setIdleWatts puts the catalog's idle watts of the scenario's GPU into
// gpu_idle_watts, where its board watts come from the catalog and neither
// the Assumptions (a number above 0) nor the scenario give their own: the
// idle draw belongs to the card whose full draw is counted.
func (p *Plan) setIdleWatts(sc domain.Scenario, g sizing.GPUSpec, slots []float64, res *Result) {
	slot, ok := p.prog.inputSlot[domain.GPUIdleWatts]
	if _, set := sc.Set[domain.GPUIdleWatts]; !ok || set || g.IdleWatts <= 0 || slots[slot] > 0 {
		return
	}
	slots[slot] = g.IdleWatts
	res.Values[domain.GPUIdleWatts] = g.IdleWatts
	res.CatalogIdleWatts = &g
}

// checkWatts makes sure every scenario whose power comes from the catalog
// runs on a GPU the catalog gives watts for, with the command line's
// overrides; the Assumptions' GPU, which every scenario that keeps it
// shares, is asked about once.
func (p *Plan) checkWatts(overrides map[string]domain.Value) diag.Diagnostics {
	if !p.usesWatts() || len(p.model.GPUs) == 0 {
		return nil
	}
	var problems diag.Diagnostics
	asked := map[string]bool{}
	for _, sc := range p.Scenarios(overrides) {
		gpu := p.gpuOf(sc, overrides)
		g, ok := p.model.GPUSpec(gpu)
		if !ok || g.Watts > 0 || !p.model.CatalogWatts(sc, gpu) {
			continue
		}
		if e := p.model.NoWatts(sc, g); !asked[e.Error()] {
			asked[e.Error()] = true
			problems = append(problems, e)
		}
	}
	return problems
}

// OverrideWarnings say which overrides lie outside what their input
// plausibly is, and which scenarios an overridden gpu_watts does not
// reach: it is the watts of the base's GPU, and a scenario on another GPU
// keeps its own. (What Monte Carlo and the tornado hold of the overrides,
// montecarlo.HeldWarnings say.)
func (p *Plan) OverrideWarnings(overrides map[string]domain.Value) diag.Diagnostics {
	var out diag.Diagnostics
	for _, name := range sortedKeys(overrides) {
		in, ok := p.Settable(name)
		if v := overrides[name]; ok && !v.IsText {
			if f := domain.Plausibility(p.model.Currency, name, in.Unit, v.Num); f != nil {
				out = append(out, &diag.Diagnostic{Origin: diag.Origin{File: p.model.Where.File}, Msg: fmt.Sprintf(
					"--set %s=%s: %s", name, units.Plain(v.Num), f.Advice("use --set "+name+"=", ""))})
			}
		}
	}
	w, ok := overrides[domain.GPUWatts]
	if !ok {
		return out.AsWarnings()
	}
	base := p.gpuOf(domain.Scenario{}, overrides)
	var others []string
	for _, sc := range p.model.Scenarios {
		if !domain.SameGPU(p.gpuOf(sc, overrides), base) {
			others = append(others, sc.Name)
		}
	}
	if len(others) > 0 {
		out = append(out, &diag.Diagnostic{Origin: diag.Origin{File: p.model.Where.File}, Msg: fmt.Sprintf(
			"--set gpu_watts=%s is the watts of %s: the scenarios on other GPUs keep their own (%s)", units.Plain(w.Num), base, diag.List(others))})
	}
	return out.AsWarnings()
}
