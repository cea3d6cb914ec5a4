package workbooks

import (
	"planner/workbooks/internal/grid"
	"planner/workbooks/internal/schema"
	"planner/workbooks/internal/sheets"
)

// SheetResults is planner's own sheet of results, which eval rewrites on
// every run.
const SheetResults = sheets.Results

// HistogramOutput is the output whose distribution the MonteCarlo sheet
// charts: Monte Carlo runs count its histogram.
const HistogramOutput = sheets.HistogramOutput

// InputSheets are the sheets init creates for the user to edit, in order.
func InputSheets() []string { return schema.InputNames() }

// OwnedSheets are the sheets eval writes and owns, in order.
func OwnedSheets() []string { return sheets.OwnedNames() }

// plannersSheets are every sheet planner knows by name: the input sheets,
// then its own.
func plannersSheets() []string { return append(schema.InputNames(), sheets.OwnedNames()...) }

// ExcelNameProblem says why name cannot be an Excel defined name, or "".
func ExcelNameProblem(name string) string { return grid.NameProblem(name) }
