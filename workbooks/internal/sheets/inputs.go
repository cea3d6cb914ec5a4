package sheets

import (
	"fmt"
	"time"

	"github.com/xuri/excelize/v2"

	"planner/engine"
	"planner/formulas"
	"planner/sizing"
	"planner/units"
)

// Input lays out every sheet init writes from m, in the order of
// InputNames: the sheets the user edits.
func Input(m engine.Model) []*Grid {
	return []*Grid{assumptionsGrid(m.Inputs), scenariosGrid(m.Scenarios, m.Inputs), cloudGrid(m.Offers),
		gpusGrid(m.GPUs), modelsGrid(m.Catalog), deploymentsGrid(m.Deployments), correlationsGrid(m.Correlations),
		targetsGrid(m.Targets), tablesGrid(m.Tables, m.Inputs), goalsGrid(m), formulasGrid(m.Formulas)}
}

// assumptionsGrid is the Assumptions sheet: one input per row, every value
// cell named after its input and validated by its unit.
func assumptionsGrid(inputs []engine.Input) *Grid {
	g := &Grid{sheet: Assumptions, widths: []float64{22, 14, 10, 14, 14, 14, 110}, freezeRows: 1}
	g.line(1, headers("name", "value", "unit", "low", "high", "distribution", "source / notes")...)
	for i, in := range inputs {
		row := i + 2
		format := withFormat(styleInput, units.ExcelFormat(in.Unit))
		value := number(in.Value.Num, format)
		if in.Value.IsText {
			value = text(in.Value.Text, styleInput)
		}
		g.line(row, text(in.Name, styleLabel), value, text(in.Unit, styleLabel))
		if in.HasRange {
			g.set(4, row, number(in.Low, format))
			g.set(5, row, number(in.High, format))
		}
		if in.Dist != nil {
			g.set(6, row, text(in.Dist.Text, styleInput))
		} else if !in.Value.IsText {
			g.set(6, row, cell{style: styleInput})
		}
		g.set(7, row, text(in.Notes, styleNote))
		g.name(in.Name, 2, row)
		if dv := validation(in.Name, in.Unit, fmt.Sprintf("B%d D%d:E%d", row, row, row)); dv != nil {
			g.validations = append(g.validations, dv)
		}
		if dv := pickFor(in.Name, fmt.Sprintf("B%d", row)); dv != nil {
			g.validations = append(g.validations, dv)
		}
	}
	return g
}

// validation makes Excel refuse values the unit does not allow.
func validation(name, unit, sqref string) *excelize.DataValidation {
	dv := excelize.NewDataValidation(true)
	dv.Sqref = sqref
	var msg string
	var err error
	switch units.ConstraintOf(unit) {
	case units.Fraction:
		err = dv.SetRange(0, 1, excelize.DataValidationTypeDecimal, excelize.DataValidationOperatorBetween)
		msg = name + " is a share between 0 % and 100 %."
	case units.WholeCount:
		err = dv.SetRange(1, 0, excelize.DataValidationTypeWhole, excelize.DataValidationOperatorGreaterThanOrEqual)
		msg = name + " is a whole number of " + unit + ", at least 1."
	case units.AboveZero:
		err = dv.SetRange(0, 0, excelize.DataValidationTypeDecimal, excelize.DataValidationOperatorGreaterThan)
		msg = name + " must be above zero."
	case units.NotNegative:
		err = dv.SetRange(0, 0, excelize.DataValidationTypeDecimal, excelize.DataValidationOperatorGreaterThanOrEqual)
		msg = name + " cannot be negative."
	default:
		return nil
	}
	if err != nil {
		panic(err) // constant arguments; a failure is a bug
	}
	dv.Formula2 = trimFormula2(dv)
	dv.SetError(excelize.DataValidationErrorStyleStop, "planner", msg)
	return dv
}

// trimFormula2 drops the second bound of one-sided rules, which Excel ignores
// but LibreOffice shows.
func trimFormula2(dv *excelize.DataValidation) string {
	if dv.Operator == "between" {
		return dv.Formula2
	}
	return ""
}

