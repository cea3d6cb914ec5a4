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

// targetsGrid is the Targets sheet: the formulas the tornado follows.
func targetsGrid(n schema.Names, targets []domain.TargetSpec) *grid.Grid {
	g := newGrid(n, schema.Targets)
	for i, t := range targets {
		g.Line(i+2, grid.Text(t.Name, grid.StyleInput))
		g.Note(2, i+2, t.Notes)
	}
	g.Validate(declared(n, schema.Targets, 200, "name"))
	return g
}

// tablesGrid is the Tables sheet: one data table per row.
func tablesGrid(n schema.Names, tables []domain.TableSpec, inputs []domain.Input) *grid.Grid {
	g := newGrid(n, schema.Tables)
	for i, t := range tables {
		row := i + 2
		g.Line(row, grid.Text(t.Name, grid.StyleInput), grid.Text(t.Output, grid.StyleInput))
		axisCells(g, 3, row, &t.Row, inputs)
		axisCells(g, 7, row, t.Col, inputs)
		g.Set(11, row, grid.Text(shadeText(t.Shade), grid.StyleInput))
		g.Note(12, row, t.Notes)
	}
	last := len(tables) + 200
	s := schema.Tables
	g.Validate(declared(n, s, last, "output"), declared(n, s, last, "rowinput", "colinput"),
		stepsValidation(s.Cells("rowsteps", 2, last)+" "+s.Cells("colsteps", 2, last)))
	return g
}

// axisCells writes an axis's input, from, to and steps, formatted in the
// input's unit; an empty axis leaves input cells to fill in.
func axisCells(g *grid.Grid, col, row int, a *domain.Axis, inputs []domain.Input) {
	switch {
	case a == nil:
		for c := col; c < col+4; c++ {
			g.Set(c, row, grid.Blank(grid.StyleInput))
		}
	case a.Offers:
		g.Set(col, row, grid.Text("offer", grid.StyleInput))
		for c := col + 1; c < col+4; c++ {
			g.Set(c, row, grid.Blank(grid.StyleInput))
		}
	default:
		format := grid.WithFormat(grid.StyleInput, units.ExcelFormat(sheets.UnitOf(inputs, a.Input)))
		g.Set(col, row, grid.Text(a.Input, grid.StyleInput))
		g.Set(col+1, row, grid.Number(a.From, format))
		g.Set(col+2, row, grid.Number(a.To, format))
		g.Set(col+3, row, grid.Number(float64(a.Steps), grid.WithFormat(grid.StyleInput, "0")))
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

// goalsGrid is the Goals sheet: one goal per row, solved on every eval.
func goalsGrid(n schema.Names, m domain.Model) *grid.Grid {
	g := newGrid(n, schema.Goals)
	for i, goal := range m.Goals {
		row := i + 2
		format := grid.WithFormat(grid.StyleInput, "General")
		for _, f := range m.Formulas {
			if f.Name == goal.Target {
				format = grid.WithFormat(grid.StyleInput, units.ExcelFormat(f.Unit))
			}
		}
		g.Line(row, grid.Text(goal.Name, grid.StyleInput), grid.Text(goal.For, grid.StyleInput), grid.Text(goal.Target, grid.StyleInput),
			grid.Number(goal.Value, format), grid.Text(goal.Offer, grid.StyleInput), grid.Text(sheets.Settings(goal.With), grid.StyleInput))
		if goal.HasRange {
			inFormat := grid.WithFormat(grid.StyleInput, units.ExcelFormat(sheets.UnitOf(m.Inputs, goal.For)))
			g.Set(7, row, grid.Number(goal.Low, inFormat))
			g.Set(8, row, grid.Number(goal.High, inFormat))
		} else {
			g.Set(7, row, grid.Blank(grid.StyleInput))
			g.Set(8, row, grid.Blank(grid.StyleInput))
		}
		g.Note(9, row, goal.Notes)
	}
	last := len(m.Goals) + 200
	g.Validate(declared(n, schema.Goals, last, "for"), declared(n, schema.Goals, last, "target"))
	return g
}
