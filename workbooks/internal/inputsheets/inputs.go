package inputsheets

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/xuri/excelize/v2"

	"planner/domain"
	"planner/sizing"
	"planner/units"
	"planner/workbooks/internal/grid"
	"planner/workbooks/internal/schema"
)

// Input lays out every sheet init writes from m, in the order of
// schema.InputNames: the sheets the user edits, each named as n says, and
// referring to the others so. A sheet without a layout of its own is a
// table of its declared columns, filled with the rows table gives it.
func Input(m domain.Model, n schema.Names, table func(schema.Sheet) []map[string]string) []*grid.Grid {
	var out []*grid.Grid
	for _, s := range schema.Inputs() {
		if layout, ok := layouts[s.Name]; ok {
			out = append(out, layout(n, m))
			continue
		}
		var rows []map[string]string
		if table != nil {
			rows = table(s)
		}
		out = append(out, tableGrid(n, s, rows))
	}
	return out
}

// layouts lay out the input sheets that are more than a table of their
// declared columns (named cells, a grid of scenarios, dates, their own
// checks), by the sheet's name.
var layouts = map[string]func(n schema.Names, m domain.Model) *grid.Grid{
	schema.Assumptions.Name:  func(n schema.Names, m domain.Model) *grid.Grid { return assumptionsGrid(n, m.Inputs, m.Currency) },
	schema.Scenarios.Name:    func(n schema.Names, m domain.Model) *grid.Grid { return scenariosGrid(n, m) },
	schema.Cloud.Name:        func(n schema.Names, m domain.Model) *grid.Grid { return cloudGrid(n, m.Offers, m.Currency) },
	schema.APIs.Name:         func(n schema.Names, m domain.Model) *grid.Grid { return apisGrid(n, m.APIs, m.Currency) },
	schema.GPUs.Name:         func(n schema.Names, m domain.Model) *grid.Grid { return gpusGrid(n, schema.GPUs, m) },
	schema.Models.Name:       func(n schema.Names, m domain.Model) *grid.Grid { return modelsGrid(n, schema.Models, m) },
	schema.Deployments.Name:  func(n schema.Names, m domain.Model) *grid.Grid { return deploymentsGrid(n, schema.Deployments, m) },
	schema.Benchmarks.Name:   func(n schema.Names, m domain.Model) *grid.Grid { return Benchmarks(n, m.Benchmarks) },
	schema.Correlations.Name: func(n schema.Names, m domain.Model) *grid.Grid { return correlationsGrid(n, schema.Correlations, m) },
	schema.Targets.Name:      func(n schema.Names, m domain.Model) *grid.Grid { return targetsGrid(n, schema.Targets, m) },
	schema.Tables.Name:       func(n schema.Names, m domain.Model) *grid.Grid { return tablesGrid(n, schema.Tables, m) },
	schema.Goals.Name:        func(n schema.Names, m domain.Model) *grid.Grid { return goalsGrid(n, schema.Goals, m) },
	schema.Formulas.Name:     func(n schema.Names, m domain.Model) *grid.Grid { return formulasGrid(n, schema.Formulas, m) },
}

// assumptionsGrid is the Assumptions sheet: one input per row, every value
// cell named after its input and validated by its unit.
func assumptionsGrid(n schema.Names, inputs []domain.Input, cur units.Currency) *grid.Grid {
	g := newGrid(n, schema.Assumptions)
	for i, in := range inputs {
		row := i + 2
		format := grid.WithFormat(grid.StyleInput, cur.ExcelFormat(in.Unit))
		value := grid.Number(in.Value.Num, format)
		if in.Value.IsText {
			value = grid.Text(in.Value.Text, grid.StyleInput)
		}
		g.Line(row, grid.Text(in.Name, grid.StyleLabel), value, grid.Text(cur.Unit(in.Unit), grid.StyleLabel))
		if in.HasRange {
			g.Set(4, row, grid.Number(in.Low, format))
			g.Set(5, row, grid.Number(in.High, format))
		}
		if in.Dist != nil {
			g.Set(6, row, grid.Text(in.Dist.Text, grid.StyleInput))
		} else if !in.Value.IsText {
			g.Set(6, row, grid.Blank(grid.StyleInput))
		}
		g.Note(7, row, in.Notes)
		g.Name(in.Name, 2, row)
		if dv := validation(in.Name, in.Unit, fmt.Sprintf("B%d D%d:E%d", row, row, row)); dv != nil {
			g.Validate(dv)
		}
		if dv := pickFor(n, in.Name, fmt.Sprintf("B%d", row)); dv != nil {
			g.Validate(dv)
		}
	}
	return g
}

