package sheets

import (
	"planner/workbooks/internal/grid"
)

// fleetPowerFigures are the fleet's power Results shows, each a total of
// the Fleet sheet's power table: the label, the unit and the number
// format, in the table's order.
var fleetPowerFigures = []struct{ label, unit, format string }{
	{"Owned nodes' draw, with the PUE", "kW", "#,##0.00"},
	{"Energy a month", "kWh", "#,##0"},
	{"Tokens per kWh", "tokens/kWh", "#,##0"},
	{"CO2 per million tokens (0 until grid_g_co2_per_kwh is given)", "g/M tokens", "#,##0.00"},
}

// fleetPowerSection writes, under its title, the power the fleet's
// cheapest mix draws on its owned nodes, as the Fleet sheet totals it;
// each value becomes a link to that total once the Fleet sheet is laid
// out (linkFleetPower). Nothing when the mix owns no node that draws.
func fleetPowerSection(g *grid.Grid, out Output, lay *resultsLayout) {
	pw := out.Fleet.Power
	if !(pw.KW > 0) {
		return
	}
	row := g.Next() + 1
	g.Line(row, grid.Text("The fleet's power: the cheapest mix's owned nodes, which only planner chooses, as the Fleet sheet totals them (not live but for their draw; the line below is the Fleet sheet's flag)", grid.StyleSection))
	flag := row + 1
	g.Sentence(1, flag, 0, UpToDate, grid.StyleLabel)
	lay.fleetFlagRow = flag
	header := flag + 1
	g.Line(header, grid.Headers("Result", "Name", "Unit", "the fleet")...)
	g.Table(row, header, header)
	row = header
	for i, v := range []float64{pw.KW, pw.KWhPerMonth, pw.TokensPerKWh, pw.GCO2PerMillion} {
		f := fleetPowerFigures[i]
		row++
		g.Line(row, grid.Text(f.label, grid.StyleLabel), grid.Blank(grid.StyleName), grid.Text(f.unit, grid.StyleLabel),
			grid.Number(v, grid.WithFormat(grid.StyleResult, f.format)))
		row += g.Fit(row)
		lay.fleetPowerRow = append(lay.fleetPowerRow, row)
	}
}

// linkFleetPower links Results' fleet power to the Fleet sheet's totals,
// which the Fleet sheet's power table recorded in lay, and its flag to the
// Fleet sheet's.
func linkFleetPower(results *grid.Grid, lay *resultsLayout) {
	if lay.fleetFlagRow > 0 && lay.fleetFlagAt != "" {
		results.Link(1, lay.fleetFlagRow, lay.fleetFlagAt)
	}
	for i, row := range lay.fleetPowerRow {
		if i < len(lay.fleetPowerAt) && lay.fleetPowerAt[i] != "" {
			results.Link(firstValue, row, lay.fleetPowerAt[i])
		}
	}
}
