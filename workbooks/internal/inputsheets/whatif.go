package inputsheets

import (
	"fmt"
	"strconv"

	"github.com/xuri/excelize/v2"

	"planner/domain"
	"planner/units"
	"planner/whatif"
	"planner/workbooks/internal/grid"
	"planner/workbooks/internal/schema"
	"planner/workbooks/internal/sheets"
)

// targetsGrid is the Targets sheet: the formulas the tornado follows; its
// columns as s declares them.
func targetsGrid(n schema.Names, s schema.Sheet, m domain.Model) *grid.Grid {
	g := newGrid(n, s)
	for i, t := range m.Targets {
		it := item{g, s, i + 2}
		it.set("name", grid.Text(t.Name, grid.StyleInput))
		it.note("notes", t.Notes)
	}
	g.Validate(declared(n, s, 200, "name"))
	return g
}

// rowAxis and colAxis are the Tables columns of a table's two axes: its
// input, from, to and steps.
var (
	rowAxis = [4]string{"rowinput", "rowfrom", "rowto", "rowsteps"}
	colAxis = [4]string{"colinput", "colfrom", "colto", "colsteps"}
)

// tablesGrid is the Tables sheet: one data table per row, its columns as s
// declares them.
func tablesGrid(n schema.Names, s schema.Sheet, m domain.Model) *grid.Grid {
	g := newGrid(n, s)
	for i, t := range m.Tables {
		it := item{g, s, i + 2}
		it.set("name", grid.Text(t.Name, grid.StyleInput))
		it.set("output", grid.Text(t.Output, grid.StyleInput))
		axisCells(it, rowAxis, &t.Row, m.Inputs)
		axisCells(it, colAxis, t.Col, m.Inputs)
		it.set("shade", grid.Text(shadeText(t.Shade), grid.StyleInput))
		it.note("notes", t.Notes)
	}
	last := len(m.Tables) + 200
	g.Validate(declared(n, s, last, "output"), declared(n, s, last, "rowinput", "colinput"),
		stepsValidation(s.Cells("rowsteps", 2, last)+" "+s.Cells("colsteps", 2, last)))
	return g
}

// axisCells writes an axis's input, from, to and steps under the columns
// of keys, formatted in the input's unit; an empty axis leaves input cells
// to fill in.
func axisCells(it item, keys [4]string, a *domain.Axis, inputs []domain.Input) {
	switch {
	case a == nil:
		for _, k := range keys {
			it.set(k, grid.Blank(grid.StyleInput))
		}
	case a.Offers:
		it.set(keys[0], grid.Text("offer", grid.StyleInput))
		for _, k := range keys[1:] {
			it.set(k, grid.Blank(grid.StyleInput))
		}
	default:
		format := grid.WithFormat(grid.StyleInput, units.ExcelFormat(sheets.UnitOf(inputs, a.Input)))
		it.set(keys[0], grid.Text(a.Input, grid.StyleInput))
		it.set(keys[1], grid.Number(a.From, format))
		it.set(keys[2], grid.Number(a.To, format))
		it.set(keys[3], grid.Number(float64(a.Steps), grid.WithFormat(grid.StyleInput, "0")))
	}
}

// shadeText writes a Shade as the Tables sheet reads it.
func shadeText(s domain.Shade) string {
	switch {
	case s.Below:
		return "< " + strconv.FormatFloat(s.Threshold, 'g', -1, 64)
	case s.Above:
		return "> " + strconv.FormatFloat(s.Threshold, 'g', -1, 64)
	case s.Low:
		return "low"
	case s.High:
		return "high"
	}
	return ""
}

// stepsValidation keeps a step count between 1 and whatif.MaxSteps.
func stepsValidation(sqref string) *excelize.DataValidation {
	dv := excelize.NewDataValidation(true)
	dv.Sqref = sqref
	if err := dv.SetRange(1, whatif.MaxSteps, excelize.DataValidationTypeWhole, excelize.DataValidationOperatorBetween); err != nil {
		panic(err) // constant arguments
	}
	dv.SetError(excelize.DataValidationErrorStyleStop, "planner", fmt.Sprintf("A table axis has between 1 and %d steps.", whatif.MaxSteps))
	return dv
}

// goalsGrid is the Goals sheet: one goal per row, solved on every eval;
// its columns as s declares them.
func goalsGrid(n schema.Names, s schema.Sheet, m domain.Model) *grid.Grid {
	g := newGrid(n, s)
	for i, goal := range m.Goals {
		it := item{g, s, i + 2}
		format := grid.WithFormat(grid.StyleInput, "General")
		for _, f := range m.Formulas {
			if f.Name == goal.Target {
				format = grid.WithFormat(grid.StyleInput, units.ExcelFormat(f.Unit))
			}
		}
		it.set("name", grid.Text(goal.Name, grid.StyleInput))
		it.set("for", grid.Text(goal.For, grid.StyleInput))
		it.set("target", grid.Text(goal.Target, grid.StyleInput))
		it.set("value", grid.Number(goal.Value, format))
		it.set("offer", grid.Text(goal.Offer, grid.StyleInput))
		it.set("with", grid.Text(sheets.Settings(goal.With), grid.StyleInput))
		if goal.HasRange {
			inFormat := grid.WithFormat(grid.StyleInput, units.ExcelFormat(sheets.UnitOf(m.Inputs, goal.For)))
			it.set("low", grid.Number(goal.Low, inFormat))
			it.set("high", grid.Number(goal.High, inFormat))
		} else {
			it.set("low", grid.Blank(grid.StyleInput))
			it.set("high", grid.Blank(grid.StyleInput))
		}
		it.note("notes", goal.Notes)
	}
	last := len(m.Goals) + 200
	g.Validate(declared(n, s, last, "for"), declared(n, s, last, "target"))
	return g
}
