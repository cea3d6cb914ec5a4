package sheets

import (
	"fmt"
	"strconv"

	"planner/domain"
	"planner/fleet"
	"planner/workbooks/internal/grid"
)

// powerTable is the Fleet sheet's power under the cheapest mix, a row per
// GPU owned on a scenario's nodes: the nodes owned, one node's full and
// idle draw with the PUE, the site's draw, the busy card-hours and tokens
// of the owned replicas a month, the energy (every owned card idle all
// month, each busy card-hour adding the difference to the full draw), the
// tokens per kWh and, with the grid's intensity, the grams of CO2 per
// million tokens; below, the total against the site's limit. The draws,
// the energy and its ratios are live over Results and the rows above; the
// nodes, busy hours and tokens are planner's, as the mix is.
func powerTable(g *grid.Grid, out Output, lay *resultsLayout, row int) int {
	f := out.Fleet
	pw := f.Power
	g.Line(row, grid.Headers("power", "own: scenario", "nodes owned", "node kW", "node idle kW", "kW",
		"busy card-hours", "kWh per month", "tokens per month", "tokens per kWh", "g CO2 per M tokens")...)
	g.WrapHeight(row, 9, "g CO2 per M tokens")
	kwFormat := grid.WithFormat(grid.StyleResult, "#,##0.00")
	count := grid.WithFormat(grid.StyleResult, "#,##0")
	base := baseRefs(out, lay)
	first := row + 1
	for i, gpu := range f.GPUs {
		if gpu.Scenario == "" || gpu.Note != "" || !(gpu.NodeKW > 0) {
			continue
		}
		row++
		s := powerRefs(out, lay, gpu.Scenario)
		nodes, nodeKW, idleKW := grid.CellName(3, row), grid.CellName(4, row), grid.CellName(5, row)
		busy, kwh, tokens := grid.CellName(7, row), grid.CellName(8, row), grid.CellName(9, row)
		e := powerEnergy(gpu)
		g.Line(row, grid.Text(gpu.GPU, grid.StyleLabel), grid.Text(gpu.Scenario, grid.StyleLabel),
			grid.Linked(grid.Number(float64(gpu.Best.Nodes), count), grid.CellName(10, HeaderRow+1+i)),
			linkedIf(grid.Number(gpu.NodeKW, kwFormat), s.nodeKWCell),
			linkedIf(grid.Number(gpu.NodeIdleKW, kwFormat), s.idleKW(nodeKW)),
			grid.Linked(grid.Number(float64(gpu.Best.Nodes)*gpu.NodeKW, kwFormat), nodes+"*"+nodeKW),
			grid.Number(gpu.BusyCardHours, count),
			linkedIf(grid.Number(e.kwh, count), s.energy(nodes, idleKW, busy, nodeKW)),
			grid.Number(gpu.Tokens, count),
			grid.Linked(grid.Number(e.perKWh, count), fmt.Sprintf("IF(AND(%s>0,%s>0),%s/%s,0)", kwh, tokens, tokens, kwh)),
			linkedIf(grid.Number(e.co2(pw.GridCO2), kwFormat), co2Formula(kwh, tokens, base.grid)))
	}
	if row == first-1 {
		g.Line(row+1, grid.Text("No node is owned on a scenario that gives node_kw: the fleet draws nothing of the site.", grid.StyleNote))
		return row + 1
	}
	row++
	sum := func(col int) string {
		return fmt.Sprintf("SUM(%s:%s)", grid.CellName(col, first), grid.CellName(col, row-1))
	}
	kwh, tokens := grid.CellName(8, row), grid.CellName(9, row)
	lay.fleetPowerAt = nil
	for _, col := range []int{6, 8, 10, 11} { // the totals of fleetPowerFigures
		lay.fleetPowerAt = append(lay.fleetPowerAt, grid.Absolute(Fleet, col, row))
	}
	g.Line(row, grid.Text("the fleet", grid.StyleHeader), grid.Blank(grid.StyleHeader),
		grid.Linked(grid.Number(float64(f.Best.Nodes), count), sum(3)), grid.Blank(grid.StyleHeader), grid.Blank(grid.StyleHeader),
		grid.Linked(grid.Number(pw.KW, kwFormat), sum(6)), grid.Linked(grid.Number(sumBusy(f), count), sum(7)),
		grid.Linked(grid.Number(pw.KWhPerMonth, count), sum(8)), grid.Linked(grid.Number(pw.TokensPerMonth, count), sum(9)),
		grid.Linked(grid.Number(pw.TokensPerKWh, count), fmt.Sprintf("IF(AND(%s>0,%s>0),%s/%s,0)", kwh, tokens, tokens, kwh)),
		linkedIf(grid.Number(pw.GCO2PerMillion, kwFormat), co2Formula(kwh, tokens, base.grid)))
	row++
	g.Line(row, grid.Text("site limit kW (site_kw; 0: none)", grid.StyleLabel), grid.Blank(grid.StyleLabel), grid.Blank(grid.StyleLabel),
		grid.Blank(grid.StyleLabel), grid.Blank(grid.StyleLabel), linkedIf(grid.Number(pw.LimitKW, kwFormat), base.siteKW))
	row++
	short := ""
	if base.siteKW != "" {
		short = fmt.Sprintf("IF(%s>0,MAX(0,%s-%s),0)", base.siteKW, strconv.FormatFloat(pw.UnlimitedKW, 'g', -1, 64), base.siteKW)
	}
	g.Line(row, grid.Text("kW short of the cheapest mix without the limit", grid.StyleLabel), grid.Blank(grid.StyleLabel), grid.Blank(grid.StyleLabel),
		grid.Blank(grid.StyleLabel), grid.Blank(grid.StyleLabel), linkedIf(grid.Number(pw.ShortKW, kwFormat), short))
	return row
}

