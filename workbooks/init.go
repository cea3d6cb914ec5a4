package workbooks

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/xuri/excelize/v2"

	"planner/engine"
	"planner/formulas"
	"planner/sizing"
	"planner/units"
)

// Init returns the bytes of the workbook at path with planner's input
// sheets added: a new workbook when there is no file, or the user's own
// workbook plus planner's sheets when there is one. It never replaces a
// sheet or a defined name that exists.
func Init(path string) ([]byte, error) {
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		m := DefaultModel()
		return initNew(path, inputGrids(m), pricesDated(m))
	}
	data, err := load(path)
	if err != nil {
		return nil, err
	}
	return initInto(path, data)
}

// initInto adds planner's input sheets to the workbook data, read from path.
func initInto(path string, data []byte) (out []byte, err error) {
	// excelize panics on some damaged packages; that is an error here, and
	// nothing is written.
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, &panicked{fmt.Sprintf("%s: cannot be given planner's sheets without risk to it (%v); nothing was written: open it in Excel or LibreOffice, save it again, and run planner init again", path, r)}
		}
	}()
	grids := inputGrids(DefaultModel())
	if structureLocked(data) {
		return nil, refuseLockedStructure(path, "init", nil)
	}
	check := func(f *excelize.File) error { return clashes(path, f, grids) }
	out, _, _, err = build(path, data, grids, len(grids), check)
	return out, err
}

// panicked is an error excelize raised as a panic, which planner caught.
type panicked struct{ msg string }

func (p *panicked) Error() string { return p.msg }

// initNew writes a new workbook dated as of its prices, not of the clock:
// init gives the same bytes on any day, and the prices' age is measured
// from the day they were listed until someone saves the workbook.
func initNew(path string, grids []*grid, dated string) ([]byte, error) {
	f := excelize.NewFile()
	defer f.Close()
	if err := f.SetSheetName("Sheet1", grids[0].sheet); err != nil {
		return nil, err
	}
	props := &excelize.DocProperties{Creator: "planner", Title: "planner: rent or own GPUs", Created: dated, Modified: dated}
	if err := f.SetDocProps(props); err != nil {
		return nil, err
	}
	if _, _, err := writeGrids(f, grids); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return finish(path, f)
}

// pricesDated is the newest as-of date of the offers, as a document date.
func pricesDated(m engine.Model) string {
	newest := ""
	for _, o := range m.Offers {
		newest = max(newest, o.AsOf)
	}
	if newest == "" {
		return ""
	}
	return newest + "T00:00:00Z"
}

// clashes refuses to add a sheet or a name the workbook already has. Excel
// compares sheet names without case.
func clashes(path string, f *excelize.File, grids []*grid) error {
	var problems []string
	for _, have := range f.GetSheetList() {
		for _, want := range append(append([]string(nil), InputSheets...), OwnedSheets...) {
			if strings.EqualFold(have, want) {
				problems = append(problems, "a sheet called "+have)
			}
		}
	}
	names := map[string]bool{}
	for _, dn := range f.GetDefinedName() {
		names[strings.ToLower(dn.Name)] = true
	}
	for _, g := range grids {
		for _, n := range g.names {
			if names[strings.ToLower(n.name)] {
				problems = append(problems, "a defined name "+n.name)
			}
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("%s: already has %s; planner init adds its sheets only to a workbook that has none of them, and changes nothing of yours: rename yours, or init a new file",
			path, strings.Join(problems, " and "))
	}
	return nil
}

// inputGrids lays out every sheet init writes, in the order of InputSheets.
func inputGrids(m engine.Model) []*grid {
	return []*grid{assumptionsGrid(m.Inputs), scenariosGrid(m.Scenarios, m.Inputs), cloudGrid(m.Offers),
		gpusGrid(m.GPUs), modelsGrid(m.Catalog), deploymentsGrid(m.Deployments), correlationsGrid(m.Correlations),
		targetsGrid(m.Targets), tablesGrid(m.Tables, m.Inputs), goalsGrid(m), formulasGrid(m.Formulas)}
}

// assumptionsGrid is the Assumptions sheet: one input per row, every value
// cell named after its input and validated by its unit.
func assumptionsGrid(inputs []engine.Input) *grid {
	g := &grid{sheet: SheetAssumptions, widths: []float64{22, 14, 10, 14, 14, 14, 110}, freezeRows: 1}
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
func cloudGrid(offers []engine.Offer) *grid {
	g := &grid{sheet: SheetCloud, widths: []float64{12, 46, 12, 12, 12, 36, 90}, freezeRows: 1}
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
func formulasGrid(fs []formulas.Formula) *grid {
	g := &grid{sheet: SheetFormulas, widths: []float64{30, 84, 10, 100}, freezeRows: 1}
	g.line(1, headers("name", "expression", "unit", "description")...)
	for i, f := range fs {
		g.line(i+2, text(f.Name, styleLabel), text(f.Source, styleInput), text(f.Unit, styleLabel), text(f.Doc, styleNote))
	}
	return g
}

// Where the drop-downs of GPU and model names pick from: the catalogs'
// name columns, rows added at the bottom included.
const (
	gpuNames   = SheetGPUs + "!$A$2:$A$200"
	modelNames = SheetModels + "!$A$2:$A$200"
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
func correlationsGrid(cs []engine.Correlation) *grid {
	g := &grid{sheet: SheetCorrelation, freezeRows: 1, widths: []float64{22, 22, 16, 110}}
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
