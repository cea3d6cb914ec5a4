package sheets

import (
	"context"
	"iter"
	"regexp"

	"planner/workbooks/internal/grid"
)

// The sheets eval writes, by name; the input sheets' names are declared
// with their columns (package schema). Results is rewritten on every run.
const (
	Results         = "Results"
	Sizing          = "Sizing"
	DeploymentCosts = "Deployment costs"
	Fleet           = "Fleet"
	CashFlow        = "Cash flow"
	MonteCarlo      = "MonteCarlo"
	Sensitivity     = "Sensitivity"
	DataTables      = "Data tables"
	Breakeven       = "Breakeven"
	GoalSeek        = "Goal seek"
)

// OwnedNames are the sheets eval writes; planner marks each as its own.
func OwnedNames() []string {
	return []string{Results, Sizing, DeploymentCosts, Fleet, CashFlow, MonteCarlo, Sensitivity, DataTables, Breakeven, GoalSeek}
}

// Layout is one of the sheets eval writes: its name, known before any
// sheet is laid out, and how to lay it out.
type Layout struct {
	Sheet string
	lay   func() *grid.Grid
}

// Owned plans the sheets eval writes from out: Results; Sizing,
// Deployment costs and Fleet when there is something to show, or when had says the
// workbook has planner's sheet of that name already (it is then rewritten
// saying there is nothing); MonteCarlo when it ran; the what-if sheets
// when they ran. Laid lays them out.
func Owned(out Output, had func(sheet string) bool) []Layout {
	out.inputs = out.inputsFingerprint()
	// The sheets after Results read where Results put each figure; Fleet
	// also says where its cells are, which Results links to, so it is
	// laid out with Results.
	var lay *resultsLayout
	var fleet *grid.Grid
	withFleet := len(out.Fleet.GPUs) > 0 || had(Fleet)
	layouts := []Layout{{Results, func() *grid.Grid {
		results, l := resultsGrid(out)
		lay = l
		if withFleet {
			fleet = fleetGrid(out, lay)
			linkFleetPower(results, lay)
		}
		return results
	}}}
	add := func(sheet string, layout func() *grid.Grid) { layouts = append(layouts, Layout{sheet, layout}) }
	if len(out.Sizing) > 0 || had(Sizing) {
		add(Sizing, func() *grid.Grid { return sizingGrid(out) })
	}
	if len(out.Deployments) > 0 || had(DeploymentCosts) {
		add(DeploymentCosts, func() *grid.Grid { return costsGrid(out, lay) })
	}
	if withFleet {
		add(Fleet, func() *grid.Grid { return fleet })
	}
	if len(comparedOffers(out.Results[0])) > 0 || had(CashFlow) {
		add(CashFlow, func() *grid.Grid { return cashFlowGrid(out, lay) })
	}
	if len(out.MonteCarlo) > 0 {
		add(MonteCarlo, func() *grid.Grid { return montecarloGrid(out) })
	}
	if w := out.WhatIfs; w != nil {
		add(Sensitivity, func() *grid.Grid { return sensitivityGrid(out) })
		add(DataTables, func() *grid.Grid { return dataTablesGrid(out) })
		if w.Curve != nil {
			add(Breakeven, func() *grid.Grid { return breakevenGrid(out) })
		}
		add(GoalSeek, func() *grid.Grid { return goalSeekGrid(out) })
	}
	return layouts
}

// Laid lays out each sheet as it is taken, in order (a later sheet reads
// where Results put its figures), so that a writer that lets each go once
// written never holds them all: at thousands of offers their cells and
// formulas are most of an eval's memory. It stops before the next sheet
// once ctx is done.
func Laid(ctx context.Context, layouts []Layout) iter.Seq[*grid.Grid] {
	return func(yield func(*grid.Grid) bool) {
		for _, l := range layouts {
			if ctx.Err() != nil || !yield(l.lay()) {
				return
			}
		}
	}
}

// ownerPrefix starts cell A2 of every sheet planner owns (see Computed). A
// sheet called Results without it was made by someone else and is never
// overwritten.
const ownerPrefix = "planner "

// Rows of an owned sheet: a title, the provenance line, a blank row, then the
// table header (frozen) and the table.
const (
	titleRow      = 1
	ProvenanceRow = 2
	HeaderRow     = 4
)

// ownerMark is the provenance line of a sheet planner wrote.
var ownerMark = regexp.MustCompile(`^planner \S+ · inputs ([0-9a-f]{12}) · `)

// Computed reads a provenance line: ok when planner wrote it, with the
// fingerprint of the inputs the sheet was computed from.
func Computed(line string) (inputs string, ok bool) {
	m := ownerMark.FindStringSubmatch(line)
	if m == nil {
		return "", false
	}
	return m[1], true
}

// DefinedName is a workbook-scoped name: how it is spelled, what it refers
// to, and whether planner wrote it (and so may move it). Excel compares
// names without case, so Output.Names is keyed by the lower-case name.
type DefinedName struct {
	Name     string
	RefersTo string
	Planners bool
}
