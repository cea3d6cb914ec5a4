package domain

import (
	"fmt"

	"planner/diag"
	"planner/sizing"
	"planner/units"
)

// A GPU's board watts come from the GPUs sheet, per scenario's GPU, unless
// the workbook or the command line says otherwise (see GPUWatts).

// WattsFromCatalog reports whether gpu_watts is a name planner provides
// from the GPU catalog, rather than an Assumptions input.
func (m *Model) WattsFromCatalog() bool {
	gpu, ok := m.Input(GPU)
	_, typed := m.Input(GPUWatts)
	return ok && gpu.Value.IsText && len(m.GPUs) > 0 && !typed
}

// CatalogWatts reports whether the scenario's gpu_watts comes from the
// catalog: the model has one and neither the scenario nor (for its GPU)
// the Assumptions say otherwise.
func (m *Model) CatalogWatts(sc Scenario, gpu string) bool {
	if len(m.GPUs) == 0 {
		return false
	}
	if _, set := sc.Set[GPUWatts]; set {
		return false
	}
	if m.WattsFromCatalog() {
		return true
	}
	base, ok := m.Input(GPU)
	_, typed := m.Input(GPUWatts)
	return ok && typed && base.Value.IsText && !SameGPU(base.Value.Text, gpu)
}

// NoWatts asks for a GPU's board watts, at the cell that put the scenario
// on that GPU: its own Scenarios cell, a --set, or the Assumptions'.
func (m *Model) NoWatts(sc Scenario, g sizing.GPUSpec) *diag.Diagnostic {
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
		return &diag.Diagnostic{Origin: diag.Origin{File: m.Where.File}, Msg: "--set gpu=" + v.Text + ": " + ask("or add --set gpu_watts=WATTS")}
	}
	in, _ := m.Input(GPU)
	return &diag.Diagnostic{Origin: in.Origin, Msg: ask("or add a row gpu_watts with them to Assumptions")}
}

// WattsWarnings say when gpu_watts in Assumptions differs from the
// catalog's watts for the Assumptions' GPU: the number typed there holds
// for that GPU, which a reader of the GPUs sheet would not expect.
func (m *Model) WattsWarnings() diag.Diagnostics {
	in, typed := m.Input(GPUWatts)
	base, ok := m.Input(GPU)
	if !typed || !ok || in.Value.IsText || len(m.GPUs) == 0 {
		return nil
	}
	g, known := m.GPUSpec(base.Value.Text)
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
