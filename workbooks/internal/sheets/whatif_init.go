package sheets

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"

	"planner/engine"
	"planner/units"
	"planner/whatif"
)

// targetsGrid is the Targets sheet: the formulas the tornado follows.
func targetsGrid(targets []engine.TargetSpec) *Grid {
	g := &Grid{sheet: Targets, freezeRows: 1, widths: []float64{30, 100}}
	g.line(1, headers("name", "notes")...)
	for i, t := range targets {
		g.line(i+2, text(t.Name, styleInput), text(t.Notes, styleNote))
	}
	g.validations = append(g.validations, dropList("A2:A200", Formulas+"!$A$2:$A$500"))
	return g
}

// tablesGrid is the Tables sheet: one data table per row.
func tablesGrid(tables []engine.TableSpec, inputs []engine.Input) *Grid {
	g := &Grid{sheet: Tables, freezeRows: 1, freezeCols: 1,
		widths: []float64{44, 30, 18, 10, 10, 8, 18, 10, 10, 8, 10, 90}}
	g.line(1, headers("name", "output", "row input", "row from", "row to", "row steps",
		"column input", "column from", "column to", "column steps", "green when", "notes")...)
	for i, t := range tables {
		row := i + 2
		g.line(row, text(t.Name, styleInput), text(t.Output, styleInput))
		axisCells(g, 3, row, &t.Row, inputs)
		axisCells(g, 7, row, t.Col, inputs)
		g.set(11, row, text(shadeText(t.Shade), styleInput))
		g.set(12, row, text(t.Notes, styleWrapNote))
		g.wrapHeight(row, 90, t.Notes)
	}
	last := len(tables) + 200
	g.validations = append(g.validations,
		dropList(fmt.Sprintf("B2:B%d", last), Formulas+"!$A$2:$A$500"),
		dropList(fmt.Sprintf("C2:C%d G2:G%d", last, last), Assumptions+"!$A$2:$A$500"),
		stepsValidation(fmt.Sprintf("F2:F%d J2:J%d", last, last)))
	return g
}

// axisCells writes an axis's input, from, to and steps, formatted in the
// input's unit; an empty axis leaves input cells to fill in.
func axisCells(g *Grid, col, row int, a *engine.Axis, inputs []engine.Input) {
	switch {
	case a == nil:
		for c := col; c < col+4; c++ {
			g.set(c, row, cell{style: styleInput})
		}
	case a.Offers:
		g.set(col, row, text("offer", styleInput))
		for c := col + 1; c < col+4; c++ {
			g.set(c, row, cell{style: styleInput})
		}
	default:
		format := withFormat(styleInput, units.ExcelFormat(unitOf(inputs, a.Input)))
		g.set(col, row, text(a.Input, styleInput))
		g.set(col+1, row, number(a.From, format))
		g.set(col+2, row, number(a.To, format))
		g.set(col+3, row, number(float64(a.Steps), withFormat(styleInput, "0")))
	}
}

func unitOf(inputs []engine.Input, name string) string {
	for _, in := range inputs {
		if in.Name == name {
			return in.Unit
		}
	}
	return ""
}

// shadeText writes a Shade as the Tables sheet reads it.
func shadeText(s engine.Shade) string {
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
func goalsGrid(m engine.Model) *Grid {
	g := &Grid{sheet: Goals, freezeRows: 1, freezeCols: 1,
		widths: []float64{50, 18, 26, 12, 26, 24, 12, 12, 80}}
	g.line(1, headers("name", "solve for", "target", "value", "offer", "with", "low", "high", "notes")...)
	for i, goal := range m.Goals {
		row := i + 2
		format := withFormat(styleInput, "General")
		for _, f := range m.Formulas {
			if f.Name == goal.Target {
				format = withFormat(styleInput, units.ExcelFormat(f.Unit))
			}
		}
		g.line(row, text(goal.Name, styleInput), text(goal.For, styleInput), text(goal.Target, styleInput),
			number(goal.Value, format), text(goal.Offer, styleInput), text(settingsText(goal.With), styleInput))
		if goal.HasRange {
			inFormat := withFormat(styleInput, units.ExcelFormat(unitOf(m.Inputs, goal.For)))
			g.set(7, row, number(goal.Low, inFormat))
			g.set(8, row, number(goal.High, inFormat))
		} else {
			g.set(7, row, cell{style: styleInput})
			g.set(8, row, cell{style: styleInput})
		}
		g.set(9, row, text(goal.Notes, styleWrapNote))
		g.wrapHeight(row, 80, goal.Notes)
	}
	last := len(m.Goals) + 200
	g.validations = append(g.validations,
		dropList(fmt.Sprintf("B2:B%d", last), Assumptions+"!$A$2:$A$500"),
		dropList(fmt.Sprintf("C2:C%d", last), Formulas+"!$A$2:$A$500"))
	return g
}

// settingsText writes "capex=300000; utilization=0.4", sorted by name.
func settingsText(set map[string]engine.Value) string {
	var parts []string
	for name, v := range set {
		parts = append(parts, name+"="+strconv.FormatFloat(v.Num, 'g', -1, 64))
	}
	sort.Strings(parts)
	return strings.Join(parts, "; ")
}
