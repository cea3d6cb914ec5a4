package engine

import (
	"fmt"

	"planner/diag"
	"planner/sizing"
	"planner/units"
)

// wattsFromCatalog reports whether gpu_watts is a name planner provides
// from the GPU catalog, rather than an Assumptions input.
func (m *Model) wattsFromCatalog() bool {
	gpu, ok := m.Input(GPU)
	_, typed := m.Input(GPUWatts)
	return ok && gpu.Value.IsText && len(m.GPUs) > 0 && !typed
}

// catalogWatts reports whether the scenario's gpu_watts comes from the
// catalog: the model has one and neither the scenario nor (for its GPU)
// the Assumptions say otherwise.
func (m *Model) catalogWatts(sc Scenario, gpu string) bool {
	if len(m.GPUs) == 0 {
		return false
	}
	if _, set := sc.Set[GPUWatts]; set {
		return false
	}
	if m.wattsFromCatalog() {
		return true
	}
	base, ok := m.Input(GPU)
	_, typed := m.Input(GPUWatts)
	return ok && typed && base.Value.IsText && !SameGPU(base.Value.Text, gpu)
}

// usesWatts reports whether a formula reads gpu_watts.
func (p *Plan) usesWatts() bool {
	for _, c := range p.checked {
		for _, r := range c.Refs {
			if r == GPUWatts {
				return true
			}
		}
	}
	return false
}

// setWatts puts the catalog's board watts of the scenario's GPU into
// gpu_watts, where the scenario takes them from there, and records the
// catalog row in the result.
func (p *Plan) setWatts(sc Scenario, slots []float64, res *Result) error {
	gpu := res.Text[GPU]
	if !p.model.catalogWatts(sc, gpu) {
		return nil
	}
	g, ok := p.model.GPUSpec(gpu)
	if !ok {
		return nil // an unknown GPU is reported with the scenario's other texts
	}
	if g.Watts <= 0 {
		delete(res.Values, GPUWatts)
		slots[p.prog.inputSlot[GPUWatts]] = 0
		if !p.usesWatts() {
			return nil
		}
		return p.noWatts(sc, g)
	}
	slots[p.prog.inputSlot[GPUWatts]] = g.Watts
	res.Values[GPUWatts] = g.Watts
	res.CatalogWatts = &g
	return nil
}

// noWatts asks for a GPU's board watts, at the cell that put the scenario
// on that GPU: its own Scenarios cell, a --set, or the Assumptions'.
func (p *Plan) noWatts(sc Scenario, g sizing.GPUSpec) *diag.Diagnostic {
	where := "in the GPUs sheet"
	switch {
	case g.WattsAt.Sheet != "":
		where = "in " + g.WattsAt.Where()
	case g.Origin.Sheet != "":
		where = "in a column headed \"board watts\" (the GPUs sheet has none)"
	}
	ask := func(or string) string {
		return fmt.Sprintf("the GPUs sheet gives no board watts for %s, which the node's power needs; type them %s (the maker's figure for one card), %s",
			g.Name, where, or)
	}
	if at, own := sc.Where[GPU]; own && at.Sheet != "" {
		return &diag.Diagnostic{Origin: at, Name: sc.Name, Msg: ask("or add a row gpu_watts with this scenario's watts to the Scenarios sheet")}
	}
	if v, set := sc.Set[GPU]; set {
		return &diag.Diagnostic{Origin: diag.Origin{File: p.model.Where.File}, Msg: "--set gpu=" + v.Text + ": " + ask("or add --set gpu_watts=WATTS")}
	}
	in, _ := p.model.Input(GPU)
	return &diag.Diagnostic{Origin: in.Origin, Msg: ask("or add a row gpu_watts with them to Assumptions")}
}

// checkWatts makes sure every scenario whose power comes from the catalog
// runs on a GPU the catalog gives watts for, with the command line's
// overrides; the Assumptions' GPU, which every scenario that keeps it
// shares, is asked about once.
func (p *Plan) checkWatts(overrides map[string]Value) diag.Diagnostics {
	if !p.usesWatts() || len(p.model.GPUs) == 0 {
		return nil
	}
	var problems diag.Diagnostics
	asked := map[string]bool{}
	for _, sc := range p.Scenarios(overrides) {
		gpu := p.gpuOf(sc, overrides)
		g, ok := p.model.GPUSpec(gpu)
		if !ok || g.Watts > 0 || !p.model.catalogWatts(sc, gpu) {
			continue
		}
		if e := p.noWatts(sc, g); !asked[e.Error()] {
			asked[e.Error()] = true
			problems = append(problems, e)
		}
	}
	return problems
}

// wattsWarnings say when gpu_watts in Assumptions differs from the
// catalog's watts for the Assumptions' GPU: the number typed there holds
// for that GPU, which a reader of the GPUs sheet would not expect.
func (p *Plan) wattsWarnings() diag.Diagnostics {
	in, typed := p.model.Input(GPUWatts)
	base, ok := p.model.Input(GPU)
	if !typed || !ok || in.Value.IsText || len(p.model.GPUs) == 0 {
		return nil
	}
	g, known := p.model.GPUSpec(base.Value.Text)
	if !known || g.Watts <= 0 || g.Watts == in.Value.Num {
		return nil
	}
	at := "the GPUs sheet"
	if g.WattsAt.Sheet != "" {
		at = g.WattsAt.Where()
	}
	return diag.Diagnostics{&diag.Diagnostic{Origin: in.Origin, Name: GPUWatts, Msg: fmt.Sprintf(
		"%s W here, but %s gives %s W for %s; planner uses %s W for every scenario on %s that does not set its own, and the GPUs sheet's watts for other GPUs: delete this row to take %s's watts from the GPUs sheet too",
		units.Plain(in.Value.Num), at, units.Plain(g.Watts), g.Name, units.Plain(in.Value.Num), g.Name, g.Name)}}
}

// OverrideWarnings say which overrides lie outside what their input
// plausibly is, and which scenarios an overridden gpu_watts does not
// reach: it is the watts of the base's GPU, and a scenario on another GPU
// keeps its own. (What Monte Carlo and the tornado hold of the overrides,
// montecarlo.HeldWarnings say.)
func (p *Plan) OverrideWarnings(overrides map[string]Value) diag.Diagnostics {
	var out diag.Diagnostics
	for _, name := range sortedKeys(overrides) {
		in, ok := p.Settable(name)
		if v := overrides[name]; ok && !v.IsText {
			if f := Plausibility(name, in.Unit, v.Num); f != nil {
				out = append(out, &diag.Diagnostic{Origin: diag.Origin{File: p.model.Where.File}, Msg: fmt.Sprintf(
					"--set %s=%s: %s", name, units.Plain(v.Num), f.Advice("use --set "+name+"=", ""))})
			}
		}
	}
	w, ok := overrides[GPUWatts]
	if !ok {
		return out.AsWarnings()
	}
	base := p.gpuOf(Scenario{}, overrides)
	var others []string
	for _, sc := range p.model.Scenarios {
		if !SameGPU(p.gpuOf(sc, overrides), base) {
			others = append(others, sc.Name)
		}
	}
	if len(others) > 0 {
		out = append(out, &diag.Diagnostic{Origin: diag.Origin{File: p.model.Where.File}, Msg: fmt.Sprintf(
			"--set gpu_watts=%s is the watts of %s: the scenarios on other GPUs keep their own (%s)", units.Plain(w.Num), base, diag.List(others))})
	}
	return out.AsWarnings()
}