// energy is a GPU's month of energy as fleet.Power counts it, and its ratios.
type energy struct{ kwh, tokens, perKWh float64 }

func powerEnergy(gpu fleet.GPU) energy {
	e := energy{tokens: gpu.Tokens}
	if gpu.NodeGPUs > 0 {
		e.kwh = float64(gpu.Best.Nodes)*gpu.NodeIdleKW*gpu.Hours + gpu.BusyCardHours*(gpu.NodeKW-gpu.NodeIdleKW)/gpu.NodeGPUs
	}
	if e.kwh > 0 && e.tokens > 0 {
		e.perKWh = e.tokens / e.kwh
	}
	return e
}

func (e energy) co2(grid float64) float64 {
	if e.kwh > 0 && e.tokens > 0 && grid > 0 {
		return e.kwh * grid / (e.tokens / 1e6)
	}
	return 0
}

func co2Formula(kwh, tokens, grid string) string {
	if grid == "" {
		return ""
	}
	return fmt.Sprintf("IF(AND(%s>0,%s>0,%s>0),%s*%s/(%s/1000000),0)", kwh, tokens, grid, kwh, grid, tokens)
}

func sumBusy(f fleet.Fleet) float64 {
	t := 0.0
	for _, g := range f.GPUs {
		t += g.BusyCardHours
	}
	return t
}

// linkedIf is c live over formula, or c a value where Results has no cell
// to say it ("").
func linkedIf(c grid.Cell, formula string) grid.Cell {
	if formula == "" {
		return c
	}
	return grid.Linked(c, formula)
}

// powerCells are the Results cells of a scenario its power reads: node_kw,
// the idle watts, the cards, the PUE and the month's hours; "" where
// Results has none.
type powerCells struct{ nodeKWCell, idle, gpus, pue, hours string }

func powerRefs(out Output, lay *resultsLayout, scenario string) powerCells {
	cell := scenarioCell(out, scenario)
	return powerCells{nodeKWCell: cell(lay.formulaRow, domain.NodeKW), idle: cell(lay.inputRow, domain.GPUIdleWatts),
		gpus: cell(lay.inputRow, domain.GPUs), pue: cell(lay.inputRow, domain.PUE), hours: cell(lay.inputRow, domain.HoursPerMonth)}
}

// idleKW is the node's idle draw as a formula: the idle watts × the cards
// × the PUE, or node kW (at nodeKW) without idle watts.
func (s powerCells) idleKW(nodeKW string) string {
	if s.idle == "" || s.gpus == "" || s.pue == "" || s.nodeKWCell == "" {
		return ""
	}
	return fmt.Sprintf("IF(%s>0,MIN(%s,%s*%s*%s/1000),%s)", s.idle, nodeKW, s.idle, s.gpus, s.pue, nodeKW)
}

// energy is the month's kWh as a formula over the row's cells and the
// scenario's cards and hours.
func (s powerCells) energy(nodes, idleKW, busy, nodeKW string) string {
	if s.hours == "" || s.gpus == "" {
		return ""
	}
	return fmt.Sprintf("%s*%s*%s+%s*(%s-%s)/%s", nodes, idleKW, s.hours, busy, nodeKW, idleKW, s.gpus)
}

// baseCells are the base scenario's Results cells of the site's inputs.
type baseCells struct{ siteKW, grid string }

func baseRefs(out Output, lay *resultsLayout) baseCells {
	var b baseCells
	if len(out.Results) == 0 {
		return b
	}
	if row, ok := lay.inputRow[domain.SiteKW]; ok {
		b.siteKW = grid.Absolute(Results, firstValue, row)
	}
	if row, ok := lay.inputRow[domain.GridCO2]; ok {
		b.grid = grid.Absolute(Results, firstValue, row)
	}
	return b
}
