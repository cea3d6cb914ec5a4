package sheets

import (
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

// Owned lays out the sheets eval writes from out: Results; Sizing,
// Deployment costs and Fleet when there is something to show, or when had says the
// workbook has planner's sheet of that name already (it is then rewritten
// saying there is nothing); MonteCarlo when it ran; the what-if sheets
// when they ran.
func Owned(out Output, had func(sheet string) bool) []*grid.Grid {
	out.inputs = out.inputsFingerprint()
	results, lay := resultsGrid(out)
	grids := []*grid.Grid{results}
	if len(out.Sizing) > 0 || had(Sizing) {
		grids = append(grids, sizingGrid(out))
	}
	if len(out.Deployments) > 0 || had(DeploymentCosts) {
		grids = append(grids, costsGrid(out, lay))
	}
	if len(out.Fleet.GPUs) > 0 || had(Fleet) {
		grids = append(grids, fleetGrid(out, lay))
		linkFleetPower(results, lay)
	}
	if len(comparedOffers(out.Results[0])) > 0 || had(CashFlow) {
		grids = append(grids, cashFlowGrid(out, lay))
	}
	if len(out.MonteCarlo) > 0 {
		grids = append(grids, montecarloGrid(out))
	}
	if w := out.WhatIfs; w != nil {
		grids = append(grids, sensitivityGrid(out), dataTablesGrid(out))
		if w.Curve != nil {
			grids = append(grids, breakevenGrid(out))
		}
		grids = append(grids, goalSeekGrid(out))
	}
	return grids
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