// cloudGrid is the Cloud sheet: one offer per row.
func cloudGrid(offers []engine.Offer) *Grid {
	g := &Grid{sheet: Cloud, widths: []float64{12, 46, 12, 12, 12, 36, 90}, freezeRows: 1}
	g.line(1, headers("provider", "offer", "gpu", "$/GPU-hour", "as of", "source", "notes")...)
	for i, o := range offers {
		row := i + 2
		g.line(row, text(o.Provider, styleInput), text(o.Name, styleInput), text(o.GPU, styleInput),
			number(o.Price, withFormat(styleInput, units.ExcelFormat("$/GPU-h"))))
		if d, err := time.Parse("2006-01-02", o.AsOf); err == nil {
			g.set(5, row, cell{value: d, style: withFormat(styleInput, "yyyy-mm-dd")})
		}
		g.set(6, row, text(o.Source, styleNote))
		g.set(7, row, text(o.Notes, styleNote))
	}
	if len(offers) > 0 {
		last := len(offers) + 1 + 100
		g.validations = append(g.validations, validation("$/GPU-hour", "$/GPU-h", fmt.Sprintf("D2:D%d", last)),
			dropList(fmt.Sprintf("C2:C%d", last), gpuNames))
	}
	return g
}

// formulasGrid is the Formulas sheet: the built-in library, for the user to
// read and change. A row here wins over the built-in of the same name.
func formulasGrid(fs []formulas.Formula) *Grid {
	g := &Grid{sheet: Formulas, widths: []float64{30, 84, 10, 100}, freezeRows: 1}
	g.line(1, headers("name", "expression", "unit", "description")...)
	for i, f := range fs {
		g.line(i+2, text(f.Name, styleLabel), text(f.Source, styleInput), text(f.Unit, styleLabel), text(f.Doc, styleNote))
	}
	return g
}

// Where the drop-downs of GPU and model names pick from: the catalogs'
// name columns, rows added at the bottom included.
const (
	gpuNames   = GPUs + "!$A$2:$A$200"
	modelNames = Models + "!$A$2:$A$200"
)

// pickFor is the drop-down for cells that name a GPU, a model or a
// precision (the text inputs of those names), or nil for other inputs.
func pickFor(input, sqref string) *excelize.DataValidation {
	switch input {
	case engine.GPU:
		return dropList(sqref, gpuNames)
	case engine.ModelName:
		return dropList(sqref, modelNames)
	case engine.Precision:
		dv := excelize.NewDataValidation(true)
		dv.Sqref = sqref
		if err := dv.SetDropList(sizing.Precisions()); err != nil {
			panic(err) // a constant list; a failure is a bug
		}
		dv.ShowErrorMessage = false
		return dv
	}
	return nil
}

// dropList lets a cell pick from a column of another sheet, while still
// accepting other text (the catalog may be extended later).
func dropList(sqref, source string) *excelize.DataValidation {
	dv := excelize.NewDataValidation(true)
	dv.Sqref = sqref
	dv.SetSqrefDropList(source)
	dv.ShowErrorMessage = false
	return dv
}

// correlationsGrid is the Correlations sheet: rank correlations between
// uncertain inputs, which Monte Carlo induces.
func correlationsGrid(cs []engine.Correlation) *Grid {
	g := &Grid{sheet: Correlations, freezeRows: 1, widths: []float64{22, 22, 16, 110}}
	g.line(1, headers("input", "with", "rank correlation", "notes")...)
	for i, c := range cs {
		g.line(i+2, text(c.A, styleInput), text(c.B, styleInput), number(c.Rho, withFormat(styleInput, "0.00")), text(c.Notes, styleNote))
	}
	dv := excelize.NewDataValidation(true)
	dv.Sqref = "C2:C200"
	if err := dv.SetRange(-0.99, 0.99, excelize.DataValidationTypeDecimal, excelize.DataValidationOperatorBetween); err != nil {
		panic(err)
	}
	dv.SetError(excelize.DataValidationErrorStyleStop, "planner", "A rank correlation lies strictly between -1 and 1.")
	g.validations = append(g.validations, dv)
	return g
}