// validation makes Excel refuse values the unit does not allow, and those
// the input's band says cannot be (a PUE below 1).
func validation(name, unit, sqref string) *excelize.DataValidation {
	dv := excelize.NewDataValidation(true)
	dv.Sqref = sqref
	var msg string
	var err error
	if b, ok := domain.BandOf(name, unit); ok && (b.BelowWhy != "" || b.AboveWhy != "") {
		low, high, says := impossibleLimits(b, units.ConstraintOf(unit))
		switch {
		case math.IsInf(high, 1):
			err = dv.SetRange(low, 0, excelize.DataValidationTypeDecimal, excelize.DataValidationOperatorGreaterThanOrEqual)
		case math.IsInf(low, -1):
			err = dv.SetRange(high, 0, excelize.DataValidationTypeDecimal, excelize.DataValidationOperatorLessThanOrEqual)
		default:
			err = dv.SetRange(low, high, excelize.DataValidationTypeDecimal, excelize.DataValidationOperatorBetween)
		}
		if err != nil {
			panic(err) // limits of planner's own bands; a failure is a bug
		}
		dv.Formula2 = trimFormula2(dv)
		dv.SetError(excelize.DataValidationErrorStyleStop, "planner", name+" is "+says+".")
		return dv
	}
	constraint := units.ConstraintOf(unit)
	if domain.NoneAtZero(name) && constraint == units.AboveZero {
		constraint = units.NotNegative // 0 says none
	}
	switch constraint {
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

// cloudGrid is the Cloud sheet: one offer per row, its prices formatted in
// the workbook's currency (cur).
func cloudGrid(n schema.Names, offers []domain.Offer, cur units.Currency) *grid.Grid {
	g := newGrid(n, schema.Cloud)
	for i, o := range offers {
		row := i + 2
		g.Line(row, grid.Text(o.Provider, grid.StyleInput), grid.Text(o.Name, grid.StyleInput), grid.Text(o.GPU, grid.StyleInput),
			grid.Number(o.Price, grid.WithFormat(grid.StyleInput, cur.ExcelFormat("$/GPU-h"))))
		if d, err := time.Parse("2006-01-02", o.AsOf); err == nil {
			g.Set(5, row, grid.Date(d, grid.WithFormat(grid.StyleInput, "yyyy-mm-dd")))
		}
		g.Note(6, row, o.Source)
		g.Note(7, row, o.Notes)
		billingCells(g, row, o.Billing, cur)
	}
	if len(offers) > 0 {
		last := len(offers) + 1 + 100
		g.Validate(declared(n, schema.Cloud, last, "price"), declared(n, schema.Cloud, last, "gpu"))
		for _, key := range []string{"billing", "term", "upfront", "interruption", "fallback", "extras"} {
			g.Validate(declared(n, schema.Cloud, last, key))
		}
	}
	return g
}

// billingCells writes how an offer bills in its row, leaving empty what
// it does not use.
func billingCells(g *grid.Grid, row int, b domain.Billing, cur units.Currency) {
	col := func(key string) int { return schema.Cloud.At(key) }
	number := func(key string, v float64) {
		if v != 0 {
			g.Set(col(key), row, grid.Number(v, grid.WithFormat(grid.StyleInput, cur.ExcelFormat(schema.Cloud.Column(key).Unit))))
		}
	}
	if b.Kind != "" {
		g.Set(col("billing"), row, grid.Text(b.Kind, grid.StyleInput))
	}
	number("term", b.TermMonths)
	number("upfront", b.Upfront)
	number("interruption", b.Interruption)
	if b.Fallback != "" {
		g.Set(col("fallback"), row, grid.Text(b.Fallback, grid.StyleInput))
	}
	number("extras", b.Extras)
}

// formulasGrid is the Formulas sheet: the built-in library, for the user to
// read and change. A row here wins over the built-in of the same name; its
// label is what Results calls it. Its columns are as s declares them.
func formulasGrid(n schema.Names, s schema.Sheet, m domain.Model) *grid.Grid {
	g := newGrid(n, s)
	for i, f := range m.Formulas {
		it := item{g, s, i + 2}
		it.set("name", grid.Text(f.Name, grid.StyleLabel))
		it.set("expression", grid.Text(f.Source, grid.StyleInput))
		it.set("unit", grid.Text(f.Unit, grid.StyleLabel))
		it.note("description", f.Doc)
		it.set("label", grid.Text(f.Label, grid.StyleInput))
	}
	return g
}

// namesColumn is where a drop-down of the names an input sheet lists (the
// catalogs' GPUs and models, the inputs, the formulas) picks from: its
// first column, down to the row its declaration says, rows added at the
// bottom included.
func namesColumn(n schema.Names, sheet string) string {
	s, _ := schema.Named(sheet)
	return fmt.Sprintf("%s!$A$2:$A$%d", grid.Quote(n.Of(sheet)), s.NamesTo)
}

// pickFor is the drop-down for cells that name a GPU, a model or a
// precision (the text inputs of those names), or nil for other inputs.
func pickFor(n schema.Names, input, sqref string) *excelize.DataValidation {
	switch input {
	case domain.GPU:
		return pick(n, schema.GPUs.Name, sqref)
	case domain.ModelName:
		return pick(n, schema.Models.Name, sqref)
	case domain.Precision:
		return pick(n, schema.Precisions, sqref)
	}
	return nil
}

// pick is the drop-down of a column whose declaration picks from a list.
func pick(n schema.Names, list, sqref string) *excelize.DataValidation {
	fixed := map[string][]string{schema.Precisions: sizing.Precisions(), schema.Billings: domain.Billings(), schema.Attentions: sizing.Attentions()}
	if list == schema.Offers {
		return dropList(sqref, fmt.Sprintf("%s!$B$2:$B$200", grid.Quote(n.Of(schema.Cloud.Name))))
	}
	if fixed[list] == nil {
		return dropList(sqref, namesColumn(n, list))
	}
	dv := excelize.NewDataValidation(true)
	dv.Sqref = sqref
	if err := dv.SetDropList(fixed[list]); err != nil {
		panic(err) // a constant list; a failure is a bug
	}
	dv.ShowErrorMessage = false
	return dv
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
// uncertain inputs, which Monte Carlo induces; its columns as s declares
// them.
func correlationsGrid(n schema.Names, s schema.Sheet, m domain.Model) *grid.Grid {
	g := newGrid(n, s)
	for i, c := range m.Correlations {
		it := item{g, s, i + 2}
		it.set("a", grid.Text(c.A, grid.StyleInput))
		it.set("b", grid.Text(c.B, grid.StyleInput))
		it.set("rho", grid.Number(c.Rho, grid.WithFormat(grid.StyleInput, "0.00")))
		it.note("notes", c.Notes)
	}
	dv := excelize.NewDataValidation(true)
	dv.Sqref = s.Cells("rho", 2, 200)
	if err := dv.SetRange(-0.99, 0.99, excelize.DataValidationTypeDecimal, excelize.DataValidationOperatorBetween); err != nil {
		panic(err)
	}
	dv.SetError(excelize.DataValidationErrorStyleStop, "planner", "A rank correlation lies strictly between -1 and 1.")
	g.Validate(dv)
	return g
}

// impossibleLimits are the values Excel lets a cell take when a band says
// which cannot be: the band's impossible side, and on the other the unit's
// own limit (zero for a positive quantity, else none: an infinity);
// says puts them in words with the band's reasons.
func impossibleLimits(b units.Band, c units.Constraint) (low, high float64, says string) {
	low, high = math.Inf(-1), math.Inf(1)
	var limits, whys []string
	switch {
	case b.BelowWhy != "":
		low = b.Low
		limits, whys = append(limits, "at least "+units.Plain(b.Low)), append(whys, b.BelowWhy)
	case c == units.AboveZero:
		low, limits = 0, append(limits, "above 0")
	case c == units.NotNegative:
		low, limits = 0, append(limits, "at least 0")
	}
	if b.AboveWhy != "" {
		high = b.High
		limits, whys = append(limits, "at most "+units.Plain(b.High)), append(whys, b.AboveWhy)
	}
	return low, high, strings.Join(limits, " and ") + ": " + strings.Join(whys, "; ")
}
